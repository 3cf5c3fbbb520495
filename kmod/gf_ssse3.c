// SPDX-License-Identifier: GPL-2.0
/*
 * SSSE3 split-nibble multiply: PSHUFB looks up c * low nibble and
 * c * high nibble for 16 bytes at a time; the two halves XOR to c * x.
 */
#include <linux/kernel.h>

#include "gf_impl.h"
#include "gf_x86.h"

static bool ecp_gf_ssse3_usable(void)
{
	return boot_cpu_has(X86_FEATURE_SSSE3);
}

/* xmm7 = 0x0f mask, xmm4 = low nibble table, xmm5 = high nibble table */
static void ecp_gf_ssse3_load(const struct ecp_gf_coef *k)
{
	asm volatile("movd %0, %%xmm7" : : "r" (0x0f0f0f0fU));
	asm volatile("pshufd $0, %xmm7, %xmm7");
	asm volatile("movdqu %0, %%xmm4" : : "m" (ECP_IN16(k->lo)));
	asm volatile("movdqu %0, %%xmm5" : : "m" (ECP_IN16(k->hi)));
}

/* xmm8/xmm9 = c * src[0..32) */
static __always_inline void ecp_gf_ssse3_mul32(const u8 *src)
{
	asm volatile("movdqu %0, %%xmm0" : : "m" (ECP_IN16(src)));
	asm volatile("movdqu %0, %%xmm1" : : "m" (ECP_IN16(src + 16)));
	asm volatile("movdqa %xmm0, %xmm2");
	asm volatile("movdqa %xmm1, %xmm3");
	asm volatile("psrlw $4, %xmm2");
	asm volatile("psrlw $4, %xmm3");
	asm volatile("pand %xmm7, %xmm0");
	asm volatile("pand %xmm7, %xmm1");
	asm volatile("pand %xmm7, %xmm2");
	asm volatile("pand %xmm7, %xmm3");
	asm volatile("movdqa %xmm4, %xmm8");
	asm volatile("movdqa %xmm4, %xmm9");
	asm volatile("movdqa %xmm5, %xmm10");
	asm volatile("movdqa %xmm5, %xmm11");
	asm volatile("pshufb %xmm0, %xmm8");
	asm volatile("pshufb %xmm1, %xmm9");
	asm volatile("pshufb %xmm2, %xmm10");
	asm volatile("pshufb %xmm3, %xmm11");
	asm volatile("pxor %xmm10, %xmm8");
	asm volatile("pxor %xmm11, %xmm9");
}

/* xmm8 = c * src[0..16) */
static __always_inline void ecp_gf_ssse3_mul16(const u8 *src)
{
	asm volatile("movdqu %0, %%xmm0" : : "m" (ECP_IN16(src)));
	asm volatile("movdqa %xmm0, %xmm2");
	asm volatile("psrlw $4, %xmm2");
	asm volatile("pand %xmm7, %xmm0");
	asm volatile("pand %xmm7, %xmm2");
	asm volatile("movdqa %xmm4, %xmm8");
	asm volatile("movdqa %xmm5, %xmm10");
	asm volatile("pshufb %xmm0, %xmm8");
	asm volatile("pshufb %xmm2, %xmm10");
	asm volatile("pxor %xmm10, %xmm8");
}

static void ecp_gf_ssse3_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
				 const u8 *src, size_t len)
{
	ecp_gf_ssse3_load(k);
	for (; len >= 32; len -= 32, src += 32, dst += 32) {
		ecp_gf_ssse3_mul32(src);
		asm volatile("movdqu %0, %%xmm0" : : "m" (ECP_IN16(dst)));
		asm volatile("movdqu %0, %%xmm1" : : "m" (ECP_IN16(dst + 16)));
		asm volatile("pxor %xmm0, %xmm8");
		asm volatile("pxor %xmm1, %xmm9");
		asm volatile("movdqu %%xmm8, %0" : "=m" (ECP_OUT16(dst)));
		asm volatile("movdqu %%xmm9, %0" : "=m" (ECP_OUT16(dst + 16)));
	}
	if (len >= 16) {
		ecp_gf_ssse3_mul16(src);
		asm volatile("movdqu %0, %%xmm0" : : "m" (ECP_IN16(dst)));
		asm volatile("pxor %xmm0, %xmm8");
		asm volatile("movdqu %%xmm8, %0" : "=m" (ECP_OUT16(dst)));
		len -= 16;
		src += 16;
		dst += 16;
	}
	ecp_gf_scalar_mul_acc(k, dst, src, len);
}

static void ecp_gf_ssse3_mul(const struct ecp_gf_coef *k, u8 *dst,
			     const u8 *src, size_t len)
{
	ecp_gf_ssse3_load(k);
	for (; len >= 32; len -= 32, src += 32, dst += 32) {
		ecp_gf_ssse3_mul32(src);
		asm volatile("movdqu %%xmm8, %0" : "=m" (ECP_OUT16(dst)));
		asm volatile("movdqu %%xmm9, %0" : "=m" (ECP_OUT16(dst + 16)));
	}
	if (len >= 16) {
		ecp_gf_ssse3_mul16(src);
		asm volatile("movdqu %%xmm8, %0" : "=m" (ECP_OUT16(dst)));
		len -= 16;
		src += 16;
		dst += 16;
	}
	ecp_gf_scalar_mul(k, dst, src, len);
}

