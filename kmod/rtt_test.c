// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the RTO estimator: RFC 6298's arithmetic, Linux's
 * bounds, Karn's rule, and the property the data path needs from it: under
 * a steady round trip, the RTO stays 200 ms above it.
 */
#include <kunit/test.h>

#include "rtt.h"

#define MS	1000ULL		/* microseconds */
#define SEC	1000000ULL

/* Time a segment ending at @end, sent at @t0 (us) and acked @us later. */
static void ecp_rtt_sample_us(struct ecp_rtt *r, u64 end, u64 t0, u64 us)
{
	ecp_rtt_sent(r, end, t0);
	ecp_rtt_acked(r, end, t0 + us);
}

static void ecp_rtt_sample_ms(struct ecp_rtt *r, u64 end, u64 t0,
			      unsigned int ms)
{
	ecp_rtt_sample_us(r, end, t0, ms * MS);
}

static void ecp_rtt_first_sample_test(struct kunit *test)
{
	struct ecp_rtt r = {};
	unsigned long rto;

	/* No sample yet (a repeated handshake without timestamps): 3 s. */
	KUNIT_EXPECT_EQ(test, ecp_rtt_rto(&r), (unsigned long)ECP_RTO_FALLBACK);
	KUNIT_EXPECT_EQ(test, ecp_rtt_rto(&r), (unsigned long)(3 * HZ));
	ecp_rtt_sample_ms(&r, 1000, 5 * SEC, 400);
	/* SRTT = R, RTTVAR = R / 2, RTO = R + 4 * R / 2 = 3 R. */
	KUNIT_EXPECT_EQ(test, r.srtt_us, 400 * MS);
	KUNIT_EXPECT_EQ(test, r.rttvar_us, r.srtt_us / 2);
	rto = ecp_rtt_rto(&r);
	KUNIT_EXPECT_GE(test, rto, msecs_to_jiffies(1200) - 1);
	KUNIT_EXPECT_LE(test, rto, msecs_to_jiffies(1200) + 1);
}

static void ecp_rtt_update_test(struct kunit *test)
{
	struct ecp_rtt r = {};
	u32 srtt, var, m;

	ecp_rtt_sample_ms(&r, 100, 0, 200);
	srtt = r.srtt_us;
	var = r.rttvar_us;
	ecp_rtt_sample_ms(&r, 200, SEC, 600);
	m = 600 * MS;
	KUNIT_EXPECT_EQ(test, r.rttvar_us, (3 * var + (m - srtt)) / 4);
	KUNIT_EXPECT_EQ(test, r.srtt_us, (7 * srtt + m) / 8);
}

static void ecp_rtt_steady_test(struct kunit *test)
{
	struct ecp_rtt r = {};
	u64 t = 0;
	int i;

	/*
	 * 250 ms, over the floor: the RTO stays 200 ms above the round trip,
	 * room for a queue to build (Linux's RTTVAR floor)...
	 */
	for (i = 0; i < 50; i++) {
		ecp_rtt_sample_ms(&r, 100 * (i + 1), t, 250);
		t += SEC;
		KUNIT_EXPECT_GE(test, ecp_rtt_rto(&r), msecs_to_jiffies(450));
	}
	/* ...and converges to that. */
	KUNIT_EXPECT_LE(test, ecp_rtt_rto(&r), msecs_to_jiffies(450) + 1);
	/* A rack's round trip, below one jiffy: the floor and that jiffy. */
	for (i = 0; i < 50; i++) {
		ecp_rtt_sample_ms(&r, 10000 + i, t, 0);
		t += SEC;
	}
	KUNIT_EXPECT_LE(test, r.srtt_us, 1000U);
	KUNIT_EXPECT_GE(test, ecp_rtt_rto(&r), (unsigned long)ECP_RTO_MIN);
	KUNIT_EXPECT_LE(test, ecp_rtt_rto(&r), (unsigned long)ECP_RTO_MIN + 1);
}

/*
 * Microseconds, not jiffies: a 60 us round trip reads as 60 us, where a
 * jiffy clock would have said 0 or a whole tick; an immediate ack still
 * gives a sample of 1 us.
 */
static void ecp_rtt_precision_test(struct kunit *test)
{
	struct ecp_rtt r = {};

	KUNIT_EXPECT_TRUE(test, !ecp_rtt_acked(&r, 100, 0));
	ecp_rtt_sent(&r, 100, 7 * SEC + 3);
	KUNIT_EXPECT_TRUE(test, ecp_rtt_acked(&r, 100, 7 * SEC + 63));
	KUNIT_EXPECT_EQ(test, r.srtt_us, 60U);
	KUNIT_EXPECT_EQ(test, r.rttvar_us, 30U);
	ecp_rtt_sent(&r, 200, 8 * SEC);
	KUNIT_EXPECT_TRUE(test, ecp_rtt_acked(&r, 200, 8 * SEC));
	KUNIT_EXPECT_EQ(test, r.srtt_us, (7 * 60U + 1) / 8);
	/* The timer fires no sooner than the floor, and a jiffy at most more. */
	KUNIT_EXPECT_GE(test, ecp_rtt_rto(&r), (unsigned long)ECP_RTO_MIN);
	KUNIT_EXPECT_LE(test, ecp_rtt_rto(&r), (unsigned long)ECP_RTO_MIN + 1);
}

static void ecp_rtt_cap_test(struct kunit *test)
{
	struct ecp_rtt r = {};

	ecp_rtt_sample_ms(&r, 1, 0, 10000);
	KUNIT_EXPECT_EQ(test, ecp_rtt_rto(&r), (unsigned long)ECP_RTO_MAX);
}

static void ecp_rtt_karn_test(struct kunit *test)
{
	struct ecp_rtt r = {};

	ecp_rtt_sample_ms(&r, 100, 0, 300);
	KUNIT_ASSERT_NE(test, r.srtt_us, 0U);
	/* Only the first segment sent while idle is timed. */
	ecp_rtt_sent(&r, 200, SEC);
	ecp_rtt_sent(&r, 300, 2 * SEC);
	KUNIT_EXPECT_EQ(test, r.end, 200ULL);
	/* An ack short of it ends nothing. */
	KUNIT_EXPECT_FALSE(test, ecp_rtt_acked(&r, 199, 3 * SEC));
	KUNIT_EXPECT_TRUE(test, r.timing);
	/* A re-send abandons the timing: its ack gives no sample. */
	ecp_rtt_resent(&r);
	KUNIT_EXPECT_FALSE(test, ecp_rtt_acked(&r, 300, 30 * SEC));
	KUNIT_EXPECT_EQ(test, r.srtt_us, 300 * MS);
	/* The next segment sent is timed again. */
	ecp_rtt_sent(&r, 400, 31 * SEC);
	KUNIT_EXPECT_TRUE(test, r.timing);
	KUNIT_EXPECT_EQ(test, r.end, 400ULL);
}

static struct kunit_case ecp_rtt_test_cases[] = {
	KUNIT_CASE(ecp_rtt_first_sample_test),
	KUNIT_CASE(ecp_rtt_update_test),
	KUNIT_CASE(ecp_rtt_steady_test),
	KUNIT_CASE(ecp_rtt_precision_test),
	KUNIT_CASE(ecp_rtt_cap_test),
	KUNIT_CASE(ecp_rtt_karn_test),
	{}
};

static struct kunit_suite ecp_rtt_test_suite = {
	.name = "ecproxy_rtt",
	.test_cases = ecp_rtt_test_cases,
};

kunit_test_suite(ecp_rtt_test_suite);
