// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the per-source interval set: a table of hand-picked
 * cases, then long pseudo-random runs checked against a bitmap model.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "ivset.h"

#define G4	0x100000000ULL
#define MAXIV	8
#define MAXNEW	8

struct ecp_ivset_rec {
	u64 r[MAXNEW * 4][2];
	unsigned int n;
	bool overflow;
};

static void ecp_ivset_record(void *ctx, u64 start, u64 end)
{
	struct ecp_ivset_rec *rec = ctx;

	if (rec->n == ARRAY_SIZE(rec->r)) {
		rec->overflow = true;
		return;
	}
	rec->r[rec->n][0] = start;
	rec->r[rec->n][1] = end;
	rec->n++;
}

struct ecp_ivset_case {
	const char *name;
	u32 cap;
	u64 start;		/* ecp_ivset_reset() offset */
	u64 pre[MAXIV][2];	/* inserted first, each must succeed */
	unsigned int npre;
	u64 trim;		/* then trimmed to this, if non-zero */
	u64 ins[2];		/* the insert under test */
	s64 ret;
	u64 new[MAXNEW][2];	/* the sub-ranges it must report */
	unsigned int nnew;
	u64 low;		/* and the state it must leave */
	u64 iv[MAXIV][2];
	unsigned int niv;
};

