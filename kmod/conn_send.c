// SPDX-License-Identifier: GPL-2.0
/*
 * The segments S originates: SYNs and ACKs to the sources (acks translated,
 * windows from EBSN), the SYN-ACK, the rebuilt data and the FIN to the client,
 * resets; and pushing complete bytes to the client.
 *
 * Choices:
 *  - Window scale announced to the client: the smallest shift any source
 *    announced to S.  The window S gives the client is the smallest of the
 *    sources' windows, and every source's window fits 16 bits at that source's
 *    shift, so the minimum fits at the smallest shift; rounding loses less than
 *    one unit.  If the client offered no scaling, no side scales.
 *  - Retransmission to the client: go-back from the client's acknowledged
 *    offset, on three duplicate ACKs (one segment) or when nothing was
 *    acknowledged for an RTO (a few segments; the RTO comes from the measured
 *    round trips, rtt.h, and doubles on each expiry up to ECP_RTO_MAX).  Bytes
 *    are re-read from the decode buffer, never re-accumulated: the buffer keeps
 *    them until the client acknowledges them.
 *  - New bytes go out within the smaller of the client's window and the
 *    congestion window (cc.h), which those two losses reduce.
 */
#include <linux/moduleparam.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "task.h"
#include "xmit.h"

/* ---- Building segments ---------------------------------------------- */

u64 ecp_conn_client_ack_off(const struct ecp_conn *c)
{
	u64 m = U64_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		m = min(m, c->src[i].acked);
	return m;
}

/* The ack S gives the client. */
static u32 ecp_conn_client_ack_seq(const struct ecp_conn *c)
{
	return ecp_off_to_seq(ecp_conn_client_ack_off(c), c->client.isn + 1);
}

/* The window S gives the client: the smallest of the sources' windows. */
static u16 ecp_conn_client_win(const struct ecp_conn *c)
{
	u32 m = U32_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		m = min(m, c->src[i].win);
	return min_t(u32, m >> c->client.ws_out, 0xffff);
}

static void ecp_conn_hdr_client(const struct ecp_conn *c, struct ecp_tcp_hdr *h,
				u32 seq, u8 flags)
{
	memset(h, 0, sizeof(*h));
	h->saddr = c->vip;
	h->daddr = c->client.addr;
	h->sport = c->vport;
	h->dport = c->client.port;
	h->seq = seq;
	h->ack = ecp_conn_client_ack_seq(c);
	h->flags = flags;
	h->win = ecp_conn_client_win(c);
	h->wscale = -1;
}

static void ecp_conn_hdr_src(const struct ecp_conn *c,
			     const struct ecp_conn_src *s,
			     struct ecp_tcp_hdr *h, u32 seq, u32 ack, u8 flags,
			     u16 win)
{
	const struct ecp_source *cfg = &c->t->src[s->idx];

	memset(h, 0, sizeof(*h));
	h->saddr = c->vip;
	h->daddr = cfg->addr.ip;
	h->sport = s->lport;
	h->dport = cfg->port;
	h->seq = seq;
	h->ack = ack;
	h->flags = flags;
	h->win = win;
	h->wscale = -1;
}

static void ecp_conn_nomem(struct ecp_conn *c)
{
	ecp_stats_drop(&c->t->stats, ECPROXY_DROP_NO_MEMORY);
}

void ecp_conn_send_syn_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_src(c, s, &h, c->client.isn, 0, TCPHDR_SYN,
			 c->client.syn_win);
	h.mss = min(c->client.mss, s->mss);
	h.wscale = ecp_conn_src_wscale(c->t->buffer_size);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_send_synack_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	unsigned int i;
	u16 mss = c->src_mss;

	for (i = 0; i < c->k; i++)
		mss = min(mss, c->src[i].mss);
	ecp_conn_hdr_client(c, &h, c->client.iss, TCPHDR_SYN | TCPHDR_ACK);
	/* Windows in SYN segments are never scaled. */
	h.win = 0xffff;
	for (i = 0; i < c->k; i++)
		h.win = min_t(u32, h.win, c->src[i].win);
	h.mss = mss;
	h.wscale = c->client.wscale >= 0 ? c->client.ws_out : -1;
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

/*
 * Copy [off, off + len) of the decode buffer into the payload of @skb,
 * which starts at @at.
 */
static int ecp_conn_copy_out(struct ecp_conn *c, struct sk_buff *skb,
			     unsigned int at, u64 off, u32 len)
{
	struct ecp_dbuf_span sp;

	/* Cannot fail: [acked, snd_nxt) stays in the buffer. */
	if (WARN_ON_ONCE(ecp_dbuf_span(&c->dbuf, off, len, &sp)))
		return -EFAULT;
	if (skb_store_bits(skb, at, sp.ptr[0], sp.len[0]) ||
	    skb_store_bits(skb, at + sp.len[0], sp.ptr[1], sp.len[1]))
		return -EFAULT;
	return 0;
}

/*
 * Data [off, off + len) of the rebuilt stream to the client, from the buffer:
 * one segment, or one GSO packet of the client's MSS-sized segments when
 * longer.
 */
