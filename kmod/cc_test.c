// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the congestion window towards the client: the growth rules,
 * the reductions, and a round-trip simulation against a bottleneck with a
 * finite queue, where the window must settle around the path's capacity instead
 * of flooding the queue.
 */
#include <kunit/test.h>

#include "cc.h"

#define MSS	1448

static void ecp_cc_slow_start_test(struct kunit *test)
{
	struct ecp_cc cc;
	int i;

	ecp_cc_init(&cc, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, ECP_CC_INIT_SEGS * MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, ECP_CC_MAX);
	/* One segment per ACK: one more segment each. */
	for (i = 0; i < 10; i++)
		ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 20 * MSS);
	/* A stretch ACK counts for two segments at most. */
	ecp_cc_acked(&cc, 16 * MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 22 * MSS);
	/* Nothing acknowledged, nothing grows. */
	ecp_cc_acked(&cc, 0, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 22 * MSS);
}

/*
 * CUBIC after a loss: 7/10 of the window kept, then concave back to where
 * it was lost by K = cbrt(W_max (1 - beta) / C) (4.2 s from 100 segments),
 * a plateau there, convex beyond; never slower than Reno (9/17 segment per
 * window).
 */
static void ecp_cc_avoidance_test(struct kunit *test)
{
	const u64 rtt = 100000;		/* us */
	u32 at1s = 0, at2s = 0, at3s = 0, atk = 0, at6s = 0;
	struct ecp_cc cc;
	u32 before;
	int i, round;

	ecp_cc_init(&cc, MSS);
	ecp_cc_loss(&cc, 100 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 70 * MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 70 * MSS);
	KUNIT_EXPECT_EQ(test, cc.w_max, 100 * MSS);
	/* A window acked at one instant: Reno's share of a segment. */
	before = cc.cwnd;
	for (i = 0; i < 70; i++)
		ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.k_ms, 4217U);
	KUNIT_EXPECT_GE(test, cc.cwnd, before + MSS * 9 / 17 - 70);
	KUNIT_EXPECT_LE(test, cc.cwnd, before + MSS * 9 / 17 + 70);
	/* A window per round trip, for 6 s. */
	cc.rtt_min_us = rtt;
	for (round = 1; round <= 60; round++) {
		u32 w = cc.cwnd;

		for (i = 0; i < w / MSS; i++)
			ecp_cc_acked(&cc, MSS, MSS, false, round * rtt);
		if (round == 10)
			at1s = cc.cwnd;
		if (round == 20)
			at2s = cc.cwnd;
		if (round == 30)
			at3s = cc.cwnd;
		if (round == 42)
			atk = cc.cwnd;
	}
	at6s = cc.cwnd;
	/* Concave: the first second gains more than the third... */
	KUNIT_EXPECT_GT(test, at1s - 70 * MSS, at3s - at2s);
	/* ...the plateau is where the loss was... */
	KUNIT_EXPECT_GE(test, atk, 97 * MSS);
	KUNIT_EXPECT_LE(test, atk, 101 * MSS);
	/* ...and beyond it the window probes convexly for more. */
	KUNIT_EXPECT_GT(test, at6s, 102 * MSS);
	KUNIT_EXPECT_LT(test, at6s, 120 * MSS);
	/* A tiny ACK below the target still moves the window. */
	before = cc.cwnd;
	ecp_cc_acked(&cc, 1, MSS, false, 100 * rtt);
	KUNIT_EXPECT_EQ(test, cc.cwnd, before + 1);
	/* Lost again short of W_max: fast convergence lowers it. */
	ecp_cc_loss(&cc, 90 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 63 * MSS);
	ecp_cc_loss(&cc, 60 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.w_max, 51 * MSS);
	/* An RTO forgets it. */
	ecp_cc_timeout(&cc, 40 * MSS, 0, MSS);
	KUNIT_EXPECT_EQ(test, cc.w_max, 0U);
	/* No loss to aim at (an RTO, or HyStart's end): 5% a window. */
	ecp_cc_init(&cc, MSS);
	cc.cwnd = 100 * MSS;
	cc.ssthresh = cc.cwnd;
	for (i = 0; i < 100; i++)
		ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_GE(test, cc.cwnd, 104 * MSS);
	KUNIT_EXPECT_LE(test, cc.cwnd, 106 * MSS);
}

