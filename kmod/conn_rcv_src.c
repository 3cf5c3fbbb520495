// SPDX-License-Identifier: GPL-2.0
/*
 * Segments from the sources: SYN-ACKs (the handshake goes on once every
 * source has answered), data combined into the rings of the rows each
 * source feeds, by stream offset, each byte once per source, FINs and
 * RSTs; and ICMP about S's segments to them.
 */
#include <net/route.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "task.h"
#include "xmit.h"

/* ---- Segments from the sources ---------------------------------------- */

/* A source's SYN-ACK.  Task lock held. */
static void ecp_conn_rcv_src_synack(struct ecp_conn *c,
				    struct ecp_conn_src *s,
				    const struct ecp_seg *p,
				    struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;

	if (p->h.ack != c->client.isn + 1) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return;
	}
	/*
	 * Too late: a spare stood in for it.  The RST frees its listener's
	 * request, which would repeat this for a minute.
	 */
	if (s->gone && !s->synack) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		ecp_conn_send_rst_reply(p, q);
		return;
	}
	if (s->synack) {
		/* Our ACK was lost (or is not due yet): repeat it. */
		if (c->state != ECPROXY_CONN_HANDSHAKE)
			ecp_conn_send_ack_src_always(c, s, q);
		return;
	}
	s->synack = true;
	s->isn = p->h.seq;
	if (p->h.mss)
		s->mss = min(s->mss, p->h.mss);
	else
		s->mss = min_t(u16, s->mss, ECP_DEFAULT_MSS);
	/* S offered them (ecp_conn_send_syn_src()); they take MSS room. */
	ecp_conn_ts_open(c, &s->ts, p);
	s->mss = ecp_conn_ts_mss(&s->ts, s->mss);
	/*
	 * Scaling is on if the source answered S's offer, whatever the
	 * client offered: S's shift to the sources comes from the buffer.
	 */
	if (p->h.wscale >= 0) {
		s->ws = p->h.wscale;
		s->ws_out = ecp_conn_src_wscale(t->buffer_size);
	}
	s->win = p->h.win;
	s->wl1 = p->h.seq;
	/* S offered it (ecp_conn_send_syn_src()). */
	s->sack_ok = p->h.sack_ok;
	s->ecn_ok = s->ecn_ok && ecp_conn_ecn_answered(p);
	ecp_ebsn_reset(&s->ebsn, 0);
	ecp_conn_answered(c, &s->peer, q);
}

/*
 * The ACK for a data segment [off, off + len) of s, of which @n bytes were
 * new; @quick: it may not wait (s had a gap before it, or had been silent
 * for an RTO); @segs: the segments it was sent in (GRO merges them).  As a
 * receiver: a segment past a hole is answered with a duplicate ACK per
 * segment at once, up to the three that make s fast-retransmit (a GRO'd
 * skb is one prompt short of many segments, and s without SACK counts
 * duplicates), one that fills a hole or repeats old bytes with an ACK at
 * once, one that reaches the window S gave s (within a segment of its
 * edge: s can send nothing more until acked) too, one after a silence of
 * an RTO too (s restarts from its timer with a window of one segment, and
 * Linux acks it at once, tcp_event_data_recv()'s quick ACKs), others
 * every ack_segs segments, the rest within ack_delay_us (a millisecond)
 * (ecp_conn_send_ack_src_later()).  Held back until the timer's tick
 * (50 ms), the last ACK of a window made s with SACK send a tail loss
 * probe (after two round trips), a duplicate, for every window.
 */