static int ecp_conn_send_data_client(struct ecp_conn *c, struct sk_buff_head *q,
				     u64 off, u32 len, bool push)
{
	struct ecp_tcp_hdr h;
	struct sk_buff *skb;

	ecp_conn_hdr_client(c, &h, ecp_conn_client_seq(&c->client, off),
			    TCPHDR_ACK | (push ? TCPHDR_PSH : 0));
	skb = ecp_tcp_build_data(q, &h, len, c->client.mss);
	if (!skb) {
		ecp_conn_nomem(c);
		return -ENOMEM;
	}
	if (ecp_conn_copy_out(c, skb, ecp_tcp_payload_offset(skb), off,
			      len)) {
		__skb_unlink(skb, q);
		kfree_skb(skb);
		return -EFAULT;
	}
	/* Re-sent bytes count as RESENT only, so BYTES_OUT is the stream. */
	if (off + len > c->client.snd_nxt)
		ecp_stats_add(&c->t->stats, ECP_STAT_BYTES_OUT,
			      off + len - max(off, c->client.snd_nxt));
	ecp_stats_add(&c->t->stats, ECP_STAT_SEGS_OUT,
		      DIV_ROUND_UP(len, c->client.mss));
	return 0;
}

void ecp_conn_send_ack_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_client(c, &h, ecp_conn_client_seq(&c->client,
			    ecp_conn_client_snd_max(&c->client)), TCPHDR_ACK);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_send_probe_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_client(c, &h,
			    ecp_conn_client_seq(&c->client, c->client.acked - 1),
			    TCPHDR_ACK);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
	else
		ecp_stats_inc(&c->t->stats, ECP_STAT_WINDOW_PROBES);
}

static void ecp_conn_send_fin_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	ecp_conn_hdr_client(c, &h,
			    ecp_conn_client_seq(&c->client, c->client.snd_nxt),
			    TCPHDR_FIN | TCPHDR_ACK);
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

/*
 * The window for an ACK to s of @ack: EBSN bounds the right edge by the
 * client's ack plus the buffer, and s is acked at or past the client's ack, so
 * the edge is re-expressed from @ack (rounded down, never up; zero if s already
 * reached it).
 */
static u16 ecp_conn_src_win(struct ecp_conn *c, struct ecp_conn_src *s,
			    u64 ack)
{
	unsigned int flags = 0;
	u8 ws = min_t(u8, s->ws_out, ECP_EBSN_MAX_WSCALE);
	u64 edge;
	u16 win;

	win = ecp_ebsn_window(&s->ebsn, c->client.acked, c->client.win,
			      c->t->buffer_size, s->ws_out, &flags);
	if (flags & (ECP_EBSN_CLAMP_BUF | ECP_EBSN_CLAMP_FIELD))
		ecp_stats_inc(&c->t->stats, ECP_STAT_WINDOW_CLAMPS);
	edge = c->client.acked + ((u64)win << ws);
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
	ecp_conn_hdr_src(c, s, &h, seq, ack, flags, win);
	if (!len) {
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

void ecp_conn_send_ack_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q, bool now)
{
	u64 ack = ecp_conn_src_ack_off(s);

	if (!s->synack || ack <= s->last_ack_off)
		return;
	if (!now && ack - s->last_ack_off < 2 * (u64)s->mss)
		return;
	ecp_conn_send_ack_src_always(c, s, q);
}

/*
 * The client's segment @p to source s, cut to s's MSS: the client's segments
 * can be larger (a GSO packet from the client's side, or a path to s with a
 * smaller MTU), and S sends with DF.  Like TCP, never below TCP_MIN_SND_MSS,
 * whatever the source announced.
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
	/*
	 * The client's pure ACKs reach s only as window updates (or new acks).
	 */
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
		 "Answer a source's segments past a hole with duplicate ACKs so that it fast-retransmits (default: Y; N leaves recovery to its RTO, for comparison)");

void ecp_conn_send_prompt_src(struct ecp_conn *c, struct ecp_conn_src *s,
			      struct sk_buff_head *q, unsigned int n)
{
	struct ecp_tcp_hdr h;

	if (!READ_ONCE(prompt_sources) || ecp_conn_src_closed(c, s))
		return;
	while (n--) {
		ecp_conn_hdr_src(c, s, &h, ecp_conn_src_seq(c),
				 s->last_ack, TCPHDR_ACK, s->last_win);
		if (ecp_tcp_build(q, &h)) {
			ecp_conn_nomem(c);
			return;
		}
		ecp_stats_inc(&c->t->stats, ECP_STAT_PROMPTS);
	}
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

static void ecp_conn_send_rst_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;

	if (!c->client.synack_sent) {
		/* The client is in SYN-SENT: only an acceptable ack matters. */
		ecp_conn_hdr_client(c, &h, 0, TCPHDR_RST | TCPHDR_ACK);
		h.ack = c->client.isn + 1;
	} else {
		/*
		 * The client accepts a RST only at exactly its rcv_nxt; our
		 * best guess is everything sent.  Otherwise the client answers
		 * with a challenge ACK, which meets no connection and is reset
		 * by ecp_conn_rcv_client() at the sequence the client asks for.
		 */
		ecp_conn_hdr_client(c, &h, ecp_conn_client_seq(&c->client,
				    ecp_conn_client_snd_max(&c->client)),
				    TCPHDR_RST | TCPHDR_ACK);
	}
	h.win = 0;
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
	if (ecp_tcp_build(q, &h))
		ecp_conn_nomem(c);
}

