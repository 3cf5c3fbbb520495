// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) scalar and region arithmetic.  Region operations use a 256-byte
 * product table built per call; that is simple and fast enough for the
 * userspace tools (the kernel engine in kmod/ has its own SIMD paths).
 */
#include <string.h>

#include "gf.h"

uint8_t ecp_gf_inv(uint8_t a)
{
	if (a == 0)
		return 0;
	return ecp_gf_exp[255 - ecp_gf_log[a]];
}

uint8_t ecp_gf_div(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return ecp_gf_exp[ecp_gf_log[a] + 255 - ecp_gf_log[b]];
}

uint8_t ecp_gf_pow(uint8_t a, unsigned int n)
{
	if (n == 0)
		return 1;
	if (a == 0)
		return 0;
	return ecp_gf_exp[(ecp_gf_log[a] * (unsigned long)n) % 255];
}

void ecp_gf_mul_table(uint8_t c, uint8_t table[256])
{
	table[0] = 0;
	if (c == 0) {
		memset(table, 0, 256);
		return;
	}
	for (unsigned int x = 1; x < 256; x++)
		table[x] = ecp_gf_exp[ecp_gf_log[c] + ecp_gf_log[x]];
}

void ecp_gf_region_mul(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	uint8_t t[256];

	if (c == 0) {
		memset(dst, 0, len);
		return;
	}
	if (c == 1) {
		memmove(dst, src, len);
		return;
	}
	ecp_gf_mul_table(c, t);
	for (size_t i = 0; i < len; i++)
		dst[i] = t[src[i]];
}

void ecp_gf_region_muladd(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	uint8_t t[256];

	if (c == 0)
		return;
	if (c == 1) {
		for (size_t i = 0; i < len; i++)
			dst[i] ^= src[i];
		return;
	}
	ecp_gf_mul_table(c, t);
	for (size_t i = 0; i < len; i++)
		dst[i] ^= t[src[i]];
}
