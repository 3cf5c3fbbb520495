// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "gf.h"
#include "matrix.h"

/* Upper bound on subsets tried when searching for a working survivor set. */
#define ECP_SEARCH_MAX 4096

int ecp_code_init(struct ecp_code *c, const struct ecp_profile *p, int k, int m,
		  const uint8_t *parity, struct ecp_err *e)
{
	memset(c, 0, sizeof(*c));
	if (!p)
		return ecp_err_set(e, "no profile"), -ECP_E_INVAL;
	if (ecp_profile_generator(p, k, m, parity, c->gen, e))
		return -ECP_E_INVAL;
	c->profile = p;
	c->k = k;
	c->m = m;
	return 0;
}

const char *ecp_fmt_list(char *buf, size_t size, const int *idx, int n)
{
	size_t off = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < n && off < size; i++) {
		int r = snprintf(buf + off, size - off, "%s%d", i ? "," : "", idx[i]);

		if (r < 0)
			break;
		off += (size_t)r;
	}
	return buf;
}

/* Invert the k x k matrix of the survivors' generator rows. */
static int survivor_inverse(const struct ecp_code *c, const int *surv, uint8_t *inv)
{
	uint8_t s[ECP_MAX_K * ECP_MAX_K];
	int k = c->k;

	for (int j = 0; j < k; j++)
		memcpy(&s[j * k], ecp_code_row(c, surv[j]), k);
	return ecp_mat_invert(s, inv, k);
}

/*
 * Enumerate k-subsets of pool[0..npool) in lexicographic order of
 * positions; store the first invertible one in surv.  Returns 0 if found.
 */
static int search_subsets(const struct ecp_code *c, const int *pool, int npool,
			  int *surv, int max_tries)
{
	uint8_t inv[ECP_MAX_K * ECP_MAX_K];
	int pos[ECP_MAX_K];
	int k = c->k, tries = 0;

	if (npool < k)
		return -1;
	for (int i = 0; i < k; i++)
		pos[i] = i;
	for (;;) {
		for (int i = 0; i < k; i++)
			surv[i] = pool[pos[i]];
		if (survivor_inverse(c, surv, inv) == 0)
			return 0;
		if (++tries >= max_tries)
			return -1;
		/* next combination */
		int i = k - 1;

		while (i >= 0 && pos[i] == npool - k + i)
			i--;
		if (i < 0)
			return -1;
		pos[i]++;
		for (int j = i + 1; j < k; j++)
			pos[j] = pos[j - 1] + 1;
	}
}

/*
 * Suggest a working set near the singular set bad: first try replacing a
 * single member with any other fragment (except lost), then fall back to
 * a bounded lexicographic search over all fragments except lost.
 */
static int suggest(const struct ecp_code *c, int lost, const int *bad, int *out)
{
	uint8_t inv[ECP_MAX_K * ECP_MAX_K];
	int n = c->k + c->m, k = c->k;
	int pool[ECP_MAX_N], npool = 0;
	char in_bad[ECP_MAX_N] = { 0 };

	for (int i = 0; i < k; i++)
		in_bad[bad[i]] = 1;
	for (int p = k - 1; p >= 0; p--) {
		for (int x = 0; x < n; x++) {
			if (x == lost || in_bad[x])
				continue;
			memcpy(out, bad, sizeof(int) * k);
			out[p] = x;
			if (survivor_inverse(c, out, inv) == 0)
				return 0;
		}
	}
	for (int x = 0; x < n; x++)
		if (x != lost)
			pool[npool++] = x;
	return search_subsets(c, pool, npool, out, ECP_SEARCH_MAX);
}

int ecp_code_coef(const struct ecp_code *c, int lost, const int *avail, int navail,
		  struct ecp_coef *out, struct ecp_err *e)
{
	uint8_t inv[ECP_MAX_K * ECP_MAX_K];
	int pool[ECP_MAX_N], npool = 0;
	char seen[ECP_MAX_N] = { 0 };
	int n = c->k + c->m, k = c->k;
	const uint8_t *lrow;
	char b1[256], b2[256];

