// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the striped layout's arithmetic (layout.h), against a
 * walk over every byte of small block groups: whole stripes, a last stripe
 * that ends mid-cell, within the first cell and on a cell boundary, one
 * byte, k = 1 and k = 32; and spot checks past 4 GiB.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "layout.h"

struct ecp_layout_case {
	const char *name;
	u64 block;
	u32 cell;
	unsigned int k;
};

static const struct ecp_layout_case ecp_layout_cases[] = {
	{ "whole_stripes", 6 * 3 * 16, 16, 6 },
	{ "mid_cell", 6 * 16 * 2 + 2 * 16 + 5, 16, 6 },
	{ "in_first_cell", 12 * 8 * 3 + 7, 8, 12 },
	{ "on_cell_boundary", 3 * 10 + 2 * 10, 10, 3 },
	{ "one_byte", 1, 64, 6 },
	{ "shorter_than_cell", 40, 64, 4 },
	{ "k1", 1000, 7, 1 },
	{ "k32", 32 * 5 * 3 + 77, 5, 32 },
};

static void ecp_layout_desc(const struct ecp_layout_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_layout, ecp_layout_cases, ecp_layout_desc);

static void ecp_layout_walk_test(struct kunit *test)
{
	const struct ecp_layout_case *c = test->param_value;
	u64 *len = kunit_kcalloc(test, c->k, sizeof(*len), GFP_KERNEL);
	unsigned int f;
	u64 x;

	KUNIT_ASSERT_NOT_NULL(test, len);
	for (x = 0; x < c->block; x++) {
		/* The definition, byte by byte. */
		unsigned int frag = div_u64(x, c->cell) % c->k;
		u64 off = div_u64(x, (u64)c->cell * c->k) * c->cell +
			  x % c->cell;

		KUNIT_ASSERT_EQ_MSG(test, off, len[frag], "byte %llu", x);
		KUNIT_ASSERT_EQ_MSG(test, ecp_layout_pos(c->cell, c->k, frag,
							 off), x,
				    "byte %llu", x);
		/* Below x lie exactly the bytes of each fragment counted. */
		for (f = 0; f < c->k; f++)
			KUNIT_ASSERT_EQ_MSG(test,
					    ecp_layout_frag_off(x, c->cell,
								c->k, f),
					    len[f], "byte %llu frag %u", x, f);
		len[frag]++;
	}
	for (f = 0; f < c->k; f++) {
		KUNIT_EXPECT_EQ(test, ecp_layout_frag_off(c->block, c->cell,
							  c->k, f), len[f]);
		KUNIT_EXPECT_EQ(test, ecp_layout_len(c->block, c->cell, c->k,
						     f), len[f]);
	}
	/* Parity fragments are as long as data fragment 0. */
	for (f = c->k; f < c->k + 4; f++)
		KUNIT_EXPECT_EQ(test, ecp_layout_len(c->block, c->cell, c->k,
						     f), len[0]);
}

/* HDFS's RS(6,3) with 1 MiB cells, a block group of 6 TiB + 2.5 MiB. */
static void ecp_layout_large_test(struct kunit *test)
{
	const u32 cell = 1 << 20;
	const u64 block = (6ULL << 40) + (5ULL << 19);

	KUNIT_EXPECT_EQ(test, ecp_layout_len(block, cell, 6, 0),
			(1ULL << 40) + cell);
	KUNIT_EXPECT_EQ(test, ecp_layout_len(block, cell, 6, 1),
			(1ULL << 40) + cell);
	KUNIT_EXPECT_EQ(test, ecp_layout_len(block, cell, 6, 2),
			(1ULL << 40) + cell / 2);
	KUNIT_EXPECT_EQ(test, ecp_layout_len(block, cell, 6, 3), 1ULL << 40);
	KUNIT_EXPECT_EQ(test, ecp_layout_len(block, cell, 6, 8),
			(1ULL << 40) + cell);
	KUNIT_EXPECT_EQ(test, ecp_layout_pos(cell, 6, 2, (1ULL << 40) + 7),
			(6ULL << 40) + 2 * cell + 7);
	KUNIT_EXPECT_EQ(test, ecp_layout_frag_off((6ULL << 40) + 2 * cell + 7,
						  cell, 6, 2),
			(1ULL << 40) + 7);
}

static struct kunit_case ecp_layout_test_cases[] = {
	KUNIT_CASE_PARAM(ecp_layout_walk_test, ecp_layout_gen_params),
	KUNIT_CASE(ecp_layout_large_test),
	{}
};

static struct kunit_suite ecp_layout_test_suite = {
	.name = "ecproxy_layout",
	.test_cases = ecp_layout_test_cases,
};

kunit_test_suite(ecp_layout_test_suite);
