// SPDX-License-Identifier: GPL-2.0
/*
 * An output's sending state machine: what its ACKs do (release, round
 * trips, SACK blocks, duplicate ACKs, loss recovery) and a smaller path
 * MTU; its timers (RTO, persist) run from the connection's (conn.c).  The
 * same for the client and for a target: S is the sender of both streams.
 *
 * Choices:
 *  - A loss is detected as RFC 6675 does it: three duplicate ACKs, or,
 *    with SACK, more than two segments' worth SACKed above the ack.  The
 *    window is cut (cc.h) and a recovery lasts until what was sent
 *    then is acked.  In it every unSACKed byte below the highest SACKed
 *    one is lost (as Linux's FACK counted them: the holes of a burst
 *    lost in a full queue all go in the next round trip), and so is the
 *    segment at a partial ack (RFC 6582, the only rule without SACK).
 *  - What is lost is re-sent within the congestion window by RFC 6675's
 *    pipe (sack.h), from the rings, never re-accumulated: the rings keep
 *    every byte until it is cumulatively acked, SACKed or not.
 *  - Beyond RFC 6675, as Linux: limited transmit (cc.h), a tail loss
 *    probe (conn.c) whose SACK proves the bytes below it lost, and a
 *    copy re-sent before bytes now SACKed is lost again (RACK's rules).
 *  - An RTO (conn.c, ecp_conn_out_tick()) re-sends everything
 *    outstanding but what was SACKed from the ack, in slow start (go
 *    back N); one that suspects reneging forgets the SACKed ranges.
 */
#include <net/route.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "task.h"

/*
 * Output o's answer @p to S's SYN (a target's SYN-ACK) or SYN-ACK (the
 * client's ACK) gives the first round trip, as Linux takes it
 * (tcp_synack_rtt_meas(), tcp_ack_update_rtt()): timed, unless S sent it
 * again (Karn), else from the echo of S's clock in the answer (which may
 * echo the first copy and include the wait for the repeat: a larger RTO,
 * never a spurious one).  The first flight's RTO comes from it:
 * ECP_RTO_MIN alone fired before the first ack on a path of 200 ms, went
 * back N and left slow start at a window of one segment.  Without either
 * (timestamps off and the handshake repeated), it is ECP_RTO_FALLBACK
 * until the first ack of data gives one (rtt.h).
 */
void ecp_conn_out_handshake_rtt(struct ecp_conn_out *o,
				const struct ecp_seg *p)
{
	u32 m;

	if (ecp_rtt_acked(&o->rtt, 0, tcp_clock_us()) || !p->h.ts)
		return;
	m = ecp_ts_rtt_us(&o->ts, p->h.tsecr, tcp_time_stamp_raw());
	if (m)
		ecp_rtt_sample(&o->rtt, m);
}

/* Its ack moved to @ack: release, time, grow the window. */
static void ecp_conn_out_acked(struct ecp_conn *c, struct ecp_conn_out *o,
			       const struct ecp_seg *p, u64 ack)
{
	u64 upto = min(ack, o->snd_nxt);
	u64 prev = o->acked;
	bool timing = o->rtt.timing;
	u32 ts_us, rtt_us;

	o->acked = ack;
	/*
	 * The timed segment's round trip, in microseconds; while none is
	 * timed (Karn: something was re-sent), the echo of S's clock.
	 */
	ts_us = p->h.ts ? ecp_ts_rtt_us(&o->ts, p->h.tsecr,
					 tcp_time_stamp_raw()) : 0;
	if (ts_us && !timing)
		ecp_rtt_sample(&o->rtt, ts_us);
	rtt_us = ecp_rtt_acked(&o->rtt, ack, tcp_clock_us());
	if (rtt_us || (ts_us && !timing)) {
		u32 rtt = 0;
		unsigned int i;

		/* What an operator compares: the slowest output's. */
		for (i = 0; i < c->nout; i++)
			rtt = max(rtt, c->out[i].rtt.srtt_us);
		WRITE_ONCE(c->t->rtt_measured, rtt);
	}
	/*
	 * HyStart wants a sample per ack, which only the echo gives; without
	 * timestamps, the timed segment's, one per round trip.
	 */
	if (ecp_cc_hystart(&o->cc, ack, o->snd_nxt, ts_us ?: rtt_us, ts_us,
			   o->mss))
		ecp_stats_inc(&c->t->stats, ECP_STAT_HYSTART_EXITS);
	o->rto = ecp_rtt_rto(&o->rtt);
	o->last_progress = jiffies;
	/* The tail probe arrived: the next flight may have one. */
	if (ack >= o->probe_end)
		o->probe_end = 0;
	ecp_conn_out_release(c, o, upto);
	ecp_sack_ack(&o->sack, upto, o->mss);
	/* A partial ack: the segment at it is lost too (RFC 6582). */
	if (ecp_cc_ack(&o->cc, prev, ack, o->mss, tcp_clock_us()))
		ecp_sack_lose(&o->sack, min_t(u64, upto + o->mss, o->snd_nxt));
}

