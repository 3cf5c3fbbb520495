// SPDX-License-Identifier: GPL-2.0
/*
 * The striped layout (layout.h) against a naive byte-by-byte reference,
 * exhaustively for k 1..6, cell 1..6 and 9, every block length up to
 * three stripes and a cell beyond: blocks ending mid-cell and mid-stripe,
 * shorter than a cell, a multiple of the stripe, and data fragments of
 * length 0.  Per geometry: fragment lengths (data and parity, and the
 * closed formula), rows and per-row cell lengths, the run walk, the
 * inverse mapping.  Plus ecp_parse_size.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ecp.h"
#include "tap.h"

#define MAXK 6
#define MAXBLOCK (3 * 9 * MAXK + 9 + 1)

/* The brief's formula, written out independently. */
static uint64_t formula_len(uint64_t block, uint32_t cell, int k, int frag)
{
	uint64_t stripe = (uint64_t)cell * k, full = block / stripe, rest = block - full * stripe;
	uint64_t idx = frag < k ? (uint64_t)frag : 0, tail = 0;

	if (rest > idx * cell)
		tail = rest - idx * cell < cell ? rest - idx * cell : cell;
	return full * cell + tail;
}

struct naive {
	uint64_t len[MAXK];		/* bytes of each data fragment */
	int frag[MAXBLOCK];		/* where byte X lives */
	uint64_t off[MAXBLOCK];
	uint64_t per_row[MAXK][8];	/* bytes of fragment i in row r */
	uint64_t rows;
	int contiguous;			/* every fragment's offsets are 0..len-1 */
};

static void naive_layout(uint64_t block, uint32_t cell, int k, struct naive *nv)
{
	static char seen[MAXK][MAXBLOCK];

	memset(nv, 0, sizeof(*nv));
	memset(seen, 0, sizeof(seen));
	nv->contiguous = 1;
	for (uint64_t x = 0; x < block; x++) {
		int f = (int)((x / cell) % (uint64_t)k);
		uint64_t off = (x / ((uint64_t)cell * k)) * cell + x % cell;

		nv->frag[x] = f;
		nv->off[x] = off;
		if (seen[f][off])
			nv->contiguous = 0;
		seen[f][off] = 1;
		if (off + 1 > nv->len[f])
			nv->len[f] = off + 1;
		nv->per_row[f][x / ((uint64_t)cell * k)]++;
		nv->rows = x / ((uint64_t)cell * k) + 1;
	}
	for (int f = 0; f < k; f++)
		for (uint64_t o = 0; o < nv->len[f]; o++)
			if (!seen[f][o])
				nv->contiguous = 0;
}

/* Everything layout.h says about one geometry; 0 and a diagnostic on the first error. */
static int check_geometry(uint64_t block, uint32_t cell, int k, int *zero_frags)
{
	struct naive nv;
	struct ecp_run r;
	uint64_t next = 0;

	naive_layout(block, cell, k, &nv);
	if (!nv.contiguous) {
		tap_diag("block %" PRIu64 " cell %u k %d: naive layout has holes", block, cell, k);
		return 0;
	}
	if (ecp_layout_rows(block, cell, k) != nv.rows) {
		tap_diag("block %" PRIu64 " cell %u k %d: rows %" PRIu64 ", want %" PRIu64,
			 block, cell, k, ecp_layout_rows(block, cell, k), nv.rows);
		return 0;
	}
	for (int f = 0; f < k + 2; f++) {
		uint64_t want = nv.len[f < k ? f : 0], got = ecp_layout_len(block, cell, k, f);

		if (got != want || got != formula_len(block, cell, k, f)) {
			tap_diag("block %" PRIu64 " cell %u k %d: fragment %d has %" PRIu64
				 ", want %" PRIu64, block, cell, k, f, got, want);
			return 0;
		}
		if (f < k && !got)
			(*zero_frags)++;
		for (uint64_t row = 0; row < nv.rows + 2; row++) {
			uint64_t wr = row < 8 ? nv.per_row[f < k ? f : 0][row] : 0;

			if (ecp_layout_cell_len(block, cell, k, f, row) != wr) {
				tap_diag("block %" PRIu64 " cell %u k %d: fragment %d row %" PRIu64
					 " has %u, want %" PRIu64, block, cell, k, f, row,
					 ecp_layout_cell_len(block, cell, k, f, row), wr);
				return 0;
			}
		}
	}
	for (ecp_run_first(&r, block, cell, k); r.len; ecp_run_next(&r)) {
		/* In order, within one cell, up to its end or the block's. */
		if (r.pos != next || r.pos / cell != (r.pos + r.len - 1) / cell ||
		    ((r.pos + r.len) % cell && r.pos + r.len != block)) {
			tap_diag("block %" PRIu64 " cell %u k %d: run at %" PRIu64 " (%" PRIu64
				 " bytes) out of order or across a cell", block, cell, k, r.pos, r.len);
			return 0;
		}
		for (uint64_t t = 0; t < r.len; t++) {
			uint64_t x = r.pos + t;

			if (nv.frag[x] != r.frag || nv.off[x] != r.off + t ||
			    ecp_layout_pos(cell, k, r.frag, r.off + t) != x) {
				tap_diag("block %" PRIu64 " cell %u k %d: byte %" PRIu64 " misplaced",
					 block, cell, k, x);
				return 0;
			}
		}
		next = r.pos + r.len;
	}
	if (next != block) {
		tap_diag("block %" PRIu64 " cell %u k %d: runs end at %" PRIu64, block, cell, k, next);
		return 0;
	}
	return 1;
}

