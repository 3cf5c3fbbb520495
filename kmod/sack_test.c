// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the scoreboard: SACKed ranges against the cumulative
 * ack, RFC 6675's loss rule and pipe, which bytes a recovery re-sends
 * with and without SACK, going back N after an RTO, a scoreboard that
 * is full or whose receiver reneged, and one with a thousand holes.
 */
#include <kunit/test.h>

#include "sack.h"

#define MSS	1000U
/* The fewest ranges a task gives an output (ecp_task_holes()). */
#define CAP	ECP_IVSET_MIN_CAP

/* A scoreboard on @cap ranges the test owns. */
static void ecp_sack_test_init(struct kunit *test, struct ecp_sack *k,
			       u32 cap)
{
	struct ecp_iv *iv = kunit_kcalloc(test, cap, sizeof(*iv), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, iv);
	ecp_sack_init(k, iv, cap);
}

/* The SACKed bytes above the ack, counted range by range. */
static u64 ecp_sack_test_count(const struct ecp_sack *k)
{
	u64 n = ecp_ivset_low(&k->iv) - k->ack;
	u32 i;

	for (i = 0; i < ecp_ivset_count(&k->iv); i++)
		n += ecp_ivset_at(&k->iv, i).end - ecp_ivset_at(&k->iv, i).start;
	return n;
}

static void ecp_sack_blocks_test(struct kunit *test)
{
	struct ecp_sack k;

	ecp_sack_test_init(test, &k, CAP);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 0ULL);
	ecp_sack_add(&k, 3000, 5000);
	ecp_sack_add(&k, 8000, 9000);
	ecp_sack_add(&k, 4000, 6000);	/* overlaps: counted once */
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 4000ULL);
	KUNIT_EXPECT_EQ(test, ecp_sack_high(&k), 9000ULL);
	KUNIT_EXPECT_TRUE(test, ecp_sack_hole_lost(&k, MSS));
	/* The ack passes the first range: it is acked, not SACKed. */
	ecp_sack_ack(&k, 7000, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 1000ULL);
	KUNIT_EXPECT_FALSE(test, ecp_sack_hole_lost(&k, MSS));
	/* An ack below the last one changes nothing. */
	ecp_sack_ack(&k, 2000, MSS);
	KUNIT_EXPECT_EQ(test, k.ack, 7000ULL);
	ecp_sack_ack(&k, 9000, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 0ULL);
	KUNIT_EXPECT_EQ(test, ecp_sack_high(&k), 9000ULL);
}

/* 30 segments sent, the first 10 lost in a burst, the rest SACKed. */
static void ecp_sack_burst_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start;
	u32 len;

	ecp_sack_test_init(test, &k, CAP);
	ecp_sack_add(&k, 10 * MSS, 13 * MSS);
	KUNIT_EXPECT_TRUE(test, ecp_sack_hole_lost(&k, MSS));
	ecp_sack_start(&k, ecp_sack_high(&k), 0);
	/* 30 out, 3 SACKed, 10 lost: 17 still in the network. */
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 30 * MSS, MSS), 17ULL * MSS);
	ecp_sack_add(&k, 13 * MSS, 30 * MSS);
	ecp_sack_lose(&k, ecp_sack_high(&k));
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 30 * MSS, MSS), 0ULL);
	/* Every hole in one go, as far as the caller lets it. */
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 4 * MSS));
	KUNIT_EXPECT_EQ(test, start, 0ULL);
	KUNIT_EXPECT_EQ(test, len, 4 * MSS);
	ecp_sack_sent(&k, start + len);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 30 * MSS, MSS), 4ULL * MSS);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 4ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, 6 * MSS);	/* up to the SACKed range */
	ecp_sack_sent(&k, start + len);
	KUNIT_EXPECT_FALSE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 30 * MSS, MSS), 10ULL * MSS);
	/* The re-sent bytes arrive: all acked, nothing in the network. */
	ecp_sack_ack(&k, 30 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 30 * MSS, MSS), 0ULL);
}

/* Several holes: each is re-sent, SACKed bytes between them are not. */
static void ecp_sack_holes_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start, sent = 0;
	u32 len;

	ecp_sack_test_init(test, &k, CAP);
	/* Lost: [0, 1), [2, 3), [5, 7) segments; 20 sent. */
	ecp_sack_add(&k, 1 * MSS, 2 * MSS);
	ecp_sack_add(&k, 3 * MSS, 5 * MSS);
	ecp_sack_add(&k, 7 * MSS, 20 * MSS);
	ecp_sack_start(&k, ecp_sack_high(&k), 0);
	while (ecp_sack_next(&k, &start, &len, 64 * MSS)) {
		KUNIT_EXPECT_TRUE(test, start == 0 || start == 2 * MSS ||
				  start == 5 * MSS);
		sent += len;
		ecp_sack_sent(&k, start + len);
	}
	KUNIT_EXPECT_EQ(test, sent, 4ULL * MSS);
	/* A partial ack to the second hole: nothing is re-sent twice. */
	ecp_sack_ack(&k, 2 * MSS, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 3ULL * MSS);
}

