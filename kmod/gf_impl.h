/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the GF(2^8) dispatcher and its implementations.
 * Exposed to the KUnit module so it can test each implementation directly.
 */
#ifndef _ECP_GF_IMPL_H
#define _ECP_GF_IMPL_H

#include "gf.h"

enum ecp_gf_op {
	ECP_GF_MUL_ACC,
	ECP_GF_MUL,
	ECP_GF_XOR,		/* ignores the coefficient */
	ECP_GF_NR_OPS,
};

struct ecp_gf_impl {
	const char *name;
	/* CPU and OS support this code; NULL means always. */
	bool (*usable)(void);
	/* May be picked by "auto"; NULL means yes. */
	bool (*preferred)(void);
	/* Needs kernel_fpu_begin(); handles any len, including tails. */
	bool simd;
	/* Indexed by enum ecp_gf_op. */
	void (*fn[ECP_GF_NR_OPS])(const struct ecp_gf_coef *k, u8 *dst,
				  const u8 *src, size_t len);
	/*
	 * dst[off, off + len) ^= sum over j < n of k[j] * src[j][off, ...),
	 * reading each source once and dst once.  The offset applies to
	 * every buffer so that the dispatcher can cut the work into FPU
	 * sections without copying src[].  Handles any n >= 1 and any len.
	 */
	void (*mul_acc_multi)(const struct ecp_gf_coef *const k[], u8 *dst,
			      const u8 *const src[], unsigned int n,
			      size_t off, size_t len);
};

extern const struct ecp_gf_impl ecp_gf_scalar;
extern const struct ecp_gf_impl ecp_gf_ssse3;
extern const struct ecp_gf_impl ecp_gf_avx2;
extern const struct ecp_gf_impl ecp_gf_avx512;
extern const struct ecp_gf_impl ecp_gf_gfni;
extern const struct ecp_gf_impl ecp_gf_gfni512;

/* Every compiled-in implementation, NULL-terminated, scalar first. */
extern const struct ecp_gf_impl *const ecp_gf_impls[];

bool ecp_gf_impl_usable(const struct ecp_gf_impl *impl);

/*
 * Run one operation with a given implementation, taking care of the FPU
 * section and its chunking; uses scalar code where the FPU is not usable.
 */
void ecp_gf_impl_run(const struct ecp_gf_impl *impl, enum ecp_gf_op op,
		     const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		     size_t len);
/* The same for mul_acc_multi. */
void ecp_gf_impl_run_multi(const struct ecp_gf_impl *impl,
			   const struct ecp_gf_coef *const k[], u8 *dst,
			   const u8 *const src[], unsigned int n, size_t len);

/* Scalar helpers for the SIMD implementations' tails. */
void ecp_gf_scalar_mul_acc(const struct ecp_gf_coef *k, u8 *dst,
			   const u8 *src, size_t len);
void ecp_gf_scalar_mul(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		       size_t len);
void ecp_gf_scalar_xor(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		       size_t len);
void ecp_gf_scalar_mul_acc_multi(const struct ecp_gf_coef *const k[], u8 *dst,
				 const u8 *const src[], unsigned int n,
				 size_t off, size_t len);

void ecp_gf_field_init(void);

/* Multiplication table, filled by ecp_gf_field_init(). */
extern u8 ecp_gf_mul_table[256][256];

#endif /* _ECP_GF_IMPL_H */