/*
 * The SACK blocks of its ACK.  Blocks at or below the ack (D-SACK, RFC
 * 2883, which Linux sends for a segment it got twice) or beyond what S
 * sent (forged) tell S nothing it may use, and are left out.  A block
 * may end with S's FIN, which is no byte of the stream.
 */
static void ecp_conn_out_sacked(struct ecp_conn_out *o,
				const struct ecp_seg *p)
{
	bool check = ecp_cc_recovering(&o->cc, o->acked) && o->rtt.srtt_us;
	u64 now = tcp_clock_us(), due;
	bool proven = false;
	unsigned int i;

	if (!o->sack_ok)
		return;
	/*
	 * Re-sent bytes can be lost again.  A block of them re-sent in this
	 * round after a hole below it, or of new bytes sent after the last
	 * copy, now SACKed while the hole is not, says the hole's copy was
	 * lost (RACK's rule, RFC 8985 §6.2, by order of sending): the round
	 * starts over, or only the RTO would repair it.  A round trip and a
	 * quarter must have passed since the round began, so that the hole's
	 * copy had its time and an original merely reordered does not count
	 * (RACK's reordering window).  If it has not, the copy is lost when
	 * it has (reo_us), whether or not another ACK comes: the ACKs of a
	 * flight's last bytes are the last ones (RACK's reordering timer,
	 * tcp_rack_reo_timeout(), ecp_conn_reo_timer()).
	 */
	for (i = 0; i < p->nsack; i++) {
		s64 start = ecp_seq_to_off(p->sack[i].start_seq, o->iss + 1,
					   o->acked);
		s64 end = ecp_seq_to_off(p->sack[i].end_seq, o->iss + 1,
					 o->acked);

		if (end == (s64)ecp_conn_out_snd_max(o))
			end = o->snd_nxt;
		if (start <= (s64)o->acked || end <= start ||
		    end > (s64)o->snd_nxt)
			continue;
		if (check && !proven)
			proven = ecp_sack_resent_lost(&o->sack, start, end,
						      o->resent_nxt);
		ecp_sack_add(&o->sack, start, end);
	}
	if (!proven)
		return;
	due = o->round_us + o->rtt.srtt_us + o->rtt.srtt_us / 4;
	if (now >= due) {
		ecp_sack_again(&o->sack);
		o->reo_us = 0;
	} else if (!o->reo_us || due < o->reo_us) {
		o->reo_us = due;
	}
}

/*
 * The tail probe arrived (SACKed) and bytes below it did not: they were
 * sent at least two round trips before it, so they are lost (RACK's rule,
 * RFC 8985 §7.4), however few segments the probe's SACK block spans.
 */
static bool ecp_conn_out_probe_lost(const struct ecp_conn_out *o)
{
	return o->probe_end && o->acked < o->probe_start &&
	       ecp_sack_high(&o->sack) >= o->probe_end;
}

/*
 * What output o has got of the stream, as far as S knows: acked, SACKed,
 * and without SACK a segment per duplicate ACK of the recovery.  Its
 * growth per ACK is what PRR counts as delivered: an ack that passes
 * SACKed bytes (or duplicates) moves them from one term to the other.
 */
static u64 ecp_conn_out_delivered(const struct ecp_conn_out *o)
{
	return o->acked + ecp_sack_bytes(&o->sack) +
	       (u64)o->sack.dups * o->mss;
}

/* After its ACK: is something lost, is a recovery to start? */
static void ecp_conn_out_loss(struct ecp_conn *c, struct ecp_conn_out *o,
			      bool dup)
{
	u64 flight = ecp_conn_out_flight(o);
	bool third;

	if (ecp_cc_recovering(&o->cc, o->acked)) {
		if (dup && !o->sack_ok)
			ecp_sack_dup(&o->sack);
		ecp_sack_lose(&o->sack, ecp_sack_high(&o->sack));
		return;
	}
	third = dup && ecp_cc_dupack(&o->cc, o->acked);
	if (!flight || (!third && !(o->sack_ok &&
				    ecp_sack_hole_lost(&o->sack, o->mss)) &&
			!ecp_conn_out_probe_lost(o)))
		return;
	o->probe_end = 0;
	ecp_cc_recover(&o->cc, flight, o->snd_nxt, o->mss);
	/* Without SACK, the three duplicates are three segments that left. */
	ecp_sack_start(&o->sack,
		       max(ecp_sack_high(&o->sack),
			   o->acked + min_t(u64, o->mss, flight)),
		       o->sack_ok ? 0 : ECP_CC_DUPACKS);
	ecp_stats_inc(&c->t->stats, ECP_STAT_RECOVERIES);
}

