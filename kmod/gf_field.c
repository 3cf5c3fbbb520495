// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) field tables and per-coefficient precomputation.
 */
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "gf_impl.h"

#define ECP_GF_POLY	0x11d

/* 64 KiB, generated at init: cheaper to build than to ship in the .ko. */
u8 ecp_gf_mul_table[256][256] __aligned(64);
static u8 ecp_gf_inv_table[256];

void ecp_gf_field_init(void)
{
	u8 exp[255], log[256];
	unsigned int a, b, x = 1;

	/* 2 generates the multiplicative group for this polynomial. */
	for (a = 0; a < 255; a++) {
		exp[a] = x;
		log[x] = a;
		x <<= 1;
		if (x & 0x100)
			x ^= ECP_GF_POLY;
	}
	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++)
			ecp_gf_mul_table[a][b] = a && b ?
				exp[(log[a] + log[b]) % 255] : 0;
		ecp_gf_inv_table[a] = a ? exp[(255 - log[a]) % 255] : 0;
	}
}

u8 ecp_gf_mul1(u8 a, u8 b)
{
	return ecp_gf_mul_table[a][b];
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mul1);

u8 ecp_gf_inv(u8 a)
{
	return ecp_gf_inv_table[a];
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_inv);

bool ecp_gf_mat_inv(u8 *a, unsigned int n)
{
	u8 inv[ECP_GF_MAT_MAX * ECP_GF_MAT_MAX] = {};
	unsigned int i, j, r;

	if (WARN_ON_ONCE(n > ECP_GF_MAT_MAX))
		return false;
	for (i = 0; i < n; i++)
		inv[i * n + i] = 1;
	/* Gauss-Jordan: in characteristic 2, subtracting is adding. */
	for (i = 0; i < n; i++) {
		u8 p;

		for (r = i; r < n && !a[r * n + i]; r++)
			;
		if (r == n)
			return false;
		if (r != i) {
			for (j = 0; j < n; j++) {
				swap(a[i * n + j], a[r * n + j]);
				swap(inv[i * n + j], inv[r * n + j]);
			}
		}
		p = ecp_gf_inv(a[i * n + i]);
		for (j = 0; j < n; j++) {
			a[i * n + j] = ecp_gf_mul1(a[i * n + j], p);
			inv[i * n + j] = ecp_gf_mul1(inv[i * n + j], p);
		}
		for (r = 0; r < n; r++) {
			u8 f = a[r * n + i];

			if (r == i || !f)
				continue;
			for (j = 0; j < n; j++) {
				a[r * n + j] ^= ecp_gf_mul1(f, a[i * n + j]);
				inv[r * n + j] ^= ecp_gf_mul1(f, inv[i * n + j]);
			}
		}
	}
	memcpy(a, inv, n * n);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mat_inv);

/*
 * gf2p8affineqb computes output bit i as parity(x & A.byte[7 - i]).  Since
 * c * x = XOR over set bits j of x of c * 2^j, bit j of row byte [7 - i]
 * must be bit i of c * 2^j.
 */
static u64 ecp_gf_gfni_matrix(u8 c)
{
	u64 m = 0;
	int i, j;

	for (j = 0; j < 8; j++) {
		u8 p = ecp_gf_mul_table[c][1 << j];

		for (i = 0; i < 8; i++)
			if (p & (1 << i))
				m |= 1ULL << ((7 - i) * 8 + j);
	}
	return m;
}

void ecp_gf_coef_init(struct ecp_gf_coef *k, u8 c)
{
	int i;

	for (i = 0; i < 16; i++) {
		k->lo[i] = ecp_gf_mul_table[c][i];
		k->hi[i] = ecp_gf_mul_table[c][i << 4];
	}
	k->gfni_matrix = ecp_gf_gfni_matrix(c);
	k->row = ecp_gf_mul_table[c];
	k->c = c;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_coef_init);
