// SPDX-License-Identifier: GPL-2.0
/*
 * Segments from the client: its SYN (start, or repeat what it missed),
 * its ACKs (release the buffer, forward to every source with translated
 * acks and EBSN windows, duplicate ACKs), its data, FIN and RST.
 */
#include <net/route.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "task.h"
#include "xmit.h"

/* ---- Segments from the client ------------------------------------- */

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
	if (c && c->client.addr == p->h.saddr && c->client.port == p->h.sport &&
	    c->client.isn == p->h.seq) {
		/*
		 * The client retransmitted its SYN: repeat what it has not
		 * seen.
		 */
		if (c->client.synack_sent) {
			if (c->state == ECPROXY_CONN_HANDSHAKE)
				ecp_conn_send_synack_client(c, q);
			return;
		}
		for (i = 0; i < c->k; i++)
			if (!c->src[i].synack)
				ecp_conn_send_syn_src(c, &c->src[i], q);
		return;
	}
	if (c || READ_ONCE(t->dead)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BUSY);
		ecp_conn_send_rst_reply(p, q);
		return;
	}
	/*
	 * The last connection was aborted and its buffer is being zeroed
	 * (a few ms): no RST, the client's SYN retransmission gets through.
	 */
	if (t->buffer_dirty) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BUSY);
		return;
	}
	if (!ecp_task_client_ok(t, p->h.saddr)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_CLIENT_DENIED);
		return;
	}
	ecp_conn_start(net, t, p, q);
}

/*
 * The client acknowledged new bytes, up to @ack: release them from the
 * buffer, time the round trip, and let congestion control say whether a
 * partial ack in recovery asks for the next hole at once.
 */
static void ecp_conn_rcv_client_ack(struct ecp_conn *c, u64 ack,
				    struct sk_buff_head *q)
{
	struct ecp_conn_client *cl = &c->client;
	u64 upto = min(ack, cl->snd_nxt);
	u64 prev = cl->acked;
	unsigned int i;

	cl->acked = ack;
	ecp_rtt_acked(&cl->rtt, ack, jiffies);
	cl->rto = ecp_rtt_rto(&cl->rtt);
	cl->last_progress = jiffies;
	ecp_dbuf_release(&c->dbuf, upto);
	for (i = 0; i < c->k; i++)
		ecp_ivset_trim(&c->src[i].iv, upto);
	if (ecp_cc_ack(&cl->cc, prev, ack, cl->mss))
		ecp_conn_resend_client(c, q, 1);
}

/* The client's ACK of the SYN-ACK completes all k handshakes. */
static void ecp_conn_rcv_client_established(struct ecp_conn *c)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	ecp_conn_set_state(c, ECPROXY_CONN_ESTABLISHED);
	ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_ESTABLISHED,
		       c->client.addr, c->client.port, 0, c->start, 0, -1);
	c->client.rto = ECP_RTO_MIN;
	ecp_cc_init(&c->client.cc, c->client.mss);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_ESTABLISHED);
}

/*
 * The client's ACK field, FIN and payload: release the buffer, forward to
 * every source, push.  Returns false if the connection must be freed.
 */
static bool ecp_conn_rcv_client_seg(struct ecp_conn *c, struct sk_buff *skb,
				    const struct ecp_seg *p,
				    struct sk_buff_head *q)
{
	struct ecp_conn_client *cl = &c->client;
	struct ecp_task *t = c->t;
	bool fin = p->h.flags & TCPHDR_FIN;
	u64 snd_max = ecp_conn_client_snd_max(cl);
	s64 ack_off, seq_off;
	bool win_changed;
	unsigned int i;
	u32 win;

