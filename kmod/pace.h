/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pacing what S sends an output, as Linux's TCP paces a socket without
 * the fq qdisc (tcp_internal_pacing()): a rate from the congestion window
 * (or what is out, if more) and the round trip, twice the window per round
 * trip below half the slow start threshold and 1.2 times from there
 * (tcp_update_pacing_rate()), and an earliest departure
 * time for the next segment that each one sent pushes on by its length at
 * that rate (tcp_wstamp_ns).  What cannot go yet waits for the
 * connection's pacing timer.  The GSO packets are sized to about a
 * millisecond at that rate, at least two segments (tcp_tso_autosize()):
 * a window left in 64 KiB bursts, at the sender's line rate, overflows a
 * shallow queue in front of the output long before the window is too big
 * for the path.
 *
 * Pure arithmetic on the times the caller gives (ns of the monotonic
 * clock), under the connection's lock.
 */
#ifndef _ECP_PACE_H
#define _ECP_PACE_H

#include <linux/types.h>

/* Percent of cwnd / srtt: tcp_pacing_ss_ratio and tcp_pacing_ca_ratio. */
#define ECP_PACE_SS_PCT		200
#define ECP_PACE_CA_PCT		120
/* A GSO packet carries this shift of a second's worth (1/1024 s). */
#define ECP_PACE_SHIFT		10
/* Least segments per GSO packet (tcp_min_tso_segs). */
#define ECP_PACE_MIN_SEGS	2

struct ecp_pace {
	u64 rate;		/* bytes per second; 0: not paced */
	u64 next_ns;		/* earliest departure of the next segment */
	bool capped;		/* the rate is a cap's, not the window's pace */
};

/*
 * The rate for a congestion window of @cwnd bytes, with @out bytes sent
 * and not yet acked, over a round trip of @srtt_us; 0 (not paced) while
 * there is no round trip.  As tcp_update_pacing_rate(): the window is
 * the larger of cwnd and what is out (packets_out), so that a recovery,
 * whose cwnd PRR brings down towards what is in the pipe, re-sends at the
 * pace the flow had; slow start's ratio applies below half @ssthresh,
 * and 1.2 times from there, where slow start is about to end.
 */
u64 ecp_pace_rate(u32 cwnd, u32 ssthresh, u64 out, u32 srtt_us);

/* May a segment leave at @now_ns?  If not, it waits until next_ns. */
static inline bool ecp_pace_ready(const struct ecp_pace *p, u64 now_ns)
{
	return !p->rate || now_ns >= p->next_ns;
}

/*
 * Payload bytes one GSO packet of segments of @mss carries at the rate,
 * a multiple of @mss in [ECP_PACE_MIN_SEGS * mss, @most].
 */
u32 ecp_pace_size(const struct ecp_pace *p, u32 mss, u32 most);

/* @len bytes left at @now_ns: the next may leave @len / rate later. */
void ecp_pace_sent(struct ecp_pace *p, u64 now_ns, u32 len);

#endif
