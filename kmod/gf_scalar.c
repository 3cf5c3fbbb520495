// SPDX-License-Identifier: GPL-2.0
/*
 * Portable GF(2^8) region code: one table row lookup per byte, with eight
 * bytes gathered into a word so dst is read and written once per word.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "gf_impl.h"

/* Compiles to one unaligned load or store; byte 0 is the low byte. */
static inline u64 ecp_gf_load64(const u8 *p)
{
	__le64 v;

	memcpy(&v, p, sizeof(v));
	return le64_to_cpu(v);
}

static inline void ecp_gf_store64(u8 *p, u64 x)
{
	__le64 v = cpu_to_le64(x);

	memcpy(p, &v, sizeof(v));
}

static inline u64 ecp_gf_row_mul64(const u8 *row, u64 s)
{
	return (u64)row[s & 0xff] |
	       (u64)row[(s >> 8) & 0xff] << 8 |
	       (u64)row[(s >> 16) & 0xff] << 16 |
	       (u64)row[(s >> 24) & 0xff] << 24 |
	       (u64)row[(s >> 32) & 0xff] << 32 |
	       (u64)row[(s >> 40) & 0xff] << 40 |
	       (u64)row[(s >> 48) & 0xff] << 48 |
	       (u64)row[s >> 56] << 56;
}

void ecp_gf_scalar_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
			   const u8 *src, size_t len)
{
	const u8 *row = k->row;

	for (; len >= 8; len -= 8, src += 8, dst += 8)
		ecp_gf_store64(dst, ecp_gf_load64(dst) ^
			       ecp_gf_row_mul64(row, ecp_gf_load64(src)));
	while (len--)
		*dst++ ^= row[*src++];
}

void ecp_gf_scalar_mul(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		       size_t len)
{
	const u8 *row = k->row;

	for (; len >= 8; len -= 8, src += 8, dst += 8)
		ecp_gf_store64(dst, ecp_gf_row_mul64(row, ecp_gf_load64(src)));
	while (len--)
		*dst++ = row[*src++];
}

void ecp_gf_scalar_xor(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		       size_t len)
{
	for (; len >= 8; len -= 8, src += 8, dst += 8)
		ecp_gf_store64(dst, ecp_gf_load64(dst) ^ ecp_gf_load64(src));
	while (len--)
		*dst++ ^= *src++;
}

/* Eight bytes of every source at a time, into one load and store of dst. */
void ecp_gf_scalar_mul_acc_multi(const struct ecp_gf_coef *const k[], u8 *dst,
				 const u8 *const src[], unsigned int n,
				 size_t off, size_t len)
{
	size_t i, end = off + len;
	unsigned int j;

	for (i = off; i + 8 <= end; i += 8) {
		u64 acc = ecp_gf_load64(dst + i);

		for (j = 0; j < n; j++)
			acc ^= ecp_gf_row_mul64(k[j]->row,
						ecp_gf_load64(src[j] + i));
		ecp_gf_store64(dst + i, acc);
	}
	for (; i < end; i++) {
		u8 acc = dst[i];

		for (j = 0; j < n; j++)
			acc ^= k[j]->row[src[j][i]];
		dst[i] = acc;
	}
}

const struct ecp_gf_impl ecp_gf_scalar = {
	.name = "scalar",
	.fn = {
		[ECP_GF_MUL_ACC] = ecp_gf_scalar_mul_acc,
		[ECP_GF_MUL] = ecp_gf_scalar_mul,
		[ECP_GF_XOR] = ecp_gf_scalar_xor,
	},
	.mul_acc_multi = ecp_gf_scalar_mul_acc_multi,
};
