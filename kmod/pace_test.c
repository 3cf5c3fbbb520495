// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for pacing (pace.h): Linux's rates, the departure times a
 * run of segments gets, no burst after a pause, and the GSO sizes.
 */
#include <kunit/test.h>

#include "pace.h"

static void ecp_pace_rate_test(struct kunit *test)
{
	/* 10 segments of 1448 over 2 ms: 7.24 MB/s, twice that in slow start. */
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, U32_MAX, 0, 2000),
			14480000ULL);
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, 14480, 0, 2000),
			8688000ULL);
	/* Slow start's ratio only below half ssthresh, as Linux. */
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, 28962, 0, 2000),
			14480000ULL);
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, 28960, 0, 2000),
			8688000ULL);
	/* More out than cwnd (PRR in a recovery): the pace of what is out. */
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, 14480, 28960, 2000),
			17376000ULL);
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, 14480, 1448, 2000),
			8688000ULL);
	/* No round trip yet: not paced. */
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(14480, U32_MAX, 0, 0), 0ULL);
	/* The largest window over a microsecond does not overflow. */
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(1U << 30, U32_MAX, 0, 1),
			(1ULL << 31) * 1000000);
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(1, U32_MAX, 1ULL << 40, 1),
			(u64)U32_MAX * 2000000);
	/* Never 0 once there is a round trip: that would mean unpaced. */
	KUNIT_EXPECT_EQ(test, ecp_pace_rate(1, 2, 0, 3000000), 1ULL);
}

static void ecp_pace_sent_test(struct kunit *test)
{
	u64 t = 5000000000ULL;
	/* 1 MB/s: 1 us a byte; the first segment is due now. */
	struct ecp_pace p = { .rate = 1000000, .next_ns = t };

	KUNIT_EXPECT_TRUE(test, ecp_pace_ready(&p, t));
	ecp_pace_sent(&p, t, 2896);
	KUNIT_EXPECT_EQ(test, p.next_ns, t + 2896000);
	KUNIT_EXPECT_FALSE(test, ecp_pace_ready(&p, t + 2895999));
	KUNIT_EXPECT_TRUE(test, ecp_pace_ready(&p, t + 2896000));
	/* Sent late: the next one's time counts from the last one's due. */
	ecp_pace_sent(&p, t + 2896000, 1448);
	KUNIT_EXPECT_EQ(test, p.next_ns, t + 4344000);
	/* 300 us late: made up for (OS jitter, tcp_update_skb_after_send()). */
	ecp_pace_sent(&p, t + 4644000, 1448);
	KUNIT_EXPECT_EQ(test, p.next_ns, t + 4644000 + 1448000 - 300000);
	/* But for at most half the segment's time. */
	ecp_pace_sent(&p, t + 6792000 + 1000000, 1448);
	KUNIT_EXPECT_EQ(test, p.next_ns, t + 7792000 + 724000);
	/* After a pause, from now: no credit for the idle time but half a packet's. */
	ecp_pace_sent(&p, t + 1000000000, 1448);
	KUNIT_EXPECT_EQ(test, p.next_ns, t + 1000724000);
	/* Unpaced: always ready, no departure times. */
	p.rate = 0;
	p.next_ns = U64_MAX;
	KUNIT_EXPECT_TRUE(test, ecp_pace_ready(&p, 0));
	ecp_pace_sent(&p, 0, 1448);
	KUNIT_EXPECT_EQ(test, p.next_ns, U64_MAX);
}

static void ecp_pace_size_test(struct kunit *test)
{
	struct ecp_pace p = {};
	u32 most = 65415 / 1448 * 1448;

	/* Unpaced: whole GSO packets. */
	KUNIT_EXPECT_EQ(test, ecp_pace_size(&p, 1448, most), most);
	/* 10 MB/s: about 10 KB a millisecond, in whole segments. */
	p.rate = 10 * 1024 * 1024;
	KUNIT_EXPECT_EQ(test, ecp_pace_size(&p, 1448, most), 7U * 1448);
	/* Slow: never below two segments. */
	p.rate = 100000;
	KUNIT_EXPECT_EQ(test, ecp_pace_size(&p, 1448, most), 2U * 1448);
	/* Fast: never above a GSO packet. */
	p.rate = 1ULL << 40;
	KUNIT_EXPECT_EQ(test, ecp_pace_size(&p, 1448, most), most);
	/* A path MSS above half a GSO packet: one segment. */
	KUNIT_EXPECT_EQ(test, ecp_pace_size(&p, 40000, 40000), 40000U);
	p.rate = 1000;
	KUNIT_EXPECT_EQ(test, ecp_pace_size(&p, 40000, 40000), 40000U);
}

static struct kunit_case ecp_pace_test_cases[] = {
	KUNIT_CASE(ecp_pace_rate_test),
	KUNIT_CASE(ecp_pace_sent_test),
	KUNIT_CASE(ecp_pace_size_test),
	{}
};

static struct kunit_suite ecp_pace_test_suite = {
	.name = "ecproxy_pace",
	.test_cases = ecp_pace_test_cases,
};

kunit_test_suite(ecp_pace_test_suite);