static void ecp_conn_send_ack_src_data(struct ecp_conn *c,
				       struct ecp_conn_src *s,
				       struct sk_buff_head *q, u64 off, u32 len,
				       s64 n, bool quick, unsigned int segs)
{
	u64 ack = ecp_conn_src_ack_off(s);

	if (off > ack)
		s->recent = off;
	if (off > ack && ecp_conn_src_holed(s))
		ecp_conn_send_prompt_src(c, s, q,
					 clamp_t(unsigned int, segs, 1,
						 ECP_CC_DUPACKS));
	else if (!n && off + len <= ack)
		/* All old: s did not see our ACK; repeat it. */
		ecp_conn_send_ack_src_always(c, s, q);
	else if (quick || n < len || ecp_ivset_count(&s->iv) ||
		 off + len + s->mss > ecp_conn_src_told_edge(s))
		ecp_conn_send_ack_src(c, s, q);
	else
		ecp_conn_send_ack_src_later(c, s, q);
}

/*
 * Data, FIN and ACK from an established source: combine, then push to the
 * client.  @quiet: s had sent nothing for an RTO before @p.  Returns false
 * if the connection must be freed.
 */
static bool ecp_conn_rcv_src_seg(struct ecp_conn *c, struct ecp_conn_src *s,
				 struct sk_buff *skb, const struct ecp_seg *p,
				 bool quiet, struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	struct ecp_source *cfg = &t->src[s->peer.idx];
	bool fin = p->h.flags & TCPHDR_FIN;
	bool ack_client = false, marked = false;
	u32 win = (u32)p->h.win << s->ws;
	s64 off, aoff;
	u64 snd = 0;
	s64 n;

	if (!(p->h.flags & TCPHDR_ACK) || (p->h.flags & TCPHDR_SYN)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	off = ecp_seq_to_off(p->h.seq, s->isn + 1, s->ref);
	/*
	 * Before its sequence number means anything: an old duplicate may
	 * carry one that maps into the current window.  As Linux answers
	 * one (tcp_send_dupack()), the ACK D-SACKs it if it lies below
	 * what S acks: it is mostly the original of a copy s re-sent too
	 * early.
	 */
	if (ecp_conn_ts_paws(c, &s->ts, p, ECP_TS_SLACK)) {
		if (!ecp_conn_oow_ack(&s->peer))
			return true;
		if (off >= 0 && off < (s64)ecp_conn_src_ack_off(s))
			s->dsack = ecp_conn_dsack(s->sack_ok, &s->iv, off,
						  p->len);
		ecp_conn_send_ack_src_always(c, s, q);
		return true;
	}
	aoff = ecp_seq_to_off(p->h.ack, c->client.isn + 1, s->acked);
	/*
	 * A keepalive or zero-window probe carries the sequence number
	 * before what S acked: the ISN itself (offset -1) before any byte.
	 * The comparisons stay signed, or offset -1 reads as 2^64 - 1.
	 */
	if (off < -1 || (off < 0 && (p->len || fin)) || aoff < 0 ||
	    aoff > (s64)c->client.rcv_nxt ||
	    off + p->len > (s64)(ecp_conn_src_base(c, s) +
				 ecp_task_ring_size(t) + (1ULL << 30))) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	if (ecp_ts_at_edge(off, p->len + !!(p->h.flags & TCPHDR_FIN),
			   s->last_ack_off))
		ecp_conn_ts_seen(&s->ts, p);
	if (s->ecn_ok)
		marked = ecp_conn_ecn_rcv(&s->ece, p);
	if (ecp_seq_win_fresh(&s->wl1, aoff, s->acked, p->h.seq, win, s->win))
		s->win = win;
	if ((u64)aoff > s->acked) {
		u64 before = ecp_conn_client_ack_off(c);

		s->acked = aoff;
		ack_client = ecp_conn_client_ack_off(c) > before;
	}

	if (p->len) {
		bool holes = ecp_ivset_count(&s->iv);

		atomic64_inc(&cfg->stats.segs_in);
		s->dsack = ecp_conn_dsack(s->sack_ok, &s->iv, off, p->len);
		n = ecp_conn_src_apply(c, s, off, skb, p->dataoff, p->len);
		if (n == -ENOBUFS || n == -ENOSPC) {
			/*
			 * Count and drop, but never silently: a duplicate
			 * ACK (with what S holds, and the window) tells s
			 * that it has to send it again.
			 */
			ecp_stats_inc(&t->stats, ECP_STAT_OVERFLOW);
			ecp_conn_send_ack_src_always(c, s, q);
			return true;
		}
		if (n < 0) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_TRUNCATED);
			return true;
		}
		atomic64_add(n, &cfg->stats.bytes_in);
		if (n)
			ecp_stats_inc(&t->stats, ECP_STAT_SEGS_APPLIED);
		/* A FIN is acked at once, below. */
		if (!fin)
			ecp_conn_send_ack_src_data(c, s, q, off, p->len, n,
						   holes || quiet || marked,
						   skb_shinfo(skb)->gso_segs);
		if (n < p->len) {
			atomic64_add(p->len - n, &cfg->stats.dup_bytes);
			ecp_stats_inc(&t->stats, ECP_STAT_DUPS_SKIPPED);
		}
		s->ref = max_t(u64, s->ref, off + p->len);
	} else if (!fin && off < (s64)ecp_conn_src_ack_off(s)) {
		/* A window probe or keepalive: answer with ack and window. */
		ecp_conn_send_ack_src_always(c, s, q);
	}
	if (fin && !s->fin) {
		s->fin = true;
		s->fin_off = off + p->len;
		WRITE_ONCE(cfg->state, ECPROXY_SOURCE_FIN_RECEIVED);
	}
	if (fin)
		ecp_conn_send_ack_src_always(c, s, q);
	if (ecp_conn_has_client(c))
		snd = ecp_conn_out_snd_max(&c->out[0]);
	if (!ecp_conn_push(c, q))
		return false;
	/*
	 * Segments to the client carry the ack of the client's bytes.  If
	 * none went (the sources wait for the rest of the client's request,
	 * or for its FIN), the client must still learn that every source has
	 * them, or it retransmits them for ever and never sends the rest.
	 */
	if (ack_client && ecp_conn_has_client(c) &&
	    ecp_conn_out_snd_max(&c->out[0]) == snd)
		ecp_conn_send_ack_out(c, &c->out[0], q);
	ecp_conn_check_done(c, q);
	return true;
}