static void ecp_gf_ssse3_xor(const struct ecp_gf_coef *k, u8 *dst,
			     const u8 *src, size_t len)
{
	for (; len >= 32; len -= 32, src += 32, dst += 32) {
		asm volatile("movdqu %0, %%xmm0" : : "m" (ECP_IN16(src)));
		asm volatile("movdqu %0, %%xmm1" : : "m" (ECP_IN16(src + 16)));
		asm volatile("movdqu %0, %%xmm2" : : "m" (ECP_IN16(dst)));
		asm volatile("movdqu %0, %%xmm3" : : "m" (ECP_IN16(dst + 16)));
		asm volatile("pxor %xmm2, %xmm0");
		asm volatile("pxor %xmm3, %xmm1");
		asm volatile("movdqu %%xmm0, %0" : "=m" (ECP_OUT16(dst)));
		asm volatile("movdqu %%xmm1, %0" : "=m" (ECP_OUT16(dst + 16)));
	}
	ecp_gf_scalar_xor(k, dst, src, len);
}

/* xmm(acc) ^= c * src[0..16) for the tables in xmm4/xmm5; xmm0, xmm1 scratch */
#define ECP_GF_SSSE3_MAC16(src, acc)					\
	do {								\
		asm volatile("movdqu %0, %%xmm0" : : "m" (ECP_IN16(src))); \
		asm volatile("movdqa %xmm0, %xmm1");			\
		asm volatile("psrlw $4, %xmm1");			\
		asm volatile("pand %xmm7, %xmm0");			\
		asm volatile("pand %xmm7, %xmm1");			\
		asm volatile("movdqa %xmm4, %xmm2");			\
		asm volatile("movdqa %xmm5, %xmm3");			\
		asm volatile("pshufb %xmm0, %xmm2");			\
		asm volatile("pshufb %xmm1, %xmm3");			\
		asm volatile("pxor %xmm2, %xmm" #acc);			\
		asm volatile("pxor %xmm3, %xmm" #acc);			\
	} while (0)

/*
 * Each 64-byte block of dst is loaded once into xmm8..xmm11, every source
 * adds its product there, and the block is stored once.
 */
static void ecp_gf_ssse3_mul_acc_multi(const struct ecp_gf_coef *const k[],
				       u8 *dst, const u8 *const src[],
				       unsigned int n, size_t off, size_t len)
{
	size_t end = off + len;
	unsigned int j;

	asm volatile("movd %0, %%xmm7" : : "r" (0x0f0f0f0fU));
	asm volatile("pshufd $0, %xmm7, %xmm7");
	for (; off + 64 <= end; off += 64) {
		u8 *d = dst + off;

		asm volatile("movdqu %0, %%xmm8" : : "m" (ECP_IN16(d)));
		asm volatile("movdqu %0, %%xmm9" : : "m" (ECP_IN16(d + 16)));
		asm volatile("movdqu %0, %%xmm10" : : "m" (ECP_IN16(d + 32)));
		asm volatile("movdqu %0, %%xmm11" : : "m" (ECP_IN16(d + 48)));
		for (j = 0; j < n; j++) {
			const u8 *s = src[j] + off;

			asm volatile("movdqu %0, %%xmm4" : : "m" (ECP_IN16(k[j]->lo)));
			asm volatile("movdqu %0, %%xmm5" : : "m" (ECP_IN16(k[j]->hi)));
			ECP_GF_SSSE3_MAC16(s, 8);
			ECP_GF_SSSE3_MAC16(s + 16, 9);
			ECP_GF_SSSE3_MAC16(s + 32, 10);
			ECP_GF_SSSE3_MAC16(s + 48, 11);
		}
		asm volatile("movdqu %%xmm8, %0" : "=m" (ECP_OUT16(d)));
		asm volatile("movdqu %%xmm9, %0" : "=m" (ECP_OUT16(d + 16)));
		asm volatile("movdqu %%xmm10, %0" : "=m" (ECP_OUT16(d + 32)));
		asm volatile("movdqu %%xmm11, %0" : "=m" (ECP_OUT16(d + 48)));
	}
	for (; off + 16 <= end; off += 16) {
		asm volatile("movdqu %0, %%xmm8" : : "m" (ECP_IN16(dst + off)));
		for (j = 0; j < n; j++) {
			asm volatile("movdqu %0, %%xmm4" : : "m" (ECP_IN16(k[j]->lo)));
			asm volatile("movdqu %0, %%xmm5" : : "m" (ECP_IN16(k[j]->hi)));
			ECP_GF_SSSE3_MAC16(src[j] + off, 8);
		}
		asm volatile("movdqu %%xmm8, %0" : "=m" (ECP_OUT16(dst + off)));
	}
	ecp_gf_scalar_mul_acc_multi(k, dst, src, n, off, end - off);
}

const struct ecp_gf_impl ecp_gf_ssse3 = {
	.name = "ssse3",
	.usable = ecp_gf_ssse3_usable,
	.simd = true,
	.fn = {
		[ECP_GF_MUL_ACC] = ecp_gf_ssse3_mul_acc,
		[ECP_GF_MUL] = ecp_gf_ssse3_mul,
		[ECP_GF_XOR] = ecp_gf_ssse3_xor,
	},
	.mul_acc_multi = ecp_gf_ssse3_mul_acc_multi,
};
