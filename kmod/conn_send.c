// SPDX-License-Identifier: GPL-2.0
/*
 * The segments S originates: SYNs, ACKs and FINs to the sources (acks
 * translated, windows from EBSN), the SYN-ACK to the client and the SYNs
 * to the targets, the rebuilt data and FINs to the outputs, resets; and
 * pushing complete bytes to the outputs.
 *
 * Choices:
 *  - Window scale announced to the client: the smallest shift any source
 *    announced to S, so that no source's edge is rounded further than its
 *    own shift rounds it.  If the client offered no scaling, no side
 *    scales.
 *  - A target sends nothing but ACKs and its FIN: S offers it a full
 *    unscaled window, and scaling (shift 0) so that the target may scale
 *    the windows it offers S.
 *  - The rate cap (task->rate, bytes/s) is a token bucket shared by the
 *    outputs, refilled by time and holding at most one tick's worth (or
 *    one GSO packet): the connection's timer pushes what it held back.
 */
#include <linux/moduleparam.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "layout.h"
#include "task.h"
#include "xmit.h"

/* ---- Building segments ---------------------------------------------- */

u64 ecp_conn_client_ack_off(const struct ecp_conn *c)
{
	u64 m = U64_MAX;
	unsigned int i;

	/* A source that is gone takes no more of the client's bytes. */
	for (i = 0; i < c->k; i++)
		if (!c->src[i].gone)
			m = min(m, c->src[i].acked);
	return m;
}

/* The ack S gives output o. */
static u32 ecp_conn_out_ack_seq(const struct ecp_conn *c,
				const struct ecp_conn_out *o)
{
	if (ecp_conn_has_targets(c))
		return o->irs + 1 + o->fin;
	return ecp_off_to_seq(ecp_conn_client_ack_off(c), c->client.isn + 1);
}

/*
 * The window S gives output o.  A target sends nothing.  The client's
 * bytes go to every source, so its window ends at the nearest of the
 * sources' right edges (each its ack plus its window).  Those do not
 * move left, but the ack S gives is the smallest of the sources' acks,
 * from which the window rounded to the client's shift could end short of
 * the last: ecp_seq_win_offer() keeps it from shrinking.
 */
static u16 ecp_conn_out_win(struct ecp_conn *c, const struct ecp_conn_out *o)
{
	u64 edge = U64_MAX;
	unsigned int i;

	if (ecp_conn_has_targets(c))
		return 0xffff;
	for (i = 0; i < c->k; i++)
		if (!c->src[i].gone)
			edge = min(edge, c->src[i].acked + c->src[i].win);
	return ecp_seq_win_offer(ecp_conn_client_ack_off(c), edge,
				 &c->client.edge, o->ws_out, true);
}

static void ecp_conn_hdr_out(struct ecp_conn *c,
			     const struct ecp_conn_out *o,
			     struct ecp_tcp_hdr *h, u32 seq, u8 flags)
{
	memset(h, 0, sizeof(*h));
	h->saddr = c->vip;
	h->daddr = o->peer.addr;
	h->sport = o->peer.lport;
	h->dport = o->peer.port;
	h->seq = seq;
	h->ack = ecp_conn_out_ack_seq(c, o);
	h->flags = flags;
	h->win = ecp_conn_out_win(c, o);
	h->wscale = -1;
	ecp_conn_ts_hdr(&o->ts, h);
}

/* One SACK block: @iv, offsets from sequence number @base. */
static void ecp_conn_sack_range(struct ecp_tcp_hdr *h, u32 base,
				struct ecp_iv iv)
{
	h->sack[h->nsack].start_seq = ecp_off_to_seq(iv.start, base);
	h->sack[h->nsack].end_seq = ecp_off_to_seq(iv.end, base);
	h->nsack++;
}

/*
 * The ranges of @set as SACK blocks (offsets from sequence number
 * @base): first the one holding @recent, the latest segment past the
 * hole, then the others from the top, as many as fit beside what @h has.
 */
static void ecp_conn_sack_held(struct ecp_tcp_hdr *h,
			       const struct ecp_ivset *set, u64 recent,
			       u32 base)
{
	u32 n = ecp_ivset_count(set), i, first;

	first = ecp_ivset_search(set, recent + 1);
	if (first < n && ecp_ivset_at(set, first).start > recent)
		first = n;
	if (first < n)
		ecp_conn_sack_range(h, base, ecp_ivset_at(set, first));
	for (i = n; i-- > 0 && h->nsack < ecp_tcp_sack_max(h);)
		if (i != first)
			ecp_conn_sack_range(h, base, ecp_ivset_at(set, i));
}

/*
 * What S holds of a sender's stream (@set) beyond its hole, as SACK
 * blocks on a pure ACK (RFC 2018 §4): first the bytes it just sent twice
 * (*@dsack: D-SACK, RFC 2883, on one ACK only), then the range of its
 * latest segment past the hole, then the others from the top, where the
 * next losses of a window are.  The sender keeps a scoreboard of what it
 * was told, so that ranges left out of one ACK are known from an earlier
 * one.
 */
static void ecp_conn_sack_blocks(struct ecp_conn *c, struct ecp_tcp_hdr *h,
				 const struct ecp_ivset *set, u64 recent,
				 u32 base, struct ecp_iv *dsack)
{
	if (!ecp_ivset_count(set) && !dsack->end)
		return;
	ecp_stats_inc(&c->t->stats, ECP_STAT_SACKS);
	if (dsack->end) {
		ecp_conn_sack_range(h, base, *dsack);
		dsack->end = 0;
	}
	ecp_conn_sack_held(h, set, recent, base);
}

/*
 * Source s's SACK blocks.  Not on S's segments with the client's bytes:
 * they are cut to s's MSS, with no room for options.
 */
static void ecp_conn_sack_src(struct ecp_conn *c, struct ecp_conn_src *s,
			      struct ecp_tcp_hdr *h)
{
	if (s->sack_ok)
		ecp_conn_sack_blocks(c, h, &s->iv, s->recent, s->isn + 1,
				     &s->dsack);
}

static void ecp_conn_hdr_src(const struct ecp_conn *c,
			     const struct ecp_conn_src *s,
			     struct ecp_tcp_hdr *h, u32 seq, u32 ack, u8 flags,
			     u16 win)
{
	memset(h, 0, sizeof(*h));
	h->saddr = c->vip;
	h->daddr = s->peer.addr;
	h->sport = s->peer.lport;
	h->dport = s->peer.port;
	h->seq = seq;
	h->ack = ack;
	h->flags = ecp_conn_ecn_echo(s->ece, flags);
	h->win = win;
	h->wscale = -1;
	ecp_conn_ts_hdr(&s->ts, h);
}

static void ecp_conn_nomem(struct ecp_conn *c)
{
	ecp_stats_drop(&c->t->stats, ECPROXY_DROP_NO_MEMORY);
}

/*
 * Times a peer's SYN, and counts it if it is not the first and went out.
 * One that could not be built counts as sent for the repeats' schedule:
 * it was lost.
 */