/* The integer cube root under K, at and around exact cubes. */
static void ecp_cc_cbrt_test(struct kunit *test)
{
	struct ecp_cc cc;

	/* K from W_max - cwnd = 0.4 k^3 segments: exactly k seconds. */
	ecp_cc_init(&cc, MSS);
	cc.w_max = 4000 * MSS;
	cc.cwnd = 3600 * MSS;
	cc.ssthresh = cc.cwnd;
	ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.k_ms, 10000U);
	ecp_cc_init(&cc, MSS);
	cc.w_max = 4000 * MSS;
	cc.cwnd = 3600 * MSS + 1;
	cc.ssthresh = cc.cwnd;
	ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.k_ms, 9999U);
	/* The largest window: no overflow. */
	ecp_cc_init(&cc, 536);
	cc.w_max = ECP_CC_MAX;
	cc.cwnd = 2 * 536;
	cc.ssthresh = cc.cwnd;
	ecp_cc_acked(&cc, 536, 536, false, 0);
	KUNIT_EXPECT_GT(test, cc.k_ms, 171000U);
	KUNIT_EXPECT_LT(test, cc.k_ms, 171200U);
	KUNIT_EXPECT_LE(test, cc.cwnd, ECP_CC_MAX);
}

static void ecp_cc_recovery_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	ecp_cc_loss(&cc, 40 * MSS, MSS);
	/* Partial ACKs do not grow the window. */
	ecp_cc_acked(&cc, 5 * MSS, MSS, true, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	ecp_cc_recovered(&cc);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	/* The floor: two segments. */
	ecp_cc_loss(&cc, MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 2 * MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 2 * MSS);
}

/*
 * PRR (RFC 6937): a slow start put 300 segments out and lost many.  While
 * the pipe is above ssthresh (7/10 of 300), S may send 7/10 of what the
 * output gets; below it, what the output gets and a segment per ack that
 * moved, up to ssthresh.  At the end the window is ssthresh.  Not after
 * an RTO, whose window is slow start's.
 */
static void ecp_cc_prr_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	ecp_cc_recover(&cc, 300 * MSS, 300 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 210 * MSS);
	/* Nothing delivered, nothing changes. */
	ecp_cc_prr(&cc, 0, 280 * MSS, false, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 210 * MSS);
	ecp_cc_prr(&cc, 10 * MSS, 280 * MSS, false, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 287 * MSS);
	ecp_cc_prr_sent(&cc, 0, 7 * MSS);
	ecp_cc_prr(&cc, 10 * MSS, 277 * MSS, true, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 284 * MSS);
	/* In bytes, rounded up: 7/10 of 23 segments is 16.1, 14 went. */
	ecp_cc_prr_sent(&cc, 0, 7 * MSS);
	ecp_cc_prr(&cc, 3 * MSS, 274 * MSS, false, MSS);
	KUNIT_EXPECT_EQ(test, cc.prr_delivered, 23ULL * MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 274 * MSS + DIV_ROUND_UP(210 * 23 * MSS, 300) -
			14 * MSS);
	ecp_cc_prr_sent(&cc, 0, 2 * MSS);
	/* Below ssthresh: delivered less sent (12), a segment more, up to it. */
	ecp_cc_prr(&cc, 5 * MSS, 190 * MSS, true, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 203 * MSS);
	ecp_cc_prr(&cc, 30 * MSS, 200 * MSS, true, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 210 * MSS);
	/* Bytes sent outside the recovery do not count. */
	ecp_cc_prr_sent(&cc, 300 * MSS, 50 * MSS);
	KUNIT_EXPECT_EQ(test, cc.prr_out, 16ULL * MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ack(&cc, 0, 300 * MSS, MSS, 0));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 210 * MSS);

	/* A recovery that PRR left at a small window ends at ssthresh. */
	ecp_cc_recover(&cc, 100 * MSS, 400 * MSS, MSS);
	ecp_cc_prr(&cc, MSS, 10 * MSS, true, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 12 * MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ack(&cc, 300 * MSS, 400 * MSS, MSS, 0));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 70 * MSS);

	/* After an RTO: slow start's window, no PRR. */
	ecp_cc_timeout(&cc, 100 * MSS, 500 * MSS, MSS);
	ecp_cc_prr(&cc, 10 * MSS, 0, true, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, MSS);
}

