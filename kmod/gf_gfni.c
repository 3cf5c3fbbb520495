// SPDX-License-Identifier: GPL-2.0
/*
 * GFNI multiply: VGF2P8AFFINEQB applies the coefficient's 8x8 bit matrix to
 * 32 bytes per instruction.  GF2P8MULB is not usable: it is hardwired to the
 * AES polynomial 0x11b.
 *
 * Two widths: "gfni" uses VEX ymm (any GFNI CPU with AVX2), "gfni512" EVEX
 * zmm (GFNI with AVX-512, twice the bytes per instruction).
 *
 * The instruction is emitted as bytes because the kernel 6.1 build has no
 * assembler check for GFNI (binutils < 2.30 lacks it); operands are fixed:
 * matrix in ymm0/zmm0, data in ymm1..ymm4/zmm1..zmm4.
 */
#include <linux/kernel.h>

#include "gf_impl.h"
#include "gf_x86.h"

/* vgf2p8affineqb $0, %ymm0, %ymmN, %ymmN */
#define ECP_GF2P8AFFINE_Y1	".byte 0xc4, 0xe3, 0xf5, 0xce, 0xc8, 0x00"
#define ECP_GF2P8AFFINE_Y2	".byte 0xc4, 0xe3, 0xed, 0xce, 0xd0, 0x00"
#define ECP_GF2P8AFFINE_Y3	".byte 0xc4, 0xe3, 0xe5, 0xce, 0xd8, 0x00"
#define ECP_GF2P8AFFINE_Y4	".byte 0xc4, 0xe3, 0xdd, 0xce, 0xe0, 0x00"
/* vgf2p8affineqb $0, %zmm0, %zmmN, %zmmN */
#define ECP_GF2P8AFFINE_Z1	".byte 0x62, 0xf3, 0xf5, 0x48, 0xce, 0xc8, 0x00"
#define ECP_GF2P8AFFINE_Z2	".byte 0x62, 0xf3, 0xed, 0x48, 0xce, 0xd0, 0x00"
#define ECP_GF2P8AFFINE_Z3	".byte 0x62, 0xf3, 0xe5, 0x48, 0xce, 0xd8, 0x00"
#define ECP_GF2P8AFFINE_Z4	".byte 0x62, 0xf3, 0xdd, 0x48, 0xce, 0xe0, 0x00"

static bool ecp_gf_gfni_usable(void)
{
	return boot_cpu_has(X86_FEATURE_GFNI) &&
	       boot_cpu_has(X86_FEATURE_AVX2) && ecp_gf_os_has_avx();
}

static void ecp_gf_gfni_load(const struct ecp_gf_coef *k)
{
	asm volatile("vpbroadcastq %0, %%ymm0" : : "m" (k->gfni_matrix));
}

/* ymm1..ymm4 = c * src[0..128) */
static __always_inline void ecp_gf_gfni_mul128(const u8 *src)
{
	asm volatile("vmovdqu %0, %%ymm1" : : "m" (ECP_IN32(src)));
	asm volatile("vmovdqu %0, %%ymm2" : : "m" (ECP_IN32(src + 32)));
	asm volatile("vmovdqu %0, %%ymm3" : : "m" (ECP_IN32(src + 64)));
	asm volatile("vmovdqu %0, %%ymm4" : : "m" (ECP_IN32(src + 96)));
	asm volatile(ECP_GF2P8AFFINE_Y1);
	asm volatile(ECP_GF2P8AFFINE_Y2);
	asm volatile(ECP_GF2P8AFFINE_Y3);
	asm volatile(ECP_GF2P8AFFINE_Y4);
}

/* ymm1 = c * src[0..32) */
static __always_inline void ecp_gf_gfni_mul32(const u8 *src)
{
	asm volatile("vmovdqu %0, %%ymm1" : : "m" (ECP_IN32(src)));
	asm volatile(ECP_GF2P8AFFINE_Y1);
}

static void ecp_gf_gfni_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
				const u8 *src, size_t len)
{
	ecp_gf_gfni_load(k);
	for (; len >= 128; len -= 128, src += 128, dst += 128) {
		ecp_gf_gfni_mul128(src);
		asm volatile("vpxor %0, %%ymm1, %%ymm1" : : "m" (ECP_IN32(dst)));
		asm volatile("vpxor %0, %%ymm2, %%ymm2" : : "m" (ECP_IN32(dst + 32)));
		asm volatile("vpxor %0, %%ymm3, %%ymm3" : : "m" (ECP_IN32(dst + 64)));
		asm volatile("vpxor %0, %%ymm4, %%ymm4" : : "m" (ECP_IN32(dst + 96)));
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst)));
		asm volatile("vmovdqu %%ymm2, %0" : "=m" (ECP_OUT32(dst + 32)));
		asm volatile("vmovdqu %%ymm3, %0" : "=m" (ECP_OUT32(dst + 64)));
		asm volatile("vmovdqu %%ymm4, %0" : "=m" (ECP_OUT32(dst + 96)));
	}
	for (; len >= 32; len -= 32, src += 32, dst += 32) {
		ecp_gf_gfni_mul32(src);
		asm volatile("vpxor %0, %%ymm1, %%ymm1" : : "m" (ECP_IN32(dst)));
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst)));
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul_acc(k, dst, src, len);
}