/* NewReno: the duplicate ACKs inflate the window, a partial ack deflates it. */
static void ecp_sack_reno_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start;
	u32 len;

	ecp_sack_test_init(test, &k, CAP);
	ecp_sack_start(&k, MSS, 3);
	/* 20 out, 3 left the network, 1 lost. */
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 16ULL * MSS);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 0ULL);
	KUNIT_EXPECT_EQ(test, len, MSS);
	ecp_sack_sent(&k, start + len);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 17ULL * MSS);
	ecp_sack_dup(&k);
	ecp_sack_dup(&k);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 15ULL * MSS);
	/* A partial ack of 4 segments: 4 of the 5 duplicates are spent. */
	ecp_sack_ack(&k, 4 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, k.dups, 1U);
	ecp_sack_lose(&k, 5 * MSS);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 4ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, MSS);
}

/* An RTO: the SACKed ranges are forgotten, everything goes again. */
static void ecp_sack_timeout_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start;
	u32 len;

	ecp_sack_test_init(test, &k, CAP);
	ecp_sack_ack(&k, 10 * MSS, MSS);
	ecp_sack_add(&k, 12 * MSS, 14 * MSS);
	ecp_sack_clear(&k);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 0ULL);
	ecp_sack_start(&k, 20 * MSS, 0);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 0ULL);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, MSS));
	KUNIT_EXPECT_EQ(test, start, 10ULL * MSS);
	ecp_sack_sent(&k, start + len);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 1ULL * MSS);
	/* Its ack: the next segment follows (go back N). */
	ecp_sack_ack(&k, 11 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 20 * MSS, MSS), 0ULL);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 2 * MSS));
	KUNIT_EXPECT_EQ(test, start, 11ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, 2 * MSS);
	/* The receiver SACKs what it still holds: that is skipped. */
	ecp_sack_add(&k, 12 * MSS, 14 * MSS);
	ecp_sack_sent(&k, 12 * MSS);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 14ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, 6 * MSS);
}

/* More disjoint ranges than the set holds; a range at the ack. */
static void ecp_sack_bounds_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start;
	u32 len, i;

	ecp_sack_test_init(test, &k, CAP);
	for (i = 0; i < 2 * CAP; i++)
		ecp_sack_add(&k, (2 * i + 1) * MSS, (2 * i + 2) * MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), (u64)CAP * MSS);
	ecp_sack_start(&k, 4 * CAP * MSS, 0);
	/* Past the last range held, everything looks lost: re-sent. */
	for (i = 0; ecp_sack_next(&k, &start, &len, 64 * MSS); i++)
		ecp_sack_sent(&k, start + len);
	KUNIT_EXPECT_EQ(test, i, CAP + 1);

	/* The ack reaches a SACKed range: both count as delivered. */
	ecp_sack_test_init(test, &k, CAP);
	ecp_sack_add(&k, 1 * MSS, 3 * MSS);
	ecp_sack_ack(&k, 1 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 2ULL * MSS);
	ecp_sack_start(&k, 5 * MSS, 0);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 3ULL * MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 5 * MSS, MSS), 0ULL);
}

/*
 * 20 segments out, 2..5 lost; the re-sent copy of 2 is lost again, 3 and
 * 4 arrive: 2 goes again, and only 2; lost again, new bytes sent after it
 * arrive.  (The wait that keeps a late original from counting is the
 * caller's, conn_out.c.)
 */
