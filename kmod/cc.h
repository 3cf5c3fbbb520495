/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control of what S sends A: NewReno (RFC 5681, RFC 6582) over
 * bytes.  S is a TCP sender towards A and must behave like one: without a
 * congestion window it would send everything the decode buffer holds the
 * moment A's window allows, and a bottleneck on A's link (a shaper, a
 * switch queue) would drop most of it.  Recovery from such a burst goes
 * one hole per round trip, since S offers A no SACK.  The sources are
 * not told: EBSN already holds them back to the buffer, which absorbs
 * what the window does not let out yet.
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

struct ecp_cc {
	u32 cwnd;	/* bytes S may have unacknowledged towards A */
	u32 ssthresh;
};

void ecp_cc_init(struct ecp_cc *cc, u32 mss);

/*
 * A acknowledged @acked new bytes.  In recovery (@recovering: the ack
 * is partial, RFC 6582) the window does not grow.
 */
void ecp_cc_acked(struct ecp_cc *cc, u32 acked, u32 mss, bool recovering);

/* Recovery ended: A acknowledged everything outstanding when it began. */
void ecp_cc_recovered(struct ecp_cc *cc);

/* Three duplicate ACKs with @flight bytes outstanding: fast retransmit. */
void ecp_cc_loss(struct ecp_cc *cc, u64 flight, u32 mss);

/* Nothing acknowledged for an RTO with @flight bytes outstanding. */
void ecp_cc_timeout(struct ecp_cc *cc, u64 flight, u32 mss);

#endif
