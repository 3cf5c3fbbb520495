/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coding profiles: which (k+m) x k generator matrix a storage system uses.
 *
 * Every generator is systematic: rows 0..k-1 are the identity (fragments
 * 0..k-1 are the data), rows k..k+m-1 give the parity fragments:
 * frag[k+r] = sum_j gen[k+r][j] * frag[j] over GF(2^8)/0x11d.
 *
 * Limits (common to all profiles): 1 <= k <= ECP_MAX_K (32),
 * 1 <= m <= ECP_MAX_M (32); every profile also needs k+m <= 256, which
 * these bounds already imply.  Per profile:
 *   isal-rs      ISA-L gf_gen_rs_matrix: parity row r is (2^r)^j.  Not MDS
 *                in general: ISA-L guarantees every survivor set invertible
 *                only for k <= 3, or k = 4 and m <= 21, or k = 5 and
 *                m <= 5, or k <= 21 and m = 4, or m <= 3.  Outside that,
 *                some survivor sets are singular (ecp_code_coef reports it).
 *   isal-cauchy  ISA-L gf_gen_cauchy1_matrix: gen[i][j] = 1/(i ^ j), i >= k.
 *                MDS for all k+m <= 256.  Alias hdfs-rs.
 *   jerasure-rs  Jerasure reed_sol_vandermonde_coding_matrix(k, m, 8).
 *                MDS for k+m <= 256.  Alias ceph-jerasure.
 *   vandermonde  klauspost/reedsolomon default (MinIO, Backblaze):
 *                V[r][c] = r^c times the inverse of V's top k x k square.
 *                MDS for k+m <= 256.  Aliases minio, klauspost, backblaze.
 *   matrix       user-supplied parity rows (see ecp_matrix_parse); nothing
 *                is guaranteed, singular survivor sets are reported.
 */
#ifndef ECP_PROFILE_H
#define ECP_PROFILE_H

#include <stdint.h>

#include "err.h"

#define ECP_MAX_K 32
#define ECP_MAX_M 32
#define ECP_MAX_N (ECP_MAX_K + ECP_MAX_M)

enum ecp_profile_id {
	ECP_PROFILE_ISAL_RS,
	ECP_PROFILE_ISAL_CAUCHY,
	ECP_PROFILE_JERASURE_RS,
	ECP_PROFILE_VANDERMONDE,
	ECP_PROFILE_MATRIX,
	ECP_PROFILE_COUNT
};

struct ecp_profile {
	enum ecp_profile_id id;
	const char *name;
	const char *const *aliases;	/* NULL-terminated */
	const char *desc;		/* one line */
	int max_n;			/* limit on k+m */
	int mds;			/* every survivor set invertible (within limits) */
};

/* Exact match on name or alias; NULL if unknown. */
const struct ecp_profile *ecp_profile_by_name(const char *name);
const struct ecp_profile *ecp_profile_by_id(enum ecp_profile_id id);

/* Check k and m against the profile limits. */
int ecp_profile_check(const struct ecp_profile *p, int k, int m, struct ecp_err *e);

/*
 * Build the (k+m) x k generator into gen (row-major).  parity (m x k) is
 * used only by the "matrix" profile and must be NULL otherwise.
 */
int ecp_profile_generator(const struct ecp_profile *p, int k, int m,
			  const uint8_t *parity, uint8_t *gen, struct ecp_err *e);

/*
 * Parse a user matrix: m rows of k coefficients (0..255, decimal or 0x hex).
 * Entries are separated by ',' or blanks, rows by ';' or newlines; '#'
 * starts a comment to the end of the line.  "@PATH" reads the text from
 * the file PATH.  Example for k=3, m=2: "1,1,1;1,2,4".
 */
int ecp_matrix_parse(const char *spec, int k, int m, uint8_t *parity,
		     struct ecp_err *e);

#endif
