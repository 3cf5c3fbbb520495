/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: include/linux/math64.h on a 64-bit machine. */
#ifndef _SHIM_LINUX_MATH64_H
#define _SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

#define do_div(n, base) ({ u32 __rem = (n) % (base); (n) /= (base); __rem; })

#endif