static void ecp_gf_gfni_mul(const struct ecp_gf_coef *k, u8 *dst,
			    const u8 *src, size_t len)
{
	ecp_gf_gfni_load(k);
	for (; len >= 128; len -= 128, src += 128, dst += 128) {
		ecp_gf_gfni_mul128(src);
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst)));
		asm volatile("vmovdqu %%ymm2, %0" : "=m" (ECP_OUT32(dst + 32)));
		asm volatile("vmovdqu %%ymm3, %0" : "=m" (ECP_OUT32(dst + 64)));
		asm volatile("vmovdqu %%ymm4, %0" : "=m" (ECP_OUT32(dst + 96)));
	}
	for (; len >= 32; len -= 32, src += 32, dst += 32) {
		ecp_gf_gfni_mul32(src);
		asm volatile("vmovdqu %%ymm1, %0" : "=m" (ECP_OUT32(dst)));
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul(k, dst, src, len);
}

/* dst is read and written once per 128 bytes, held in ymm8..ymm11. */
static void ecp_gf_gfni_mul_acc_multi(const struct ecp_gf_coef *const k[],
				      u8 *dst, const u8 *const src[],
				      unsigned int n, size_t off, size_t len)
{
	size_t end = off + len;
	unsigned int j;

	for (; off + 128 <= end; off += 128) {
		u8 *d = dst + off;

		asm volatile("vmovdqu %0, %%ymm8" : : "m" (ECP_IN32(d)));
		asm volatile("vmovdqu %0, %%ymm9" : : "m" (ECP_IN32(d + 32)));
		asm volatile("vmovdqu %0, %%ymm10" : : "m" (ECP_IN32(d + 64)));
		asm volatile("vmovdqu %0, %%ymm11" : : "m" (ECP_IN32(d + 96)));
		for (j = 0; j < n; j++) {
			ecp_gf_gfni_load(k[j]);
			ecp_gf_gfni_mul128(src[j] + off);
			asm volatile("vpxor %ymm1, %ymm8, %ymm8");
			asm volatile("vpxor %ymm2, %ymm9, %ymm9");
			asm volatile("vpxor %ymm3, %ymm10, %ymm10");
			asm volatile("vpxor %ymm4, %ymm11, %ymm11");
		}
		asm volatile("vmovdqu %%ymm8, %0" : "=m" (ECP_OUT32(d)));
		asm volatile("vmovdqu %%ymm9, %0" : "=m" (ECP_OUT32(d + 32)));
		asm volatile("vmovdqu %%ymm10, %0" : "=m" (ECP_OUT32(d + 64)));
		asm volatile("vmovdqu %%ymm11, %0" : "=m" (ECP_OUT32(d + 96)));
	}
	for (; off + 32 <= end; off += 32) {
		asm volatile("vmovdqu %0, %%ymm8" : : "m" (ECP_IN32(dst + off)));
		for (j = 0; j < n; j++) {
			ecp_gf_gfni_load(k[j]);
			ecp_gf_gfni_mul32(src[j] + off);
			asm volatile("vpxor %ymm1, %ymm8, %ymm8");
		}
		asm volatile("vmovdqu %%ymm8, %0" : "=m" (ECP_OUT32(dst + off)));
	}
	asm volatile("vzeroupper");
	ecp_gf_scalar_mul_acc_multi(k, dst, src, n, off, end - off);
}

const struct ecp_gf_impl ecp_gf_gfni = {
	.name = "gfni",
	.usable = ecp_gf_gfni_usable,
	.simd = true,
	.fn = {
		[ECP_GF_MUL_ACC] = ecp_gf_gfni_mul_acc,
		[ECP_GF_MUL] = ecp_gf_gfni_mul,
		/* XOR needs no GFNI; usable() guarantees AVX2. */
		[ECP_GF_XOR] = ecp_gf_avx2_xor,
	},
	.mul_acc_multi = ecp_gf_gfni_mul_acc_multi,
};

#ifdef CONFIG_AS_AVX512

/* AVX512BW for the byte-masked tails. */
static bool ecp_gf_gfni512_usable(void)
{
	return ecp_gf_gfni_usable() &&
	       boot_cpu_has(X86_FEATURE_AVX512F) &&
	       boot_cpu_has(X86_FEATURE_AVX512BW) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				 XFEATURE_MASK_AVX512, NULL);
}

