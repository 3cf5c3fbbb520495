/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File-level encode/decode.
 *
 * Layout of a fragment directory DIR:
 *   DIR/frag.0 .. DIR/frag.<k+m-1>   raw fragments, no header (storage-node
 *                                     test servers serve them as they are);
 *   DIR/ecmeta                       text sidecar, "key value" lines:
 *       profile NAME / k K / m M / length BYTES / fragsize BYTES
 *       [/ layout striped / cell BYTES] [/ matrix a,b,...;...  for the
 *       matrix profile]
 *
 * Two ways to lay the data out:
 *  - padded (the default): fragsize = ceil(length / k) (0 for an empty
 *    input); data fragment i holds input bytes [i*fragsize, (i+1)*fragsize),
 *    zero-padded at the end of the input, so every fragment has fragsize
 *    bytes.  The original length is needed to trim the padding when
 *    reassembling; it is kept in ecmeta, or can be passed explicitly.
 *  - striped (layout.h; HDFS): the input is the block, dealt in cells;
 *    every fragment has its exact layout length, fragsize is the longest
 *    (data fragment 0 and the parity).  ecmeta says "layout striped" and
 *    "cell", which tools that predate it refuse (fragsize does not match
 *    their padding rule) rather than misread.
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
	uint64_t length;	/* the input; the block of a striped layout */
	uint64_t fragsize;	/* the longest fragment */
	uint32_t cell;		/* striped layout's cell; 0: padded layout */
	int has_matrix;
	uint8_t parity[ECP_MAX_M * ECP_MAX_K];
};

/* A striped layout given by the caller, to rebuild or assemble with. */
struct ecp_striping {
	uint64_t block;
	uint32_t cell;		/* >= 1 */
};

/* ceil(len / k) */
uint64_t ecp_frag_size(uint64_t len, int k);

/* Exact length of fragment frag of the set meta describes. */
uint64_t ecp_meta_frag_len(const struct ecp_meta *meta, int frag);

/*
 * Split file in into DIR (created if missing, one level) and write ecmeta;
 * meta receives what was written.  cell 0 gives the padded layout, else
 * the striped layout of the whole file as one block in cells of cell bytes.
 */
int ecp_file_encode(const struct ecp_code *c, const char *in, const char *dir,
		    uint32_t cell, struct ecp_meta *meta, struct ecp_err *e);

/* Read DIR/ecmeta.  Returns 0, 1 if there is none, < 0 on a bad file. */
int ecp_meta_read(const char *dir, struct ecp_meta *meta, struct ecp_err *e);

/* Check that meta describes the same code as c. */
int ecp_meta_check(const struct ecp_meta *meta, const struct ecp_code *c,
		   struct ecp_err *e);

/*
 * The layout of DIR's fragments comes from DIR/ecmeta, else from the
 * fragments themselves (padded: the size of the first one read).  A
 * striping st (may be NULL) is used instead; it must match the one
 * ecmeta records, if any.  Every fragment read must have exactly its
 * layout length; shorter ones are zero-extended to fragsize for decoding.
 */

/*
 * Rebuild fragment lost of DIR into file out, with its exact length.
 * avail as for ecp_code_coef; when NULL/0 the default is every frag.i
 * present in DIR except lost.  used (may be NULL) receives the survivors
 * and coefficients; *fraglen (may be NULL) the length written.
 */
int ecp_file_rebuild(const struct ecp_code *c, const char *dir, int lost,
		     const int *avail, int navail, const struct ecp_striping *st,
		     const char *out, struct ecp_coef *used, uint64_t *fraglen,
		     struct ecp_err *e);

/*
 * Reassemble the original data of DIR into out, in logical order,
 * rebuilding missing data fragments.  Fragments not in avail (default:
 * all present) are treated as lost.  length < 0 takes the length from
 * ecmeta or st; a striped layout's length must be its block.
 */
int ecp_file_assemble(const struct ecp_code *c, const char *dir,
		      const int *avail, int navail, int64_t length,
		      const struct ecp_striping *st, const char *out,
		      uint64_t *written, struct ecp_err *e);

#endif
