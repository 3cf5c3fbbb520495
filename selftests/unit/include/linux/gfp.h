/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: allocation flags; only __GFP_ZERO changes anything here. */
#ifndef _SHIM_LINUX_GFP_H
#define _SHIM_LINUX_GFP_H

#include <linux/types.h>

#define __GFP_ZERO		0x100u
#define __GFP_COMP		0x200u
#define __GFP_NOWARN		0x400u
#define __GFP_ACCOUNT		0x800u
#define GFP_KERNEL		0x1u
#define GFP_ATOMIC		0x2u
#define GFP_NOWAIT		0x4u
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)

#endif
