// SPDX-License-Identifier: GPL-2.0
#include <kunit/test.h>
#include <linux/random.h>
#include <linux/sched.h>

#include "seq.h"

struct ecp_seq_case {
	const char *name;
	u32 seq, base;
	u64 ref;
	s64 want;
};

static const struct ecp_seq_case ecp_seq_cases[] = {
	{ "start", 1000, 1000, 0, 0 },
	{ "ahead", 1100, 1000, 0, 100 },
	{ "behind_start", 900, 1000, 0, -100 },
	{ "wrap_base", 5, 0xfffffff0, 0, 21 },
	{ "past_4g", 0x10, 0x0, 0xfffffff0ULL, 0x100000010LL },
	{ "behind_ref_past_4g", 0xfffffff0, 0x0, 0x100000010ULL, 0xfffffff0LL },
	{ "far_ahead", 0x7fffffff, 0, 0, 0x7fffffff },
	{ "half_back", 0x80000000, 0, 0, -0x80000000LL },
	{ "deep_stream", 0x1234, 0x1000, 0x500000000ULL, 0x500000234LL },
};

static void ecp_seq_case_desc(const struct ecp_seq_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_seq, ecp_seq_cases, ecp_seq_case_desc);

static void ecp_seq_to_off_test(struct kunit *test)
{
	const struct ecp_seq_case *c = test->param_value;
	s64 off = ecp_seq_to_off(c->seq, c->base, c->ref);

	KUNIT_EXPECT_EQ(test, off, c->want);
	if (off >= 0)
		KUNIT_EXPECT_EQ(test, ecp_off_to_seq(off, c->base), c->seq);
}

static void ecp_seq_order_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ecp_seq_before(1, 2));
	KUNIT_EXPECT_FALSE(test, ecp_seq_before(2, 2));
	KUNIT_EXPECT_TRUE(test, ecp_seq_before(0xffffffff, 0));
	KUNIT_EXPECT_TRUE(test, ecp_seq_after(0, 0xffffffff));
	KUNIT_EXPECT_FALSE(test, ecp_seq_after(5, 5));
}

/* A window is taken from an ACK no older than the last one taken. */
static void ecp_seq_win_fresh_test(struct kunit *test)
{
	u32 wl1 = 0xfffffff0;

	/* The ack moves: taken, whatever the window and sequence number. */
	KUNIT_EXPECT_TRUE(test, ecp_seq_win_fresh(&wl1, 101, 100, 5, 10, 90));
	KUNIT_EXPECT_EQ(test, wl1, 5);
	/* Older than the ack held: a reordered ACK, never. */
	KUNIT_EXPECT_FALSE(test, ecp_seq_win_fresh(&wl1, 99, 100, 9, 99, 10));
	KUNIT_EXPECT_EQ(test, wl1, 5);
	/* Same ack, later sequence number (past a wrap): taken. */
	wl1 = 0xfffffff0;
	KUNIT_EXPECT_TRUE(test, ecp_seq_win_fresh(&wl1, 100, 100, 0x10, 5, 9));
	KUNIT_EXPECT_EQ(test, wl1, 0x10);
	/* Same ack, earlier sequence number: a reordered segment. */
	KUNIT_EXPECT_FALSE(test, ecp_seq_win_fresh(&wl1, 100, 100, 0xfffffff8,
						   50, 9));
	KUNIT_EXPECT_EQ(test, wl1, 0x10);
	/* Neither moves: opened or closed, yes; narrowed or the same, no. */
	KUNIT_EXPECT_TRUE(test, ecp_seq_win_fresh(&wl1, 100, 100, 0x10, 10, 9));
	KUNIT_EXPECT_TRUE(test, ecp_seq_win_fresh(&wl1, 100, 100, 0x10, 0, 9));
	KUNIT_EXPECT_FALSE(test, ecp_seq_win_fresh(&wl1, 100, 100, 0x10, 8, 9));
	KUNIT_EXPECT_FALSE(test, ecp_seq_win_fresh(&wl1, 100, 100, 0x10, 9, 9));
}