static const struct ecp_ivset_case ecp_ivset_cases[] = {
	{ .name = "first_in_order", .cap = 4,
	  .ins = { 0, 100 }, .ret = 100, .new = { { 0, 100 } }, .nnew = 1,
	  .low = 100 },
	{ .name = "empty_range", .cap = 4,
	  .ins = { 50, 50 }, .ret = 0, .low = 0 },
	{ .name = "inverted_range", .cap = 4,
	  .ins = { 60, 50 }, .ret = 0, .low = 0 },
	{ .name = "exact_duplicate_of_prefix", .cap = 4,
	  .pre = { { 0, 100 } }, .npre = 1,
	  .ins = { 0, 100 }, .ret = 0, .low = 100 },
	{ .name = "below_watermark", .cap = 4,
	  .pre = { { 0, 100 } }, .npre = 1,
	  .ins = { 10, 20 }, .ret = 0, .low = 100 },
	{ .name = "straddles_watermark", .cap = 4,
	  .pre = { { 0, 100 } }, .npre = 1,
	  .ins = { 50, 150 }, .ret = 50, .new = { { 100, 150 } }, .nnew = 1,
	  .low = 150 },
	{ .name = "adjacent_to_watermark", .cap = 4,
	  .pre = { { 0, 100 } }, .npre = 1,
	  .ins = { 100, 101 }, .ret = 1, .new = { { 100, 101 } }, .nnew = 1,
	  .low = 101 },
	{ .name = "out_of_order", .cap = 4,
	  .pre = { { 0, 100 } }, .npre = 1,
	  .ins = { 200, 300 }, .ret = 100, .new = { { 200, 300 } }, .nnew = 1,
	  .low = 100, .iv = { { 200, 300 } }, .niv = 1 },
	{ .name = "hole_filled_exactly", .cap = 4,
	  .pre = { { 0, 100 }, { 200, 300 } }, .npre = 2,
	  .ins = { 100, 200 }, .ret = 100, .new = { { 100, 200 } }, .nnew = 1,
	  .low = 300 },
	{ .name = "hole_filled_overlapping", .cap = 4,
	  .pre = { { 0, 100 }, { 200, 300 } }, .npre = 2,
	  .ins = { 50, 350 }, .ret = 150,
	  .new = { { 100, 200 }, { 300, 350 } }, .nnew = 2, .low = 350 },
	{ .name = "hole_partly_filled", .cap = 4,
	  .pre = { { 0, 100 }, { 200, 300 } }, .npre = 2,
	  .ins = { 150, 250 }, .ret = 50, .new = { { 150, 200 } }, .nnew = 1,
	  .low = 100, .iv = { { 150, 300 } }, .niv = 1 },
	{ .name = "adjacent_left_of_interval", .cap = 4,
	  .pre = { { 200, 300 } }, .npre = 1,
	  .ins = { 150, 200 }, .ret = 50, .new = { { 150, 200 } }, .nnew = 1,
	  .low = 0, .iv = { { 150, 300 } }, .niv = 1 },
	{ .name = "adjacent_right_of_interval", .cap = 4,
	  .pre = { { 200, 300 } }, .npre = 1,
	  .ins = { 300, 310 }, .ret = 10, .new = { { 300, 310 } }, .nnew = 1,
	  .low = 0, .iv = { { 200, 310 } }, .niv = 1 },
	{ .name = "bridges_two_adjacent", .cap = 4,
	  .pre = { { 200, 300 }, { 400, 500 } }, .npre = 2,
	  .ins = { 300, 400 }, .ret = 100, .new = { { 300, 400 } }, .nnew = 1,
	  .low = 0, .iv = { { 200, 500 } }, .niv = 1 },
	{ .name = "covers_many", .cap = 8,
	  .pre = { { 10, 20 }, { 30, 40 }, { 50, 60 }, { 70, 80 } },
	  .npre = 4,
	  .ins = { 15, 75 }, .ret = 30,
	  .new = { { 20, 30 }, { 40, 50 }, { 60, 70 } }, .nnew = 3,
	  .low = 0, .iv = { { 10, 80 } }, .niv = 1 },
	{ .name = "covers_all_from_zero", .cap = 8,
	  .pre = { { 10, 20 }, { 30, 40 }, { 50, 60 } }, .npre = 3,
	  .ins = { 0, 100 }, .ret = 70,
	  .new = { { 0, 10 }, { 20, 30 }, { 40, 50 }, { 60, 100 } },
	  .nnew = 4, .low = 100 },
	{ .name = "inside_interval", .cap = 4,
	  .pre = { { 200, 300 } }, .npre = 1,
	  .ins = { 220, 280 }, .ret = 0,
	  .low = 0, .iv = { { 200, 300 } }, .niv = 1 },
	{ .name = "between_keeps_order", .cap = 4,
	  .pre = { { 500, 600 }, { 100, 200 } }, .npre = 2,
	  .ins = { 300, 400 }, .ret = 100, .new = { { 300, 400 } }, .nnew = 1,
	  .low = 0, .iv = { { 100, 200 }, { 300, 400 }, { 500, 600 } },
	  .niv = 3 },
	{ .name = "full_refuses_disjoint", .cap = 2,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2,
	  .ins = { 250, 260 }, .ret = -ENOSPC,
	  .low = 0, .iv = { { 100, 200 }, { 300, 400 } }, .niv = 2 },
	{ .name = "full_refuses_beyond", .cap = 2,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2,
	  .ins = { 401, 500 }, .ret = -ENOSPC,
	  .low = 0, .iv = { { 100, 200 }, { 300, 400 } }, .niv = 2 },
	{ .name = "full_accepts_extension", .cap = 2,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2,
	  .ins = { 400, 500 }, .ret = 100, .new = { { 400, 500 } }, .nnew = 1,
	  .low = 0, .iv = { { 100, 200 }, { 300, 500 } }, .niv = 2 },
	{ .name = "full_accepts_bridge", .cap = 2,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2,
	  .ins = { 150, 350 }, .ret = 100, .new = { { 200, 300 } }, .nnew = 1,
	  .low = 0, .iv = { { 100, 400 } }, .niv = 1 },
	{ .name = "full_accepts_watermark_hole", .cap = 2,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2,
	  .ins = { 0, 10 }, .ret = 10, .new = { { 0, 10 } }, .nnew = 1,
	  .low = 10, .iv = { { 100, 200 }, { 300, 400 } }, .niv = 2 },
	{ .name = "cap_one", .cap = 1,
	  .pre = { { 100, 200 } }, .npre = 1,
	  .ins = { 0, 150 }, .ret = 100, .new = { { 0, 100 } }, .nnew = 1,
	  .low = 200 },
	{ .name = "trim_inside_interval", .cap = 4,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2, .trim = 150,
	  .ins = { 0, 250 }, .ret = 50, .new = { { 200, 250 } }, .nnew = 1,
	  .low = 250, .iv = { { 300, 400 } }, .niv = 1 },
	{ .name = "trim_past_everything", .cap = 4,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2, .trim = 1000,
	  .ins = { 900, 1100 }, .ret = 100, .new = { { 1000, 1100 } },
	  .nnew = 1, .low = 1100 },
	{ .name = "trim_to_interval_start", .cap = 4,
	  .pre = { { 100, 200 }, { 300, 400 } }, .npre = 2, .trim = 300,
	  .ins = { 0, 0 }, .ret = 0,
	  .low = 400 },
	{ .name = "trim_below_watermark", .cap = 4,
	  .pre = { { 0, 100 }, { 300, 400 } }, .npre = 2, .trim = 50,
	  .ins = { 0, 0 }, .ret = 0,
	  .low = 100, .iv = { { 300, 400 } }, .niv = 1 },
	{ .name = "beyond_4g_start", .cap = 4, .start = 5 * G4 + 7,
	  .pre = { { 5 * G4, 5 * G4 + 100 } }, .npre = 1,
	  .ins = { 5 * G4 + 200, 5 * G4 + 300 }, .ret = 100,
	  .new = { { 5 * G4 + 200, 5 * G4 + 300 } }, .nnew = 1,
	  .low = 5 * G4 + 100,
	  .iv = { { 5 * G4 + 200, 5 * G4 + 300 } }, .niv = 1 },
	{ .name = "across_4g_boundary", .cap = 4,
	  .pre = { { 0, G4 - 10 }, { G4 + 10, G4 + 20 } }, .npre = 2,
	  .ins = { G4 - 20, G4 + 15 }, .ret = 20,
	  .new = { { G4 - 10, G4 + 10 } }, .nnew = 1, .low = G4 + 20 },
	{ .name = "32bit_alias_is_distinct", .cap = 4,
	  .pre = { { 0, 100 } }, .npre = 1,
	  .ins = { G4, G4 + 50 }, .ret = 50,
	  .new = { { G4, G4 + 50 } }, .nnew = 1, .low = 100,
	  .iv = { { G4, G4 + 50 } }, .niv = 1 },
};

