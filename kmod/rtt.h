/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The retransmission timeout towards the client, from measured round trips
 * (RFC 6298).  A fixed RTO fires spuriously once the round trip to the client
 * exceeds it: S then re-sends a window the client is about to acknowledge and
 * collapses its congestion window to one segment every round trip.
 *
 * One segment at a time is timed, and a timing is abandoned as soon as
 * anything is re-sent (Karn): the ack of a re-sent byte does not tell
 * which copy it answers.  Where the output echoes timestamps, the echo
 * gives samples while no segment is timed (ts.h).  Times are the
 * monotonic clock in microseconds (the caller's tcp_clock_us()), not
 * jiffies: a rack's round trip of tens of microseconds reads as itself,
 * where a jiffy (4 ms at HZ=250) would round it to 0 or a tick.  The RTO
 * is still armed in jiffies, on the connection's timer.
 *
 * Locking: under the connection's spinlock; the functions are pure
 * arithmetic on the times they are given.
 */
#ifndef _ECP_RTT_H
#define _ECP_RTT_H

#include <linux/jiffies.h>
#include <linux/types.h>

/* Linux's floor for the RTO; RFC 6298's 1 s is too slow for a rack. */
#define ECP_RTO_MIN	(HZ / 5)
#define ECP_RTO_MAX	(3 * HZ)
/*
 * No round trip measured yet, after the handshake: it was repeated
 * (Karn) and carried no timestamps.  Linux's TCP_TIMEOUT_FALLBACK
 * (tcp_init_metrics(), RFC 6298 §5.7), held until the first sample: the
 * repeat suggests a long path, on which ECP_RTO_MIN would fire before the
 * first ack and send the first flight twice.
 */
#define ECP_RTO_FALLBACK (3 * HZ)

struct ecp_rtt {
	u32 srtt_us;		/* smoothed round trip; 0: no sample yet */
	u32 rttvar_us;
	u64 end;		/* the timed segment ends at this offset */
	u64 start_us;		/* when it was sent */
	bool timing;
};

/* A segment ending at offset @end was sent at @now_us; time it if idle. */
static inline void ecp_rtt_sent(struct ecp_rtt *r, u64 end, u64 now_us)
{
	if (r->timing)
		return;
	r->end = end;
	r->start_us = now_us;
	r->timing = true;
}

/* Something was re-sent: no sample from the current timing. */
static inline void ecp_rtt_resent(struct ecp_rtt *r)
{
	r->timing = false;
}

/*
 * The client acknowledged up to offset @acked at @now_us.  Returns the
 * sample it gave in microseconds (srtt_us changed), 0 if none.
 */
u32 ecp_rtt_acked(struct ecp_rtt *r, u64 acked, u64 now_us);

/* A round trip of @m microseconds measured otherwise (ts.h). */
void ecp_rtt_sample(struct ecp_rtt *r, u32 m);

/*
 * The RTO in jiffies, SRTT + max(4 RTTVAR, ECP_RTO_MIN) in [ECP_RTO_MIN,
 * ECP_RTO_MAX], ECP_RTO_FALLBACK before any sample: Linux's, which also
 * makes it the silence after which a congestion window is stale (cc.h's
 * restart and application-limited rules, tcp_cwnd_restart()).
 */
unsigned long ecp_rtt_rto(const struct ecp_rtt *r);

#endif
