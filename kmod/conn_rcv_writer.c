// SPDX-License-Identifier: GPL-2.0
/*
 * Segments from the writer of a write (ECPROXY_MODE_WRITE): its ACK of
 * S's SYN-ACK, its bytes and its FIN, and what S acks it.  The window S
 * offers it and S's close are conn_send.c's, its timer conn.c's.
 *
 * Byte X of the writer's stream is byte (X / (cell k)) cell + X mod cell
 * of data fragment (X / cell) mod k (layout.h).  Source i of the
 * connection stands for data fragment i: it has no peer, and what the
 * writer sends of the fragment is applied as a source's segment would be
 * (ecp_conn_src_apply()), to data row i unchanged and to every parity
 * row with its coefficient, its interval set keeping each byte applied
 * once.  The targets get their rows as a DEST task's do.  The writer's
 * FIN gives the block's length, and so every fragment's.
 */
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "layout.h"
#include "task.h"
#include "xmit.h"

/* The writer's first missing byte: the earliest one a fragment lacks. */
static u64 ecp_conn_writer_low(const struct ecp_conn *c)
{
	const struct ecp_task *t = c->t;
	u64 m = U64_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		m = min(m, ecp_layout_pos(t->cell, t->k, i,
					  ecp_ivset_low(&c->src[i].iv)));
	if (c->client.fin_seen)
		m = min(m, c->client.fin_off);
	return m;
}

/* The writer's ACK of the SYN-ACK: the block may come. */
static void ecp_conn_rcv_writer_established(struct ecp_conn *c)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	ecp_conn_set_state(c, ECPROXY_CONN_ESTABLISHED);
	ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_ESTABLISHED,
		       c->w.peer.addr, c->w.peer.port, 0, c->start, c->home, 0,
		       -1, -1);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_ESTABLISHED);
}

/*
 * Apply [x, x + len) of the writer's stream, at @dataoff in @skb, cell by
 * cell to the data fragments.  Returns the bytes that were new, or the
 * first error (ecp_dbuf_apply_skb_n()): what was applied before it stays
 * recorded, and the writer's retransmission skips it.
 */
static s64 ecp_conn_writer_apply(struct ecp_conn *c, u64 x,
				 const struct sk_buff *skb,
				 unsigned int dataoff, u32 len)
{
	struct ecp_task *t = c->t;
	s64 total = 0;

	while (len) {
		u32 in, f, n;
		u64 stripe = div_u64_rem(div_u64_rem(x, t->cell, &in), t->k,
					 &f);
		u64 off = stripe * t->cell + in;
		struct ecp_conn_src *s = &c->src[f];
		s64 got;

		n = min(len, t->cell - in);
		got = ecp_conn_src_apply(c, s, off, skb, dataoff, n);
		if (got < 0)
			return got;
		atomic64_add(got, &t->src[f].stats.bytes_in);
		s->ref = max(s->ref, off + n);
		total += got;
		x += n;
		dataoff += n;
		len -= n;
	}
	return total;
}

/*
 * Move the writer's acknowledged point to its first missing byte.  Once
 * every byte before its FIN is in, the block's length is known, and with
 * it every fragment's exact length: the data fragments end there (a short
 * one counts as zeros beyond, ecp_conn_src_done()), and each row, with
 * its target's stream, too.
 */
static void ecp_conn_writer_advance(struct ecp_conn *c)
{
	struct ecp_conn_client *wr = &c->client;
	struct ecp_task *t = c->t;
	unsigned int i;

	wr->rcv_nxt = max(wr->rcv_nxt, ecp_conn_writer_low(c));
	if (!wr->fin_seen || wr->fin || wr->rcv_nxt < wr->fin_off)
		return;
	wr->fin = true;
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		s->len = ecp_layout_len(wr->fin_off, t->cell, t->k, i);
		s->fin = true;
		s->fin_off = s->len;
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_FIN_RECEIVED);
	}
	for (i = 0; i < c->nrow; i++)
		c->row[i].len = ecp_layout_len(wr->fin_off, t->cell, t->k,
					       t->row[i].frag);
}

/* Are there bytes of the writer's in beyond a hole? */
static bool ecp_conn_writer_holed(const struct ecp_conn *c)
{
	unsigned int i;

	for (i = 0; i < c->k; i++)
		if (ecp_ivset_count(&c->src[i].iv))
			return true;
	return false;
}