/* Limited transmit: a segment per duplicate, two at most, none in recovery. */
static void ecp_cc_limited_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	KUNIT_EXPECT_EQ(test, ecp_cc_limited(&cc, 0, MSS), 0U);
	KUNIT_EXPECT_FALSE(test, ecp_cc_dupack(&cc, 0));
	KUNIT_EXPECT_EQ(test, ecp_cc_limited(&cc, 0, MSS), MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_dupack(&cc, 0));
	KUNIT_EXPECT_EQ(test, ecp_cc_limited(&cc, 0, MSS), 2 * MSS);
	/* The third starts a recovery: its window, not beyond. */
	KUNIT_EXPECT_TRUE(test, ecp_cc_dupack(&cc, 0));
	KUNIT_EXPECT_EQ(test, ecp_cc_limited(&cc, 0, MSS), 0U);
	ecp_cc_recover(&cc, 20 * MSS, 20 * MSS, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ack(&cc, 0, 20 * MSS, MSS, 0));
	KUNIT_EXPECT_EQ(test, ecp_cc_limited(&cc, 20 * MSS, MSS), 0U);
	/* Duplicates below the recovery point let nothing out. */
	ecp_cc_recover(&cc, 20 * MSS, 40 * MSS, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_dupack(&cc, 20 * MSS));
	KUNIT_EXPECT_EQ(test, ecp_cc_limited(&cc, 20 * MSS, MSS), 0U);
}

static void ecp_cc_timeout_test(struct kunit *test)
{
	struct ecp_cc cc;
	int i;

	ecp_cc_init(&cc, MSS);
	ecp_cc_timeout(&cc, 60 * MSS, 60 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 42 * MSS);
	/* Recovery after a timeout keeps the one segment... */
	ecp_cc_recovered(&cc);
	KUNIT_EXPECT_EQ(test, cc.cwnd, MSS);
	/* ...then slow start up to ssthresh, and slower after it. */
	for (i = 0; i < 41; i++)
		ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 42 * MSS);
	ecp_cc_acked(&cc, MSS, MSS, false, 0);
	KUNIT_EXPECT_LT(test, cc.cwnd, 43 * MSS);
}

/*
 * The window grows only while it is used: a flight the sources or the
 * client's window kept small grows nothing, and slow start goes up to
 * twice the flight.
 */
static void ecp_cc_validate_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	ecp_cc_sent(&cc, 0, 2 * MSS, 2 * MSS, false, 1000, 50, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_full(&cc));
	KUNIT_EXPECT_FALSE(test, ecp_cc_ack(&cc, 0, 2 * MSS, MSS, 0));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 10 * MSS);
	/* Six of ten segments in flight: slow start may double that. */
	ecp_cc_sent(&cc, 2 * MSS, 8 * MSS, 6 * MSS, false, 1001, 50, MSS);
	KUNIT_EXPECT_TRUE(test, ecp_cc_full(&cc));
	ecp_cc_ack(&cc, 2 * MSS, 4 * MSS, MSS, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 12 * MSS);
	/* In congestion avoidance only a full window grows. */
	ecp_cc_loss(&cc, 40 * MSS, MSS);
	ecp_cc_sent(&cc, 4 * MSS, 30 * MSS, 19 * MSS, false, 1002, 50, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_full(&cc));
	ecp_cc_ack(&cc, 4 * MSS, 6 * MSS, MSS, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	ecp_cc_sent(&cc, 6 * MSS, 34 * MSS, 28 * MSS, true, 1003, 50, MSS);
	KUNIT_EXPECT_TRUE(test, ecp_cc_full(&cc));
	ecp_cc_ack(&cc, 6 * MSS, 34 * MSS, MSS, 0);
	KUNIT_EXPECT_GT(test, cc.cwnd, 28 * MSS);
	KUNIT_EXPECT_LE(test, cc.cwnd, 29 * MSS);
	/* The flight ends once acked: the next one starts unused. */
	ecp_cc_sent(&cc, 34 * MSS, 36 * MSS, 2 * MSS, false, 1004, 50, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_full(&cc));
}