static int size_is(const char *s, uint64_t max, int ret, uint64_t want)
{
	uint64_t v = 12345;
	int got = ecp_parse_size(s, max, &v);

	if (got != ret || (!ret && v != want)) {
		tap_diag("ecp_parse_size(\"%s\", %" PRIu64 ") = %d, %" PRIu64, s, max, got, v);
		return 0;
	}
	return 1;
}

int main(void)
{
	static const uint32_t cells[] = { 1, 2, 3, 4, 5, 6, 9 };
	const int ncells = (int)(sizeof(cells) / sizeof(cells[0]));
	int ok;

	tap_plan(MAXK + 5);
	for (int k = 1; k <= MAXK; k++) {
		int n = 0, zero = 0, mid_cell = 0, mid_stripe = 0, short_block = 0, whole = 0;

		ok = 1;
		for (int ci = 0; ci < ncells && ok; ci++) {
			uint32_t cell = cells[ci];
			uint64_t stripe = (uint64_t)cell * k;

			for (uint64_t block = 0; block <= 3 * stripe + cell + 1 && ok; block++) {
				ok = check_geometry(block, cell, k, &zero);
				n++;
				mid_cell += block % cell != 0;
				mid_stripe += block % stripe && block % cell == 0;
				short_block += block && block < cell;
				whole += block && block % stripe == 0;
			}
		}
		tap_ok(ok && mid_cell && (k == 1 || (mid_stripe && zero)) && whole && short_block,
		       "k=%d: %d geometries equal the byte-by-byte layout (%d mid-cell, %d mid-stripe, %d shorter than a cell, %d whole stripes, %d empty data fragments)",
		       k, n, mid_cell, mid_stripe, short_block, whole, zero);
	}

	/* Large values: no overflow in the arithmetic. */
	ok = ecp_layout_len(UINT64_MAX / 2, UINT32_MAX, 32, 0) ==
	     formula_len(UINT64_MAX / 2, UINT32_MAX, 32, 0) &&
	     ecp_layout_len(UINT64_MAX / 2, UINT32_MAX, 32, 31) ==
	     formula_len(UINT64_MAX / 2, UINT32_MAX, 32, 31) &&
	     ecp_layout_len((64ull << 20) * 6 + 12345, 1 << 20, 6, 0) == (64ull << 20) + 12345 &&
	     ecp_layout_len((64ull << 20) * 6 + 12345, 1 << 20, 6, 1) == 64ull << 20 &&
	     ecp_layout_len((64ull << 20) * 6 + 12345, 1 << 20, 6, 7) == (64ull << 20) + 12345;
	tap_ok(ok, "large blocks and cells: lengths by the formula, parity as fragment 0");

	ok = size_is("0", 100, 0, 0) && size_is("4096", UINT64_MAX, 0, 4096) &&
	     size_is("4k", UINT64_MAX, 0, 4096) && size_is("4K", UINT64_MAX, 0, 4096) &&
	     size_is("1m", UINT64_MAX, 0, 1 << 20) && size_is("3G", UINT64_MAX, 0, 3ull << 30) &&
	     size_is("0x10k", UINT64_MAX, 0, 16 << 10) &&
	     size_is("18446744073709551615", UINT64_MAX, 0, UINT64_MAX);
	tap_ok(ok, "ecp_parse_size: plain, hex, suffixes k m g in either case");
	ok = size_is("", 100, ECP_SIZE_BAD, 0) && size_is("-1", UINT64_MAX, ECP_SIZE_BAD, 0) &&
	     size_is(" 1", 100, ECP_SIZE_BAD, 0) && size_is("+1", 100, ECP_SIZE_BAD, 0) &&
	     size_is("1kb", UINT64_MAX, ECP_SIZE_BAD, 0) && size_is("1t", UINT64_MAX, ECP_SIZE_BAD, 0) &&
	     size_is("k", UINT64_MAX, ECP_SIZE_BAD, 0) && size_is("1 k", UINT64_MAX, ECP_SIZE_BAD, 0) &&
	     size_is("18446744073709551616", UINT64_MAX, ECP_SIZE_BAD, 0) &&
	     size_is("17179869184g", UINT64_MAX, ECP_SIZE_BAD, 0);
	tap_ok(ok, "ecp_parse_size: empty, signs, blanks, unknown suffixes and overflow are not sizes");
	ok = size_is("4g", UINT32_MAX, ECP_SIZE_BIG, 0) && size_is("4294967295", UINT32_MAX, 0, UINT32_MAX) &&
	     size_is("101", 100, ECP_SIZE_BIG, 0) && size_is("100", 100, 0, 100);
	tap_ok(ok, "ecp_parse_size: above the maximum is told apart");
	{
		uint8_t coef[3] = { 1, 2, 3 }, a[8], b[8], c[8], out[8], want[8] = { 0 };
		const uint8_t *src[3] = { a, b, c };
		size_t lens[3] = { 8, 5, 0 };

		memset(a, 0x11, 8);
		memset(b, 0x22, 8);
		memset(c, 0x33, 8);
		for (int i = 0; i < 8; i++)
			want[i] = gf8_mul(1, 0x11) ^ (i < 5 ? gf8_mul(2, 0x22) : 0);
		ecp_combine_ext(coef, src, lens, 3, out, 8);
		tap_ok(!memcmp(out, want, 8), "ecp_combine_ext: short sources count as zero-extended");
	}
	return tap_done();
}