	memset(out, 0, sizeof(*out));
	out->lost = lost;
	if (lost < 0 || lost >= n)
		return ecp_err_set(e, "lost fragment %d out of range: fragment index must be < k+m (%d)",
				   lost, n), -ECP_E_INVAL;
	if (!avail || navail == 0) {
		for (int i = 0; i < n; i++)
			if (i != lost)
				pool[npool++] = i;
	} else {
		if (navail > n)
			return ecp_err_set(e, "%d available fragments listed, but k+m is %d",
					   navail, n), -ECP_E_INVAL;
		for (int i = 0; i < navail; i++) {
			int x = avail[i];

			if (x < 0 || x >= n)
				return ecp_err_set(e, "available fragment %d out of range: fragment index must be < k+m (%d)",
						   x, n), -ECP_E_INVAL;
			if (x == lost)
				return ecp_err_set(e, "fragment %d is both lost and available", x),
				       -ECP_E_INVAL;
			if (seen[x])
				return ecp_err_set(e, "fragment %d listed twice as available", x),
				       -ECP_E_INVAL;
			seen[x] = 1;
			pool[npool++] = x;
		}
	}
	if (npool < k)
		return ecp_err_set(e, "too many erasures: %d fragment%s available, need k=%d",
				   npool, npool == 1 ? "" : "s", k), -ECP_E_TOOFEW;

	memcpy(out->survivors, pool, sizeof(int) * k);
	if (survivor_inverse(c, out->survivors, inv)) {
		int first[ECP_MAX_K];

		memcpy(first, pool, sizeof(int) * k);
		if (npool == k || search_subsets(c, pool, npool, out->survivors, ECP_SEARCH_MAX)) {
			memcpy(out->survivors, first, sizeof(int) * k);
			if (npool == k && suggest(c, lost, first, out->suggestion) == 0) {
				out->have_suggestion = 1;
				return ecp_err_set(e, "survivor set %s is singular for %s k=%d m=%d; try avail %s",
						   ecp_fmt_list(b1, sizeof(b1), first, k), c->profile->name,
						   k, c->m, ecp_fmt_list(b2, sizeof(b2), out->suggestion, k)),
				       -ECP_E_SINGULAR;
			}
			if (npool == k)
				return ecp_err_set(e, "survivor set %s is singular for %s k=%d m=%d; no working set found",
						   ecp_fmt_list(b1, sizeof(b1), first, k), c->profile->name,
						   k, c->m), -ECP_E_SINGULAR;
			return ecp_err_set(e, "no invertible %d-subset of available fragments %s for %s k=%d m=%d",
					   k, ecp_fmt_list(b1, sizeof(b1), pool, npool), c->profile->name,
					   k, c->m), -ECP_E_SINGULAR;
		}
		survivor_inverse(c, out->survivors, inv);
	}

	/* coef = gen[lost] * inverse(S): lost = gen[lost] * data = gen[lost] * S^-1 * frags */
	lrow = ecp_code_row(c, lost);
	for (int j = 0; j < k; j++) {
		uint8_t acc = 0;

		for (int i = 0; i < k; i++)
			acc ^= gf8_mul(lrow[i], inv[i * k + j]);
		out->coef[j] = acc;
	}
	return 0;
}

void ecp_combine_ext(const uint8_t *coef, const uint8_t *const *src, const size_t *srclen,
		     int n, uint8_t *out, size_t len)
{
	memset(out, 0, len);
	for (int j = 0; j < n; j++)
		gf8_region_muladd(out, src[j], coef[j],
				  srclen && srclen[j] < len ? srclen[j] : len);
}

void ecp_combine(const uint8_t *coef, const uint8_t *const *src, int n,
		 uint8_t *out, size_t len)
{
	ecp_combine_ext(coef, src, NULL, n, out, len);
}

void ecp_encode(const struct ecp_code *c, const uint8_t *const *data,
		uint8_t *const *parity, size_t len)
{
	for (int r = 0; r < c->m; r++)
		ecp_combine(ecp_code_row(c, c->k + r), data, c->k, parity[r], len);
}