void ecp_conn_out_ack(struct ecp_conn *c, struct ecp_conn_out *o,
		      const struct ecp_seg *p, u64 ack, u32 win, bool data)
{
	/* A window update is not a duplicate ACK (RFC 5681 §2). */
	bool win_changed = win != o->win;
	u64 prev = o->acked, sacked = ecp_sack_bytes(&o->sack);
	u64 delivered = ecp_conn_out_delivered(o);
	bool dup = false, recovering;

	if (ecp_seq_win_fresh(&o->wl1, ack, o->acked, p->h.seq, win,
			      o->win)) {
		/* It opens: the persist backoff ends (tcp_ack_probe()). */
		if (win >= o->mss && o->win < o->mss)
			o->rto = ecp_rtt_rto(&o->rtt);
		o->win = win;
	}
	if (ack > o->acked)
		ecp_conn_out_acked(c, o, p, ack);
	else if (ack == o->acked && !data && !win_changed &&
		 o->snd_nxt > o->acked)
		dup = true;
	ecp_conn_out_sacked(o, p);
	/*
	 * With SACK, a duplicate is one that SACKs something new (RFC 6675
	 * §2): the D-SACK an output sends for a segment it got twice (a
	 * copy re-sent for nothing) signals no loss, and three of them
	 * would halve the window for none.
	 */
	if (dup && o->sack_ok && ecp_sack_bytes(&o->sack) <= sacked)
		dup = false;
	recovering = ecp_cc_recovering(&o->cc, o->acked);
	ecp_conn_out_loss(c, o, dup);
	/* What may go in a fast recovery: as much as this ACK says left. */
	if (ecp_cc_recovering(&o->cc, o->acked) && !o->cc.rto) {
		u64 now = ecp_conn_out_delivered(o);

		delivered = now > delivered ? now - delivered : 0;
		/*
		 * Without SACK the recovery's start counts its three
		 * duplicates at once; the first two came on earlier ACKs,
		 * and this one delivered a segment (tcp_add_reno_sack()).
		 */
		if (!recovering && !o->sack_ok)
			delivered = min_t(u64, delivered, o->mss);
		ecp_cc_prr(&o->cc, delivered,
			   ecp_sack_pipe(&o->sack, o->snd_nxt, o->mss),
			   o->acked > prev, o->mss);
	}
	/*
	 * A congestion mark on the way to it, echoed (RFC 3168 §6.1.2): the
	 * window is cut as for a loss, once per window, and nothing goes
	 * again.  It echoes until it sees CWR, which also answers an echo
	 * in a loss recovery: that cut the window already.
	 */
	if (!o->ecn_ok || !(p->h.flags & TCPHDR_ECE))
		return;
	if (ecp_cc_ece(&o->cc, o->acked, ecp_conn_out_snd_max(o) - o->acked,
		       o->snd_nxt, o->mss)) {
		o->cwr = true;
		ecp_stats_inc(&c->t->stats, ECP_STAT_ECN_REDUCTIONS);
	} else if (ecp_cc_recovering(&o->cc, o->acked)) {
		o->cwr = true;
	}
}

void ecp_conn_out_pmtu(struct ecp_conn *c, struct ecp_conn_out *o,
		       struct sk_buff *skb, u64 off, u32 mtu,
		       struct sk_buff_head *q)
{
	u64 budget = ECP_PUSH_MAX;
	u16 mss;

	/* As tcp_v4_err(): only about something in flight. */
	if (off < o->acked || off >= ecp_conn_out_snd_max(o))
		return;
	ipv4_update_pmtu(skb, c->net, mtu, 0, IPPROTO_TCP);
	mss = ecp_route_mss(c->net, c->vip, o->peer.addr);
	if (mss)
		mss = ecp_conn_ts_mss(&o->ts, mss);
	if (!mss || mss >= o->mss)
		return;
	o->mss = mss;
	ecp_stats_inc(&c->t->stats, ECP_STAT_PMTU_UPDATES);
	/*
	 * What was in flight was too big and is gone, re-sent or not: all
	 * of it is lost, and goes again within the window it had.
	 */
	ecp_sack_start(&o->sack, o->snd_nxt, 0);
	ecp_cc_resent(&o->cc, o->snd_nxt);
	ecp_conn_resend_out(c, o, q, &budget);
}
