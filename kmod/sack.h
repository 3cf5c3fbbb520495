/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scoreboard of an output: what it holds beyond its cumulative ack
 * (SACK, RFC 2018), and which bytes S re-sends in a loss recovery (RFC
 * 6675).  Without SACK a burst lost in a full queue is repaired one hole
 * per round trip (NewReno's partial acks); with it, every hole the output
 * reports is re-sent within the congestion window in the next round trip.
 *
 * The SACKed ranges are an interval set (ivset.h) whose watermark is the
 * cumulative ack, on storage the task reserves with its rings
 * (ecp_task_scoreboard()): as many ranges as a ring's worth of
 * 1460-byte segments, every other one lost, makes (ecp_task_holes()), up
 * to 1024, so that the holes a slow start's overshoot leaves in a full
 * queue are known (Linux keeps one per segment, in its retransmit queue);
 * nothing in the fast path allocates.  A block the set has no room for
 * is left out: its bytes look unSACKed and may be re-sent once for
 * nothing, which costs bandwidth, never correctness.  Every question is a binary search
 * and a walk over the ranges it is about, and the SACKed bytes are kept
 * as a sum; the pipe still walks the ranges not re-sent yet, up to all of
 * them at a recovery's start.  Bytes stay in the rings until they are
 * cumulatively acked whatever the scoreboard says: a receiver may renege
 * on what it SACKed (RFC 2018 §8).  An RTO that suspects it forgets the
 * SACKed ranges (ecp_sack_clear()) and re-sends everything outstanding.
 *
 * In a recovery, bytes below @lost that are not SACKed are lost, and the
 * ones below @resent have been re-sent; RFC 6675's pipe (what is still in
 * the network) follows.  Outside a recovery @lost and @resent mean nothing.
 * Without SACK, the duplicate ACKs of a recovery are counted as segments
 * that left the network (@dups), as Linux's tcp_add_reno_sack() does: that
 * is NewReno's window inflation, which lets new data out while the hole
 * is repaired.
 *
 * Offsets are 64-bit stream offsets (seq.h).  Locking: under the
 * connection's spinlock; nothing here sleeps.
 */
#ifndef _ECP_SACK_H
#define _ECP_SACK_H

#include <linux/types.h>

#include "ivset.h"

/* SACKed segments above a byte that make it lost (RFC 6675's DupThresh). */
#define ECP_SACK_DUPTHRESH	3

struct ecp_sack {
	/*
	 * SACKed ranges.  The watermark is the cumulative ack, or beyond it
	 * when a range starts there (ecp_ivset_trim() joins it): below the
	 * watermark everything is acked or SACKed.
	 */
	struct ecp_ivset iv;
	u64 ack;		/* the cumulative ack */
	u64 sacked;		/* SACKed bytes above it */
	u64 lost;		/* recovery: unSACKed bytes below are lost */
	u64 resent;		/* recovery: lost bytes below were re-sent */
	u32 dups;		/* recovery without SACK: duplicate ACKs */
};

/*
 * An empty scoreboard on @cap ranges of storage the caller owns (the
 * task's), for an output whose stream starts at offset 0.
 */
void ecp_sack_init(struct ecp_sack *k, struct ecp_iv *storage, u32 cap);

/*
 * The cumulative ack moved to @ack: forget what lies below it.  Without
 * SACK, each segment's worth of it acks one of the duplicates counted
 * (tcp_remove_reno_sacks()).
 */
void ecp_sack_ack(struct ecp_sack *k, u64 ack, u32 mss);

/*
 * The output SACKed [start, end).  The caller checked that it lies above
 * the cumulative ack and within what was sent.
 */
void ecp_sack_add(struct ecp_sack *k, u64 start, u64 end);

/* Forget every SACKed range (an RTO: the receiver may have reneged). */
void ecp_sack_clear(struct ecp_sack *k);

/* SACKed bytes above the cumulative ack. */
static inline u64 ecp_sack_bytes(const struct ecp_sack *k)
{
	return k->sacked;
}

/* The highest SACKed offset + 1, or the cumulative ack if none. */
static inline u64 ecp_sack_high(const struct ecp_sack *k)
{
	return ecp_ivset_high(&k->iv);
}

/*
 * Is the byte at the cumulative ack lost by RFC 6675's rule: more than
 * DupThresh - 1 segments' worth SACKed above it?
 */
static inline bool ecp_sack_hole_lost(const struct ecp_sack *k, u32 mss)
{
	return ecp_sack_bytes(k) > (u64)(ECP_SACK_DUPTHRESH - 1) * mss;
}

/*
 * A recovery starts: unSACKed bytes below @lost are lost and none is
 * re-sent yet; @dups duplicate ACKs were counted to detect it (0 with
 * SACK, whose blocks say what left the network).
 */
void ecp_sack_start(struct ecp_sack *k, u64 lost, u32 dups);

/* In a recovery, more is lost: everything unSACKed below @lost. */
static inline void ecp_sack_lose(struct ecp_sack *k, u64 lost)
{
	if (lost > k->lost)
		k->lost = lost;
}

/* In a recovery without SACK, one more duplicate ACK. */
static inline void ecp_sack_dup(struct ecp_sack *k)
{
	if (k->dups < U32_MAX)
		k->dups++;
}

/*
 * RFC 6675's pipe in a recovery, with everything below @nxt sent: bytes
 * outstanding, less what was SACKed (or, without SACK, one segment per
 * duplicate ACK), less what is lost and not re-sent yet.
 */
u64 ecp_sack_pipe(const struct ecp_sack *k, u64 nxt, u32 mss);

/*
 * The next lost range to re-send (RFC 6675's NextSeg, rule 1): its first
 * byte in @start, its length, at most @max, in @len.  Returns false when
 * every lost byte has been re-sent.
 */
bool ecp_sack_next(const struct ecp_sack *k, u64 *start, u32 *len, u32 max);

/*
 * In a recovery, the output SACKed [start, end) (before ecp_sack_add()):
 * does that newly SACK bytes sent after a copy that is still unSACKed?
 * Either copies re-sent in this round (below @resent) above an unSACKed
 * byte re-sent before them, or new bytes at or beyond @after, the offset
 * S had sent up to when it re-sent its last copy, while a byte re-sent in
 * this round is unSACKed (RACK's rule, RFC 8985 §6.2, by order of
 * sending: new data goes after the copies, and arriving first says they
 * were lost).
 */
bool ecp_sack_resent_lost(const struct ecp_sack *k, u64 start, u64 end,
			  u64 after);

/* The copies re-sent so far were lost: re-send every lost byte again. */
static inline void ecp_sack_again(struct ecp_sack *k)
{
	k->resent = k->ack;
}

/* Lost bytes below @end were re-sent. */
static inline void ecp_sack_sent(struct ecp_sack *k, u64 end)
{
	if (end > k->resent)
		k->resent = end;
}

#endif
