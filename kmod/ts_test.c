// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for timestamps on a leg (ts.h): negotiation, PAWS across
 * the clock's wrap and its exceptions, TS.Recent's update rule, and the
 * round trips the echo gives, fed to the RTO estimator.
 */
#include <kunit/test.h>

#include "rtt.h"
#include "ts.h"

static void ecp_ts_open_test(struct kunit *test)
{
	struct ecp_ts ts = { .off = 7 };

	ecp_ts_open(&ts, true, true, 1000, 50);
	KUNIT_EXPECT_TRUE(test, ts.ok);
	KUNIT_EXPECT_EQ(test, ts.recent, 1000U);
	KUNIT_EXPECT_EQ(test, ts.recent_s, 50U);
	KUNIT_EXPECT_EQ(test, ecp_ts_optlen(&ts), 12U);
	KUNIT_EXPECT_EQ(test, ecp_ts_val(&ts, 100), 107U);
	/* Either end not offering: off, nothing echoed, no option room. */
	ecp_ts_open(&ts, false, true, 1000, 50);
	KUNIT_EXPECT_FALSE(test, ts.ok);
	KUNIT_EXPECT_EQ(test, ts.recent, 0U);
	KUNIT_EXPECT_EQ(test, ecp_ts_optlen(&ts), 0U);
	ecp_ts_open(&ts, true, false, 1000, 50);
	KUNIT_EXPECT_FALSE(test, ts.ok);
	/* Off, PAWS rejects nothing and no echo gives a sample. */
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 1, 1, 50));
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, 90, 100), 0U);
}

static void ecp_ts_paws_test(struct kunit *test)
{
	struct ecp_ts ts = {};

	ecp_ts_open(&ts, true, true, 5000, 10);
	/* The same, newer, or one tick older (TCP_PAWS_WINDOW) passes. */
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 5000, 1, 11));
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 9000, 1, 11));
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 4999, 1, 11));
	/* Older is an old duplicate. */
	KUNIT_EXPECT_TRUE(test, ecp_ts_paws_reject(&ts, 4998, 1, 11));
	KUNIT_EXPECT_TRUE(test, ecp_ts_paws_reject(&ts, 5000 - (1U << 30), 1,
						   11));
	/* Within the slack (a reordered duplicate ACK) it passes. */
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 4800, 200, 11));
	KUNIT_EXPECT_TRUE(test, ecp_ts_paws_reject(&ts, 4799, 200, 11));
	/* A TS.Recent 24 days old is no reference. */
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 1, 1,
						    10 + ECP_TS_STALE_S));
	KUNIT_EXPECT_TRUE(test, ecp_ts_paws_reject(&ts, 1, 1,
						   9 + ECP_TS_STALE_S));
	/* Nor is 0, which some stacks send in the handshake. */
	ecp_ts_open(&ts, true, true, 0, 10);
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 0xfffff000, 1, 11));
}

/* The peer's clock wraps: comparisons are modulo 2^32, as RFC 7323's. */
static void ecp_ts_wrap_test(struct kunit *test)
{
	struct ecp_ts ts = {};

	ecp_ts_open(&ts, true, true, 0xfffffff0, 10);
	ecp_ts_update(&ts, 0x10, 11);
	KUNIT_EXPECT_EQ(test, ts.recent, 0x10U);
	KUNIT_EXPECT_TRUE(test, ecp_ts_paws_reject(&ts, 0xfffffff0, 1, 11));
	KUNIT_EXPECT_FALSE(test, ecp_ts_paws_reject(&ts, 0x20, 1, 11));
}

