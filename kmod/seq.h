/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP sequence arithmetic.  The proxy tracks every stream by a 64-bit byte
 * offset so that buffers and interval sets never see wrap-around; only the
 * edges of the data path convert to and from 32-bit sequence numbers.
 */
#ifndef _ECP_SEQ_H
#define _ECP_SEQ_H

#include <linux/minmax.h>
#include <linux/types.h>

static inline bool ecp_seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool ecp_seq_after(u32 a, u32 b)
{
	return ecp_seq_before(b, a);
}

/*
 * The 64-bit stream offset of sequence number @seq in a stream whose first
 * byte has sequence number @base, taking the candidate within 2^31 of @ref,
 * an offset already known to be close (the highest offset seen so far).
 * Negative results lie before the start of the stream.
 */
static inline s64 ecp_seq_to_off(u32 seq, u32 base, u64 ref)
{
	s32 delta = (s32)((seq - base) - (u32)ref);

	return (s64)ref + delta;
}

static inline u32 ecp_off_to_seq(u64 off, u32 base)
{
	return base + (u32)off;
}

/*
 * May the window @win of a peer's ACK of offset @ack, sent with sequence
 * number @seq, replace the one held, @cur, last taken from sequence
 * number *@wl1, while offset @acked is acked (SND.WL1 and SND.WL2, RFC
 * 9293 §3.10.7.4, as tcp_may_update_window() since Linux 6.5)?  Not from
 * an ACK older than the last: reordered behind a later one, its window
 * counts from an older ack, and from the later ack it would reach past
 * the edge the peer offers, where a receiver drops segments and conntrack
 * calls them invalid.  One that moves neither ack nor sequence number may
 * open the window or close it (a receiver short of memory may, with
 * tcp_shrink_window), not narrow it.  If it may, *@wl1 becomes @seq.
 */
static inline bool ecp_seq_win_fresh(u32 *wl1, u64 ack, u64 acked, u32 seq,
				     u32 win, u32 cur)
{
	if (ack < acked ||
	    (ack == acked && (ecp_seq_before(seq, *wl1) ||
			      (seq == *wl1 && win && win <= cur))))
		return false;
	*wl1 = seq;
	return true;
}

/*
 * The window field to give a sender whose next byte is offset @nxt, for
 * a window up to offset @edge at shift @ws, never ending left of
 * *@offered, the edge last given (RFC 9293 §3.8.6).  Rounded down to the
 * shift from a new @nxt it could end short of it by less than a unit:
 * with @round_up it is rounded up then, as Linux's tcp_select_window()
 * does, ending up to a unit past @edge; without, it stays within @edge
 * and *@offered, for a receiver that holds no byte past them, and may
 * end short of *@offered.  *@offered becomes the furthest edge given.
 */
static inline u16 ecp_seq_win_offer(u64 nxt, u64 edge, u64 *offered, u8 ws,
				    bool round_up)
{
	u64 win;

	edge = max(edge, *offered);
	if (edge <= nxt)
		return 0;
	win = (edge - nxt) >> ws;
	if (round_up && nxt + (win << ws) < *offered)
		win++;
	win = min_t(u64, win, 0xffff);
	*offered = max(*offered, nxt + (win << ws));
	return win;
}

#endif
