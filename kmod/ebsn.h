/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Explicit Buffer Size Notification (NetEC §4): the window of every ACK
 * forwarded from the client to a source is overwritten so that the right edge
 * the source is offered never exceeds the client's acknowledged offset plus the
 * exposed buffer size I.  All sources write the same stream offsets, so a fast
 * source runs into that edge and waits for the slowest one: the client's ACK,
 * and with it the edge, only advances once every source has contributed.
 *
 * The window is expressed as an absolute right edge (ack + window) and computed
 * from the same ACK that releases the decode buffer (dbuf.h), so the edge is
 * always within [base, base + I) of the buffer: the edge a source acts on can
 * be stale (ACKs are thinned by GRO and delayed ACKs, and take an RTT to
 * arrive), but a stale edge is an older, lower one.
 *
 * Locking: the per-source state is updated under the connection's spinlock; the
 * functions are pure arithmetic and never sleep.
 */
#ifndef _ECP_EBSN_H
#define _ECP_EBSN_H

#include <linux/types.h>

/* RFC 7323 §2.3: larger shifts are treated as 14. */
#define ECP_EBSN_MAX_WSCALE	14

/* What ecp_ebsn_window() had to do. */
enum {
	/* The edge did not fit in 16 bits at the source's scale. */
	ECP_EBSN_CLAMP_FIELD	= 1 << 1,
	/* The bound was below an edge offered before, which was kept. */
	ECP_EBSN_KEPT_EDGE	= 1 << 2,
};

/* Per source.  Zero-initialise, or ecp_ebsn_reset() for a new stream. */
struct ecp_ebsn_src {
	u64 edge;	/* largest right edge offered so far */
};

static inline void ecp_ebsn_reset(struct ecp_ebsn_src *st, u64 start)
{
	st->edge = start;
}

/*
 * The raw 16-bit window field for an ACK acknowledging stream offset @ack, sent
 * to a source whose window-scale shift (the one S announced in its SYN to that
 * source) is @wscale, given the exposed buffer size @exposed.  @ack must not
 * decrease across calls for one source (drop stale ACKs).  NetEC bounds the
 * sources by the client's window too; S does not, its rings holding I bytes
 * whatever that window (ecp_conn_src_win()).
 *
 * The right edge offered, @ack + (window << @wscale), is
 *  - at most @ack + @exposed, unless
 *  - that would move the edge left of one offered before (RFC 9293 §3.8.6: a
 *    receiver should not shrink the window); then the old edge is kept,
 *    which still respects @exposed because it was computed from an older,
 *    lower @ack (a caller's @ack that went back, or a smaller @exposed);
 *  - rounded down to a multiple of 1 << @wscale from @ack, never up: the bound
 *    wins over the no-shrink rule by less than one scale unit, which TCP
 *    senders accept (Linux does not even update snd_wnd for it);
 *  - clamped to 65535 << @wscale.
 * @flags (may be NULL) receives the ECP_EBSN_* bits of what happened.
 */
u16 ecp_ebsn_window(struct ecp_ebsn_src *st, u64 ack, u32 exposed, u8 wscale,
		    unsigned int *flags);

/*
 * Buffer bytes to allocate beyond the exposed size I for a connection whose
 * sources send segments of at most @mss bytes (the largest MSS any source
 * path allows), whatever the number of sources.  See ebsn.c for why this
 * is not the paper's I.
 */
u32 ecp_ebsn_headroom(u32 mss);

#endif