static void ecp_conn_syn_sent(struct ecp_conn *c, struct ecp_conn_peer *p,
			      int err)
{
	if (p->syns && !err)
		ecp_stats_inc(&c->t->stats, ECP_STAT_SYNS_RESENT);
	if (p->syns < U8_MAX)
		p->syns++;
	p->syn_at = jiffies;
	if (err)
		ecp_conn_nomem(c);
}

void ecp_conn_send_syn_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	u16 mss = s->mss;

	/* MSS options count no option bytes: the client's own, not cl->mss. */
	if (ecp_conn_has_client(c))
		mss = min_t(u16, c->out[0].mss + ecp_ts_optlen(&c->out[0].ts),
			    mss);
	ecp_conn_hdr_src(c, s, &h, c->client.isn, 0, TCPHDR_SYN,
			 c->client.syn_win);
	h.mss = mss;
	h.wscale = ecp_conn_src_wscale(c->t->buffer_size);
	/* As Linux offers it by default: S tells what it holds. */
	h.sack_ok = true;
	h.ts = c->ts_offer;
	s->ecn_ok = ecp_conn_ecn_ask(c, &s->peer);
	if (s->ecn_ok)
		h.flags |= TCPHDR_ECE | TCPHDR_CWR;
	ecp_conn_syn_sent(c, &s->peer, ecp_tcp_build(q, &h));
}

void ecp_conn_send_syn_tgt(struct ecp_conn *c, struct ecp_conn_out *o,
			   struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_out(c, o, &h, o->iss, TCPHDR_SYN);
	h.ack = 0;
	h.mss = o->mss;
	h.wscale = 0;
	h.sack_ok = true;
	h.ts = c->ts_offer;
	o->ecn_ok = ecp_conn_ecn_ask(c, &o->peer);
	if (o->ecn_ok)
		h.flags |= TCPHDR_ECE | TCPHDR_CWR;
	/*
	 * The SYN-ACK times the first flight's RTO
	 * (ecp_conn_out_handshake_rtt()); the answer to a repeated SYN does
	 * not say to which (Karn).
	 */
	if (!o->peer.syns)
		ecp_rtt_sent(&o->rtt, 0, tcp_clock_us());
	else
		ecp_rtt_resent(&o->rtt);
	ecp_conn_syn_sent(c, &o->peer, ecp_tcp_build(q, &h));
}

void ecp_conn_send_synack_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_conn_out *cl = &c->out[0];
	struct ecp_tcp_hdr h;
	unsigned int i;

	ecp_conn_hdr_out(c, cl, &h, cl->iss, TCPHDR_SYN | TCPHDR_ACK);
	/* Windows in SYN segments are never scaled. */
	h.win = 0xffff;
	h.mss = c->src_mss;
	/* A source a spare stood in for in the handshake offered nothing. */
	for (i = 0; i < c->k; i++) {
		if (c->src[i].gone)
			continue;
		h.win = min_t(u32, h.win, c->src[i].win);
		h.mss = min_t(u16, h.mss, c->src[i].mss +
			      ecp_ts_optlen(&c->src[i].ts));
	}
	h.wscale = c->client.wscale >= 0 ? cl->ws_out : -1;
	h.sack_ok = cl->sack_ok;
	/*
	 * The client's ACK times the first flight's RTO
	 * (ecp_conn_out_handshake_rtt()); the answer to a repeated SYN-ACK
	 * does not say to which (Karn).
	 */
	if (!cl->synack_sent)
		ecp_rtt_sent(&cl->rtt, 0, tcp_clock_us());
	else
		ecp_rtt_resent(&cl->rtt);
	cl->synack_sent = true;
	/* ECN-setup SYN-ACK: ECE without CWR. */
	if (cl->ecn_ok)
		h.flags |= TCPHDR_ECE;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

/* ---- Towards the writer ------------------------------------------------ */

/*
 * The right edge the rings allow the writer now (a stream offset), never
 * left of what S offered before.
 */
static u64 ecp_conn_writer_edge(const struct ecp_conn *c)
{
	const struct ecp_task *t = c->t;
	u64 edge = U64_MAX;
	unsigned int i;

	/*
	 * Fragment i may run as far as the buffer from the lowest base of
	 * the rows it feeds (ecp_conn_src_base()), and the writer up to the
	 * first byte of the block a ring cannot take yet.  A fragment the
	 * FIN ended bounds nothing.
	 */
	for (i = 0; i < c->k; i++) {
		const struct ecp_conn_src *s = &c->src[i];
		u64 base;

		if (ecp_conn_src_done(s))
			continue;
		base = ecp_conn_src_base(c, s);
		edge = min(edge, ecp_layout_pos(t->cell, t->k, i,
						base + t->buffer_size));
	}
	/* The edge never moves left: the rings keep room for what S offered. */
	return max(edge, c->client.edge);
}

u16 ecp_conn_writer_win(struct ecp_conn *c)
{
	struct ecp_conn_client *wr = &c->client;
	u64 edge = ecp_conn_writer_edge(c);

	/* Not rounded up: the rings have room up to the edge, no further. */
	return ecp_seq_win_offer(wr->rcv_nxt, edge, &wr->edge, c->w.ws_out,
				 false);
}

void ecp_conn_send_win_writer(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_conn_client *wr = &c->client;
	u64 told, room;

	/* As a receiver's stack does when its reader frees buffer. */
	if (wr->fin_seen || c->state == ECPROXY_CONN_HANDSHAKE)
		return;
	told = wr->edge > wr->rcv_nxt ? wr->edge - wr->rcv_nxt : 0;
	room = ecp_conn_writer_edge(c) - wr->rcv_nxt;
	if (room > 2 * told && room >= c->w.mss)
		ecp_conn_send_ack_writer(c, q);
}

/*
 * S's segments to the writer carry no data: its sequence number is one
 * past its ISN, two once its FIN went.  They ack the writer's bytes that
 * are in the rings (ecp_conn_writer_low()), its FIN only with S's own, and
 * offer the window the rings leave (ecp_conn_writer_win()).
 */
static void ecp_conn_hdr_writer(struct ecp_conn *c, struct ecp_tcp_hdr *h,
				u8 flags)
{
	struct ecp_conn_out *w = &c->w;

	memset(h, 0, sizeof(*h));
	h->saddr = c->vip;
	h->daddr = w->peer.addr;
	h->sport = w->peer.lport;
	h->dport = w->peer.port;
	h->seq = w->iss + 1 + w->fin_sent;
	h->ack = ecp_off_to_seq(c->client.rcv_nxt + w->fin_sent,
				c->client.isn + 1);
	h->flags = ecp_conn_ecn_echo(w->ece, flags);
	h->win = ecp_conn_writer_win(c);
	/*
	 * Less than a segment: the slowest target holds the writer back
	 * (EBSN at work).  Counted here, where a window is sent.
	 */
	if (((u64)h->win << c->w.ws_out) < c->w.mss && !c->client.fin_seen &&
	    !(flags & (TCPHDR_SYN | TCPHDR_RST)))
		ecp_stats_inc(&c->t->stats, ECP_STAT_WINDOW_CLAMPS);
	h->wscale = -1;
	ecp_conn_ts_hdr(&w->ts, h);
}

