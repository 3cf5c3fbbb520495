/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: min/max/clamp.  The kernel's versions also refuse mixed
 * signedness at compile time; the module build enforces that already.
 */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

#include <linux/compiler.h>

#define __shim_cmp(x, y, op)	({ typeof(x) __x = (x); typeof(y) __y = (y); \
				   __x op __y ? __x : __y; })
#define min(x, y)		__shim_cmp(x, y, <)
#define max(x, y)		__shim_cmp(x, y, >)
#define min3(x, y, z)		min((typeof(x))min(x, y), z)
#define max3(x, y, z)		max((typeof(x))max(x, y), z)
#define min_t(type, x, y)	__shim_cmp((type)(x), (type)(y), <)
#define max_t(type, x, y)	__shim_cmp((type)(x), (type)(y), >)
#define clamp(val, lo, hi)	min((typeof(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)	clamp_t(typeof(val), val, lo, hi)
#define swap(a, b) \
	do { typeof(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