/* zmm1..zmm4 = c * src[0..256) */
static __always_inline void ecp_gf_gfni512_mul256(const u8 *src)
{
	asm volatile("vmovdqu64 %0, %%zmm1" : : "m" (ECP_IN64(src)));
	asm volatile("vmovdqu64 %0, %%zmm2" : : "m" (ECP_IN64(src + 64)));
	asm volatile("vmovdqu64 %0, %%zmm3" : : "m" (ECP_IN64(src + 128)));
	asm volatile("vmovdqu64 %0, %%zmm4" : : "m" (ECP_IN64(src + 192)));
	asm volatile(ECP_GF2P8AFFINE_Z1);
	asm volatile(ECP_GF2P8AFFINE_Z2);
	asm volatile(ECP_GF2P8AFFINE_Z3);
	asm volatile(ECP_GF2P8AFFINE_Z4);
}

/* zmm1 = c * src[0..64) */
static __always_inline void ecp_gf_gfni512_mul64(const u8 *src)
{
	asm volatile("vmovdqu64 %0, %%zmm1" : : "m" (ECP_IN64(src)));
	asm volatile(ECP_GF2P8AFFINE_Z1);
}

/* zmm1 = c * the first @n (< 64) bytes of src, the rest 0; k1 = mask */
static __always_inline void ecp_gf_gfni512_mul_part(const u8 *src, size_t n)
{
	ecp_gf_zmm_tail_mask(n);
	asm volatile("vmovdqu8 %0, %%zmm1%{%%k1%}%{z%}" : : "m" (ECP_IN64(src)));
	asm volatile(ECP_GF2P8AFFINE_Z1);
}

/* dst[0..n) ^= zmm1[0..n) for the mask in k1 */
static __always_inline void ecp_gf_gfni512_acc_part(u8 *dst)
{
	asm volatile("vmovdqu8 %0, %%zmm2%{%%k1%}%{z%}" : : "m" (ECP_IN64(dst)));
	asm volatile("vpxorq %zmm2, %zmm1, %zmm1");
	asm volatile("vmovdqu8 %%zmm1, %0%{%%k1%}" : "+m" (ECP_OUT64(dst)));
}

/*
 * One 64-byte line per step; four at a time ran no faster, the
 * out-of-order core overlaps the steps anyway.  A masked first step
 * brings dst to a cache line boundary, so that only the source loads
 * may straddle two lines (the data path's pieces start anywhere), and a
 * masked last step does the tail without narrower or scalar code.
 *
 * The loop is one asm statement so that it starts on a cache line: the
 * kernel is built with -falign-loops=1, and where the compiler happened
 * to place this small loop decided between about 115 and 180 GB/s on
 * 4 KiB on a Zen 5.
 */
static void ecp_gf_gfni512_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
				   const u8 *src, size_t len)
{
	size_t head = -(unsigned long)dst & 63;
	const u8 *end;

	asm volatile("vpbroadcastq %0, %%zmm0" : : "m" (k->gfni_matrix));
	if (head && len > head) {
		ecp_gf_gfni512_mul_part(src, head);
		ecp_gf_gfni512_acc_part(dst);
		src += head;
		dst += head;
		len -= head;
	}
	end = src + (len & ~63UL);
	if (src != end)
		asm volatile(".p2align 6\n"
			     "1:\tvmovdqu64 (%[s]), %%zmm1\n\t"
			     ECP_GF2P8AFFINE_Z1 "\n\t"
			     "vpxorq (%[d]), %%zmm1, %%zmm1\n\t"
			     "vmovdqu64 %%zmm1, (%[d])\n\t"
			     "add $64, %[s]\n\t"
			     "add $64, %[d]\n\t"
			     "cmp %[s], %[e]\n\t"
			     "jne 1b"
			     : [s] "+r" (src), [d] "+r" (dst)
			     : [e] "r" (end)
			     : "memory", "cc");
	if (len & 63) {
		ecp_gf_gfni512_mul_part(src, len & 63);
		ecp_gf_gfni512_acc_part(dst);
	}
	asm volatile("vzeroupper");
}