void ecp_conn_send_synack_writer(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_conn_out *w = &c->w;
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_writer(c, &h, TCPHDR_SYN | TCPHDR_ACK);
	h.seq = w->iss;
	h.ack = c->client.isn + 1;
	/* Windows in SYN segments are never scaled. */
	h.win = min_t(u64, c->client.edge, 0xffff);
	h.mss = w->mss + ecp_ts_optlen(&w->ts);
	h.wscale = c->client.wscale >= 0 ? w->ws_out : -1;
	/* S is the writer's receiver: SACK if it offered it (RFC 2018). */
	h.sack_ok = w->sack_ok;
	/* ECN-setup SYN-ACK: ECE without CWR. */
	if (w->ecn_ok)
		h.flags |= TCPHDR_ECE;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_send_ack_writer(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_conn_client *wr = &c->client;
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_writer(c, &h, TCPHDR_ACK);
	/* What S holds of the writer's stream, as of a source's (above). */
	if (c->w.sack_ok)
		ecp_conn_sack_blocks(c, &h, &wr->iv, wr->recent, wr->isn + 1,
				     &wr->dsack);
	c->client.ack_sent = c->client.rcv_nxt;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_send_fin_writer(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	c->w.fin_sent = true;
	ecp_conn_hdr_writer(c, &h, TCPHDR_FIN | TCPHDR_ACK);
	h.seq = c->w.iss + 1;
	c->client.ack_sent = c->client.rcv_nxt;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

/*
 * Data [off, off + len) of output o's stream, from the rings: one
 * segment, or one GSO packet of o's MSS-sized segments when longer.
 */
static int ecp_conn_send_data_out(struct ecp_conn *c, struct ecp_conn_out *o,
				  struct sk_buff_head *q, u64 off, u32 len,
				  bool push)
{
	struct ecp_tcp_hdr h;
	struct sk_buff *skb;

	ecp_conn_hdr_out(c, o, &h, ecp_conn_out_seq(o, off),
			 TCPHDR_ACK | (push ? TCPHDR_PSH : 0));
	/*
	 * To an ECN client new bytes are ECN-capable, re-sent ones not (RFC
	 * 3168 §6.1.5, as Linux's tcp_ecn_send()); the first new bytes after
	 * a window cut for its echo carry CWR, which ends its echo.
	 */
	if (o->ecn_ok && off >= o->snd_nxt) {
		h.ect = true;
		if (o->cwr)
			h.flags |= TCPHDR_CWR;
	}
	skb = ecp_tcp_build_data(q, &h, len, o->mss);
	if (!skb) {
		ecp_conn_nomem(c);
		return -ENOMEM;
	}
	if (ecp_conn_out_copy(c, o, skb, ecp_tcp_payload_offset(skb), off,
			      len)) {
		__skb_unlink(skb, q);
		kfree_skb(skb);
		return -EFAULT;
	}
	if (h.flags & TCPHDR_CWR)
		o->cwr = false;
	/* Re-sent bytes count as RESENT only, so BYTES_OUT is the streams. */
	if (off + len > o->snd_nxt) {
		u64 n = off + len - max(off, o->snd_nxt);

		ecp_stats_add(&c->t->stats, ECP_STAT_BYTES_OUT, n);
		c->bytes_out += n;
		if (ecp_conn_has_targets(c))
			atomic64_add(n, &c->t->row[o->peer.idx].bytes_out);
	}
	ecp_stats_add(&c->t->stats, ECP_STAT_SEGS_OUT,
		      DIV_ROUND_UP(len, o->mss));
	o->last_sent = jiffies;
	return 0;
}

void ecp_conn_send_ack_out(struct ecp_conn *c, struct ecp_conn_out *o,
			   struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_out(c, o, &h,
			 ecp_conn_out_seq(o, ecp_conn_out_snd_max(o)),
			 TCPHDR_ACK);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_send_probe_out(struct ecp_conn *c, struct ecp_conn_out *o,
			     struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_out(c, o, &h, ecp_conn_out_seq(o, o->acked - 1),
			 TCPHDR_ACK);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
	else
		ecp_stats_inc(&c->t->stats, ECP_STAT_WINDOW_PROBES);
}

void ecp_conn_send_fin_out(struct ecp_conn *c, struct ecp_conn_out *o,
			   struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_out(c, o, &h, ecp_conn_out_seq(o, o->snd_nxt),
			 TCPHDR_FIN | TCPHDR_ACK);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

/*
 * The window for an ACK to s of @ack: EBSN bounds the right edge by the
 * buffer from the lowest base of the rows s feeds (ecp_conn_src_base(),
 * ecp_ebsn_window()), and s is acked at or past that base, so the edge is
 * re-expressed from @ack (rounded down, never up; zero if s already
 * reached it).
 *
 * No reader's window bounds it, unlike NetEC's EBSN, whose switch holds
 * nothing beyond what it forwards: the rings hold I bytes whatever the
 * client's or a target's window, and bounding the sources by that window
 * too only shortens what the rings absorb of one source's stall.  A
 * client's 64 KiB window drains in 64 ms at 8 Mbit/s, less than the RTO
 * with which a source repairs a lost tail.
 */
static u16 ecp_conn_src_win(struct ecp_conn *c, struct ecp_conn_src *s,
			    u64 ack)
{
	u8 ws = min_t(u8, s->ws_out, ECP_EBSN_MAX_WSCALE);
	u64 base = ecp_conn_src_base(c, s), edge;
	u16 win;

	win = ecp_ebsn_window(&s->ebsn, base, c->t->buffer_size, s->ws_out,
			      NULL);
	edge = base + ((u64)win << ws);
	if (edge <= ack)
		return 0;
	return min_t(u64, (edge - ack) >> ws, 0xffff);
}

/*
 * Send s a segment; a pure ACK (@len 0, no FIN) only if @force or it
 * tells s something new: a duplicate it did not ask for would make it
 * retransmit.
 */
static void ecp_conn_send_src_opt(struct ecp_conn *c, struct ecp_conn_src *s,
				  struct sk_buff_head *q, u32 seq, u8 flags,
				  const struct sk_buff *skb, unsigned int off,
				  unsigned int len, bool force)
{
	u64 ack_off = ecp_conn_src_ack_off(s);
	u32 ack = ecp_conn_src_ack_seq(s);
	u16 win = ecp_conn_src_win(c, s, ack_off);
	struct ecp_tcp_hdr h;
	struct sk_buff *data;

	if (s->gone)
		return;
	/*
	 * A pure ACK to a source whose FIN S acked is only a window update
	 * it has no use for, and would draw a RST from a vanished socket.
	 * A forced one answers a segment of s's (a FIN it repeats because
	 * S's ACK was lost), so its socket is there to take it.
	 */
	if ((!force && ecp_conn_src_closed(c, s)) ||
	    (!force && !len && !(flags & TCPHDR_FIN) &&
	     ((ack == s->last_ack && win == s->last_win) ||
	      ecp_conn_src_fin_acked(s))))
		return;
	s->last_ack = ack;
	s->last_ack_off = ack_off;
	s->last_win = win;
	/* Less than a segment: EBSN holds s for the slowest source. */
	if (((u64)win << min_t(u8, s->ws_out, ECP_EBSN_MAX_WSCALE)) <
	    c->src_mss)
		ecp_stats_inc(&c->t->stats, ECP_STAT_WINDOW_CLAMPS);
	ecp_conn_hdr_src(c, s, &h, seq, ack, flags, win);
	if (!len) {
		ecp_conn_sack_src(c, s, &h);
		if (ecp_tcp_build(q, &h))
			ecp_conn_nomem(c);
		return;
	}
	data = ecp_tcp_build_data(q, &h, len, len);
	if (!data) {
		ecp_conn_nomem(c);
		return;
	}
	if (ecp_tcp_copy_payload(data, skb, off, len)) {
		__skb_unlink(data, q);
		kfree_skb(data);
	}
}

void ecp_conn_send_src(struct ecp_conn *c, struct ecp_conn_src *s,
		       struct sk_buff_head *q, u32 seq, u8 flags,
		       const struct sk_buff *skb, unsigned int off,
		       unsigned int len)
{
	ecp_conn_send_src_opt(c, s, q, seq, flags, skb, off, len, true);
}

void ecp_conn_send_ack_src_always(struct ecp_conn *c, struct ecp_conn_src *s,
				  struct sk_buff_head *q)
{
	ecp_conn_send_src(c, s, q, ecp_conn_src_seq(c), TCPHDR_ACK, NULL, 0, 0);
}

void ecp_conn_send_fin_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q)
{
	ecp_conn_send_src(c, s, q, ecp_off_to_seq(c->client.fin_off,
						  c->client.isn + 1),
			  TCPHDR_ACK | TCPHDR_FIN, NULL, 0, 0);
}

void ecp_conn_send_win_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q)
{
	u64 ack = ecp_conn_src_ack_off(s), told = 0, room;
	u8 ws = min_t(u8, s->ws_out, ECP_EBSN_MAX_WSCALE);

	if (!s->synack || ecp_conn_src_closed(c, s) ||
	    ecp_conn_src_fin_acked(s))
		return;
	if (ecp_conn_src_told_edge(s) > ack)
		told = ecp_conn_src_told_edge(s) - ack;
	room = (u64)ecp_conn_src_win(c, s, ack) << ws;
	if (room > 2 * told)
		ecp_conn_send_src_opt(c, s, q, ecp_conn_src_seq(c), TCPHDR_ACK,
				      NULL, 0, 0, false);
}

/* The bytes s contributed that S has not acked; 0 before its SYN-ACK. */
static u64 ecp_conn_src_unacked(const struct ecp_conn_src *s)
{
	u64 ack = ecp_conn_src_ack_off(s);

	if (!s->synack || ack <= s->last_ack_off)
		return 0;
	return ack - s->last_ack_off;
}

void ecp_conn_send_ack_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q)
{
	if (ecp_conn_src_unacked(s))
		ecp_conn_send_ack_src_always(c, s, q);
}

void ecp_conn_send_ack_srcs(struct ecp_conn *c, struct sk_buff_head *q)
{
	unsigned int i;

	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++)
		ecp_conn_send_ack_src(c, &c->src[i], q);
}

/*
 * A receiver acks every two segments (RFC 5681 §4.2), and each ACK is a
 * packet S builds, routes and sends through the firewall: for RS(3,2)
 * those ACKs made S spend more per byte it took in than forwarding spends
 * per byte it forwards (docs/bench/routercpu/).  A source is acked every
 * ack_segs segments instead, a stretch ACK, which a Linux sender takes by
 * the bytes it acks (tcp_cong_avoid()), as it does from any receiver behind
 * GRO; what is left is acked within ack_delay_us, by default inside the
 * two round trips plus two ticks after which the source would send a tail
 * loss probe.  ACKs that a hole, a silence or the window's edge call for
 * still go at once (ecp_conn_send_ack_src_data()).
 */
static unsigned int ack_segs = 8;
module_param(ack_segs, uint, 0644);
MODULE_PARM_DESC(ack_segs,
		 "Ack a source's in-order data every N segments, the rest within ack_delay_us (default: 8; 2 acks as often as a Linux receiver)");

#define ECP_ACK_SEGS_MAX	64

/*
 * Longer than a source's round trip, the delay paces its ACKs instead of
 * ack_segs; as long as Linux's delayed ACK (40 ms), ack_segs alone decides
 * whenever a source sends more than ack_segs segments in that time.
 */
static unsigned int ack_delay_us = 1000;
module_param(ack_delay_us, uint, 0644);
MODULE_PARM_DESC(ack_delay_us,
		 "Ack a source's in-order data left over by ack_segs within N microseconds (default: 1000; 50 to 200000)");

#define ECP_ACK_DELAY_MIN_US	50
#define ECP_ACK_DELAY_MAX_US	jiffies_to_usecs(TCP_DELACK_MAX)

void ecp_conn_send_ack_src_later(struct ecp_conn *c, struct ecp_conn_src *s,
				 struct sk_buff_head *q)
{
	u32 segs = clamp_t(u32, READ_ONCE(ack_segs), 1, ECP_ACK_SEGS_MAX);
	u64 unacked = ecp_conn_src_unacked(s);

	if (!unacked)
		return;
	if (unacked >= segs * (u64)s->mss) {
		ecp_conn_send_ack_src_always(c, s, q);
		return;
	}
	/*
	 * Armed under the lock; a callback already dequeued takes the lock
	 * after us and acks these bytes too, or this arms the next one.
	 */
	if (!hrtimer_is_queued(&c->ack_timer))
		hrtimer_start(&c->ack_timer,
			      ns_to_ktime(NSEC_PER_USEC *
					  clamp_t(u64, READ_ONCE(ack_delay_us),
						  ECP_ACK_DELAY_MIN_US,
						  ECP_ACK_DELAY_MAX_US)),
			      HRTIMER_MODE_REL_SOFT);
}

/*
 * The client's segment @p to source s, cut to s's MSS: the client's
 * segments can be larger (a GSO packet from the client's side, or a path
 * to s with a smaller MTU), and S sends with DF.  Like TCP, never below
 * TCP_MIN_SND_MSS, whatever the source announced.
 */
void ecp_conn_send_copy_src(struct ecp_conn *c, struct ecp_conn_src *s,
			    struct sk_buff_head *q, const struct sk_buff *skb,
			    const struct ecp_seg *p)
{
	unsigned int mss = max_t(unsigned int, s->mss, TCP_MIN_SND_MSS);
	unsigned int off = 0;

	/* Its socket may be gone; a late repeat of the client's is no news. */
	if (ecp_conn_src_closed(c, s))
		return;
	while (p->len - off > mss) {
		ecp_conn_send_src(c, s, q, p->h.seq + off, TCPHDR_ACK, skb,
				  p->dataoff + off, mss);
		off += mss;
	}
	/* The client's pure ACKs reach s only as window updates (or acks). */
	ecp_conn_send_src_opt(c, s, q, p->h.seq + off,
			      TCPHDR_ACK |
			      (p->h.flags & (TCPHDR_PSH | TCPHDR_FIN)),
			      skb, p->dataoff + off, p->len - off, false);
}

/*
 * Source s sent past a hole at its low watermark: send it @n duplicates
 * of the last ACK it got (same ack, same window, no data: anything else
 * is not a duplicate to the sender, RFC 5681 §2), as a receiver does for
 * every out-of-order segment, so that its fast retransmit resends the
 * hole instead of waiting for its RTO.
 */
static bool prompt_sources = true;
module_param(prompt_sources, bool, 0644);
MODULE_PARM_DESC(prompt_sources,
		 "Answer a source's (or writer's) segments past a hole with duplicate ACKs so that it fast-retransmits (default: Y; N leaves recovery to its RTO, for comparison)");

void ecp_conn_send_prompt_src(struct ecp_conn *c, struct ecp_conn_src *s,
			      struct sk_buff_head *q, unsigned int n)
{
	struct ecp_tcp_hdr h;

	if (!READ_ONCE(prompt_sources) || ecp_conn_src_closed(c, s))
		return;
	while (n--) {
		ecp_conn_hdr_src(c, s, &h, ecp_conn_src_seq(c),
				 s->last_ack, TCPHDR_ACK, s->last_win);
		ecp_conn_sack_src(c, s, &h);
		if (ecp_tcp_build(q, &h)) {
			ecp_conn_nomem(c);
			return;
		}
		ecp_stats_inc(&c->t->stats, ECP_STAT_PROMPTS);
	}
}

/*
 * The writer sent past a hole: @n duplicate ACKs, as a source gets them.
 * Returns false, having sent none, if prompts are off (prompt_sources).
 */
bool ecp_conn_send_prompt_writer(struct ecp_conn *c, struct sk_buff_head *q,
				 unsigned int n)
{
	if (!READ_ONCE(prompt_sources))
		return false;
	while (n--) {
		ecp_conn_send_ack_writer(c, q);
		ecp_stats_inc(&c->t->stats, ECP_STAT_PROMPTS);
	}
	return true;
}

/*
 * A RST answering @p, a segment that belongs to no connection or is not
 * acceptable in SYN-SENT (RFC 9293 §3.10.7.1, §3.10.7.3).
 */
void ecp_conn_send_rst_reply(const struct ecp_seg *p, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h = {
		.saddr = p->h.daddr,
		.daddr = p->h.saddr,
		.sport = p->h.dport,
		.dport = p->h.sport,
		.wscale = -1,
	};

	if (p->h.flags & TCPHDR_RST)
		return;
	if (p->h.flags & TCPHDR_ACK) {
		h.seq = p->h.ack;
		h.flags = TCPHDR_RST;
	} else {
		h.ack = p->h.seq + p->len + !!(p->h.flags & TCPHDR_SYN) +
			!!(p->h.flags & TCPHDR_FIN);
		h.flags = TCPHDR_RST | TCPHDR_ACK;
	}
	/* Nothing to count if memory is short: the peer tries again. */
	ecp_tcp_build(q, &h);
}

/*
 * A peer (a source or a target) answered S's SYN, whose ISN was @isn,
 * with an ACK that does not acknowledge it (@p): a TIME-WAIT left by an
 * earlier connection on the same four ports refuses a SYN whose sequence
 * number is not above what it saw last and whose timestamp (if any) is
 * not ahead of the last (S's SYN towards a source carries the client's
 * ISN).  As a TCP in SYN-SENT does (RFC 9293 §3.10.7.3), S answers with a
 * RST, which ends the TIME-WAIT on Linux (tcp_rfc1337 off, the default);
 * the caller sends its SYN again at once, instead of waiting for a
 * repeat.  A few times per peer and connection at most, so that forged
 * ACKs cannot make S send without end.  Returns true if S sent the RST.
 */
#define ECP_TIME_WAIT_RESETS	3

bool ecp_conn_send_rst_stale(struct ecp_conn *c, struct ecp_conn_peer *peer,
			     const struct ecp_seg *p, u32 isn,
			     struct sk_buff_head *q)
{
	if ((p->h.flags & (TCPHDR_SYN | TCPHDR_ACK)) != TCPHDR_ACK ||
	    p->h.ack == isn + 1 || peer->stale_resets >= ECP_TIME_WAIT_RESETS)
		return false;
	peer->stale_resets++;
	ecp_stats_inc(&c->t->stats, ECP_STAT_TIME_WAIT_RESETS);
	ecp_conn_send_rst_reply(p, q);
	return true;
}

static void ecp_conn_send_rst_out(struct ecp_conn *c, struct ecp_conn_out *o,
				  struct sk_buff_head *q)
{
	/* A DEST task has no caller: its out[0] is a target. */
	bool caller = ecp_conn_has_client(c) ? o == &c->out[0] : o == &c->w;
	struct ecp_tcp_hdr h;

	if (caller && !o->synack_sent) {
		/* The client is in SYN-SENT: only an acceptable ack matters. */
		ecp_conn_hdr_out(c, o, &h, 0, TCPHDR_RST | TCPHDR_ACK);
		h.ack = c->client.isn + 1;
	} else if (o == &c->w) {
		/* The writer: at S's next sequence number, with its ack. */
		ecp_conn_hdr_writer(c, &h, TCPHDR_RST | TCPHDR_ACK);
	} else if (!ecp_conn_has_client(c) && !o->synack) {
		/* A target in SYN-RECEIVED, or not there yet. */
		ecp_conn_hdr_out(c, o, &h, o->iss + 1, TCPHDR_RST);
	} else {
		/*
		 * The output accepts a RST only at exactly its rcv_nxt; our
		 * best guess is everything sent.  Otherwise the client
		 * answers with a challenge ACK, which meets no connection
		 * and is reset by ecp_conn_rcv_client() at the sequence it
		 * asks for.
		 */
		ecp_conn_hdr_out(c, o, &h,
				 ecp_conn_out_seq(o, ecp_conn_out_snd_max(o)),
				 TCPHDR_RST | TCPHDR_ACK);
	}
	h.win = 0;
	/* Resets carry no timestamps (as Linux's), and PAWS skips them. */
	h.ts = false;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

static void ecp_conn_send_rst_src(struct ecp_conn *c, struct ecp_conn_src *s,
				  struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	if (!s->synack || ecp_conn_src_closed(c, s))
		return;
	ecp_conn_hdr_src(c, s, &h, ecp_conn_src_seq(c),
			 ecp_conn_src_ack_seq(s), TCPHDR_RST | TCPHDR_ACK, 0);
	h.ts = false;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_abort(struct ecp_conn *c, struct sk_buff_head *q, u8 err,
		    int err_src, int err_tgt, bool skip_client, int skip_src,
		    int skip_tgt)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	for (i = 0; i < c->nout; i++) {
		/*
		 * Never a FIN for a partial fragment: a RST.  A target that
		 * acked everything and the FIN has its fragment whole, and
		 * its socket may be gone.
		 */
		if (ecp_conn_has_client(c) ? !skip_client :
		    (int)i != skip_tgt && !c->out[i].done)
			ecp_conn_send_rst_out(c, &c->out[i], q);
		/* A target keeps its row's end in show until the next run. */
		if (ecp_conn_has_targets(c) && !c->out[i].done)
			WRITE_ONCE(t->row[i].state, ECPROXY_ROW_RESET);
	}
	/* Whatever happened, a writer must not take its block as stored. */
	if (ecp_conn_has_writer(c) && !skip_client)
		ecp_conn_send_rst_out(c, &c->w, q);
	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++)
		if ((int)i != skip_src)
			ecp_conn_send_rst_src(c, &c->src[i], q);
	t->last_error = err;
	t->last_error_source = err_src;
	t->last_error_target = err_tgt;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS_FAILED);
	ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_FAILED,
		       ecp_conn_caller(c)->peer.addr,
		       ecp_conn_caller(c)->peer.port, c->bytes_out,
		       c->start, -1, err, err_src, err_tgt);
	ecp_conn_finish(c);
	if (err_src >= 0)
		WRITE_ONCE(t->src[err_src].state, ECPROXY_SOURCE_RESET);
}

