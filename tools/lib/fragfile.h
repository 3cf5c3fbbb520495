/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File-level encode/decode.
 *
 * Layout of a fragment directory DIR:
 *   DIR/frag.0 .. DIR/frag.<k+m-1>   raw fragments, all the same size, no
 *                                     header (storage-node test servers
 *                                     serve them as they are);
 *   DIR/ecmeta                       text sidecar, "key value" lines:
 *       profile NAME / k K / m M / length BYTES / fragsize BYTES
 *       [/ matrix a,b,...;...  for the matrix profile]
 *
 * Padding rule: fragsize = ceil(length / k) (0 for an empty input); data
 * fragment i holds input bytes [i*fragsize, (i+1)*fragsize), zero-padded
 * at the end of the input (so trailing data fragments may be partly or
 * wholly zeros).  The original length is needed to trim the padding when
 * reassembling; it is kept in ecmeta, or can be passed explicitly.
 * Everything is processed in memory (fragment sets up to a few hundred MB).
 */
#ifndef ECP_FRAGFILE_H
#define ECP_FRAGFILE_H

#include <stdint.h>

#include "codec.h"
#include "err.h"

#define ECP_META_NAME "ecmeta"
#define ECP_FRAG_PREFIX "frag."

struct ecp_meta {
	char profile[32];
	int k, m;
	uint64_t length;
	uint64_t fragsize;
	int has_matrix;
	uint8_t parity[ECP_MAX_M * ECP_MAX_K];
};

/* ceil(len / k) */
uint64_t ecp_frag_size(uint64_t len, int k);

/* Split file in into DIR (created if missing, one level) and write ecmeta. */
int ecp_file_encode(const struct ecp_code *c, const char *in, const char *dir,
		    struct ecp_meta *meta, struct ecp_err *e);

/* Read DIR/ecmeta.  Returns 0, 1 if there is none, < 0 on a bad file. */
int ecp_meta_read(const char *dir, struct ecp_meta *meta, struct ecp_err *e);

/* Check that meta describes the same code as c. */
int ecp_meta_check(const struct ecp_meta *meta, const struct ecp_code *c,
		   struct ecp_err *e);

/*
 * Rebuild fragment lost of DIR into file out.  avail as for ecp_code_coef;
 * when NULL/0 the default is every frag.i present in DIR except lost.
 * used (may be NULL) receives the survivors and coefficients; *fragsize
 * (may be NULL) the fragment size.
 */
int ecp_file_rebuild(const struct ecp_code *c, const char *dir, int lost,
		     const int *avail, int navail, const char *out,
		     struct ecp_coef *used, uint64_t *fragsize, struct ecp_err *e);

/*
 * Reassemble the original data of DIR into out, rebuilding missing data
 * fragments.  Fragments not in avail (default: all present) are treated
 * as lost.  length < 0 takes the length from ecmeta.
 */
int ecp_file_assemble(const struct ecp_code *c, const char *dir,
		      const int *avail, int navail, int64_t length,
		      const char *out, uint64_t *written, struct ecp_err *e);

#endif
