/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) arithmetic, polynomial 0x11d, as used by ISA-L, Jerasure (w=8),
 * klauspost/reedsolomon and the Linux RAID-6 code.
 *
 * Addition is XOR.  All functions are pure and thread-safe (tables are
 * const).  ecp_gf_inv(0) and ecp_gf_div(x, 0) return 0: callers must not
 * rely on them and should test for zero first.
 */
#ifndef ECP_GF_H
#define ECP_GF_H

#include <stddef.h>
#include <stdint.h>

#define ECP_GF_POLY 0x11d

extern const uint8_t ecp_gf_exp[510];
extern const uint8_t ecp_gf_log[256];

static inline uint8_t ecp_gf_mul(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return ecp_gf_exp[ecp_gf_log[a] + ecp_gf_log[b]];
}

uint8_t ecp_gf_inv(uint8_t a);
uint8_t ecp_gf_div(uint8_t a, uint8_t b);
/* a^n; a^0 = 1 for every a including 0 (matches klauspost galExp). */
uint8_t ecp_gf_pow(uint8_t a, unsigned int n);

/* Fill table[x] = c * x for all 256 x. */
void ecp_gf_mul_table(uint8_t c, uint8_t table[256]);

/* dst[i] = c * src[i] */
void ecp_gf_region_mul(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
/* dst[i] ^= c * src[i] (multiply-accumulate) */
void ecp_gf_region_muladd(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);

#endif
