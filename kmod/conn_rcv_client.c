// SPDX-License-Identifier: GPL-2.0
/*
 * Segments from the client: its SYN (start, or repeat what it missed),
 * its ACKs (release the rings, forward to every source with translated
 * acks and EBSN windows, duplicate ACKs), its data, FIN and RST, and ICMP
 * about S's segments to it.  The client is out[0] (conn_state.h).
 */
#include <net/route.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "task.h"
#include "xmit.h"

/* ---- Segments from the client ------------------------------------- */

/* Is @p from the client (or the writer) of connection c? */
static bool ecp_conn_is_client(struct ecp_conn *c, const struct ecp_seg *p)
{
	return c && ecp_conn_caller(c)->peer.addr == p->h.saddr &&
	       ecp_conn_caller(c)->peer.port == p->h.sport;
}

/* A SYN from the client.  Task lock held. */
static void ecp_conn_rcv_client_syn(struct net *net, struct ecp_task *t,
				    struct ecp_conn *c, const struct ecp_seg *p,
				    struct sk_buff_head *q)
{
	unsigned int i;

	if (p->h.flags & (TCPHDR_ACK | TCPHDR_RST | TCPHDR_FIN)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return;
	}
	if (ecp_conn_is_client(c, p) && c->client.isn == p->h.seq) {
		/*
		 * The client retransmitted its SYN: repeat what it has not
		 * seen.
		 */
		if (ecp_conn_caller(c)->synack_sent) {
			if (c->state != ECPROXY_CONN_HANDSHAKE)
				return;
			if (ecp_conn_has_writer(c))
				ecp_conn_send_synack_writer(c, q);
			else
				ecp_conn_send_synack_client(c, q);
			return;
		}
		for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++)
			if (ecp_conn_src_unanswered(&c->src[i]))
				ecp_conn_send_syn_src(c, &c->src[i], q);
		for (i = 0; ecp_conn_has_writer(c) && i < c->nout; i++)
			if (!c->out[i].synack)
				ecp_conn_send_syn_tgt(c, &c->out[i], q);
		return;
	}
	if (c || READ_ONCE(t->dead)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BUSY);
		ecp_conn_send_rst_reply(p, q);
		return;
	}
	if (!ecp_task_client_ok(t, p->h.saddr)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_CLIENT_DENIED);
		return;
	}
	ecp_conn_start(net, t, p, q);
}

/* The client's ACK of the SYN-ACK completes all k handshakes. */
static void ecp_conn_rcv_client_established(struct ecp_conn *c,
					    const struct ecp_seg *p)
{
	struct ecp_conn_out *cl = &c->out[0];
	struct ecp_task *t = c->t;
	unsigned int i;

	ecp_conn_set_state(c, ECPROXY_CONN_ESTABLISHED);
	ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_ESTABLISHED,
		       cl->peer.addr, cl->peer.port, 0, c->start, c->home, 0,
		       -1, -1);
	ecp_conn_out_handshake_rtt(cl, p);
	cl->rto = ecp_rtt_rto(&cl->rtt);
	ecp_cc_init(&cl->cc, cl->mss);
	for (i = 0; i < c->k; i++)
		if (!c->src[i].gone)
			WRITE_ONCE(t->src[i].state,
				   ECPROXY_SOURCE_ESTABLISHED);
	for (i = 0; i < c->nrow; i++)
		WRITE_ONCE(t->row[i].state, ECPROXY_ROW_SENDING);
}

/*
 * The client's ACK field, FIN and payload: release the rings, forward to
 * every source, push.  Returns false if the connection must be freed.
 */
static bool ecp_conn_rcv_client_seg(struct ecp_conn *c, struct sk_buff *skb,
				    const struct ecp_seg *p,
				    struct sk_buff_head *q)
{
	struct ecp_conn_client *rq = &c->client;
	struct ecp_conn_out *cl = &c->out[0];
	struct ecp_task *t = c->t;
	bool fin = p->h.flags & TCPHDR_FIN;
	s64 ack_off, seq_off;
	unsigned int i;