/* ---- Towards the outputs ---------------------------------------------- */

static bool pacing = true;
module_param(pacing, bool, 0644);
MODULE_PARM_DESC(pacing,
		 "Pace what S sends each client and target over the round trip, as Linux's TCP does (default: Y; N sends what the windows allow at once, for comparison; a rate cap still paces)");

/*
 * Output o's pacing rate from its window and round trip (pace.h), and
 * the size of its GSO packets at that rate.  A rate cap bounds the pace,
 * with the module's pacing or without, as SO_MAX_PACING_RATE bounds
 * Linux's (sk_max_pacing_rate): its bucket refilled at one tick's worth
 * or more, left at the window's pace, arrives as a burst that a shallow
 * queue beside a greedy flow drops, and the capped flow loses what its
 * recovery costs.  The bound is 1.2 times the cap (Linux's ratio for a
 * window's pace), the bucket holding the average: paced at the cap
 * itself, a flow never made up what a busy CPU held back, and in a VM
 * ran 13% under it over four seconds.
 */
static u32 ecp_conn_pace_out(struct ecp_conn *c, struct ecp_conn_out *o,
			     u32 most)
{
	u64 cap = READ_ONCE(c->t->rate);
	u64 rate = READ_ONCE(pacing) ?
		   ecp_pace_rate(o->cc.cwnd, o->cc.ssthresh,
				 ecp_conn_out_flight(o), o->rtt.srtt_us) : 0;

	/* 1.2 times, as cap + cap / 5: no product to overflow. */
	cap += min(cap / 5, U64_MAX - cap);
	o->pace.capped = cap && (!rate || rate > cap);
	if (o->pace.capped)
		rate = cap;
	o->pace.rate = rate;
	return ecp_pace_size(&o->pace, o->mss, most);
}