void ecp_conn_rcv_src(struct net *net, struct ecp_conn_src *s,
		      struct sk_buff *skb, const struct ecp_seg *p)
{
	struct ecp_conn *c = s->peer.conn, *to_free = NULL;
	struct ecp_task *t = c->t;
	struct sk_buff_head q;
	bool quiet;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead)
		goto out;
	c->last_rx = jiffies;
	/* Silent for Linux's least RTO: s restarts from its timer. */
	quiet = time_after_eq(c->last_rx, s->last_rx + TCP_RTO_MIN);
	s->last_rx = c->last_rx;
	ecp_conn_steer(c, skb);
	if (p->h.flags & TCPHDR_RST) {
		/*
		 * Refused in the handshake, or reset later; with spares, one
		 * more source missing (ecp_conn_src_stand_in()) while no more
		 * are than there are spares.
		 */
		if (s->gone)
			/* To a repeated SYN, or to what S sent before. */
			goto out;
		if (!s->synack) {
			if (!(p->h.flags & TCPHDR_ACK) ||
			    p->h.ack != c->client.isn + 1) {
				ecp_stats_drop(&t->stats,
					       ECPROXY_DROP_OUT_OF_WINDOW);
				goto out;
			}
			if (ecp_conn_src_stand_in(c, s, ECPROXY_SOURCE_RESET,
						  &q))
				goto out;
			ecp_conn_abort(c, &q, ECPROXY_ERR_SOURCE_REFUSED,
				       s->peer.idx, -1, false, s->peer.idx, -1);
		} else {
			s64 off = ecp_seq_to_off(p->h.seq, s->isn + 1, s->ref);
			/*
			 * In the window, as RFC 9293 §3.10.7.4 asks: no
			 * further from what it sent than the buffer lets a
			 * source run.  A blind reset then has to guess the
			 * sequence to within a few MiB, not a quarter of
			 * the sequence space.
			 */
			u64 span = ecp_task_ring_size(t);

			if (off < 0 || off + span < s->ref ||
			    off > s->ref + span) {
				ecp_stats_drop(&t->stats,
					       ECPROXY_DROP_OUT_OF_WINDOW);
				goto out;
			}
			/*
			 * s's side is closed both ways: its socket is gone
			 * and it answered something of ours.  No loss.
			 */
			if (ecp_conn_src_closed(c, s))
				goto out;
			/*
			 * Everything s sends is in, its FIN acked: its socket
			 * timed out in FIN-WAIT-2 and answered us.  It has
			 * nothing more to give, so the transfer goes on.
			 */
			if (ecp_conn_src_fin_acked(s)) {
				s->gone = true;
				ecp_conn_check_done(c, &q);
				goto out;
			}
			if (ecp_conn_src_stand_in(c, s, ECPROXY_SOURCE_RESET,
						  &q))
				goto out;
			/*
			 * As for the client (conn_rcv_client.c): the close is
			 * complete.
			 */
			if (c->state == ECPROXY_CONN_LINGER)
				ecp_conn_finish(c);
			else
				ecp_conn_abort(c, &q, ECPROXY_ERR_SOURCE_RESET,
					       s->peer.idx, -1, false,
					       s->peer.idx, -1);
		}
		to_free = c;
		goto out;
	}
	if ((p->h.flags & (TCPHDR_SYN | TCPHDR_ACK)) ==
	    (TCPHDR_SYN | TCPHDR_ACK)) {
		ecp_conn_rcv_src_synack(c, s, p, &q);
		goto out;
	}
	/*
	 * Its socket reset, or a spare stood in for it: what still comes is
	 * old, and S acks none.
	 */
	if (s->gone) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		goto out;
	}
	if (!s->synack &&
	    ecp_conn_send_rst_stale(c, &s->peer, p, c->client.isn, &q)) {
		ecp_conn_send_syn_src(c, s, &q);
		goto out;
	}
	if (!s->synack || c->state == ECPROXY_CONN_HANDSHAKE) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		goto out;
	}
	if (!ecp_conn_rcv_src_seg(c, s, skb, p, quiet, &q))
		to_free = c;