/*
 * An RTO of application-limited flights brings the window halfway down to
 * what they used, no lower than the initial window; not in a recovery.
 */
static void ecp_cc_app_limited_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	ecp_cc_loss(&cc, 200 * MSS, MSS);
	ecp_cc_sent(&cc, 0, 100 * MSS, 100 * MSS, true, 1000, 50, MSS);
	ecp_cc_sent(&cc, 100 * MSS, 120 * MSS, 20 * MSS, false, 1020, 50, MSS);
	ecp_cc_sent(&cc, 100 * MSS, 124 * MSS, 24 * MSS, false, 1049, 50, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 140 * MSS);
	ecp_cc_sent(&cc, 124 * MSS, 130 * MSS, 6 * MSS, false, 1050, 50, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 82 * MSS);
	/* What it reached is kept as ssthresh: slow start back to it. */
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 140 * MSS);
	/* Flights smaller than the initial window: down to that. */
	ecp_cc_sent(&cc, 130 * MSS, 132 * MSS, 2 * MSS, false, 1100, 50, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 46 * MSS);
	ecp_cc_sent(&cc, 132 * MSS, 134 * MSS, 2 * MSS, false, 1150, 50, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	/* In a recovery the window is the recovery's. */
	ecp_cc_recover(&cc, 20 * MSS, 200 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 14 * MSS);
	cc.cwnd = 30 * MSS;
	ecp_cc_sent(&cc, 134 * MSS, 136 * MSS, 2 * MSS, false, 1300, 50, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 30 * MSS);
}

/* After an RTO idle, half the window per RTO, down to the initial window. */
static void ecp_cc_restart_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	ecp_cc_loss(&cc, 200 * MSS, MSS);
	ecp_cc_restart(&cc, 49, 50, 1000, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 140 * MSS);
	ecp_cc_restart(&cc, 60, 50, 1000, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 70 * MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 140 * MSS);
	ecp_cc_restart(&cc, 100, 50, 1000, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 35 * MSS / 2);
	ecp_cc_restart(&cc, 10000, 50, 1000, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, ECP_CC_INIT_SEGS * MSS);
	/* A window below the initial one stays as it is. */
	cc.cwnd = 4 * MSS;
	ecp_cc_restart(&cc, 10000, 50, 1000, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 4 * MSS);
}

/*
 * An ECN echo halves the window once per window of data, starts no
 * recovery, and holds the window until that data is acked.
 */
static void ecp_cc_ece_test(struct kunit *test)
{
	struct ecp_cc cc;

	ecp_cc_init(&cc, MSS);
	cc.cwnd = 40 * MSS;
	KUNIT_EXPECT_TRUE(test, ecp_cc_ece(&cc, 0, 40 * MSS, 40 * MSS, MSS));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 28 * MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ece(&cc, 10 * MSS, 30 * MSS, 40 * MSS,
					    MSS));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	/* Nothing was lost: nothing to re-send. */
	KUNIT_EXPECT_FALSE(test, ecp_cc_recovering(&cc, 10 * MSS));
	ecp_cc_sent(&cc, 10 * MSS, 40 * MSS, 30 * MSS, true, 1000, 50, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ack(&cc, 10 * MSS, 20 * MSS, MSS, 0));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28 * MSS);
	ecp_cc_ack(&cc, 20 * MSS, 40 * MSS, MSS, 0);
	KUNIT_EXPECT_GT(test, cc.cwnd, 28 * MSS);
	KUNIT_EXPECT_LE(test, cc.cwnd, 29 * MSS);
	/* The next window's echo cuts it again... */
	KUNIT_EXPECT_TRUE(test, ecp_cc_ece(&cc, 40 * MSS, 20 * MSS, 60 * MSS,
					   MSS));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 14 * MSS);
	/* ...and none in a loss recovery, which halved it already. */
	ecp_cc_recover(&cc, 20 * MSS, 100 * MSS, MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ece(&cc, 60 * MSS, 40 * MSS, 100 * MSS,
					    MSS));
	/* Nothing outstanding, nothing to slow down. */
	ecp_cc_ack(&cc, 60 * MSS, 100 * MSS, MSS, 0);
	KUNIT_EXPECT_FALSE(test, ecp_cc_ece(&cc, 100 * MSS, 0, 100 * MSS, MSS));
}

