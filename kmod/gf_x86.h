/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared pieces of the x86 SIMD implementations.
 *
 * Like lib/raid6, the vector code is a sequence of asm statements that keep
 * values in fixed registers between statements; the kernel is built without
 * SSE/AVX code generation, so the compiler never touches those registers.
 * Memory operands are typed with their real width so the compiler knows
 * exactly which bytes each statement reads or writes.
 */
#ifndef _ECP_GF_X86_H
#define _ECP_GF_X86_H

#include <linux/types.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>

struct ecp_gf_m16 { u8 b[16]; };
struct ecp_gf_m32 { u8 b[32]; };
struct ecp_gf_m64 { u8 b[64]; };

#define ECP_IN16(p)	(*(const struct ecp_gf_m16 *)(p))
#define ECP_OUT16(p)	(*(struct ecp_gf_m16 *)(p))
#define ECP_IN32(p)	(*(const struct ecp_gf_m32 *)(p))
#define ECP_OUT32(p)	(*(struct ecp_gf_m32 *)(p))
#define ECP_IN64(p)	(*(const struct ecp_gf_m64 *)(p))
#define ECP_OUT64(p)	(*(struct ecp_gf_m64 *)(p))

static inline bool ecp_gf_os_has_avx(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

/*
 * k1 = the low @n bits (n < 64): the bytes of a tail that masked zmm loads
 * and stores touch.  Masked-off bytes are neither read (no fault past the
 * end of a buffer) nor written.  Needs AVX512BW.
 */
static __always_inline void ecp_gf_zmm_tail_mask(size_t n)
{
	asm volatile("kmovq %0, %%k1" : : "r" ((1ULL << n) - 1));
}

struct ecp_gf_coef;
void ecp_gf_avx2_xor(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		     size_t len);

#endif /* _ECP_GF_X86_H */
