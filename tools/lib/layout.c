// SPDX-License-Identifier: GPL-2.0
#include "layout.h"

uint32_t ecp_layout_cell_len(uint64_t block, uint32_t cell, int k, int frag, uint64_t row)
{
	uint64_t stripe = (uint64_t)cell * (uint64_t)k;
	uint64_t full = block / stripe, rest = block - full * stripe;
	/* Parity cells are as long as data fragment 0's. */
	uint64_t start = (uint64_t)(frag < k ? frag : 0) * cell;

	if (row < full)
		return cell;
	if (row > full || rest <= start)
		return 0;
	return rest - start < cell ? (uint32_t)(rest - start) : cell;
}

uint64_t ecp_layout_len(uint64_t block, uint32_t cell, int k, int frag)
{
	uint64_t full = block / ((uint64_t)cell * (uint64_t)k);

	return full * cell + ecp_layout_cell_len(block, cell, k, frag, full);
}

uint64_t ecp_layout_rows(uint64_t block, uint32_t cell, int k)
{
	uint64_t stripe = (uint64_t)cell * (uint64_t)k;

	return block / stripe + (block % stripe != 0);
}

uint64_t ecp_layout_pos(uint32_t cell, int k, int frag, uint64_t off)
{
	return (off / cell) * cell * (uint64_t)k + (uint64_t)frag * cell + off % cell;
}

void ecp_run_at(struct ecp_run *r, uint64_t block, uint64_t cell, int k, uint64_t pos)
{
	uint64_t cidx, left;

	r->block = block;
	r->cell = cell;
	r->k = k;
	r->pos = pos;
	r->frag = 0;
	r->off = 0;
	r->len = 0;
	if (pos >= block)
		return;
	cidx = pos / cell;
	left = cell - pos % cell;
	r->frag = (int)(cidx % (uint64_t)k);
	r->off = cidx / (uint64_t)k * cell + pos % cell;
	r->len = block - pos < left ? block - pos : left;
}
