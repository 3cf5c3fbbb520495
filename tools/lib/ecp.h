/* SPDX-License-Identifier: GPL-2.0 */
/* libecp: userspace GF(2^8) erasure-coding library of ecproxy. */
#ifndef ECP_H
#define ECP_H

#include "err.h"
#include "gf.h"
#include "matrix.h"
#include "profile.h"
#include "codec.h"
#include "fragfile.h"

#endif