static void ecp_ivset_case_desc(const struct ecp_ivset_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_ivset, ecp_ivset_cases, ecp_ivset_case_desc);

static void ecp_ivset_expect_state(struct kunit *test,
				   const struct ecp_ivset *s, u64 low,
				   const u64 (*iv)[2], unsigned int niv)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, ecp_ivset_low(s), low);
	KUNIT_ASSERT_EQ(test, ecp_ivset_count(s), niv);
	for (i = 0; i < niv; i++) {
		KUNIT_EXPECT_EQ(test, s->iv[i].start, iv[i][0]);
		KUNIT_EXPECT_EQ(test, s->iv[i].end, iv[i][1]);
	}
	KUNIT_EXPECT_EQ(test, ecp_ivset_high(s), niv ? iv[niv - 1][1] : low);
}

static void ecp_ivset_case_test(struct kunit *test)
{
	const struct ecp_ivset_case *c = test->param_value;
	struct ecp_ivset_rec *rec;
	struct ecp_ivset s;
	unsigned int i;
	s64 ret;

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_EQ(test, ecp_ivset_init(&s, c->cap, GFP_KERNEL), 0);
	ecp_ivset_reset(&s, c->start);
	for (i = 0; i < c->npre; i++) {
		ret = ecp_ivset_insert(&s, c->pre[i][0], c->pre[i][1],
				       NULL, NULL);
		KUNIT_EXPECT_GE(test, ret, 0);
	}
	if (c->trim)
		ecp_ivset_trim(&s, c->trim);

	ret = ecp_ivset_insert(&s, c->ins[0], c->ins[1], ecp_ivset_record, rec);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_FALSE(test, rec->overflow);
	KUNIT_EXPECT_EQ(test, rec->n, c->nnew);
	for (i = 0; i < min(rec->n, c->nnew); i++) {
		KUNIT_EXPECT_EQ(test, rec->r[i][0], c->new[i][0]);
		KUNIT_EXPECT_EQ(test, rec->r[i][1], c->new[i][1]);
	}
	ecp_ivset_expect_state(test, &s, c->low, c->iv, c->niv);
	ecp_ivset_destroy(&s);
}