	if (!(p->h.flags & TCPHDR_ACK)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	ack_off = ecp_seq_to_off(p->h.ack, cl->iss + 1, cl->acked);
	seq_off = ecp_seq_to_off(p->h.seq, cl->isn + 1, cl->rcv_nxt);
	/*
	 * The client cannot send past the largest window S can offer it:
	 * beyond that a segment is forged, and taking it would move rcv_nxt,
	 * where S's segments to the sources start, out of their windows.  A
	 * keepalive or window probe carries the sequence number before
	 * rcv_nxt, which is the ISN itself (offset -1) before any byte.
	 */
	if (ack_off < 0 || ack_off > snd_max || seq_off < -1 ||
	    (seq_off < 0 && p->len) ||
	    seq_off > cl->rcv_nxt + ((u64)0xffff << cl->ws_out)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	if (c->state == ECPROXY_CONN_HANDSHAKE)
		ecp_conn_rcv_client_established(c);

	win = (u32)p->h.win << cl->ws;
	/* A window update is not a duplicate ACK (RFC 5681 §2). */
	win_changed = win != cl->win;
	/* The window opens: the persist timer's backoff ends (tcp_ack_probe). */
	if (win >= cl->mss && cl->win < cl->mss)
		cl->rto = ecp_rtt_rto(&cl->rtt);
	cl->win = win;
	if ((u64)ack_off > cl->acked)
		ecp_conn_rcv_client_ack(c, ack_off, q);
	else if (ack_off == cl->acked && !p->len && !fin && !win_changed &&
		 cl->snd_nxt > cl->acked &&
		 ecp_cc_dupack(&cl->cc, cl->acked, cl->snd_nxt, cl->mss))
		ecp_conn_resend_client(c, q, 1);

	if (fin && !cl->fin) {
		cl->fin = true;
		cl->fin_off = seq_off + p->len;
	}
	cl->rcv_nxt = max_t(u64, cl->rcv_nxt, seq_off + p->len + fin);

	/*
	 * Copy to every source: same sequence number, S's own ack of the
	 * source, window from EBSN (moved by the client's ack).
	 */
	for (i = 0; i < c->k; i++)
		ecp_conn_send_copy_src(c, &c->src[i], q, skb, p);

	if (!ecp_conn_push_client(c, q))
		return false;
	/*
	 * The client repeats bytes every source has (our ACK was lost), or
	 * probes with an old sequence number (a keepalive, or a probe of the
	 * zero window S gives it): answer with ack and window, as TCP
	 * answers a segment that is not acceptable (RFC 9293 §3.10.7.4).
	 */
	if (((p->len || fin) &&
	     seq_off + p->len + fin <= ecp_conn_client_ack_off(c)) ||
	    (!p->len && !fin && seq_off < (s64)cl->rcv_nxt))
		ecp_conn_send_ack_client(c, q);
	ecp_conn_check_done(c);
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
	if (!c || c->client.addr != p->h.saddr ||
	    c->client.port != p->h.sport || !c->client.synack_sent) {
		/* No connection for it: answer as a closed port would. */
		if (!(p->h.flags & TCPHDR_RST))
			ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		ecp_conn_send_rst_reply(p, &q);
		goto out;
	}
	c->last_rx = jiffies;
	c->client.last_rx = c->last_rx;
	if (p->h.flags & TCPHDR_RST) {
		s64 off = ecp_seq_to_off(p->h.seq, c->client.isn + 1,
					 c->client.rcv_nxt);

		if (off < 0 || off > c->client.rcv_nxt + 0xffff) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
			goto out;
		}
		/*
		 * After the close every side has what it needs: the client, its
		 * socket gone, answers a late ACK of ours with a RST.
		 */
		if (c->state == ECPROXY_CONN_LINGER)
			ecp_conn_finish(c);
		else
			ecp_conn_abort(c, &q, ECPROXY_ERR_CLIENT_RESET, -1,
				       true, -1);
		to_free = c;
		goto out;
	}
	if (!ecp_conn_rcv_client_seg(c, skb, p, &q))
		to_free = c;
out:
	ecp_conn_unlock_send(t, net, &q, to_free);
}

/*
 * Segments re-sent at once when the client's path MTU shrinks: the ones
 * in flight were too big and are gone.  Bounded, so that softirq does
 * bounded work; NewReno's partial acks re-send the rest (ecp_cc_resent()).
 */
#define ECP_PMTU_RESEND_SEGS	64

bool ecp_conn_rcv_icmp_client(struct net *net, struct ecp_task *t,
			      struct sk_buff *skb, const struct ecp_seg *p,
			      u32 seq, u32 mtu)
{
	struct ecp_conn_client *cl;
	struct ecp_conn *c;
	struct sk_buff_head q;
	bool ours = false;
	u64 flight;
	s64 off;
	u16 mss;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	c = t->conn;
	if (!c || c->dead || c->client.addr != p->h.saddr ||
	    c->client.port != p->h.sport)
		goto out;
	ours = true;
	cl = &c->client;
	/* As tcp_v4_err(): only about something in flight. */
	off = ecp_seq_to_off(seq, cl->iss + 1, cl->acked);
	if (off < (s64)cl->acked || off >= (s64)ecp_conn_client_snd_max(cl))
		goto out;
	ipv4_update_pmtu(skb, net, mtu, 0, IPPROTO_TCP);
	mss = ecp_conn_path_mss(net, c->vip, cl->addr);
	if (!mss || mss >= cl->mss)
		goto out;
	cl->mss = mss;
	ecp_stats_inc(&t->stats, ECP_STAT_PMTU_UPDATES);
	flight = min_t(u64, cl->snd_nxt - cl->acked, cl->cc.cwnd);
	ecp_cc_resent(&cl->cc, cl->snd_nxt);
	ecp_conn_resend_client(c, &q, min_t(u64, DIV_ROUND_UP(flight, mss),
					    ECP_PMTU_RESEND_SEGS));
out:
	ecp_conn_unlock_send(t, net, &q, NULL);
	return ours;
}
