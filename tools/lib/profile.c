// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gf.h"
#include "matrix.h"
#include "profile.h"

static const char *const no_aliases[] = { NULL };
static const char *const cauchy_aliases[] = { "hdfs-rs", NULL };
static const char *const jerasure_aliases[] = { "ceph-jerasure", NULL };
static const char *const vand_aliases[] = { "minio", "klauspost", "backblaze", NULL };

static const struct ecp_profile profiles[ECP_PROFILE_COUNT] = {
	[ECP_PROFILE_ISAL_RS] = {
		ECP_PROFILE_ISAL_RS, "isal-rs", no_aliases,
		"ISA-L gf_gen_rs_matrix (Ceph isa reed_sol_van)", 256, 0 },
	[ECP_PROFILE_ISAL_CAUCHY] = {
		ECP_PROFILE_ISAL_CAUCHY, "isal-cauchy", cauchy_aliases,
		"ISA-L gf_gen_cauchy1_matrix (HDFS RS, Ceph isa cauchy)", 256, 1 },
	[ECP_PROFILE_JERASURE_RS] = {
		ECP_PROFILE_JERASURE_RS, "jerasure-rs", jerasure_aliases,
		"Jerasure reed_sol_vandermonde_coding_matrix w=8 (Ceph jerasure reed_sol_van)", 256, 1 },
	[ECP_PROFILE_VANDERMONDE] = {
		ECP_PROFILE_VANDERMONDE, "vandermonde", vand_aliases,
		"klauspost/reedsolomon default (MinIO, Backblaze)", 256, 1 },
	[ECP_PROFILE_MATRIX] = {
		ECP_PROFILE_MATRIX, "matrix", no_aliases,
		"user-supplied parity rows (matrix SPEC)", 256, 0 },
};

const struct ecp_profile *ecp_profile_by_id(enum ecp_profile_id id)
{
	if ((int)id < 0 || id >= ECP_PROFILE_COUNT)
		return NULL;
	return &profiles[id];
}

const struct ecp_profile *ecp_profile_by_name(const char *name)
{
	for (int i = 0; i < ECP_PROFILE_COUNT; i++) {
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
		for (const char *const *a = profiles[i].aliases; *a; a++)
			if (!strcmp(*a, name))
				return &profiles[i];
	}
	return NULL;
}

int ecp_profile_check(const struct ecp_profile *p, int k, int m, struct ecp_err *e)
{
	if (k < 1 || k > ECP_MAX_K)
		return ecp_err_set(e, "k must be in 1..%d", ECP_MAX_K);
	if (m < 1 || m > ECP_MAX_M)
		return ecp_err_set(e, "m must be in 1..%d", ECP_MAX_M);
	if (k + m > p->max_n)
		return ecp_err_set(e, "profile %s needs k+m <= %d", p->name, p->max_n);
	return 0;
}

static void identity_top(uint8_t *gen, int k)
{
	memset(gen, 0, (size_t)k * k);
	for (int i = 0; i < k; i++)
		gen[i * k + i] = 1;
}

/* ISA-L gf_gen_rs_matrix: parity row r holds g^0, g^1, ... with g = 2^r. */
static void gen_isal_rs(uint8_t *gen, int k, int m)
{
	identity_top(gen, k);
	for (int r = 0; r < m; r++) {
		uint8_t g = gf8_pow(2, r);

		for (int j = 0; j < k; j++)
			gen[(k + r) * k + j] = gf8_pow(g, j);
	}
}

/* ISA-L gf_gen_cauchy1_matrix: row i >= k, column j: 1 / (i XOR j). */
static void gen_isal_cauchy(uint8_t *gen, int k, int m)
{
	identity_top(gen, k);
	for (int i = k; i < k + m; i++)
		for (int j = 0; j < k; j++)
			gen[i * k + j] = gf8_inv((uint8_t)(i ^ j));
}

/* gen = src * inverse(top k x k of src); src is n x k. */
static int make_systematic(const uint8_t *src, uint8_t *gen, int n, int k)
{
	uint8_t inv[ECP_MAX_K * ECP_MAX_K];

	if (ecp_mat_invert(src, inv, k))
		return -1;
	ecp_mat_mul(src, inv, gen, n, k, k);
	return 0;
}

/*
 * klauspost/reedsolomon buildMatrix: V[r][c] = r^c (0^0 = 1) for
 * r = 0..n-1, then V * inverse(top square).  The top square is a
 * Vandermonde matrix on distinct points 0..k-1, hence invertible.
 */
static int gen_vandermonde(uint8_t *gen, int k, int m)
{
	uint8_t v[ECP_MAX_N * ECP_MAX_K];
	int n = k + m;

	for (int r = 0; r < n; r++)
		for (int c = 0; c < k; c++)
			v[r * k + c] = gf8_pow((uint8_t)r, c);
	return make_systematic(v, gen, n, k);
}

/*
 * Jerasure reed_sol_vandermonde_coding_matrix(k, m, 8), rebuilt from the
 * published construction (reed_sol_big_vandermonde_distribution_matrix):
 *  1. the extended Vandermonde matrix E (n x k): row 0 = (1,0,...,0),
 *     row n-1 = (0,...,0,1) (the point at infinity), rows 1..n-2 = r^c;
 *  2. column operations turn the top square into the identity.  Jerasure
 *     does this by elimination; the result is E * inverse(top square) (no
 *     row swaps occur because the top square is a Vandermonde matrix on
 *     the distinct points 0..k-1);
 *  3. each parity column j is divided by its entry in row k, so row k is
 *     all ones (only parity rows are touched; the identity stays);
 *  4. each parity row below row k is divided by its column-0 entry, so
 *     column 0 is all ones.
 * Steps 3 and 4 scale columns/rows of the parity part, preserving MDS.
 */