bool ecp_conn_rcv_writer_seg(struct ecp_conn *c, struct sk_buff *skb,
			     const struct ecp_seg *p, struct sk_buff_head *q)
{
	struct ecp_conn_client *wr = &c->client;
	struct ecp_conn_out *w = &c->w;
	struct ecp_task *t = c->t;
	bool fin = p->h.flags & TCPHDR_FIN;
	unsigned int prompts = 0;
	bool now = fin;
	s64 ack_off, x;
	u32 len = p->len;

	if (!(p->h.flags & TCPHDR_ACK)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	ack_off = ecp_seq_to_off(p->h.ack, w->iss + 1, w->acked);
	x = ecp_seq_to_off(p->h.seq, wr->isn + 1, wr->rcv_nxt);
	/*
	 * An old duplicate's bytes may map into the current window.  As to
	 * a source (conn_rcv_src.c), the ACK D-SACKs it below rcv_nxt.
	 */
	if (ecp_conn_ts_paws(c, &w->ts, p, ecp_conn_ts_slack(w, p, ack_off))) {
		if (!ecp_conn_oow_ack(&w->peer))
			return true;
		if (x >= 0 && x < (s64)wr->rcv_nxt)
			wr->dsack = ecp_conn_dsack(w->sack_ok, &wr->iv, x, len);
		ecp_conn_send_ack_writer(c, q);
		return true;
	}
	/*
	 * It acks S's SYN-ACK (offset 0) or FIN (1), and sends within the
	 * window S offered, or after its FIN nothing new; a keepalive or
	 * window probe carries the sequence number before rcv_nxt.
	 */
	if (ack_off < 0 || ack_off > w->fin_sent || x < -1 ||
	    (x < 0 && (len || fin)) ||
	    (x > 0 && (u64)x > max(wr->edge, wr->rcv_nxt)) ||
	    (wr->fin_seen && x + len + fin > wr->fin_off + 1)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		/* As TCP answers a segment it cannot accept. */
		ecp_conn_send_ack_writer(c, q);
		return true;
	}
	if (ecp_ts_at_edge(x, len + fin, wr->ack_sent))
		ecp_conn_ts_seen(&w->ts, p);
	if (w->ecn_ok && ecp_conn_ecn_rcv(&w->ece, p))
		now = true;
	if (c->state == ECPROXY_CONN_HANDSHAKE)
		ecp_conn_rcv_writer_established(c);
	w->acked = max_t(u64, w->acked, ack_off);
	if (len) {
		/* What lies beyond the window waits for a retransmission. */
		u32 n = (u64)x < wr->edge ? min_t(u64, len, wr->edge - x) : 0;
		bool past = x > (s64)wr->rcv_nxt;	/* past a hole */
		s64 got;

		wr->dsack = ecp_conn_dsack(w->sack_ok, &wr->iv, x, len);
		got = n ? ecp_conn_writer_apply(c, x, skb, p->dataoff, n) : 0;

		if (got == -ENOBUFS || got == -ENOSPC) {
			ecp_stats_inc(&t->stats, ECP_STAT_OVERFLOW);
			got = 0;
		} else if (got < 0) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_TRUNCATED);
			return true;
		} else if (n) {
			/*
			 * Held, so it may be SACKed.  A range the set has no
			 * record left for is only not reported: the writer
			 * sends it again, and the fragments skip it.
			 */
			if (past)
				wr->recent = x;
			ecp_ivset_insert(&wr->iv, x, x + n, NULL, NULL);
		}
		if (got)
			ecp_stats_inc(&t->stats, ECP_STAT_SEGS_APPLIED);
		if (got < len)
			ecp_stats_inc(&t->stats, ECP_STAT_DUPS_SKIPPED);
		if (n < len)
			fin = false;
		/*
		 * As a receiver: at once past a hole or for old bytes, and
		 * past a hole a duplicate per segment GRO merged, up to the
		 * three of a fast retransmit (as to a source).
		 */
		now |= got < len || past || ecp_conn_writer_holed(c);
		if (past)
			prompts = clamp_t(unsigned int,
					  skb_shinfo(skb)->gso_segs, 1,
					  ECP_CC_DUPACKS);
	} else if (!fin && x < (s64)wr->rcv_nxt) {
		now = true;
	}
	if (fin && !wr->fin_seen) {
		wr->fin_seen = true;
		wr->fin_off = x + len;
	}
	ecp_conn_writer_advance(c);
	ecp_ivset_trim(&wr->iv, wr->rcv_nxt);
	if (!ecp_conn_push(c, q))
		return false;
	ecp_conn_check_done(c, q);
	if (c->state != ECPROXY_CONN_LINGER &&
	    !(prompts && ecp_conn_send_prompt_writer(c, q, prompts)) &&
	    (now || wr->rcv_nxt - wr->ack_sent >= 2 * (u64)w->mss))
		ecp_conn_send_ack_writer(c, q);
	return true;
}