static void ecp_ts_update_test(struct kunit *test)
{
	struct ecp_ts ts = {};

	ecp_ts_open(&ts, true, true, 100, 10);
	ecp_ts_update(&ts, 200, 12);
	KUNIT_EXPECT_EQ(test, ts.recent, 200U);
	KUNIT_EXPECT_EQ(test, ts.recent_s, 12U);
	/* Never backwards (a reordered segment within the slack). */
	ecp_ts_update(&ts, 150, 13);
	KUNIT_EXPECT_EQ(test, ts.recent, 200U);
	KUNIT_EXPECT_EQ(test, ts.recent_s, 12U);
	/* Unless TS.Recent is stale: the peer's clock may have restarted. */
	ecp_ts_update(&ts, 150, 12 + ECP_TS_STALE_S);
	KUNIT_EXPECT_EQ(test, ts.recent, 150U);
	/* Off, nothing is kept. */
	ts.ok = false;
	ecp_ts_update(&ts, 900, 20);
	KUNIT_EXPECT_EQ(test, ts.recent, 150U);
}

/* Which segment's TSval S echoes next (RFC 7323 §4.3). */
static void ecp_ts_at_edge_test(struct kunit *test)
{
	/* S last acked offset 1000. */
	KUNIT_EXPECT_TRUE(test, ecp_ts_at_edge(1000, 1448, 1000));
	KUNIT_EXPECT_TRUE(test, ecp_ts_at_edge(500, 1448, 1000));
	/* Beyond it: out of order, not what the ACK answers. */
	KUNIT_EXPECT_FALSE(test, ecp_ts_at_edge(1001, 1448, 1000));
	/* Wholly below it: a needless copy. */
	KUNIT_EXPECT_FALSE(test, ecp_ts_at_edge(0, 1000, 1000));
	KUNIT_EXPECT_FALSE(test, ecp_ts_at_edge(-1, 1, 1000));
	/* Pure ACKs and probes at or before it. */
	KUNIT_EXPECT_TRUE(test, ecp_ts_at_edge(1000, 0, 1000));
	KUNIT_EXPECT_TRUE(test, ecp_ts_at_edge(999, 0, 1000));
	KUNIT_EXPECT_FALSE(test, ecp_ts_at_edge(1001, 0, 1000));
	/* A FIN alone at the edge counts one. */
	KUNIT_EXPECT_TRUE(test, ecp_ts_at_edge(1000, 1, 1000));
}

static void ecp_ts_rtt_test(struct kunit *test)
{
	struct ecp_ts ts = { .off = 0x7ffffff0 };
	struct ecp_rtt r = {};
	u32 sent;

	ecp_ts_open(&ts, true, true, 1, 0);
	sent = ecp_ts_val(&ts, 1000);
	/* Echoed 40 ms later, across S's clock's wrap with the offset. */
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, sent, 1040), 40000U);
	sent = ecp_ts_val(&ts, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, sent, 0x10), 32000U);
	/* Within the millisecond: one, as Linux counts it; not none. */
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, ecp_ts_val(&ts, 5), 5), 1000U);
	/* No echo, one from the future, one over a minute old: none. */
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, 0, 5), 0U);
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, ecp_ts_val(&ts, 6), 5), 0U);
	KUNIT_EXPECT_EQ(test, ecp_ts_rtt_us(&ts, ecp_ts_val(&ts, 5), 60006),
			0U);
	/* The estimator takes echo samples as its own (RFC 6298). */
	ecp_rtt_sample(&r, ecp_ts_rtt_us(&ts, ecp_ts_val(&ts, 0), 300));
	KUNIT_EXPECT_EQ(test, r.srtt_us, 300000U);
	KUNIT_EXPECT_EQ(test, r.rttvar_us, 150000U);
}

static struct kunit_case ecp_ts_test_cases[] = {
	KUNIT_CASE(ecp_ts_open_test),
	KUNIT_CASE(ecp_ts_paws_test),
	KUNIT_CASE(ecp_ts_wrap_test),
	KUNIT_CASE(ecp_ts_update_test),
	KUNIT_CASE(ecp_ts_at_edge_test),
	KUNIT_CASE(ecp_ts_rtt_test),
	{}
};

static struct kunit_suite ecp_ts_test_suite = {
	.name = "ecproxy_ts",
	.test_cases = ecp_ts_test_cases,
};

kunit_test_suite(ecp_ts_test_suite);