/*
 * Have the pacing timer push at @at (ns), unless it is armed for earlier
 * already: whatever that push finds not yet due arms it again.
 */
static void ecp_conn_push_at(struct ecp_conn *c, u64 at)
{
	if (c->pace_at && c->pace_at <= at)
		return;
	c->pace_at = at;
	hrtimer_start(&c->pace_timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
}

/* Pacing holds an output back until @at (ns). */
static void ecp_conn_pace_wait(struct ecp_conn *c, u64 at)
{
	/* A wait only if it arms the timer (sooner than it was). */
	if (!c->pace_at || c->pace_at > at)
		ecp_stats_inc(&c->t->stats, ECP_STAT_PACE_WAITS);
	ecp_conn_push_at(c, at);
}

/*
 * RACK's reordering timer (tcp_rack_reo_timeout()): a re-sent copy that
 * bytes SACKed after it proved lost before its round trip and a quarter
 * were up (conn_out.c) is lost once they are, though no ACK comes then.
 * Without it, the loss of a copy among a flight's last bytes, whose ACKs
 * are the last, waited for the RTO (200 ms at least).
 */
static void ecp_conn_reo_timer(struct ecp_conn *c, struct ecp_conn_out *o,
			       u64 now_ns)
{
	u64 due = o->reo_us * NSEC_PER_USEC;

	if (!o->reo_us)
		return;
	if (!ecp_cc_recovering(&o->cc, o->acked)) {
		o->reo_us = 0;
	} else if (now_ns < due) {
		ecp_conn_push_at(c, due);
	} else {
		o->reo_us = 0;
		ecp_sack_again(&o->sack);
		ecp_stats_inc(&c->t->stats, ECP_STAT_REO_TIMEOUTS);
	}
}

u64 ecp_conn_resend_out(struct ecp_conn *c, struct ecp_conn_out *o,
			struct sk_buff_head *q, u64 *budget)
{
	u64 pipe, start, now_ns;
	bool first;
	u32 len, most;

	if (!ecp_cc_recovering(&o->cc, o->acked))
		return U64_MAX;
	/* The flow's pace: of cwnd, or of what is out if more (pace.h). */
	most = ecp_conn_pace_out(c, o, ecp_conn_out_gso_max(o));
	now_ns = ktime_get_ns();
	pipe = ecp_sack_pipe(&o->sack, o->snd_nxt, o->mss);
	/*
	 * The segment at the ack goes whatever the pipe, when nothing
	 * beyond it was re-sent: the fast retransmit (RFC 6675 §5 step 4.3)
	 * and NewReno's partial ack.  Then while cwnd - pipe >= 1 SMSS.
	 */
	first = o->sack.resent <= o->acked;
	/* A round of re-sending begins (lost copies, conn_out.c). */
	if (first) {
		o->round_us = tcp_clock_us();
		o->reo_us = 0;
	}
	while (first || (pipe + o->mss <= o->cc.cwnd && *budget >= o->mss)) {
		/*
		 * Paced as new bytes are (tcp_xmit_retransmit_queue()
		 * checks the pace too): a window of holes re-sent at once
		 * lands in the queue that just overflowed, and the copies
		 * lost again cost an RTO.  The fast retransmit goes now.
		 */
		if (!first && !ecp_pace_ready(&o->pace, now_ns)) {
			ecp_conn_pace_wait(c, o->pace.next_ns);
			return 0;
		}
		/*
		 * Whole segments of what the window leaves (PRR's is in
		 * bytes): a hole's copies start where its segments did.
		 */
		if (!ecp_sack_next(&o->sack, &start, &len,
				   first ? o->mss :
				   min3((u64)most,
					rounddown(o->cc.cwnd - pipe, o->mss),
					*budget)))
			return pipe < o->cc.cwnd ? o->cc.cwnd - pipe : 0;
		first = false;
		ecp_rtt_resent(&o->rtt);
		if (ecp_conn_send_data_out(c, o, q, start, len,
					   start + len == o->snd_nxt))
			return 0;
		ecp_stats_add(&c->t->stats, ECP_STAT_RESENT,
			      DIV_ROUND_UP(len, o->mss));
		ecp_sack_sent(&o->sack, start + len);
		o->resent_nxt = o->snd_nxt;
		ecp_cc_prr_sent(&o->cc, o->acked, len);
		ecp_pace_sent(&o->pace, now_ns, len);
		pipe += len;
		*budget -= min_t(u64, len, *budget);
	}
	return 0;
}

/*
 * New bytes [snd_nxt, snd_nxt + n) to output o, the PSH on what reaches
 * @complete.  Returns false if they could not be sent.
 */
static bool ecp_conn_send_new_out(struct ecp_conn *c, struct ecp_conn_out *o,
				  struct sk_buff_head *q, u32 n, u64 complete)
{
	if (ecp_conn_send_data_out(c, o, q, o->snd_nxt, n,
				   o->snd_nxt + n == complete))
		return false;
	if (o->snd_nxt == o->acked)
		o->last_progress = jiffies;
	ecp_cc_prr_sent(&o->cc, o->acked, n);
	o->snd_nxt += n;
	ecp_rtt_sent(&o->rtt, o->snd_nxt, tcp_clock_us());
	return true;
}

void ecp_conn_send_tail_probe(struct ecp_conn *c, struct ecp_conn_out *o,
			      struct sk_buff_head *q)
{
	u64 complete = min(ecp_conn_out_complete(c, o), ecp_conn_out_len(c, o));
	u64 start = o->snd_nxt, end;

	end = min_t(u64, complete, start + o->mss);
	if (end > start && o->acked + o->win >= end) {
		if (!ecp_conn_send_new_out(c, o, q, end - start, complete))
			return;
	} else {
		end = o->snd_nxt;
		start = end - min_t(u64, o->mss, end - o->acked);
		ecp_rtt_resent(&o->rtt);
		if (ecp_conn_send_data_out(c, o, q, start, end - start,
					   end == complete))
			return;
		ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
	}
	o->probe_start = start;
	o->probe_end = end;
	ecp_stats_inc(&c->t->stats, ECP_STAT_TAIL_PROBES);
}

/*
 * Refill the rate cap's bucket at @now_ns; U64_MAX when there is no cap.
 * In nanoseconds, not jiffies: a push that waits for a segment's worth
 * (ecp_conn_push_out()) must find it when its timer fires.  The time a
 * refill leaves over, less than a byte's worth, counts towards the next
 * one: dropped on every push, a cap of a few bytes a second never sent.
 * Any rate below 2^64 bytes/s is valid (ecctl takes tc's units): every
 * product is bounded so that no division overflows, which on x86-64
 * faults.
 */
static u64 ecp_conn_tokens(struct ecp_conn *c, u64 now_ns)
{
	u64 rate = READ_ONCE(c->t->rate);
	u64 burst, el, add;

	if (!rate)
		return U64_MAX;
	/* One tick's worth: rate * ECP_TICK / HZ < rate. */
	burst = max_t(u64, mul_u64_u32_div(rate, ECP_TICK, HZ), ECP_GSO_MAX);
	el = now_ns - c->tokens_ns;
	/*
	 * A second at least fills a bucket of a tick's worth; one of
	 * ECP_GSO_MAX, at under ECP_GSO_MAX bytes/s, fills in 16 minutes.
	 * Below those, rate * el / NSEC_PER_SEC is under 2^64.
	 */
	if ((el >= NSEC_PER_SEC && rate >= burst) || el >= 1000 * NSEC_PER_SEC)
		add = burst;
	else
		add = mul_u64_u64_div_u64(rate, el, NSEC_PER_SEC);
	if (add >= burst - c->tokens) {
		c->tokens = burst;
		c->tokens_ns = now_ns;
	} else {
		c->tokens += add;
		/* The time those bytes took, at most el. */
		c->tokens_ns += mul_u64_u64_div_u64(add, NSEC_PER_SEC, rate);
	}
	return c->tokens;
}

/* How long until the rate cap's bucket holds @need more bytes, ns. */
static u64 ecp_conn_tokens_wait(struct ecp_conn *c, u32 need)
{
	u64 rate = READ_ONCE(c->t->rate);

	return rate ? div64_u64((u64)need * NSEC_PER_SEC, rate) + 1 : 0;
}

/*
 * Send output o the complete bytes it has not seen, within its window,
 * the congestion window and @tokens (the rate cap, reduced by what it
 * sends), then its FIN at the end of its stream.  @now_ns is the push's
 * clock, the bucket's refill time too.
 */
static void ecp_conn_push_out(struct ecp_conn *c, struct ecp_conn_out *o,
			      struct sk_buff_head *q, u64 *tokens, u64 now_ns)
{
	u64 complete = ecp_conn_out_complete(c, o);
	u64 len = ecp_conn_out_len(c, o);
	u64 budget = ECP_PUSH_MAX;
	u64 limit, room, sent;
	bool paced = false;
	unsigned long now;
	u32 most;

	if (ecp_conn_has_targets(c) && !o->synack)
		return;
	/* Whole segments per GSO packet, sized to the pace; the tail may be short. */
	most = ecp_conn_pace_out(c, o, ecp_conn_out_gso_max(o));
	complete = min(complete, len);
	sent = o->snd_nxt;
	now = jiffies;
	/* New bytes after a silence: the window the path may still take. */
	if (o->acked == o->snd_nxt && o->snd_nxt < complete && o->last_sent)
		ecp_cc_restart(&o->cc, now - o->last_sent,
			       ecp_rtt_rto(&o->rtt), now, o->mss);
	/*
	 * Its window, and what the path to it takes (cc.h); the first two
	 * duplicate ACKs each let one more segment out (limited transmit,
	 * RFC 3042).  Without SACK that segment's own duplicate ACK is what
	 * often makes the third: the output's GRO turns a whole GSO packet
	 * past a hole into one duplicate.
	 */
	limit = o->acked + min_t(u64, o->win,
				 o->cc.cwnd + ecp_cc_limited(&o->cc, o->acked,
							     o->mss));
	/* In a recovery, what was lost first, then what the pipe leaves. */
	ecp_conn_reo_timer(c, o, now_ns);
	room = ecp_conn_resend_out(c, o, q, &budget);
	if (room != U64_MAX)
		limit = min(o->acked + o->win, o->snd_nxt + room);
	while (o->snd_nxt < complete && o->snd_nxt < limit && budget) {
		u32 n = min3((u64)most, complete - o->snd_nxt,
			     limit - o->snd_nxt);

		/*
		 * Sender-side SWS avoidance (RFC 1122 4.2.3.4): what the
		 * window or cwnd cuts short goes in whole segments, and a
		 * last part under one waits for the ACKs in flight to open
		 * them, as Linux sends a segment only whole
		 * (tcp_snd_wnd_test(), tcp_mss_split_point(), a cwnd in
		 * segments).  With nothing in flight it goes: no ACK would
		 * come.
		 */
		if (n < complete - o->snd_nxt) {
			if (n >= o->mss)
				n = rounddown(n, o->mss);
			else if (o->snd_nxt > o->acked)
				break;
		}
		if (!ecp_pace_ready(&o->pace, now_ns)) {
			ecp_conn_pace_wait(c, o->pace.next_ns);
			paced = !o->pace.capped;
			break;
		}
		/*
		 * The cap's tokens in whole segments, but for the last bytes
		 * the sources have complete: a sliver costs a packet and an
		 * ACK as a full one does.  Short of one (none left at all,
		 * too), the push waits for the bucket.
		 */
		if (*tokens < n) {
			u32 m = rounddown(*tokens, o->mss);

			if (!m) {
				ecp_conn_pace_wait(c, now_ns +
					ecp_conn_tokens_wait(c, min_t(u32, n, o->mss) -
							     *tokens));
				break;
			}
			n = m;
		}
		n = min_t(u64, n, budget);
		if (!ecp_conn_send_new_out(c, o, q, n, complete))
			break;
		ecp_pace_sent(&o->pace, now_ns, n);
		if (*tokens != U64_MAX)
			*tokens -= n;
		budget -= n;
	}
	/*
	 * Did the window, and not the sources or the client, stop it?  It
	 * did with less than a segment of it left, which no segment uses,
	 * and it did when its own pace did (not a cap's): the pace is the
	 * window spread over a round trip.  Linux counts only the window
	 * (tcp_write_xmit()), which comes to the same while the sender
	 * keeps its pace.  S on a CPU it does not get all of (a router
	 * saturated, its VM capped) falls behind its pace: wake-ups late
	 * by more than half a segment's time are lost (ecp_pace_sent()),
	 * the flight never reaches the window, and a window that never
	 * fills never grows.  With S's VM at a quarter of a CPU, the
	 * window stayed where HyStart left it, S half idle at half
	 * forwarding's rate.
	 */
	if (o->snd_nxt > sent || room != U64_MAX || paced ||
	    o->snd_nxt + o->mss > o->acked + o->cc.cwnd)
		ecp_cc_sent(&o->cc, o->acked, o->snd_nxt,
			    ecp_conn_out_snd_max(o) - o->acked,
			    paced || ecp_conn_out_snd_max(o) - o->acked +
				     o->mss > o->cc.cwnd,
			    now, ecp_rtt_rto(&o->rtt), o->mss);
	if (!o->fin_sent && o->snd_nxt == len) {
		ecp_conn_send_fin_out(c, o, q);
		if (o->acked == o->snd_nxt)
			o->last_progress = jiffies;
		o->fin_sent = true;
	}
}

bool ecp_conn_push(struct ecp_conn *c, struct sk_buff_head *q)
{
	u64 now_ns = ktime_get_ns();
	u64 tokens = ecp_conn_tokens(c, now_ns);
	bool closing = true;
	unsigned int i;
	int bad;

	/*
	 * A source that closed before bytes the others sent (its process
	 * ended, or its file is short) sent what it had: with spares, one
	 * more missing source, its socket reset if still open.  Each pass
	 * stands in for one, at most nspare.
	 */
	while ((bad = ecp_conn_src_mismatch(c)) >= 0) {
		struct ecp_conn_src *s = &c->src[bad];

		if (!ecp_conn_src_short(c, s) || !ecp_conn_spares_free(c)) {
			ecp_conn_abort(c, q, ECPROXY_ERR_LENGTH_MISMATCH, bad,
				       -1, false, -1, -1);
			return false;
		}
		ecp_conn_send_rst_src(c, s, q);
		ecp_conn_src_stand_in(c, s, ECPROXY_SOURCE_SHORT, q);
	}
	ecp_conn_spare_fix(c);
	for (i = 0; i < c->nout; i++) {
		ecp_conn_push_out(c, &c->out[i], q, &tokens, now_ns);
		closing &= c->out[i].fin_sent;
	}
	if (tokens != U64_MAX)
		c->tokens = tokens;
	for (i = 0; i < c->nrow; i++)
		ecp_stats_buffer(&c->t->stats,
				 ecp_dbuf_occupancy(&c->row[i].dbuf));
	if (closing && c->state == ECPROXY_CONN_ESTABLISHED)
		ecp_conn_set_state(c, ECPROXY_CONN_CLOSING);
	ecp_conn_timer_due(c);
	return true;
}

/*
 * Every target has its fragment: S acks the writer's FIN with its own.
 * Returns true once the writer acked that.
 */
static bool ecp_conn_writer_closed(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_conn_out *w = &c->w;

	if (!w->fin_sent) {
		ecp_conn_send_fin_writer(c, q);
		w->rto = ECP_RTO_MIN;
		w->last_progress = jiffies;
	}
	return w->acked > 0;
}

void ecp_conn_check_done(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	bool all = true;
	unsigned int i;

	if (c->state == ECPROXY_CONN_LINGER || !c->client.fin)
		return;
	/*
	 * Each output is done once it acked every byte and the FIN, whatever
	 * the others: a target's socket may then close and vanish, and a
	 * late duplicate of S's last ACK draws a RST that is no loss
	 * (conn_rcv_tgt.c).
	 */
	for (i = 0; i < c->nout; i++) {
		struct ecp_conn_out *o = &c->out[i];

		if (!o->fin_sent || o->acked != o->snd_nxt + 1) {
			all = false;
			continue;
		}
		if (!o->done && ecp_conn_has_targets(c))
			WRITE_ONCE(t->row[i].state, ECPROXY_ROW_DONE);
		o->done = true;
	}
	if (!all)
		return;
	/*
	 * Every target has its fragment: now, and not before, the writer
	 * learns that its block is stored, from S's ack of its FIN and S's
	 * own FIN; the end waits for its ack of that.
	 */
	if (ecp_conn_has_writer(c) && !ecp_conn_writer_closed(c, q))
		return;
	/*
	 * With spares, a source may still be sending what no row needs any
	 * more (the spares stood in for it): reset it, as a reader's stack
	 * does when bytes come in after it closed, instead of waiting.
	 */
	for (i = 0; c->nspare && i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		if (!s->fin && !s->gone) {
			ecp_conn_send_rst_src(c, s, q);
			s->gone = true;
		}
	}
	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++)
		if (!c->src[i].gone &&
		    c->src[i].acked != c->client.fin_off + 1)
			return;
	ecp_conn_set_state(c, ECPROXY_CONN_LINGER);
	c->linger_start = jiffies;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS_DONE);
	ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_DONE,
		       ecp_conn_caller(c)->peer.addr,
		       ecp_conn_caller(c)->peer.port, c->bytes_out, c->start, -1,
		       0, -1, -1);
	for (i = 0; i < c->k; i++)
		if (!c->src[i].lost)
			WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_CLOSED);
}
