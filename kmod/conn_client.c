// SPDX-License-Identifier: GPL-2.0
/*
 * Segments from the client A: its SYN (start, or repeat what it missed),
 * its ACKs (release the buffer, forward to every source with translated
 * acks and EBSN windows, duplicate ACKs), its data, FIN and RST.
 */
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "task.h"
#include "xmit.h"

/* ---- Segments from A ------------------------------------------------- */

/* An RST for a segment that belongs to no connection (RFC 9293 §3.10.7.1). */
static void ecp_conn_reply_rst(struct net *net, const struct ecp_seg *p)
{
	struct sk_buff_head q;
	struct ecp_tcp_hdr h = {
		.saddr = p->daddr,
		.daddr = p->saddr,
		.sport = p->dport,
		.dport = p->sport,
		.wscale = -1,
	};
	u8 *pay;

	if (p->flags & TCPHDR_RST)
		return;
	if (p->flags & TCPHDR_ACK) {
		h.seq = p->ack;
		h.flags = TCPHDR_RST;
	} else {
		h.ack = p->seq + p->len + !!(p->flags & TCPHDR_SYN) +
			!!(p->flags & TCPHDR_FIN);
		h.flags = TCPHDR_RST | TCPHDR_ACK;
	}
	__skb_queue_head_init(&q);
	if (!ecp_tcp_build(&q, &h, 0, &pay))
		ecp_xmit_queue(net, &q);
}

/* A SYN from A.  Task lock held. */
static void ecp_conn_client_syn(struct net *net, struct ecp_task *t,
				struct ecp_conn *c, const struct ecp_seg *p,
				struct sk_buff_head *q)
{
	unsigned int i;

	if (p->flags & (TCPHDR_ACK | TCPHDR_RST | TCPHDR_FIN)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return;
	}
	if (c && c->a_addr == p->saddr && c->a_port == p->sport &&
	    c->a_isn == p->seq) {
		/* A retransmitted its SYN: repeat what it has not seen. */
		if (c->synack_sent) {
			if (c->state == ECPROXY_CONN_HANDSHAKE)
				ecp_conn_send_synack(c, q);
			return;
		}
		for (i = 0; i < c->k; i++)
			if (!c->src[i].synack)
				ecp_conn_send_syn(c, &c->src[i], q);
		return;
	}
	if (c || READ_ONCE(t->dead)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BUSY);
		ecp_conn_reply_rst(net, p);
		return;
	}
	if (!ecp_task_client_ok(t, p->saddr)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_CLIENT_DENIED);
		return;
	}
	ecp_conn_start(net, t, p, q);
}

/*
 * A's ACK field, FIN and payload: release the buffer, forward to every
 * source, push.  Returns false if the connection must be freed.
 */
