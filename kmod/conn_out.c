// SPDX-License-Identifier: GPL-2.0
/*
 * An output's sending state machine: what its ACKs do (release, round
 * trips, duplicate ACKs, NewReno) and a smaller path MTU; its timers
 * (RTO, persist) run from the connection's (conn.c).  The same for the
 * client and for a target: S is the sender of both streams.
 *
 * Choices:
 *  - Retransmission: go-back from the output's acknowledged offset, on
 *    three duplicate ACKs (one segment) or when nothing was acknowledged
 *    for an RTO (a few segments; the RTO comes from the measured round
 *    trips, rtt.h, and doubles on each expiry up to ECP_RTO_MAX).  Bytes
 *    are re-read from the rings, never re-accumulated: the rings keep
 *    them until the output acknowledges them.
 *  - New bytes go out within the smaller of the output's window and the
 *    congestion window (cc.h), which those two losses reduce.
 */
#include <net/route.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "task.h"

/*
 * Segments re-sent at once when an output's path MTU shrinks: the ones
 * in flight were too big and are gone.  Bounded, so that softirq does
 * bounded work; NewReno's partial acks re-send the rest (ecp_cc_resent()).
 */
#define ECP_PMTU_RESEND_SEGS	64

/* Its ack moved to @ack: release, time, grow the window or re-send. */
static void ecp_conn_out_acked(struct ecp_conn *c, struct ecp_conn_out *o,
			       u64 ack, struct sk_buff_head *q)
{
	u64 upto = min(ack, o->snd_nxt);
	u64 prev = o->acked;

	o->acked = ack;
	ecp_rtt_acked(&o->rtt, ack, jiffies);
	o->rto = ecp_rtt_rto(&o->rtt);
	o->last_progress = jiffies;
	ecp_conn_out_release(c, o, upto);
	if (ecp_cc_ack(&o->cc, prev, ack, o->mss))
		ecp_conn_resend_out(c, o, q, 1);
}

void ecp_conn_out_ack(struct ecp_conn *c, struct ecp_conn_out *o, u64 ack,
		      u32 win, bool data, struct sk_buff_head *q)
{
	/* A window update is not a duplicate ACK (RFC 5681 §2). */
	bool win_changed = win != o->win;

	/* The window opens: the persist backoff ends (tcp_ack_probe()). */
	if (win >= o->mss && o->win < o->mss)
		o->rto = ecp_rtt_rto(&o->rtt);
	o->win = win;
	if (ack > o->acked)
		ecp_conn_out_acked(c, o, ack, q);
	else if (ack == o->acked && !data && !win_changed &&
		 o->snd_nxt > o->acked &&
		 ecp_cc_dupack(&o->cc, o->acked, o->snd_nxt, o->mss))
		ecp_conn_resend_out(c, o, q, 1);
}

void ecp_conn_out_pmtu(struct ecp_conn *c, struct ecp_conn_out *o,
		       struct sk_buff *skb, u64 off, u32 mtu,
		       struct sk_buff_head *q)
{
	u64 flight;
	u16 mss;

	/* As tcp_v4_err(): only about something in flight. */
	if (off < o->acked || off >= ecp_conn_out_snd_max(o))
		return;
	ipv4_update_pmtu(skb, c->net, mtu, 0, IPPROTO_TCP);
	mss = ecp_route_mss(c->net, c->vip, o->peer.addr);
	if (!mss || mss >= o->mss)
		return;
	o->mss = mss;
	ecp_stats_inc(&c->t->stats, ECP_STAT_PMTU_UPDATES);
	flight = min_t(u64, o->snd_nxt - o->acked, o->cc.cwnd);
	ecp_cc_resent(&o->cc, o->snd_nxt);
	ecp_conn_resend_out(c, o, q, min_t(u64, DIV_ROUND_UP(flight, mss),
					   ECP_PMTU_RESEND_SEGS));
}
