/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control of what S sends the client: NewReno (RFC 5681, RFC
 * 6582) over bytes, the window arithmetic and the loss-recovery state
 * (duplicate ACKs, the recovery point) in one place.  S is a TCP sender
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

struct ecp_cc {
	u32 cwnd;	/* bytes S may have unacknowledged */
	u32 ssthresh;
	u64 recover;	/* what was sent when loss recovery began */
	u64 cwr;	/* what was sent when an ECN echo cut the window */
	u8 dupacks;	/* in a row, at the current ack; saturates */
	bool rto;	/* the recovery began with an RTO */
	/* Was the window used (ecp_cc_sent())?  As tcp_cwnd_validate(). */
	bool full;	/* S was held back by cwnd in this flight */
	u32 used;	/* most bytes unacknowledged in this flight */
	u64 used_end;	/* the flight ends when this offset is acked */
	u32 idle_used;	/* most in flight since the window was last full */
	unsigned long stamp;	/* jiffies: last full, validated, or restarted */
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
bool ecp_cc_ack(struct ecp_cc *cc, u64 prev, u64 ack, u32 mss);

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
 * Returns true if the window is halved now: once per window of data (not
 * again until @nxt is acked), and not in a loss recovery, which already
 * halved it.  Nothing is re-sent: nothing was lost.  The window does not
 * grow until @nxt is acked.
 */
bool ecp_cc_ece(struct ecp_cc *cc, u64 ack, u64 flight, u64 nxt, u32 mss);

/*
 * A loss detected with @flight bytes outstanding and everything below
 * @nxt sent: fast recovery (RFC 6675), until @nxt is acked.
 */
void ecp_cc_recover(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss);

/*
 * The window arithmetic under ecp_cc_ack(), for tests: @acked new bytes
 * were acknowledged.  In recovery (@recovering: the ack is partial, RFC
 * 6582) the window does not grow.
 */
void ecp_cc_acked(struct ecp_cc *cc, u32 acked, u32 mss, bool recovering);

/*
 * Recovery ended: the client acknowledged everything outstanding when it began.
 */
void ecp_cc_recovered(struct ecp_cc *cc);

/* The window after a loss with @flight bytes outstanding. */
void ecp_cc_loss(struct ecp_cc *cc, u64 flight, u32 mss);

/*
 * What was sent up to @nxt is re-sent for a reason other than congestion
 * (the path's MTU shrank, tcp_simple_retransmit()): the window stays, and
 * partial acks until @nxt re-send the next hole at once.
 */
void ecp_cc_resent(struct ecp_cc *cc, u64 nxt);

/*
 * Nothing acknowledged for an RTO with @flight bytes outstanding and
 * everything below @nxt sent: recovery lasts until @nxt is acked.
 */
void ecp_cc_timeout(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss);

#endif