static void ecp_gf_gfni512_mul(const struct ecp_gf_coef *k, u8 *dst,
			       const u8 *src, size_t len)
{
	size_t head = -(unsigned long)dst & 63;
	const u8 *end;

	asm volatile("vpbroadcastq %0, %%zmm0" : : "m" (k->gfni_matrix));
	if (head && len > head) {
		ecp_gf_gfni512_mul_part(src, head);
		asm volatile("vmovdqu8 %%zmm1, %0%{%%k1%}" : "+m" (ECP_OUT64(dst)));
		src += head;
		dst += head;
		len -= head;
	}
	for (end = src + (len & ~63UL); src != end; src += 64, dst += 64) {
		ecp_gf_gfni512_mul64(src);
		asm volatile("vmovdqu64 %%zmm1, %0" : "=m" (ECP_OUT64(dst)));
	}
	if (len & 63) {
		ecp_gf_gfni512_mul_part(src, len & 63);
		asm volatile("vmovdqu8 %%zmm1, %0%{%%k1%}" : "+m" (ECP_OUT64(dst)));
	}
	asm volatile("vzeroupper");
}

/*
 * dst is read and written once per 256 bytes, held in zmm8..zmm11; the
 * last bytes go through masked loads and stores instead of scalar code.
 */
static void ecp_gf_gfni512_mul_acc_multi(const struct ecp_gf_coef *const k[],
					 u8 *dst, const u8 *const src[],
					 unsigned int n, size_t off, size_t len)
{
	size_t end = off + len;
	unsigned int j;

	for (; off + 256 <= end; off += 256) {
		u8 *d = dst + off;

		asm volatile("vmovdqu64 %0, %%zmm8" : : "m" (ECP_IN64(d)));
		asm volatile("vmovdqu64 %0, %%zmm9" : : "m" (ECP_IN64(d + 64)));
		asm volatile("vmovdqu64 %0, %%zmm10" : : "m" (ECP_IN64(d + 128)));
		asm volatile("vmovdqu64 %0, %%zmm11" : : "m" (ECP_IN64(d + 192)));
		for (j = 0; j < n; j++) {
			asm volatile("vpbroadcastq %0, %%zmm0"
				     : : "m" (k[j]->gfni_matrix));
			ecp_gf_gfni512_mul256(src[j] + off);
			asm volatile("vpxorq %zmm1, %zmm8, %zmm8");
			asm volatile("vpxorq %zmm2, %zmm9, %zmm9");
			asm volatile("vpxorq %zmm3, %zmm10, %zmm10");
			asm volatile("vpxorq %zmm4, %zmm11, %zmm11");
		}
		asm volatile("vmovdqu64 %%zmm8, %0" : "=m" (ECP_OUT64(d)));
		asm volatile("vmovdqu64 %%zmm9, %0" : "=m" (ECP_OUT64(d + 64)));
		asm volatile("vmovdqu64 %%zmm10, %0" : "=m" (ECP_OUT64(d + 128)));
		asm volatile("vmovdqu64 %%zmm11, %0" : "=m" (ECP_OUT64(d + 192)));
	}
	for (; off + 64 <= end; off += 64) {
		asm volatile("vmovdqu64 %0, %%zmm8" : : "m" (ECP_IN64(dst + off)));
		for (j = 0; j < n; j++) {
			asm volatile("vpbroadcastq %0, %%zmm0"
				     : : "m" (k[j]->gfni_matrix));
			ecp_gf_gfni512_mul64(src[j] + off);
			asm volatile("vpxorq %zmm1, %zmm8, %zmm8");
		}
		asm volatile("vmovdqu64 %%zmm8, %0" : "=m" (ECP_OUT64(dst + off)));
	}
	if (off < end) {
		/* Masked-off bytes load as 0, whose product is 0. */
		ecp_gf_zmm_tail_mask(end - off);
		asm volatile("vmovdqu8 %0, %%zmm8%{%%k1%}%{z%}"
			     : : "m" (ECP_IN64(dst + off)));
		for (j = 0; j < n; j++) {
			asm volatile("vpbroadcastq %0, %%zmm0"
				     : : "m" (k[j]->gfni_matrix));
			asm volatile("vmovdqu8 %0, %%zmm1%{%%k1%}%{z%}"
				     : : "m" (ECP_IN64(src[j] + off)));
			asm volatile(ECP_GF2P8AFFINE_Z1);
			asm volatile("vpxorq %zmm1, %zmm8, %zmm8");
		}
		asm volatile("vmovdqu8 %%zmm8, %0%{%%k1%}"
			     : "+m" (ECP_OUT64(dst + off)));
	}
	asm volatile("vzeroupper");
}

const struct ecp_gf_impl ecp_gf_gfni512 = {
	.name = "gfni512",
	.usable = ecp_gf_gfni512_usable,
	.simd = true,
	.fn = {
		[ECP_GF_MUL_ACC] = ecp_gf_gfni512_mul_acc,
		[ECP_GF_MUL] = ecp_gf_gfni512_mul,
		/* Plain XOR is memory bound; ymm is as fast and is usable. */
		[ECP_GF_XOR] = ecp_gf_avx2_xor,
	},
	.mul_acc_multi = ecp_gf_gfni512_mul_acc_multi,
};

#endif /* CONFIG_AS_AVX512 */