static void ecp_ivset_init_test(struct kunit *test)
{
	struct ecp_ivset s;

	KUNIT_EXPECT_EQ(test, ecp_ivset_init(&s, 0, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ecp_ivset_init(&s, ECP_IVSET_MAX_CAP + 1,
					     GFP_KERNEL), -EINVAL);
	KUNIT_ASSERT_EQ(test, ecp_ivset_init(&s, ECP_IVSET_MAX_CAP,
					     GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&s), 0);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&s), 0);
	ecp_ivset_destroy(&s);
}

/* Every slot usable, and a retry after reset starts from scratch. */
static void ecp_ivset_fill_reset_test(struct kunit *test)
{
	struct ecp_ivset s;
	u32 i, cap = ECP_IVSET_MIN_CAP;

	KUNIT_ASSERT_EQ(test, ecp_ivset_init(&s, cap, GFP_KERNEL), 0);
	for (i = 0; i < cap; i++)
		KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 10 * i + 5,
						       10 * i + 6, NULL, NULL),
				1);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&s), cap);
	KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 10 * cap + 5, 10 * cap + 6,
					       NULL, NULL), -ENOSPC);
	/* Filling the holes from the watermark up drains every slot. */
	KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 0, 10 * cap, NULL, NULL),
			9 * cap);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&s), 0);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&s), 10 * cap);

	ecp_ivset_insert(&s, 10 * cap + 5, 10 * cap + 6, NULL, NULL);
	ecp_ivset_reset(&s, 3 * G4);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&s), 0);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&s), 3 * G4);
	KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 0, 3 * G4, NULL, NULL), 0);
	ecp_ivset_destroy(&s);
}

/*
 * Lent storage at the largest capacity, filled from the top down (each
 * range goes in front: the search and the move at their longest).
 */
static void ecp_ivset_init_on_test(struct kunit *test)
{
	u32 i, cap = ECP_IVSET_MAX_CAP;
	struct ecp_ivset s;
	struct ecp_iv *st;

	st = kunit_kcalloc(test, cap, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	ecp_ivset_init_on(&s, st, cap);
	ecp_ivset_reset(&s, 100);
	for (i = cap; i > 0; i--)
		KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 100 + 10 * i,
						       100 + 10 * i + 4,
						       NULL, NULL), 4);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&s), cap);
	KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 105, 106, NULL, NULL),
			-ENOSPC);
	for (i = 0; i < cap; i++) {
		KUNIT_EXPECT_EQ(test, ecp_ivset_at(&s, i).start,
				100 + 10 * (i + 1));
		KUNIT_EXPECT_EQ(test, ecp_ivset_at(&s, i).end,
				100 + 10 * (i + 1) + 4);
	}
	/* The first interval ending at or after an offset. */
	KUNIT_EXPECT_EQ(test, ecp_ivset_search(&s, 105), 0U);
	KUNIT_EXPECT_EQ(test, ecp_ivset_search(&s, 114), 0U);
	KUNIT_EXPECT_EQ(test, ecp_ivset_search(&s, 115), 1U);
	KUNIT_EXPECT_EQ(test, ecp_ivset_search(&s, 100 + 10 * cap + 4), cap - 1);
	KUNIT_EXPECT_EQ(test, ecp_ivset_search(&s, 100 + 10 * cap + 5), cap);
	/* Touching an interval needs no slot, even when full. */
	KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 100 + 10 * cap + 4,
					       100 + 10 * cap + 9, NULL, NULL),
			5);
	KUNIT_EXPECT_EQ(test, ecp_ivset_insert(&s, 100, 100 + 10 * cap + 9,
					       NULL, NULL), 6 * cap + 4);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&s), 0);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&s), 100 + 10 * cap + 9);
}

struct ecp_ivset_src {
	int other;
	struct ecp_ivset iv;
};

static void ecp_ivset_min_low_test(struct kunit *test)
{
	struct ecp_ivset_src src[3] = {};
	struct ecp_ivset sets[3] = {};
	unsigned int i;

	for (i = 0; i < 3; i++) {
		sets[i].low = (3 - i) * G4 + i;
		src[i].iv.low = 100 + i;
	}
	src[2].iv.low = 7;
	KUNIT_EXPECT_EQ(test, ecp_ivset_min_low(sets, 3), G4 + 2);
	KUNIT_EXPECT_EQ(test, ecp_ivset_min_low(sets, 1), 3 * G4);
	KUNIT_EXPECT_EQ(test, ecp_ivset_min_low_of(src, 3, iv), 7);
	KUNIT_EXPECT_EQ(test, ecp_ivset_min_low_of(src, 2, iv), 100);
}