/*
 * HyStart: a round whose least round trip grew by more than an eighth of
 * the least seen (clamped to 4-16 ms) ends slow start, from 16 segments on.
 */
static void ecp_cc_hystart_test(struct kunit *test)
{
	const u32 ms = 1000;
	struct ecp_cc cc;
	u64 ack = 0, nxt = 20 * MSS;
	int i;

	ecp_cc_init(&cc, MSS);
	/* No sample, nothing learnt. */
	KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, ack, nxt, 0, true, MSS));
	KUNIT_EXPECT_EQ(test, cc.rtt_min_us, 0U);
	/* Below 16 segments a queue building does not count. */
	for (i = 0; i < 8; i++)
		ecp_cc_hystart(&cc, ack + i, nxt, 200 * ms, true, MSS);
	ack = nxt;
	nxt *= 2;
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, ack + i, nxt,
							300 * ms, true, MSS));
	KUNIT_EXPECT_EQ(test, cc.ssthresh, ECP_CC_MAX);
	KUNIT_EXPECT_EQ(test, cc.rtt_min_us, 200 * ms);
	/* 16 ms more than 200 is within the clamp... */
	cc.cwnd = 40 * MSS;
	ack = nxt;
	nxt *= 2;
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, ack + i, nxt,
							216 * ms, true, MSS));
	/* ...and only the least of the round counts... */
	ack = nxt;
	nxt *= 2;
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, ack + i, nxt,
					i == 3 ? 201 * ms : 300 * ms, true, MSS));
	/* ...the eighth sample of a round 17 ms late ends slow start. */
	ack = nxt;
	nxt *= 2;
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, ack + i, nxt,
							217 * ms, true, MSS));
	KUNIT_EXPECT_TRUE(test, ecp_cc_hystart(&cc, ack + 7, nxt, 217 * ms,
					       true, MSS));
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 40 * MSS);
	KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, nxt, 2 * nxt, 300 * ms,
						true, MSS));

	/* At a rack's round trip the threshold is 4 ms, not an eighth. */
	ecp_cc_init(&cc, MSS);
	cc.cwnd = 40 * MSS;
	ecp_cc_hystart(&cc, 0, 100 * MSS, 100, true, MSS);
	for (i = 1; i < 8; i++)
		ecp_cc_hystart(&cc, i, 100 * MSS, 4100, true, MSS);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, ECP_CC_MAX);
	/* With the echo on every ack, a round of one sample says nothing... */
	KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, 100 * MSS, 200 * MSS,
						4200, true, MSS));
	KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, 200 * MSS, 300 * MSS,
						4200, true, MSS));
	KUNIT_EXPECT_EQ(test, cc.ssthresh, ECP_CC_MAX);
	/* ...without timestamps (one per round) it is judged as it ends. */
	ecp_cc_init(&cc, MSS);
	cc.cwnd = 40 * MSS;
	KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, 0, 100 * MSS, 100, false,
						MSS));
	KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, 100 * MSS, 200 * MSS,
						4200, false, MSS));
	KUNIT_EXPECT_TRUE(test, ecp_cc_hystart(&cc, 200 * MSS, 300 * MSS,
					       4200, false, MSS));
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 40 * MSS);

	/* A fast recovery's samples only keep the least... */
	ecp_cc_init(&cc, MSS);
	cc.cwnd = 40 * MSS;
	ecp_cc_recover(&cc, 40 * MSS, 40 * MSS, MSS);
	cc.ssthresh = ECP_CC_MAX;
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_FALSE(test, ecp_cc_hystart(&cc, i, 40 * MSS,
					i ? 50 * ms : 10 * ms, true, MSS));
	KUNIT_EXPECT_EQ(test, cc.rtt_min_us, 10 * ms);
	/* ...an RTO forgets it, and its slow start has the rule too. */
	ecp_cc_timeout(&cc, 80 * MSS, 40 * MSS, MSS);
	KUNIT_EXPECT_EQ(test, cc.rtt_min_us, 0U);
	cc.cwnd = 20 * MSS;
	for (i = 0; i < 8; i++)
		ecp_cc_hystart(&cc, i, 40 * MSS, 10 * ms, true, MSS);
	for (i = 0; i < 7; i++)
		ecp_cc_hystart(&cc, 40 * MSS + i, 80 * MSS, 20 * ms, true, MSS);
	KUNIT_EXPECT_TRUE(test, ecp_cc_hystart(&cc, 40 * MSS + 7, 80 * MSS,
					       20 * ms, true, MSS));
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 20 * MSS);
}