/* A window offered at shift 7 (units of 128 bytes). */
static void ecp_seq_win_offer_test(struct kunit *test)
{
	u64 offered = 0;

	/* Rounded down: the edge given is 896 of 1000. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(0, 1000, &offered, 7, true), 7);
	KUNIT_EXPECT_EQ(test, offered, 896);
	/* Exact: 1024. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(0, 1024, &offered, 7, true), 8);
	KUNIT_EXPECT_EQ(test, offered, 1024);
	/* The ack moves by 1: 7 units would end at 897, so 8, at 1025. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(1, 1024, &offered, 7, true), 8);
	KUNIT_EXPECT_EQ(test, offered, 1025);
	/* Not rounded up: 6 units, ending at 898, within the 1025 given. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(130, 1025, &offered, 7, false),
			6);
	KUNIT_EXPECT_EQ(test, offered, 1025);
	/* An edge left of the one given (a source's smaller ack): kept. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(129, 500, &offered, 7, true), 7);
	KUNIT_EXPECT_EQ(test, offered, 1025);
	/* At the edge: zero, offered unchanged. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(1025, 1000, &offered, 7, true),
			0);
	KUNIT_EXPECT_EQ(test, offered, 1025);
	/* Clamped to 16 bits, and the edge given is the clamped one. */
	KUNIT_EXPECT_EQ(test, ecp_seq_win_offer(0x1000, 1ULL << 40, &offered,
						0, true), 0xffff);
	KUNIT_EXPECT_EQ(test, offered, 0x1000 + 0xffff);
}

/*
 * Random acks and edges at each shift, rounded up and not: the edge
 * given never moves left, never passes the larger of the edge asked for
 * and the last given (by a unit or more if rounded up, at all if not);
 * the field says it exactly if rounded up, and less than a unit short
 * of it if not.
 */
static void ecp_seq_win_offer_random_test(struct kunit *test)
{
	u64 nxt, edge, offered, prev, given;
	unsigned int i, up;
	u16 win;
	u8 ws;

	for (up = 0; up <= 1; up++) {
		for (ws = 0; ws <= 14; ws++) {
			nxt = 0;
			offered = 0;
			for (i = 0; i < 10000; i++) {
				nxt += get_random_u32() % 3000;
				edge = nxt +
				       get_random_u32() % (0xffffULL << ws);
				prev = offered;
				win = ecp_seq_win_offer(nxt, edge, &offered, ws,
							up);
				KUNIT_ASSERT_GE(test, offered, prev);
				KUNIT_ASSERT_LE(test, offered,
						max(edge, prev) +
						((u64)up << ws) - up);
				if (!win) {
					KUNIT_ASSERT_LE(test, offered, nxt);
					continue;
				}
				given = nxt + ((u64)win << ws);
				if (up) {
					KUNIT_ASSERT_EQ(test, offered, given);
					continue;
				}
				/* Short of the last by less than a unit. */
				KUNIT_ASSERT_LE(test, given, offered);
				KUNIT_ASSERT_LT(test, offered,
						given + (1ULL << ws));
			}
			/*
			 * 20000 random numbers take seconds on a debug kernel
			 * under TCG; a starved vCPU made it an RCU stall.
			 */
			cond_resched();
		}
	}
}

static struct kunit_case ecp_seq_test_cases[] = {
	KUNIT_CASE_PARAM(ecp_seq_to_off_test, ecp_seq_gen_params),
	KUNIT_CASE(ecp_seq_order_test),
	KUNIT_CASE(ecp_seq_win_fresh_test),
	KUNIT_CASE(ecp_seq_win_offer_test),
	KUNIT_CASE(ecp_seq_win_offer_random_test),
	{}
};

static struct kunit_suite ecp_seq_test_suite = {
	.name = "ecproxy_seq",
	.test_cases = ecp_seq_test_cases,
};

kunit_test_suite(ecp_seq_test_suite);
