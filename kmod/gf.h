/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GF(2^8) region arithmetic for in-network erasure-code reconstruction.
 *
 * The field is GF(2)[x] / (x^8 + x^4 + x^3 + x^2 + 1) (0x11d), the one used
 * by ISA-L, Jerasure, HDFS and Ceph, so coefficients computed by those
 * libraries apply unchanged.
 *
 * All region functions accept any length and any alignment, may run in
 * softirq context, and fall back to scalar code when the FPU is not usable.
 * dst and src must either be identical or not overlap.
 */
#ifndef _ECP_GF_H
#define _ECP_GF_H

#include <linux/types.h>

struct sk_buff;

/*
 * Everything needed to multiply by one constant.  Computing it takes a few
 * hundred cycles, so do it when a coefficient is configured, not per packet.
 */
struct ecp_gf_coef {
	u8 lo[16];		/* c * x for x = 0x00..0x0f (PSHUFB table) */
	u8 hi[16];		/* c * x for x = 0x00..0xf0 step 0x10 */
	u64 gfni_matrix;	/* 8x8 bit matrix for gf2p8affineqb */
	const u8 *row;		/* c * x for x = 0..255 */
	u8 c;
};

int ecp_gf_init(void);
void ecp_gf_exit(void);
/* The implementation in use. */
const char *ecp_gf_impl_name(void);
/*
 * The implementations this CPU and kernel can run, scalar first: the name
 * of the next one from *pos on (start with *pos = 0), or NULL at the end.
 */
const char *ecp_gf_impl_next(unsigned int *pos);
#define ecp_gf_for_each_impl(name, pos) \
	for ((pos) = 0; ((name) = ecp_gf_impl_next(&(pos))); )

u8 ecp_gf_mul1(u8 a, u8 b);
/* Multiplicative inverse; ecp_gf_inv(0) is 0 by convention. */
u8 ecp_gf_inv(u8 a);

/* The largest matrix ecp_gf_mat_inv() takes. */
#define ECP_GF_MAT_MAX	4
/*
 * Invert the @n x @n matrix @a (row-major, n <= ECP_GF_MAT_MAX) in place;
 * false, and @a scrambled, if it is singular.
 */
bool ecp_gf_mat_inv(u8 *a, unsigned int n);

void ecp_gf_coef_init(struct ecp_gf_coef *k, u8 c);

/* dst ^= c * src */
void ecp_gf_mul_acc(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		    size_t len);
/* dst = c * src */
void ecp_gf_mul(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		size_t len);
/* dst ^= src */
void ecp_gf_xor(u8 *dst, const u8 *src, size_t len);

/*
 * dst ^= c * src when @acc, else dst = c * src: for callers that add into
 * memory holding sums and store over memory that holds none (dbuf.h).
 */
static inline void ecp_gf_put(const struct ecp_gf_coef *k, u8 *dst,
			      const u8 *src, size_t len, bool acc)
{
	if (acc)
		ecp_gf_mul_acc(k, dst, src, len);
	else
		ecp_gf_mul(k, dst, src, len);
}

/*
 * dst ^= k[0] * src[0] ^ ... ^ k[n - 1] * src[n - 1], reading each source
 * once and reading and writing dst once, where n ecp_gf_mul_acc() calls
 * read and write dst n times.  For a stream range whose bytes several
 * sources have delivered (under EBSN they arrive in step).  Any n (0 does
 * nothing), len and alignment; each source is dst or does not overlap it.
 */
void ecp_gf_mul_acc_multi(const struct ecp_gf_coef *const k[], u8 *dst,
			  const u8 *const src[], unsigned int n, size_t len);

/*
 * dst[0..len) ^= c * skb bytes [offset, offset + len), reading the linear
 * head, page fragments and frag_list in place.  Returns 0, or -EFAULT if the
 * range is not inside the skb (dst is then untouched).
 */
int ecp_gf_mul_acc_skb(const struct ecp_gf_coef *k, u8 *dst,
		       const struct sk_buff *skb, int offset, int len);
/* The same with dst[0..len) = c * skb bytes: what was in dst is lost. */
int ecp_gf_mul_skb(const struct ecp_gf_coef *k, u8 *dst,
		   const struct sk_buff *skb, int offset, int len);

#endif /* _ECP_GF_H */