static int gen_jerasure_rs(uint8_t *gen, int k, int m)
{
	uint8_t e[ECP_MAX_N * ECP_MAX_K];
	int n = k + m;

	memset(e, 0, sizeof(e));
	for (int r = 0; r < n - 1; r++)
		for (int c = 0; c < k; c++)
			e[r * k + c] = gf8_pow((uint8_t)r, c);
	/* row 0 is 0^c = (1,0,...,0) already; the last row is e_{k-1}. */
	memset(&e[(n - 1) * k], 0, k);
	e[(n - 1) * k + k - 1] = 1;
	if (make_systematic(e, gen, n, k))
		return -1;

	for (int j = 0; j < k; j++) {
		uint8_t d = gen[k * k + j];

		if (d == 0)
			return -1;
		if (d == 1)
			continue;
		d = gf8_inv(d);
		for (int i = k; i < n; i++)
			gen[i * k + j] = gf8_mul(gen[i * k + j], d);
	}
	for (int i = k + 1; i < n; i++) {
		uint8_t d = gen[i * k];

		if (d == 0)
			return -1;
		if (d == 1)
			continue;
		d = gf8_inv(d);
		for (int j = 0; j < k; j++)
			gen[i * k + j] = gf8_mul(gen[i * k + j], d);
	}
	return 0;
}

int ecp_profile_generator(const struct ecp_profile *p, int k, int m,
			  const uint8_t *parity, uint8_t *gen, struct ecp_err *e)
{
	if (ecp_profile_check(p, k, m, e))
		return -1;
	if ((p->id == ECP_PROFILE_MATRIX) != (parity != NULL))
		return ecp_err_set(e, p->id == ECP_PROFILE_MATRIX ?
				   "profile matrix needs a user matrix" :
				   "profile %s takes no user matrix", p->name);
	switch (p->id) {
	case ECP_PROFILE_ISAL_RS:
		gen_isal_rs(gen, k, m);
		return 0;
	case ECP_PROFILE_ISAL_CAUCHY:
		gen_isal_cauchy(gen, k, m);
		return 0;
	case ECP_PROFILE_JERASURE_RS:
		if (gen_jerasure_rs(gen, k, m))
			return ecp_err_set(e, "jerasure-rs: construction failed for k=%d m=%d", k, m);
		return 0;
	case ECP_PROFILE_VANDERMONDE:
		if (gen_vandermonde(gen, k, m))
			return ecp_err_set(e, "vandermonde: construction failed for k=%d m=%d", k, m);
		return 0;
	case ECP_PROFILE_MATRIX:
		identity_top(gen, k);
		memcpy(&gen[k * k], parity, (size_t)m * k);
		return 0;
	default:
		return ecp_err_set(e, "unknown profile");
	}
}

static char *read_spec_file(const char *path, struct ecp_err *e)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;

	if (!f) {
		ecp_err_set(e, "cannot open matrix file %s: %s", path, strerror(errno));
		return NULL;
	}
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 256;
			if (cap > (1u << 20) || !(nb = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				ecp_err_set(e, "matrix file %s too large", path);
				return NULL;
			}
			buf = nb;
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	if (!buf)
		buf = calloc(1, 1);
	else
		buf[len] = '\0';
	return buf;
}

int ecp_matrix_parse(const char *spec, int k, int m, uint8_t *parity,
		     struct ecp_err *e)
{
	char *text;
	const char *s;
	int row = 0, col = 0, ret = -1;

	if (k < 1 || k > ECP_MAX_K || m < 1 || m > ECP_MAX_M)
		return ecp_err_set(e, "matrix: k or m out of range");
	text = spec[0] == '@' ? read_spec_file(spec + 1, e) : strdup(spec);
	if (!text)
		return spec[0] == '@' ? -1 : ecp_err_set(e, "out of memory");

	for (s = text;;) {
		char *end;
		unsigned long v;

		while (*s == ' ' || *s == '\t' || *s == ',' || *s == '\r')
			s++;
		if (*s == '#') {
			while (*s && *s != '\n')
				s++;
			continue;
		}
		if (*s == ';' || *s == '\n' || *s == '\0') {
			if (col != 0) {
				if (col != k) {
					ecp_err_set(e, "matrix row %d has %d entries, need k=%d", row + 1, col, k);
					goto out;
				}
				row++;
				col = 0;
			}
			if (*s == '\0')
				break;
			s++;
			continue;
		}
		if (!isdigit((unsigned char)*s)) {
			ecp_err_set(e, "matrix row %d: unexpected character '%c'", row + 1, *s);
			goto out;
		}
		errno = 0;
		v = strtoul(s, &end, 0);
		if (errno || v > 255 || (*end && !strchr(" \t,;\r\n#", *end))) {
			ecp_err_set(e, "matrix row %d entry %d: \"%.*s\" is not a coefficient 0..255",
				    row + 1, col + 1, (int)strcspn(s, " \t,;\r\n#"), s);
			goto out;
		}
		if (row >= m) {
			ecp_err_set(e, "matrix has more than m=%d rows", m);
			goto out;
		}
		if (col >= k) {
			ecp_err_set(e, "matrix row %d has more than k=%d entries", row + 1, k);
			goto out;
		}
		parity[row * k + col++] = (uint8_t)v;
		s = end;
	}
	if (row != m)
		ecp_err_set(e, "matrix has %d rows, need m=%d", row, m);
	else
		ret = 0;
out:
	free(text);
	return ret;
}
