/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) arithmetic, polynomial 0x11d, as used by ISA-L, Jerasure (w=8),
 * klauspost/reedsolomon and the Linux RAID-6 code.
 *
 * The userspace field, for the tools and their tests: gf8_* multiplies
 * bytes (and, gf8_region_*, a region by a byte through a per-call table).
 * The prefix keeps it apart from the module's ecp_gf_* API in kmod/gf.h,
 * where ecp_gf_mul() multiplies a whole region by a precomputed
 * coefficient and ecp_gf_mul_table is the module's 256x256 product array.
 *
 * Addition is XOR.  All functions are pure and thread-safe (tables are
 * const).  gf8_inv(0) and gf8_div(x, 0) return 0: callers must not
 * rely on them and should test for zero first.
 */
#ifndef ECP_TOOLS_GF8_H
#define ECP_TOOLS_GF8_H

#include <stddef.h>
#include <stdint.h>

#define GF8_POLY 0x11d

extern const uint8_t gf8_exp[510];
extern const uint8_t gf8_log[256];

static inline uint8_t gf8_mul(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return gf8_exp[gf8_log[a] + gf8_log[b]];
}

uint8_t gf8_inv(uint8_t a);
uint8_t gf8_div(uint8_t a, uint8_t b);
/* a^n; a^0 = 1 for every a including 0 (matches klauspost galExp). */
uint8_t gf8_pow(uint8_t a, unsigned int n);

/* Fill row[x] = c * x for all 256 x (row c of the product table). */
void gf8_mul_row(uint8_t c, uint8_t row[256]);

/* dst[i] = c * src[i] */
void gf8_region_mul(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
/* dst[i] ^= c * src[i] (multiply-accumulate) */
void gf8_region_muladd(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);

#endif
