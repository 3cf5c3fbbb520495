// SPDX-License-Identifier: GPL-2.0
/*
 * Segments from the targets: the peers S connects to from the VIP and
 * sends a rebuilt row to (a task with targets, DEST).  A target only
 * answers: its SYN-ACK, its ACKs of the row, its FIN once S's is in, and
 * RSTs; and ICMP about S's segments to it.  S's stream to a target is an
 * output like the client's (conn_out.c).
 */
#include <net/tcp.h>

#include "conn_state.h"
#include "task.h"

/* Target o's SYN-ACK.  Task lock held. */
static void ecp_conn_rcv_tgt_synack(struct ecp_conn *c, struct ecp_conn_out *o,
				    const struct ecp_seg *p,
				    struct sk_buff_head *q)
{
	if (p->h.ack != o->iss + 1) {
		ecp_stats_drop(&c->t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return;
	}
	if (o->synack) {
		/* Our ACK was lost (or is not due yet): repeat it. */
		if (c->state != ECPROXY_CONN_HANDSHAKE)
			ecp_conn_send_ack_out(c, o, q);
		return;
	}
	o->synack = true;
	o->irs = p->h.seq;
	/* S offered timestamps (ecp_conn_send_syn_tgt()). */
	ecp_conn_ts_open(c, &o->ts, p);
	ecp_conn_out_handshake_rtt(o, p);
	o->mss = min_t(u16, o->mss, p->h.mss ?: ECP_DEFAULT_MSS);
	o->mss = ecp_conn_ts_mss(&o->ts, o->mss);
	/* S offered shift 0: scaling is on if the target answered it. */
	o->ws = p->h.wscale >= 0 ? p->h.wscale : 0;
	o->win = p->h.win;
	o->wl1 = p->h.seq;
	/* S offered SACK: it is on if the target answered it. */
	o->sack_ok = p->h.sack_ok;
	/* Asked for in S's SYN (ecp_conn_send_syn_tgt()): data go ECT. */
	o->ecn_ok = o->ecn_ok && ecp_conn_ecn_answered(p);
	ecp_conn_answered(c, &o->peer, q);
}

/*
 * A RST from target o: a refusal of S's SYN, or a reset of the stream.
 * Once every byte and S's FIN are acked, it is the close of a target
 * whose socket went away: no loss.  Returns true if c must be freed.
 */
static bool ecp_conn_rcv_tgt_rst(struct ecp_conn *c, struct ecp_conn_out *o,
				 const struct ecp_seg *p,
				 struct sk_buff_head *q)
{
	unsigned int i = o->peer.idx;

	if (!o->synack) {
		if (!(p->h.flags & TCPHDR_ACK) || p->h.ack != o->iss + 1) {
			ecp_stats_drop(&c->t->stats,
				       ECPROXY_DROP_OUT_OF_WINDOW);
			return false;
		}
		ecp_conn_abort(c, q, ECPROXY_ERR_TARGET_REFUSED, -1, i, false,
			       -1, i);
		return true;
	}
	/* In the window: a target sends nothing but its FIN. */
	if (p->h.seq != o->irs + 1 + o->fin && p->h.seq != o->irs + 1) {
		ecp_stats_drop(&c->t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return false;
	}
	if (o->done)
		return false;
	ecp_conn_abort(c, q, ECPROXY_ERR_TARGET_RESET, -1, i, false, -1, i);
	return true;
}

/*
 * ACK and FIN from an established target.  Returns false if the
 * connection must be freed.
 */
static bool ecp_conn_rcv_tgt_seg(struct ecp_conn *c, struct ecp_conn_out *o,
				 const struct ecp_seg *p,
				 struct sk_buff_head *q)
{
	bool fin = p->h.flags & TCPHDR_FIN;
	bool probe = p->h.seq == o->irs && !p->len && !fin;
	unsigned int i;
	s64 ack_off;

	if (!(p->h.flags & TCPHDR_ACK) || (p->h.flags & TCPHDR_SYN)) {
		ecp_stats_drop(&c->t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	ack_off = ecp_seq_to_off(p->h.ack, o->iss + 1, o->acked);
	if (ecp_conn_ts_paws(c, &o->ts, p, ecp_conn_ts_slack(o, p, ack_off))) {
		if (ecp_conn_oow_ack(&o->peer))
			ecp_conn_send_ack_out(c, o, q);
		return true;
	}
	/*
	 * Its stream is empty: its FIN, if any, is its first byte.  A
	 * keepalive carries the sequence number before it, the ISN itself
	 * (tcp_xmit_probe_skb()): S answers it below, or the target's TCP
	 * gives up on a connection that idles while a source stalls.
	 */
	if (ack_off < 0 || ack_off > ecp_conn_out_snd_max(o) || p->len ||
	    (!probe && p->h.seq != o->irs + 1 &&
	     p->h.seq != o->irs + 1 + o->fin)) {
		ecp_stats_drop(&c->t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	/* It sends nothing but its FIN: every segment is at the left edge. */
	ecp_conn_ts_seen(&o->ts, p);
	ecp_conn_out_ack(c, o, p, ack_off, (u32)p->h.win << o->ws, fin);
	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++)
		ecp_conn_send_win_src(c, &c->src[i], q);
	if (ecp_conn_has_writer(c))
		ecp_conn_send_win_writer(c, q);
	if (fin)
		o->fin = true;
	/* Its FIN, or a keepalive: answer with ack and window. */
	if (fin || probe)
		ecp_conn_send_ack_out(c, o, q);
	if (!ecp_conn_push(c, q))
		return false;
	ecp_conn_check_done(c, q);
	return true;
}

void ecp_conn_rcv_tgt(struct net *net, struct ecp_conn_out *o,
		      struct sk_buff *skb, const struct ecp_seg *p)
{
	struct ecp_conn *c = o->peer.conn, *to_free = NULL;
	struct ecp_task *t = c->t;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead)
		goto out;
	c->last_rx = jiffies;
	o->last_rx = c->last_rx;
	ecp_conn_steer(c, skb);
	if (p->h.flags & TCPHDR_RST) {
		if (ecp_conn_rcv_tgt_rst(c, o, p, &q))
			to_free = c;
		goto out;
	}
	if ((p->h.flags & (TCPHDR_SYN | TCPHDR_ACK)) ==
	    (TCPHDR_SYN | TCPHDR_ACK)) {
		ecp_conn_rcv_tgt_synack(c, o, p, &q);
		goto out;
	}
	/* S's SYN carries its own ISN towards o (S's sequence space). */
	if (!o->synack && ecp_conn_send_rst_stale(c, &o->peer, p, o->iss, &q)) {
		ecp_conn_send_syn_tgt(c, o, &q);
		goto out;
	}
	/* A write's targets are established before its writer. */
	if (!o->synack || (c->state == ECPROXY_CONN_HANDSHAKE &&
			   !(ecp_conn_has_writer(c) && c->w.synack_sent))) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		goto out;
	}
	if (!ecp_conn_rcv_tgt_seg(c, o, p, &q))
		to_free = c;
out:
	ecp_conn_unlock_send(t, net, &q, to_free);
}

void ecp_conn_rcv_icmp_tgt(struct net *net, struct ecp_conn_out *o,
			   struct sk_buff *skb, u32 seq, u32 mtu)
{
	struct ecp_conn *c = o->peer.conn;
	struct ecp_task *t = c->t;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn == c && !c->dead && o->synack)
		ecp_conn_out_pmtu(c, o, skb,
				  ecp_seq_to_off(seq, o->iss + 1, o->acked),
				  mtu, &q);
	ecp_conn_unlock_send(t, net, &q, NULL);
}