/*
 * Random operations checked byte by byte against a bitmap of NBITS bytes
 * starting at the parameter's base offset; bits below the base count as
 * contributed, as after ecp_ivset_reset(base).
 */
#define NBITS	4096
#define NOPS	20000

struct ecp_ivset_rand_case {
	const char *name;
	u64 base;
	u32 cap;
	u32 maxlen;
	u64 seed;
};

static const struct ecp_ivset_rand_case ecp_ivset_rand_cases[] = {
	{ "cap2_short", 0, 2, 40, 1 },
	{ "cap8_mixed", 0, 8, 300, 2 },
	{ "cap32_mixed", 0, 32, 300, 3 },
	{ "cap32_tiny_segments", 0, 32, 8, 4 },
	{ "cap16_past_4g", 7 * G4 - 1000, 16, 200, 5 },
	{ "cap1_long", 0, 1, 1000, 6 },
};

static void ecp_ivset_rand_desc(const struct ecp_ivset_rand_case *c,
				char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_ivset_rand, ecp_ivset_rand_cases, ecp_ivset_rand_desc);

static bool ecp_model_has(const unsigned long *bm, u64 base, u64 off)
{
	if (off < base)
		return true;
	if (off >= base + NBITS)
		return false;
	return test_bit(off - base, bm);
}

static void ecp_ivset_check_model(struct kunit *test,
				  const struct ecp_ivset *s,
				  const unsigned long *bm, u64 base)
{
	unsigned long bit = find_first_zero_bit(bm, NBITS), end;
	unsigned int n = 0;

	KUNIT_ASSERT_EQ(test, ecp_ivset_low(s), base + bit);
	while (bit < NBITS) {
		bit = find_next_bit(bm, NBITS, bit);
		if (bit >= NBITS)
			break;
		end = find_next_zero_bit(bm, NBITS, bit);
		KUNIT_ASSERT_LT(test, n, ecp_ivset_count(s));
		KUNIT_ASSERT_EQ(test, s->iv[n].start, base + bit);
		KUNIT_ASSERT_EQ(test, s->iv[n].end, base + end);
		n++;
		bit = end;
	}
	KUNIT_ASSERT_EQ(test, n, ecp_ivset_count(s));
	KUNIT_ASSERT_LE(test, n, s->cap);
}

/* ecp_ivset_held() finds the model's first run of held bytes. */
static void ecp_ivset_check_held(struct kunit *test,
				 const struct ecp_ivset *s,
				 const unsigned long *bm, u64 base, u64 start,
				 u64 end)
{
	struct ecp_iv iv = ecp_ivset_held(s, start, end);
	u64 a = start, b;

	while (a < end && !ecp_model_has(bm, base, a))
		a++;
	if (a == end) {
		KUNIT_ASSERT_EQ(test, iv.start, 0);
		KUNIT_ASSERT_EQ(test, iv.end, 0);
		return;
	}
	for (b = a; b < end && ecp_model_has(bm, base, b); b++)
		;
	KUNIT_ASSERT_EQ(test, iv.start, a);
	KUNIT_ASSERT_EQ(test, iv.end, b);
}