void ecp_conn_abort(struct ecp_conn *c, struct sk_buff_head *q,
		    u8 err, int err_src, bool skip_client, int skip_src)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	if (!skip_client)
		ecp_conn_send_rst_client(c, q);
	for (i = 0; i < c->k; i++)
		if ((int)i != skip_src)
			ecp_conn_send_rst_src(c, &c->src[i], q);
	t->last_error = err;
	t->last_error_source = err_src;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS_FAILED);
	ecp_event_conn(c->net, t, ECPROXY_EVENT_CONN_FAILED, c->client.addr,
		       c->client.port, c->client.snd_nxt, c->start, err,
		       err_src);
	ecp_conn_finish(c);
	if (err_src >= 0)
		WRITE_ONCE(t->src[err_src].state, ECPROXY_SOURCE_RESET);
}

/* ---- Towards the client ---------------------------------------------- */

void ecp_conn_resend_client(struct ecp_conn *c, struct sk_buff_head *q,
			    unsigned int segs)
{
	struct ecp_conn_client *cl = &c->client;
	u64 off = cl->acked;

	ecp_rtt_resent(&cl->rtt);
	while (segs-- && off < cl->snd_nxt) {
		u32 len = min_t(u64, cl->mss, cl->snd_nxt - off);

		if (ecp_conn_send_data_client(c, q, off, len,
					      off + len == cl->snd_nxt))
			return;
		ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
		off += len;
	}
	if (cl->fin_sent && cl->acked == cl->snd_nxt && segs != UINT_MAX) {
		ecp_conn_send_fin_client(c, q);
		ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
	}
}

bool ecp_conn_push_client(struct ecp_conn *c, struct sk_buff_head *q)
{
	u64 complete = ecp_ivset_min_low_of(c->src, c->k, iv);
	/* The client's window, and what the path to the client takes (cc.h). */
	u64 limit = c->client.acked + min(c->client.win, c->client.cc.cwnd);
	/* Whole segments per GSO packet; the tail may be short. */
	u32 most = rounddown(ECP_GSO_MAX, c->client.mss);
	unsigned int i, nfin = 0;
	u64 len = 0, ref = 0;

	while (c->client.snd_nxt < complete && c->client.snd_nxt < limit) {
		u32 len = min3((u64)most, complete - c->client.snd_nxt,
			       limit - c->client.snd_nxt);

		if (ecp_conn_send_data_client(c, q, c->client.snd_nxt, len,
				       c->client.snd_nxt + len == complete))
			break;
		if (c->client.snd_nxt == c->client.acked)
			c->client.last_progress = jiffies;
		c->client.snd_nxt += len;
		ecp_rtt_sent(&c->client.rtt, c->client.snd_nxt, jiffies);
	}
	ecp_stats_buffer(&c->t->stats, ecp_dbuf_occupancy(&c->dbuf));

	for (i = 0; i < c->k; i++)
		ref = max(ref, c->src[i].ref);
	for (i = 0; i < c->k; i++) {
		if (!c->src[i].fin)
			continue;
		if (nfin++ == 0)
			len = c->src[i].fin_off;
		/*
		 * A source that closes before bytes another one already
		 * sent (killed, or serving a short file) is at fault at
		 * once; waiting for the others' FINs could take forever,
		 * since EBSN holds them back.
		 */
		if (c->src[i].fin_off != len || c->src[i].fin_off < ref) {
			ecp_conn_abort(c, q, ECPROXY_ERR_LENGTH_MISMATCH, i,
				       false, -1);
			return false;
		}
	}
	if (nfin == c->k && !c->client.fin_sent && c->client.snd_nxt == len) {
		ecp_conn_send_fin_client(c, q);
		if (c->client.acked == c->client.snd_nxt)
			c->client.last_progress = jiffies;
		c->client.fin_sent = true;
		ecp_conn_set_state(c, ECPROXY_CONN_CLOSING);
	}
	return true;
}

void ecp_conn_check_done(struct ecp_conn *c)
{
	unsigned int i;

	if (c->state == ECPROXY_CONN_LINGER || !c->client.fin_sent ||
	    !c->client.fin || c->client.acked != c->client.snd_nxt + 1)
		return;
	for (i = 0; i < c->k; i++)
		if (!c->src[i].gone && c->src[i].acked != c->client.fin_off + 1)
			return;
	ecp_conn_set_state(c, ECPROXY_CONN_LINGER);
	c->linger_start = jiffies;
	ecp_stats_inc(&c->t->stats, ECP_STAT_CONNS_DONE);
	ecp_event_conn(c->net, c->t, ECPROXY_EVENT_CONN_DONE, c->client.addr,
		       c->client.port, c->client.snd_nxt, c->start, 0, -1);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(c->t->src[i].state, ECPROXY_SOURCE_CLOSED);
}

