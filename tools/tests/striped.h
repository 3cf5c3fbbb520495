/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The striped-layout check shared by the oracle tests: libecp encodes a
 * block file striped (ecp_file_encode with a cell), the peer library
 * encodes the same rows of cells zero-padded to whole cells, and the
 * parity of every row must agree for the length of data fragment 0's
 * cell.  Then libecp rebuilds every fragment alone, and m at once (the
 * first m, the parity, the last data fragments with parity), each with
 * its exact length, and assembles the block without them.
 */
#ifndef ECP_TEST_STRIPED_H
#define ECP_TEST_STRIPED_H

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "ecp.h"
#include "files.h"
#include "tap.h"

/* A block to check: code size, cell, length, and what is special about it. */
struct striped_cfg {
	int k, m;
	uint32_t cell;
	uint64_t block;
	const char *what;
};

/* The peer encodes parity[0..m) from data[0..k), len bytes each. */
typedef void (*striped_peer_fn)(void *ctx, int k, int m, uint8_t **data, uint8_t **parity,
				int len);

struct striped_check {
	const struct ecp_code *c;
	uint64_t block;
	uint32_t cell;
	const char *dir;	/* fragment directory to create */
	uint8_t *in;		/* the block */
	uint8_t *frag[ECP_MAX_N];	/* as encoded, zero-extended */
	char path[512];
};

static inline void striped_path(struct striped_check *t, const char *name)
{
	snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, name);
}

/* Encode with libecp, read back, compare the parity with the peer's. */
static inline int striped_encode(struct striped_check *t, striped_peer_fn peer, void *ctx)
{
	int k = t->c->k, m = t->c->m, ok = 1;
	uint64_t fs = ecp_layout_len(t->block, t->cell, k, 0);
	size_t cbuf = ((size_t)t->cell + 63) / 64 * 64;
	uint8_t *d[ECP_MAX_K], *p[ECP_MAX_M];
	struct ecp_meta meta;
	struct ecp_err err;
	char in[600];

	snprintf(in, sizeof(in), "%s.in", t->dir);
	test_fill(t->in, (size_t)t->block);
	if (test_write_file(in, t->in, (size_t)t->block) ||
	    ecp_file_encode(t->c, in, t->dir, t->cell, &meta, &err)) {
		tap_diag("encode: %s", err.msg);
		return 0;
	}
	for (int i = 0; i < k + m; i++) {
		uint64_t want = ecp_layout_len(t->block, t->cell, k, i);
		char name[32];

		snprintf(name, sizeof(name), "frag.%d", i);
		striped_path(t, name);
		t->frag[i] = calloc(fs + 1, 1);
		if (test_read_file(t->path, t->frag[i], fs + 1) != (long)want) {
			tap_diag("%s: not %" PRIu64 " bytes", t->path, want);
			ok = 0;
		}
	}
	/* gf-complete wants its regions equally aligned: 64 bytes. */
	for (int i = 0; i < k; i++)
		d[i] = aligned_alloc(64, cbuf);
	for (int r = 0; r < m; r++)
		p[r] = aligned_alloc(64, cbuf);
	for (uint64_t row = 0; ok && row < ecp_layout_rows(t->block, t->cell, k); row++) {
		uint32_t plen = ecp_layout_cell_len(t->block, t->cell, k, 0, row);

		for (int i = 0; i < k; i++) {
			memset(d[i], 0, cbuf);
			memcpy(d[i], t->frag[i] + row * t->cell,
			       ecp_layout_cell_len(t->block, t->cell, k, i, row));
		}
		peer(ctx, k, m, d, p, (int)t->cell);
		for (int r = 0; r < m; r++)
			if (memcmp(p[r], t->frag[k + r] + row * t->cell, plen)) {
				tap_diag("row %" PRIu64 ": parity %d differs from the peer's", row, k + r);
				ok = 0;
			}
	}
	for (int i = 0; i < k; i++)
		free(d[i]);
	for (int r = 0; r < m; r++)
		free(p[r]);
	unlink(in);
	return ok;
}

/* Rebuild each fragment of lost[0..nl) from the others; assemble without them. */
static inline int striped_rebuild(struct striped_check *t, const int *lost, int nl)
{
	int k = t->c->k, n = k + t->c->m, avail[ECP_MAX_N], na = 0, ok = 1;
	uint64_t fs = ecp_layout_len(t->block, t->cell, k, 0), len;
	uint8_t *got = malloc(fs > t->block ? fs + 1 : t->block + 1);
	struct ecp_err err;

	for (int i = 0; i < n; i++) {
		int gone = 0;

		for (int j = 0; j < nl; j++)
			gone |= lost[j] == i;
		if (!gone)
			avail[na++] = i;
	}
	striped_path(t, "rebuilt");
	for (int j = 0; j < nl && ok; j++) {
		uint64_t want = ecp_layout_len(t->block, t->cell, k, lost[j]);

		if (ecp_file_rebuild(t->c, t->dir, lost[j], avail, na, NULL, t->path, NULL, &len,
				     &err)) {
			tap_diag("rebuild %d: %s", lost[j], err.msg);
			ok = 0;
		} else if (len != want || test_read_file(t->path, got, fs + 1) != (long)want ||
			   memcmp(got, t->frag[lost[j]], want)) {
			tap_diag("rebuild %d: not the %" PRIu64 " bytes encoded", lost[j], want);
			ok = 0;
		}
	}
	if (ok && (ecp_file_assemble(t->c, t->dir, avail, na, -1, NULL, t->path, &len, &err) ||
		   len != t->block || test_read_file(t->path, got, t->block + 1) != (long)t->block ||
		   memcmp(got, t->in, t->block))) {
		tap_diag("assemble without %d fragments: not the block", nl);
		ok = 0;
	}
	free(got);
	return ok;
}

/*
 * The whole check for code c, a block of block bytes in cells of cell,
 * fragments in dir; *nrebuilt counts the fragments rebuilt.
 */
static inline int striped_oracle(const struct ecp_code *c, uint64_t block, uint32_t cell,
				 const char *dir, striped_peer_fn peer, void *ctx, int *nrebuilt)
{
	struct striped_check t = { .c = c, .block = block, .cell = cell, .dir = dir };
	int k = c->k, m = c->m, ok, lost[ECP_MAX_N];

	*nrebuilt = 0;
	t.in = malloc(block + 1);
	ok = striped_encode(&t, peer, ctx);
	for (int i = 0; i < k + m && ok; i++, (*nrebuilt)++)
		ok = striped_rebuild(&t, &i, 1);
	/* m at once: the first m, the parity, the last data fragments and parity. */
	for (int pat = 0; pat < 3 && ok; pat++) {
		for (int j = 0; j < m; j++) {
			if (pat == 0)
				lost[j] = j;
			else if (pat == 2 && j < (m + 1) / 2 && j < k)
				lost[j] = k - 1 - j;	/* the shortest data fragments */
			else
				lost[j] = k + j;
		}
		ok = striped_rebuild(&t, lost, m);
		*nrebuilt += m;
	}
	for (int i = 0; i < k + m; i++)
		free(t.frag[i]);
	free(t.in);
	return ok;
}

#endif