out:
	ecp_conn_unlock_send(t, net, &q, to_free);
}

void ecp_conn_rcv_icmp_src(struct net *net, struct ecp_conn_src *s,
			   struct sk_buff *skb, u32 seq, u32 mtu)
{
	struct ecp_conn *c = s->peer.conn;
	struct ecp_task *t = c->t;
	s64 off;
	u16 mss;

	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead || !s->synack)
		goto out;
	/*
	 * Only the client's bytes, which S forwards, can be too big for
	 * the path; the client sends the lost ones again, and S cuts them
	 * to the new MSS (ecp_conn_send_copy_src()).
	 */
	off = ecp_seq_to_off(seq, c->client.isn + 1, s->acked);
	if (off < (s64)s->acked || off >= (s64)c->client.rcv_nxt)
		goto out;
	ipv4_update_pmtu(skb, net, mtu, 0, IPPROTO_TCP);
	mss = ecp_route_mss(net, c->vip, s->peer.addr);
	if (mss)
		mss = ecp_conn_ts_mss(&s->ts, mss);
	if (mss && mss < s->mss) {
		s->mss = mss;
		ecp_stats_inc(&t->stats, ECP_STAT_PMTU_UPDATES);
	}
out:
	spin_unlock_bh(&t->lock);
}

void ecp_conn_peer_drop(struct ecp_conn_peer *peer, int reason)
{
	ecp_stats_drop(&peer->conn->t->stats, reason);
}
