// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) scalar and region arithmetic.  Region operations use a 256-byte
 * product table built per call; that is simple and fast enough for the
 * userspace tools (the kernel engine in kmod/ has its own SIMD paths).
 */
#include <string.h>

#include "gf.h"

uint8_t gf8_inv(uint8_t a)
{
	if (a == 0)
		return 0;
	return gf8_exp[255 - gf8_log[a]];
}

uint8_t gf8_div(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return gf8_exp[gf8_log[a] + 255 - gf8_log[b]];
}

uint8_t gf8_pow(uint8_t a, unsigned int n)
{
	if (n == 0)
		return 1;
	if (a == 0)
		return 0;
	return gf8_exp[(gf8_log[a] * (unsigned long)n) % 255];
}

void gf8_mul_row(uint8_t c, uint8_t row[256])
{
	row[0] = 0;
	if (c == 0) {
		memset(row, 0, 256);
		return;
	}
	for (unsigned int x = 1; x < 256; x++)
		row[x] = gf8_exp[gf8_log[c] + gf8_log[x]];
}

void gf8_region_mul(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
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
	gf8_mul_row(c, t);
	for (size_t i = 0; i < len; i++)
		dst[i] = t[src[i]];
}

void gf8_region_muladd(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	uint8_t t[256];

	if (c == 0)
		return;
	if (c == 1) {
		for (size_t i = 0; i < len; i++)
			dst[i] ^= src[i];
		return;
	}
	gf8_mul_row(c, t);
	for (size_t i = 0; i < len; i++)
		dst[i] ^= t[src[i]];
}