static void ecp_ivset_random_test(struct kunit *test)
{
	const struct ecp_ivset_rand_case *c = test->param_value;
	struct ecp_ivset_rec *rec;
	struct rnd_state rnd;
	unsigned long *bm;
	unsigned int op, i, refused = 0, trims = 0;
	struct ecp_ivset s;
	u64 base = c->base;

	bm = kunit_kzalloc(test, BITS_TO_LONGS(NBITS) * sizeof(long),
			   GFP_KERNEL);
	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bm);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_EQ(test, ecp_ivset_init(&s, c->cap, GFP_KERNEL), 0);
	ecp_ivset_reset(&s, base);
	prandom_seed_state(&rnd, c->seed);

	for (op = 0; op < NOPS; op++) {
		u64 low = ecp_ivset_low(&s), start, end, pos, want = 0;
		u32 r = prandom_u32_state(&rnd);
		bool needs_slot, full = ecp_ivset_count(&s) == s.cap;
		s64 ret;

		if (low >= base + NBITS - c->maxlen - 64) {
			/* Start over so the stream keeps exercising holes. */
			bitmap_zero(bm, NBITS);
			ecp_ivset_reset(&s, base);
			continue;
		}
		if (r % 64 == 0) {
			/* Trim somewhere around the watermark. */
			u64 upto = low + (r >> 8) % (c->maxlen + 1);

			/* Sometimes a little below the watermark: a no-op. */
			upto = min(upto, base + NBITS - 1);
			upto -= min_t(u64, upto - base, (r >> 6) % 4);
			ecp_ivset_trim(&s, upto);
			if (upto > base)
				bitmap_set(bm, 0, upto - base);
			trims++;
			ecp_ivset_check_model(test, &s, bm, base);
			continue;
		}
		/* Mostly near the watermark, as retransmissions are. */
		start = low - min_t(u64, low - base, 100) +
			(r >> 8) % (4 * c->maxlen + 100);
		end = start + prandom_u32_state(&rnd) % (c->maxlen + 1);
		end = min(end, base + NBITS);
		start = min(start, end);

		/* A new slot is needed iff nothing recorded touches it. */
		needs_slot = start < end && start > low &&
			     !ecp_model_has(bm, base, start - 1) &&
			     !ecp_model_has(bm, base, end);
		for (pos = start; pos < end; pos++) {
			if (ecp_model_has(bm, base, pos))
				needs_slot = false;
			else
				want++;
		}

		ecp_ivset_check_held(test, &s, bm, base, start, end);
		rec->n = 0;
		ret = ecp_ivset_insert(&s, start, end, ecp_ivset_record, rec);
		KUNIT_ASSERT_FALSE(test, rec->overflow);
		/* Refused exactly when a new slot is needed and none is left. */
		KUNIT_ASSERT_EQ(test, ret == -ENOSPC, needs_slot && full);
		if (ret == -ENOSPC) {
			KUNIT_ASSERT_EQ(test, rec->n, 0);
			refused++;
			ecp_ivset_check_model(test, &s, bm, base);
			continue;
		}
		KUNIT_ASSERT_EQ(test, ret, (s64)want);
		/* The reported ranges are exactly the new bytes, in order. */
		pos = start;
		for (i = 0; i < rec->n; i++) {
			u64 a = rec->r[i][0], b = rec->r[i][1], x;

			KUNIT_ASSERT_LT(test, a, b);
			KUNIT_ASSERT_GE(test, a, pos);
			KUNIT_ASSERT_LE(test, b, end);
			for (x = pos; x < a; x++)
				KUNIT_ASSERT_TRUE(test,
						  ecp_model_has(bm, base, x));
			for (x = a; x < b; x++)
				KUNIT_ASSERT_FALSE(test,
						   ecp_model_has(bm, base, x));
			bitmap_set(bm, a - base, b - a);
			want -= b - a;
			pos = b;
		}
		KUNIT_ASSERT_EQ(test, want, 0);
		for (; pos < end; pos++)
			KUNIT_ASSERT_TRUE(test, ecp_model_has(bm, base, pos));
		ecp_ivset_check_model(test, &s, bm, base);
	}
	kunit_info(test, "%u ops, %u refused, %u trims\n", NOPS, refused,
		   trims);
	if (c->cap <= 8)
		KUNIT_EXPECT_GT(test, refused, 0);
	ecp_ivset_destroy(&s);
}

static struct kunit_case ecp_ivset_test_cases[] = {
	KUNIT_CASE_PARAM(ecp_ivset_case_test, ecp_ivset_gen_params),
	KUNIT_CASE(ecp_ivset_init_test),
	KUNIT_CASE(ecp_ivset_fill_reset_test),
	KUNIT_CASE(ecp_ivset_init_on_test),
	KUNIT_CASE(ecp_ivset_min_low_test),
	KUNIT_CASE_PARAM(ecp_ivset_random_test, ecp_ivset_rand_gen_params),
	{}
};

static struct kunit_suite ecp_ivset_test_suite = {
	.name = "ecproxy_ivset",
	.test_cases = ecp_ivset_test_cases,
};

kunit_test_suite(ecp_ivset_test_suite);
