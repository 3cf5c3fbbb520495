/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control of what S sends the client: RFC 5681's slow start and
 * loss recovery (RFC 6582's partial acks) with CUBIC's window (RFC 8312, as
 * Linux's default tcp_cubic.c) over bytes, the window arithmetic and the
 * loss-recovery state (duplicate ACKs, the recovery point) in one place.
 * CUBIC, not NewReno, because a replica a storage node sends through the
 * router is Linux's CUBIC: NewReno halves its window at a loss and regains
 * a segment per round trip, which at 200 ms leaves a path a window short of
 * full for seconds after each loss, where CUBIC keeps 0.7 of it and climbs
 * back in a few.  S is a TCP sender
 * towards the client and must behave like one: without a congestion
 * window it would send everything the decode buffer holds the moment the
 * client's window allows, and a bottleneck on the client's link (a
 * shaper, a switch queue) would drop most of it.  Which bytes a recovery
 * re-sends is the scoreboard's business (sack.h); this is the window.
 * The sources are not told: EBSN already holds them back to the buffer,
 * which absorbs what the window does not let out yet.
 *
 * Offsets are the 64-bit offsets of the stream S sends (seq.h).  A
 * recovery lasts while the ack is below @recover: it starts on a loss
 * (ecp_cc_recover()), an RTO (ecp_cc_timeout()) or a smaller path MTU
 * (ecp_cc_resent()).
 *
 * Locking: the state is updated under the connection's spinlock; the
 * functions are pure arithmetic.
 */
#ifndef _ECP_CC_H
#define _ECP_CC_H

#include <linux/types.h>

/* RFC 6928's initial window, in segments. */
#define ECP_CC_INIT_SEGS	10
/* Largest window: far beyond any buffer S exposes, and no overflow. */
#define ECP_CC_MAX		(1U << 30)

/* Duplicate ACKs that signal a loss (RFC 5681 §3.2). */
#define ECP_CC_DUPACKS		3

/*
 * HyStart's delay rule, as tcp_cubic.c's: from a window of 16 segments
 * on, slow start ends in the round whose least round trip (of its first
 * 8 samples) exceeds the least ever seen by an eighth of it, clamped to
 * 4-16 ms.  A queue is building at the bottleneck, and doubling on would
 * overshoot it by a whole window: the losses of one overshoot cost more
 * than slow start gains, most at long round trips, where congestion
 * avoidance then regains a segment per round trip.
 */
#define ECP_CC_HYSTART_SEGS	16
#define ECP_CC_HYSTART_SAMPLES	8
#define ECP_CC_HYSTART_MIN_US	4000
#define ECP_CC_HYSTART_MAX_US	16000

/*
 * CUBIC (RFC 8312 §4.5, §5): a loss keeps 7/10 of the window (beta), and
 * the window then follows C (t - K)^3 + W_max, C = 0.4 segments per
 * second cubed, back to where it was lost and beyond.
 */
#define ECP_CC_BETA_NUM		7
#define ECP_CC_BETA_DEN		10

struct ecp_cc {
	u32 cwnd;	/* bytes S may have unacknowledged */
	u32 ssthresh;
	u64 recover;	/* what was sent when loss recovery began */
	u64 cwr;	/* what was sent when an ECN echo cut the window */
	u8 dupacks;	/* in a row, at the current ack; saturates */
	bool rto;	/* the recovery began with an RTO */
	/* PRR (ecp_cc_prr()) in a fast recovery: */
	u64 prr_fs;	/* what was outstanding when it began (RecoverFS) */
	u64 prr_delivered;	/* what the output got since: acked or SACKed */
	u64 prr_out;	/* what S sent since, re-sent or new */
	/* Was the window used (ecp_cc_sent())?  As tcp_cwnd_validate(). */
	bool full;	/* S was held back by cwnd in this flight */
	u32 used;	/* most bytes unacknowledged in this flight */
	u64 used_end;	/* the flight ends when this offset is acked */
	u32 idle_used;	/* most in flight since the window was last full */
	unsigned long stamp;	/* jiffies: last full, validated, or restarted */
	/* HyStart: the round trips of slow start's rounds. */
	u32 rtt_min_us;	/* least since the start or the last RTO; 0: none */
	u32 round_min_us;	/* least of this round's first samples */
	u64 round_end;	/* the round ends when this offset is acked */
	u8 round_samples;
	/* CUBIC, in congestion avoidance: */
	u32 w_max;	/* the window at the last loss; 0: none */
	u32 origin;	/* the plateau of this epoch's cubic */
	u32 k_ms;	/* from the epoch's start to the plateau */
	u32 w_est;	/* the window Reno would have now (RFC 8312 §4.2) */
	u64 w_est_acc;	/* what w_est has not grown by yet, * 17 cwnd */
	u64 epoch_us;	/* when this epoch began */
	bool epoch;	/* false: one begins at the next ack */
};

void ecp_cc_init(struct ecp_cc *cc, u32 mss);

/* Is S recovering from a loss while the peer's ack is at @ack? */
static inline bool ecp_cc_recovering(const struct ecp_cc *cc, u64 ack)
{
	return ack < cc->recover;
}

/*
 * The peer acknowledged new bytes: its ack moved from @prev to @ack.
 * Returns true for a partial ack in recovery (RFC 6582 §3.2): the next
 * hole starts at @ack, and the caller re-sends it now; waiting for three
 * more duplicates or the RTO would cost a burst loss one timeout per
 * lost segment.  A partial ack grows no window in a fast recovery; after
 * an RTO the window grows in slow start while everything outstanding is
 * re-sent (go back N, as tcp_enter_loss()): one segment per round trip
 * would take a round trip per lost segment.  The window grows only while
 * it is in use (ecp_cc_full()).
 */
bool ecp_cc_ack(struct ecp_cc *cc, u64 prev, u64 ack, u32 mss, u64 now_us);

/*
 * A duplicate ACK at @ack (no data, no window change).  Returns true on
 * the third outside recovery (RFC 5681 §3.2): the caller starts one.
 */
bool ecp_cc_dupack(struct ecp_cc *cc, u64 ack);

/*
 * Room beyond the window for new data after one or two duplicate ACKs
 * at @ack outside a recovery: a segment each (limited transmit, RFC 3042).
 */
static inline u32 ecp_cc_limited(const struct ecp_cc *cc, u64 ack, u32 mss)
{
	if (ack < cc->recover || cc->dupacks >= ECP_CC_DUPACKS)
		return 0;
	return cc->dupacks * mss;
}

/*
 * Is the window in use, so that acks may grow it?  A window that the
 * output never fills (the sources, the client's window or the rate cap
 * hold S back) says nothing about the path, and grown on every ack it
 * would let out one burst as large as it the moment the sources catch
 * up (RFC 7661 §4.3; tcp_is_cwnd_limited()).  In slow start it may grow
 * to twice what the flight used.
 */
static inline bool ecp_cc_full(const struct ecp_cc *cc)
{
	return cc->full ||
	       (cc->cwnd < cc->ssthresh && cc->cwnd < 2ULL * cc->used);
}

/*
 * S sent what it could at @now: @flight bytes unacknowledged, everything
 * below @nxt sent, the ack at @ack; @full if cwnd was what stopped it.
 * Records the flight's use of the window, and after an RTO (@rto
 * jiffies) without a full window shrinks the window halfway to what was
 * used, no lower than the initial window (RFC 7661's aim with Linux's
 * tcp_cwnd_application_limited()).
 */
void ecp_cc_sent(struct ecp_cc *cc, u64 ack, u64 nxt, u64 flight, bool full,
		 unsigned long now, unsigned long rto, u32 mss);

/*
 * A round trip of @rtt_us sampled by an ack at @ack, everything below @nxt
 * sent; @every if every ack gives one (the timestamps' echo), else one
 * round trip's timed segment.  In slow start, returns true if HyStart's
 * delay rule ended it (ssthresh is now the window), after an RTO too;
 * samples of a fast recovery, whose window does not grow, only keep the
 * least round trip.
 */
bool ecp_cc_hystart(struct ecp_cc *cc, u64 ack, u64 nxt, u32 rtt_us,
		    bool every, u32 mss);

/*
 * S is about to send new bytes with nothing outstanding, @idle jiffies
 * after it last sent any: after an RTO (@rto) or more the window is
 * halved per RTO idle, down to the initial window (RFC 5681 §4.1,
 * tcp_cwnd_restart()).  What the path took then may no longer be there,
 * and a whole old window at once would be a burst into a cold queue.
 */
void ecp_cc_restart(struct ecp_cc *cc, unsigned long idle, unsigned long rto,
		    unsigned long now, u32 mss);

/*
 * The output echoed a congestion mark (ECE, RFC 3168 §6.1.2) in an ACK at
 * @ack, with @flight bytes outstanding and everything below @nxt sent.
 * Returns true if the window is cut now (ecp_cc_loss()): once per window
 * of data (not again until @nxt is acked), and not in a loss recovery,
 * which already cut it.  Nothing is re-sent: nothing was lost.  The window does not
 * grow until @nxt is acked.
 */
bool ecp_cc_ece(struct ecp_cc *cc, u64 ack, u64 flight, u64 nxt, u32 mss);

/*
 * A loss detected with @flight bytes outstanding and everything below
 * @nxt sent: fast recovery (RFC 6675), until @nxt is acked.
 */
void ecp_cc_recover(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss);

/*
 * Proportional Rate Reduction (RFC 6937, Linux's tcp_cwnd_reduction()):
 * in a fast recovery an ACK told that the output got @delivered more
 * bytes (acked or SACKed, not counted before), with @pipe bytes still in
 * the network (sack.h) and the ack @advanced or not.  The window becomes
 * the pipe plus what may go now: while the pipe is above ssthresh, 7/10
 * of what was delivered since the recovery began, less what was sent,
 * so that the queue that overflowed drains as the recovery goes; once
 * it is below, what was delivered, up to ssthresh (slow start's bound).
 * A window cut at once to 7/10 of a slow start's overshoot, several
 * times what the path holds, would fill the queue again with the
 * recovery's own copies, lose them, and end in an RTO.
 */
void ecp_cc_prr(struct ecp_cc *cc, u64 delivered, u64 pipe, bool advanced,
		u32 mss);

/* S sent @len bytes, re-sent or new, to the output (for PRR). */
static inline void ecp_cc_prr_sent(struct ecp_cc *cc, u64 ack, u32 len)
{
	if (ack < cc->recover && !cc->rto)
		cc->prr_out += len;
}

/*
 * The window arithmetic under ecp_cc_ack(), for tests: @acked new bytes
 * were acknowledged at @now_us (microseconds).  In recovery (@recovering:
 * the ack is partial, RFC 6582) the window does not grow.  In congestion
 * avoidance it grows by a share of the gap to CUBIC's target, the cubic
 * one round trip (the least seen) ahead, at most half a segment per
 * segment acked (tcp_cubic.c's cnt >= 2), and at least as fast as Reno
 * would (RFC 8312 §4.2).
 */
void ecp_cc_acked(struct ecp_cc *cc, u32 acked, u32 mss, bool recovering,
		  u64 now_us);

/*
 * Recovery ended: the client acknowledged everything outstanding when it
 * began.  After a fast recovery the window is ssthresh, whatever PRR left
 * (tcp_end_cwnd_reduction()); after an RTO, slow start's, up to it.
 */
void ecp_cc_recovered(struct ecp_cc *cc);

/*
 * The window after a loss with @flight bytes outstanding: 7/10 of it
 * (CUBIC's beta), and a new cubic epoch towards it as W_max, lowered to
 * 17/20 of it if the window did not reach the last one (fast convergence,
 * RFC 8312 §4.6: room for a newer flow).
 */
void ecp_cc_loss(struct ecp_cc *cc, u64 flight, u32 mss);

/*
 * What was sent up to @nxt is re-sent for a reason other than congestion
 * (the path's MTU shrank, tcp_simple_retransmit()): the window stays, and
 * partial acks until @nxt re-send the next hole at once.
 */
void ecp_cc_resent(struct ecp_cc *cc, u64 nxt);

/*
 * Nothing acknowledged for an RTO with @flight bytes outstanding and
 * everything below @nxt sent: recovery lasts until @nxt is acked.  As
 * tcp_cubic.c after an RTO, the last loss's window and the least round
 * trip are forgotten: the path may have changed.
 */
void ecp_cc_timeout(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss);

#endif
