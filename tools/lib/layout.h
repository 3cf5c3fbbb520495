/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HDFS-style striped layout of one block group: the block (BLOCK bytes)
 * is cut into cells of CELL bytes dealt round-robin to the k data
 * fragments, a stripe (row) of k cells at a time:
 *
 *   byte X of the block is byte (X / (cell*k)) * cell + X % cell of data
 *   fragment (X / cell) % k.
 *
 * Data fragments are not padded: when the last stripe is short, they
 * have different lengths (fragment 0 the longest, some possibly empty).
 * Parity fragments are as long as data fragment 0, computed as if the
 * shorter data fragments were zero-extended to that length.
 *
 * Rows are numbered from 0; a fragment holds one cell (full, partial or
 * empty) per row, and row r of every fragment starts at offset r * cell.
 * All functions need cell >= 1 and 1 <= k; fragments >= k are parity.
 */
#ifndef ECP_LAYOUT_H
#define ECP_LAYOUT_H

#include <stdint.h>

/* Exact length of fragment frag (data or parity). */
uint64_t ecp_layout_len(uint64_t block, uint32_t cell, int k, int frag);

/* Number of rows (stripes, the last one possibly partial); 0 when block is 0. */
uint64_t ecp_layout_rows(uint64_t block, uint32_t cell, int k);

/* Bytes of fragment frag in row row: cell, less in the last row, 0 beyond. */
uint32_t ecp_layout_cell_len(uint64_t block, uint32_t cell, int k, int frag, uint64_t row);

/* Block offset of byte off of data fragment frag (frag < k). */
uint64_t ecp_layout_pos(uint32_t cell, int k, int frag, uint64_t off);

/*
 * A run: block bytes that stand together in one fragment, from a block
 * offset to the end of its cell or of the block.  Walk a whole block in
 * logical order with
 *
 *	for (ecp_run_first(&r, block, cell, k); r.len; ecp_run_next(&r))
 *		use r.frag, r.off, r.pos and r.len;
 */
struct ecp_run {
	uint64_t pos;		/* block offset */
	int frag;		/* data fragment */
	uint64_t off;		/* offset in the fragment */
	uint64_t len;		/* bytes; 0 past the end of the block */
	uint64_t block;
	uint64_t cell;
	int k;
};

/*
 * The run starting at block offset pos.  cell is 64 bits wide here so that
 * the padded layout of fragfile.h (one stripe of ceil(block/k)-byte cells)
 * walks the same way; it may be 0 only when block is.
 */
void ecp_run_at(struct ecp_run *r, uint64_t block, uint64_t cell, int k, uint64_t pos);

static inline void ecp_run_first(struct ecp_run *r, uint64_t block, uint64_t cell, int k)
{
	ecp_run_at(r, block, cell, k, 0);
}

static inline void ecp_run_next(struct ecp_run *r)
{
	ecp_run_at(r, r->block, r->cell, r->k, r->pos + r->len);
}

#endif
