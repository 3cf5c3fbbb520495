/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A configured erasure code (profile, k, m, generator) and the operations
 * on it: encode, decode coefficients for one lost fragment, combine.
 *
 * Fragment indices: 0..k-1 data, k..k+m-1 parity.
 */
#ifndef ECP_CODEC_H
#define ECP_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "profile.h"

/* Error codes returned (negated) by codec and file functions. */
enum {
	ECP_E_INVAL = 1,	/* bad argument (range, duplicate, ...) */
	ECP_E_TOOFEW,		/* fewer than k fragments available */
	ECP_E_SINGULAR,		/* survivor set's matrix is singular */
	ECP_E_IO,		/* file system error or bad fragment file */
	ECP_E_NOMEM,
};

struct ecp_code {
	const struct ecp_profile *profile;
	int k, m;
	uint8_t gen[ECP_MAX_N * ECP_MAX_K];	/* (k+m) x k, row-major */
};

/*
 * Set up c for profile p.  parity (m x k, row-major) is required for the
 * "matrix" profile and must be NULL otherwise.  Returns 0 or -ECP_E_INVAL.
 */
int ecp_code_init(struct ecp_code *c, const struct ecp_profile *p, int k, int m,
		  const uint8_t *parity, struct ecp_err *e);

static inline const uint8_t *ecp_code_row(const struct ecp_code *c, int i)
{
	return &c->gen[i * c->k];
}

struct ecp_coef {
	int lost;
	int survivors[ECP_MAX_K];	/* k fragment indices */
	uint8_t coef[ECP_MAX_K];	/* coef[j] applies to survivors[j] */
	/* filled when -ECP_E_SINGULAR is returned and a working set exists */
	int have_suggestion;
	int suggestion[ECP_MAX_K];
};

/*
 * Coefficients to rebuild fragment lost: lost = sum_j coef[j] * frag[survivors[j]].
 *
 * avail/navail list the fragments that may be read (distinct, in range,
 * not lost).  avail == NULL or navail == 0 means "all but lost", in
 * ascending order.  With exactly k entries they are used as given, in
 * that order.  With more, the first k are used if their matrix is
 * invertible; otherwise the first invertible k-subset in lexicographic
 * order of positions in avail.
 *
 * Returns 0, -ECP_E_INVAL (lost/avail out of range, duplicates),
 * -ECP_E_TOOFEW (navail < k: too many erasures) or -ECP_E_SINGULAR (the
 * given set is singular; out->suggestion holds a working set found by
 * search, if any, and the message names both).
 */
int ecp_code_coef(const struct ecp_code *c, int lost, const int *avail, int navail,
		  struct ecp_coef *out, struct ecp_err *e);

/* parity[r] = sum_j gen[k+r][j] * data[j], all regions len bytes. */
void ecp_encode(const struct ecp_code *c, const uint8_t *const *data,
		uint8_t *const *parity, size_t len);

/* out = sum_j coef[j] * src[j] for j < n. */
void ecp_combine(const uint8_t *coef, const uint8_t *const *src, int n,
		 uint8_t *out, size_t len);

/*
 * The same with sources of srclen[j] bytes, those shorter than len taken
 * as zero-extended (the short fragments of a striped layout); srclen NULL:
 * all are len bytes.
 */
void ecp_combine_ext(const uint8_t *coef, const uint8_t *const *src, const size_t *srclen,
		     int n, uint8_t *out, size_t len);

/* Format an index list "a,b,c" into buf (for messages). */
const char *ecp_fmt_list(char *buf, size_t size, const int *idx, int n);

#endif