static void ecp_sack_resent_lost_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start;
	u32 len;

	ecp_sack_test_init(test, &k, CAP);
	ecp_sack_ack(&k, 2 * MSS, MSS);
	ecp_sack_add(&k, 6 * MSS, 20 * MSS);
	ecp_sack_start(&k, ecp_sack_high(&k), 0);
	/* Before anything is re-sent, no block is about a copy. */
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 3 * MSS, 4 * MSS, 20 * MSS));
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 2ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, 4 * MSS);
	ecp_sack_sent(&k, start + len);
	/* Nothing left to re-send. */
	KUNIT_EXPECT_FALSE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	/* The hole's own block, or one at the ack: no hole below it. */
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 2 * MSS, 3 * MSS, 20 * MSS));
	/* Beyond what was re-sent: not a copy of this round. */
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 7 * MSS, 8 * MSS, 20 * MSS));
	/* 3..5 arrive, 2 does not. */
	KUNIT_EXPECT_TRUE(test, ecp_sack_resent_lost(&k, 3 * MSS, 5 * MSS, 20 * MSS));
	ecp_sack_again(&k);
	ecp_sack_add(&k, 3 * MSS, 5 * MSS);
	/* Already SACKed: nothing new, nothing lost. */
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 3 * MSS, 5 * MSS, 20 * MSS));
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 2ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, MSS);
	ecp_sack_sent(&k, start + len);
	KUNIT_ASSERT_TRUE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	KUNIT_EXPECT_EQ(test, start, 5ULL * MSS);
	KUNIT_EXPECT_EQ(test, len, MSS);
	ecp_sack_sent(&k, start + len);
	/* New bytes sent after the last copy arrive, 2's copy does not. */
	KUNIT_EXPECT_TRUE(test, ecp_sack_resent_lost(&k, 20 * MSS, 22 * MSS, 20 * MSS));
	/* Bytes sent before the last copy went say nothing of it... */
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 20 * MSS, 22 * MSS, 24 * MSS));
	/* ...a block that reaches past it does, by its new bytes there. */
	KUNIT_EXPECT_TRUE(test, ecp_sack_resent_lost(&k, 20 * MSS, 24 * MSS, 22 * MSS));
	ecp_sack_add(&k, 22 * MSS, 24 * MSS);
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 20 * MSS, 24 * MSS, 22 * MSS));
	/* Once the copies are acked, nothing is lost. */
	ecp_sack_ack(&k, 20 * MSS, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 20 * MSS, 22 * MSS, 20 * MSS));
}

/*
 * A slow start's overshoot into a full queue: every other segment of two
 * thousand lost.  A scoreboard sized as a task sizes it for a large ring
 * knows every hole: the recovery re-sends each lost segment once and no
 * SACKed one, and the SACKed bytes follow the acks, also one that ends
 * inside a SACKed range.
 */
static void ecp_sack_many_test(struct kunit *test)
{
	struct ecp_sack k;
	u64 start;
	u32 len, i, n = 0;

	ecp_sack_test_init(test, &k, ECP_IVSET_MAX_CAP);
	for (i = 0; i < 1000; i++)
		ecp_sack_add(&k, (2 * i + 1) * MSS, (2 * i + 2) * MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 1000ULL * MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_test_count(&k), 1000ULL * MSS);
	ecp_sack_start(&k, ecp_sack_high(&k), 0);
	/* 2000 out, 1000 SACKed, 1000 lost: none in the network. */
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 2000 * MSS, MSS), 0ULL);
	while (ecp_sack_next(&k, &start, &len, 64 * MSS)) {
		KUNIT_EXPECT_EQ(test, start, 2ULL * n * MSS);
		KUNIT_EXPECT_EQ(test, len, MSS);
		ecp_sack_sent(&k, start + len);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 1000U);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 2000 * MSS, MSS),
			1000ULL * MSS);
	/* The copies of the first 300 holes arrive. */
	ecp_sack_ack(&k, 600 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 700ULL * MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_test_count(&k), 700ULL * MSS);
	/* An ack halfway into the SACKed segment 601. */
	ecp_sack_ack(&k, 601 * MSS + MSS / 2, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 699ULL * MSS + MSS / 2);
	KUNIT_EXPECT_EQ(test, ecp_sack_test_count(&k), ecp_sack_bytes(&k));
	KUNIT_EXPECT_FALSE(test, ecp_sack_next(&k, &start, &len, 64 * MSS));
	/* A SACK of a copy beyond a hole whose copy is not SACKed yet. */
	KUNIT_EXPECT_TRUE(test, ecp_sack_resent_lost(&k, 604 * MSS, 605 * MSS, 2000 * MSS));
	KUNIT_EXPECT_FALSE(test, ecp_sack_resent_lost(&k, 602 * MSS, 603 * MSS, 2000 * MSS));
	ecp_sack_ack(&k, 2000 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, ecp_sack_bytes(&k), 0ULL);
	KUNIT_EXPECT_EQ(test, ecp_sack_pipe(&k, 2000 * MSS, MSS), 0ULL);
}

static struct kunit_case ecp_sack_test_cases[] = {
	KUNIT_CASE(ecp_sack_blocks_test),
	KUNIT_CASE(ecp_sack_burst_test),
	KUNIT_CASE(ecp_sack_holes_test),
	KUNIT_CASE(ecp_sack_reno_test),
	KUNIT_CASE(ecp_sack_timeout_test),
	KUNIT_CASE(ecp_sack_bounds_test),
	KUNIT_CASE(ecp_sack_resent_lost_test),
	KUNIT_CASE(ecp_sack_many_test),
	{}
};

static struct kunit_suite ecp_sack_test_suite = {
	.name = "ecproxy_sack",
	.test_cases = ecp_sack_test_cases,
};

kunit_test_suite(ecp_sack_test_suite);
