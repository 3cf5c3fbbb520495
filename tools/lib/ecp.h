/* SPDX-License-Identifier: GPL-2.0 */
/* libecp: userspace GF(2^8) erasure-coding library of ecproxy. */
#ifndef ECP_H
#define ECP_H

#include "err.h"
#include "gf.h"
#include "matrix.h"
#include "profile.h"
#include "codec.h"
#include "layout.h"
#include "fragfile.h"
#include "size.h"

#endif