static void ecp_cc_cap_test(struct kunit *test)
{
	struct ecp_cc cc;
	int i;

	ecp_cc_init(&cc, MSS);
	cc.cwnd = ECP_CC_MAX - MSS;
	for (i = 0; i < 10; i++)
		ecp_cc_acked(&cc, 2 * MSS, MSS, false, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, ECP_CC_MAX);
	ecp_cc_loss(&cc, U64_MAX, MSS);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)((u64)ECP_CC_MAX * 7 / 10));
	KUNIT_EXPECT_EQ(test, cc.w_max, ECP_CC_MAX);
}

/*
 * Round trips against a bottleneck that passes @bdp bytes per round trip
 * and queues @queue more; the rest of a round's window is dropped (one
 * loss event per round, as with a tail-drop queue).  Over many rounds the
 * sender must use most of the capacity and lose a small share: the burst
 * that a window-less sender puts into the queue is what this prevents.
 */
static void ecp_cc_bottleneck_test(struct kunit *test)
{
	const u64 bdp = 40 * MSS, queue = 40 * MSS;
	u64 sent = 0, delivered = 0, lost = 0;
	struct ecp_cc cc;
	int round;

	ecp_cc_init(&cc, MSS);
	for (round = 0; round < 2000; round++) {
		u64 w = cc.cwnd, pass = min(w, bdp + queue), a;

		sent += w;
		delivered += pass;
		if (w > pass) {
			lost += w - pass;
			ecp_cc_loss(&cc, w, MSS);
			/* One hole per round trip, then the rest is acked. */
			ecp_cc_acked(&cc, MSS, MSS, true, 0);
			ecp_cc_recovered(&cc);
			continue;
		}
		for (a = 0; a < pass; a += MSS)
			ecp_cc_acked(&cc, MSS, MSS, false, round * 100000ULL);
		KUNIT_ASSERT_LE(test, cc.cwnd, ECP_CC_MAX);
	}
	/* Most of what is sent arrives... */
	KUNIT_EXPECT_LT(test, lost * 50, sent);
	/* ...and the window keeps the pipe (bdp, not the queue) busy. */
	KUNIT_EXPECT_GT(test, delivered, 2000 * bdp * 3 / 4);
}

static struct kunit_case ecp_cc_test_cases[] = {
	KUNIT_CASE(ecp_cc_slow_start_test),
	KUNIT_CASE(ecp_cc_avoidance_test),
	KUNIT_CASE(ecp_cc_cbrt_test),
	KUNIT_CASE(ecp_cc_recovery_test),
	KUNIT_CASE(ecp_cc_prr_test),
	KUNIT_CASE(ecp_cc_limited_test),
	KUNIT_CASE(ecp_cc_timeout_test),
	KUNIT_CASE(ecp_cc_validate_test),
	KUNIT_CASE(ecp_cc_app_limited_test),
	KUNIT_CASE(ecp_cc_restart_test),
	KUNIT_CASE(ecp_cc_ece_test),
	KUNIT_CASE(ecp_cc_hystart_test),
	KUNIT_CASE(ecp_cc_cap_test),
	KUNIT_CASE(ecp_cc_bottleneck_test),
	{}
};

static struct kunit_suite ecp_cc_test_suite = {
	.name = "ecproxy_cc",
	.test_cases = ecp_cc_test_cases,
};

kunit_test_suite(ecp_cc_test_suite);