	if (!(p->h.flags & TCPHDR_ACK)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	ack_off = ecp_seq_to_off(p->h.ack, cl->iss + 1, cl->acked);
	seq_off = ecp_seq_to_off(p->h.seq, rq->isn + 1, rq->rcv_nxt);
	/* An old duplicate's ack or bytes may map into the current window. */
	if (ecp_conn_ts_paws(c, &cl->ts, p,
			     ecp_conn_ts_slack(cl, p, ack_off))) {
		if (ecp_conn_oow_ack(&cl->peer))
			ecp_conn_send_ack_out(c, cl, q);
		return true;
	}
	/*
	 * The client cannot send past the largest window S can offer it:
	 * beyond that a segment is forged, and taking it would move rcv_nxt,
	 * where S's segments to the sources start, out of their windows.  A
	 * keepalive or window probe carries the sequence number before
	 * rcv_nxt, which is the ISN itself (offset -1) before any byte: the
	 * comparisons stay signed, or offset -1 would read as 2^64 - 1.
	 */
	if (ack_off < 0 || ack_off > ecp_conn_out_snd_max(cl) ||
	    seq_off < -1 || (seq_off < 0 && (p->len || fin)) ||
	    seq_off > (s64)(rq->rcv_nxt + ((u64)0xffff << cl->ws_out))) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	/* S acks it what every source has. */
	if (ecp_ts_at_edge(seq_off, p->len + fin,
			   ecp_conn_client_ack_off(c)))
		ecp_conn_ts_seen(&cl->ts, p);
	if (c->state == ECPROXY_CONN_HANDSHAKE)
		ecp_conn_rcv_client_established(c, p);

	ecp_conn_out_ack(c, cl, p, ack_off, (u32)p->h.win << cl->ws,
			 p->len || fin);
	if (fin && !rq->fin) {
		rq->fin = true;
		rq->fin_off = seq_off + p->len;
	}
	if (seq_off + p->len + fin > (s64)rq->rcv_nxt)
		rq->rcv_nxt = seq_off + p->len + fin;

	/*
	 * Copy to every source its bytes, its FIN and its probes: same
	 * sequence number, S's own ack of the source, window from EBSN
	 * (moved by the client's ack).  A pure ACK only moves that window,
	 * and goes as a receiver's window update goes (__tcp_cleanup_rbuf()):
	 * once the window a source has left would double, or reopen.  Copied,
	 * each of A's ACKs cost S a packet per source.
	 */
	for (i = 0; i < c->k; i++) {
		if (!p->len && !fin && seq_off == (s64)rq->rcv_nxt)
			ecp_conn_send_win_src(c, &c->src[i], q);
		else
			ecp_conn_send_copy_src(c, &c->src[i], q, skb, p);
	}

	if (!ecp_conn_push(c, q))
		return false;
	/*
	 * The client repeats bytes every source has (our ACK was lost), or
	 * probes with an old sequence number (a keepalive, or a probe of the
	 * zero window S gives it): answer with ack and window, as TCP
	 * answers a segment that is not acceptable (RFC 9293 §3.10.7.4).
	 */
	if (((p->len || fin) &&
	     seq_off + p->len + fin <= (s64)ecp_conn_client_ack_off(c)) ||
	    (!p->len && !fin && seq_off < (s64)rq->rcv_nxt))
		ecp_conn_send_ack_out(c, cl, q);
	ecp_conn_check_done(c, q);
	return true;
}

void ecp_conn_rcv_client(struct net *net, struct ecp_task *t,
			 struct sk_buff *skb, const struct ecp_seg *p)
{
	struct ecp_conn *c, *to_free = NULL;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	c = t->conn;
	if (p->h.flags & TCPHDR_SYN) {
		ecp_conn_rcv_client_syn(net, t, c, p, &q);
		goto out;
	}
	if (!ecp_conn_is_client(c, p) || !ecp_conn_caller(c)->synack_sent) {
		/* No connection for it: answer as a closed port would. */
		if (!(p->h.flags & TCPHDR_RST))
			ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		ecp_conn_send_rst_reply(p, &q);
		goto out;
	}
	c->last_rx = jiffies;
	ecp_conn_caller(c)->last_rx = c->last_rx;
	ecp_conn_steer(c, skb);
	if (p->h.flags & TCPHDR_RST) {
		s64 off = ecp_seq_to_off(p->h.seq, c->client.isn + 1,
					 c->client.rcv_nxt);

		/* A writer may be offered more than 64 KiB (scaled). */
		if (off < 0 || off > max(c->client.rcv_nxt + 0xffff,
					 c->client.edge)) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
			goto out;
		}
		/*
		 * After the close every side has what it needs: the client,
		 * its socket gone, answers a late ACK of ours with a RST.
		 */
		if (c->state == ECPROXY_CONN_LINGER)
			ecp_conn_finish(c);
		else
			ecp_conn_abort(c, &q, ECPROXY_ERR_CLIENT_RESET, -1, -1,
				       true, -1, -1);
		to_free = c;
		goto out;
	}
	if (ecp_conn_has_writer(c) ? !ecp_conn_rcv_writer_seg(c, skb, p, &q) :
	    !ecp_conn_rcv_client_seg(c, skb, p, &q))
		to_free = c;
out:
	ecp_conn_unlock_send(t, net, &q, to_free);
}

bool ecp_conn_rcv_icmp_client(struct net *net, struct ecp_task *t,
			      struct sk_buff *skb, const struct ecp_seg *p,
			      u32 seq, u32 mtu)
{
	struct ecp_conn_out *cl;
	struct ecp_conn *c;
	struct sk_buff_head q;
	bool ours = false;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	c = t->conn;
	if (!c || c->dead || !ecp_conn_has_client(c) ||
	    !ecp_conn_is_client(c, p))
		goto out;
	ours = true;
	cl = &c->out[0];
	ecp_conn_out_pmtu(c, cl, skb,
			  ecp_seq_to_off(seq, cl->iss + 1, cl->acked), mtu, &q);
out:
	ecp_conn_unlock_send(t, net, &q, NULL);
	return ours;
}
