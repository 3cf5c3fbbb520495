/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tests' reference GF(2^8) multiply: shift-and-add modulo 0x11d
 * (x^8 + x^4 + x^3 + x^2 + 1), deliberately sharing nothing with the
 * module's tables so that a wrong table cannot agree with itself.
 */
#ifndef _ECP_GF_REF_TEST_H
#define _ECP_GF_REF_TEST_H

#include <linux/types.h>

static inline u8 ecp_gf_ref_mul(u8 a, u8 b)
{
	unsigned int r = 0, x = a;

	for (; b; b >>= 1, x <<= 1) {
		if (x & 0x100)
			x ^= 0x11d;
		if (b & 1)
			r ^= x;
	}
	return r;
}

#endif