static bool ecp_conn_client_seg(struct ecp_conn *c, struct sk_buff *skb,
				const struct ecp_seg *p,
				struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	bool fin = p->flags & TCPHDR_FIN;
	u64 snd_max = c->snd_nxt + c->fin_sent;
	s64 ack_off, seq_off;
	bool win_changed;
	unsigned int i;
	u32 win;

	if (!(p->flags & TCPHDR_ACK)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	ack_off = ecp_seq_to_off(p->ack, c->s_isn + 1, c->a_acked);
	seq_off = ecp_seq_to_off(p->seq, c->a_isn + 1, c->a_rcv);
	/*
	 * A cannot send past the largest window S can offer it: beyond
	 * that a segment is forged, and taking it would move a_rcv, where
	 * S's segments to the sources start, out of their windows.
	 */
	if (ack_off < 0 || ack_off > snd_max || seq_off < 0 ||
	    seq_off > c->a_rcv + ((u64)0xffff << c->s_ws)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	if (c->state == ECPROXY_CONN_HANDSHAKE) {
		/* A's ACK of the SYN-ACK completes all k handshakes. */
		ecp_conn_set_state(c, ECPROXY_CONN_ESTABLISHED);
		ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_ESTABLISHED,
			       c->a_addr, c->a_port, 0, c->start, 0, -1);
		c->rto = ECP_RTO_MIN;
		ecp_cc_init(&c->cc, c->a_mss);
		for (i = 0; i < c->k; i++)
			WRITE_ONCE(t->src[i].state,
				   ECPROXY_SOURCE_ESTABLISHED);
	}

	win = (u32)p->win << c->a_ws;
	/* A window update is not a duplicate ACK (RFC 5681 §2). */
	win_changed = win != c->a_win;
	c->a_win = win;
	if ((u64)ack_off > c->a_acked) {
		u64 upto = min_t(u64, ack_off, c->snd_nxt);
		u32 newly = min_t(u64, ack_off - c->a_acked, U32_MAX);
		bool recovering = c->a_acked < c->recover;

		c->a_acked = ack_off;
		c->dupacks = 0;
		ecp_rtt_acked(&c->rtt, ack_off, jiffies);
		c->rto = ecp_rtt_rto(&c->rtt);
		c->last_progress = jiffies;
		ecp_dbuf_release(&c->dbuf, upto);
		for (i = 0; i < c->k; i++)
			ecp_ivset_trim(&c->src[i].iv, upto);
		/*
		 * A partial ack in recovery (RFC 6582 §3.2): the next hole
		 * starts here.  Resend it now; waiting for three more
		 * duplicates or the RTO costs a burst loss (a full queue
		 * on A's link) one timeout per lost segment.
		 */
		if (c->a_acked < c->recover) {
			/* A partial ack grows no window (ecp_cc_acked()). */
			ecp_conn_resend(c, q, 1);
		} else {
			if (recovering)
				ecp_cc_recovered(&c->cc);
			ecp_cc_acked(&c->cc, newly, c->a_mss, false);
		}
	} else if (ack_off == c->a_acked && !p->len && !fin &&
		   !win_changed && c->snd_nxt > c->a_acked) {
		/* Three duplicate ACKs: A lost what starts at a_acked. */
		if (++c->dupacks == 3 && c->a_acked >= c->recover) {
			ecp_cc_loss(&c->cc, c->snd_nxt - c->a_acked, c->a_mss);
			c->recover = c->snd_nxt;
			ecp_conn_resend(c, q, 1);
		}
	}

	if (fin) {
		if (!c->a_fin) {
			c->a_fin = true;
			c->a_fin_off = seq_off + p->len;
		}
	}
	c->a_rcv = max_t(u64, c->a_rcv, seq_off + p->len + fin);

	/*
	 * Copy to every source: same sequence number, S's own ack of the
	 * source, window from EBSN (moved by A's ack).
	 */
	for (i = 0; i < c->k; i++)
		ecp_conn_copy_b(c, &c->src[i], q, skb, p);

	if (!ecp_conn_push(c, q))
		return false;
	/* A repeats bytes every source has: our ACK was lost, repeat it. */
	if ((p->len || fin) &&
	    seq_off + p->len + fin <= ecp_conn_acked_a(c))
		ecp_conn_send_ack_a(c, q);
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
	if (p->flags & TCPHDR_SYN) {
		ecp_conn_client_syn(net, t, c, p, &q);
		goto out;
	}
	if (!c || c->a_addr != p->saddr || c->a_port != p->sport ||
	    !c->synack_sent) {
		/* No connection for it: answer as a closed port would. */
		if (!(p->flags & TCPHDR_RST))
			ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		spin_unlock_bh(&t->lock);
		ecp_conn_reply_rst(net, p);
		return;
	}
	c->last_rx = jiffies;
	c->a_last_rx = c->last_rx;
	if (p->flags & TCPHDR_RST) {
		s64 off = ecp_seq_to_off(p->seq, c->a_isn + 1, c->a_rcv);

		if (off < 0 || off > c->a_rcv + 0xffff) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
			goto out;
		}
		/*
		 * After the close every side has what it needs: A, its
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
	if (!ecp_conn_client_seg(c, skb, p, &q))
		to_free = c;
out:
	spin_unlock_bh(&t->lock);
	ecp_xmit_queue(net, &q);
	if (to_free)
		ecp_conn_free(to_free);
}

