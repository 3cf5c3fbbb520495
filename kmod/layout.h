/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HDFS's striped layout of a block group: @block bytes in cells of @cell
 * bytes over @k data fragments.  Byte X of the block lives in data
 * fragment (X / cell) mod k, at offset (X / (cell k)) cell + X mod cell.
 * Data fragments are not padded, so a short last stripe leaves them of
 * different lengths; parity fragments (index k and up) are as long as data
 * fragment 0.  Pure arithmetic, shared by the task's lengths (task_parse.c)
 * and a read's logical order (conn_rows.c).
 */
#ifndef _ECP_LAYOUT_H
#define _ECP_LAYOUT_H

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

/*
 * How many bytes of data fragment @frag lie below block position @pos: the
 * fragment's own offset of the first of its bytes at or after @pos.
 */
static inline u64 ecp_layout_frag_off(u64 pos, u32 cell, unsigned int k,
				      unsigned int frag)
{
	u64 stripe = (u64)cell * k, n = div64_u64(pos, stripe);
	u64 rest = pos - n * stripe, before = (u64)frag * cell;

	return n * cell + (rest > before ? min_t(u64, rest - before, cell) : 0);
}

/* The exact length of fragment @frag (data 0..k-1, parity k and up). */
static inline u64 ecp_layout_len(u64 block, u32 cell, unsigned int k,
				 unsigned int frag)
{
	return ecp_layout_frag_off(block, cell, k, frag < k ? frag : 0);
}

/* Where offset @off of data fragment @frag lies in the block. */
static inline u64 ecp_layout_pos(u32 cell, unsigned int k, unsigned int frag,
				 u64 off)
{
	u32 in;
	u64 n = div_u64_rem(off, cell, &in);

	return (n * k + frag) * cell + in;
}

#endif /* _ECP_LAYOUT_H */
