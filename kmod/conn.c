// SPDX-License-Identifier: GPL-2.0
/*
 * The connection state machine: handshakes spliced one-to-many, A's
 * segments copied to every source with translated acks and EBSN windows,
 * the sources' segments combined by stream offset and the complete bytes
 * sent to A, retransmission to A from the decode buffer, closing and
 * resets.  See conn.h for the sequence spaces and the locking rules.
 *
 * Choices:
 *  - Window scale announced to A: the smallest shift any source announced
 *    to S.  The window S gives A is the smallest of the sources' windows,
 *    and every source's window fits 16 bits at that source's shift, so
 *    the minimum fits at the smallest shift; rounding loses less than one
 *    unit.  If A offered no scaling, no side scales.
 *  - Retransmission to A: go-back from A's acknowledged offset, on three
 *    duplicate ACKs (one segment) or when nothing was acknowledged for an
 *    RTO (a few segments; the RTO starts at ECP_RTO_MIN and doubles up to
 *    ECP_RTO_MAX).  Bytes are re-read from the decode buffer, never
 *    re-accumulated: the buffer keeps them until A acknowledges them.
 *  - One timer per connection ticks every ECP_TICK and handles the
 *    handshake timeout, the idle timeout, the RTO and the linger.
 */
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/timer.h>
#include <net/tcp.h>

#include "conn.h"
#include "dbuf.h"
#include "ebsn.h"
#include "ivset.h"
#include "seq.h"
#include "task.h"
#include "xmit.h"

#define ECP_TICK	(HZ / 20)
#define ECP_RTO_MIN	(HZ / 5)
#define ECP_RTO_MAX	(3 * HZ)
/* First repetition of the SYN-ACK to A (RFC 6298 §2.1: 1 s). */
#define ECP_SYNACK_RTO	HZ
/* Segments re-sent when the RTO fires. */
#define ECP_RTO_SEGS	4
/* MSS assumed when a SYN carries none (RFC 9293 §3.7.1). */
#define ECP_DEFAULT_MSS	536

struct ecp_conn_src {
	struct hlist_node node;		/* ecp_conn_hash, RCU */
	struct ecp_conn *conn;
	unsigned int idx;
	__be16 lport;			/* S's port towards this source */
	bool hashed;
	bool synack;			/* its SYN-ACK arrived */
	bool fin;
	u8 ws;				/* shift of the windows it sends */
	u8 ws_out;			/* shift of the windows S sends it */
	u16 mss;
	u32 isn;
	u32 win;			/* its window, bytes */
	u64 acked;			/* offset of A's stream it acked */
	u64 fin_off;			/* stream length, if fin */
	u64 ref;			/* highest offset seen */
	struct ecp_ivset iv;
	struct ecp_ebsn_src ebsn;
};

struct ecp_conn {
	struct ecp_task *t;		/* holds a reference */
	struct net *net;
	struct rcu_head rcu;
	struct timer_list timer;
	bool dead;
	bool synack_sent;		/* SYN-ACK sent to A */
	bool fin_sent;			/* FIN sent to A */
	bool a_fin;			/* FIN received from A */
	u8 state;			/* enum ecproxy_conn_state */
	u8 dupacks;
	__be32 vip;
	__be32 a_addr;
	__be16 vport;
	__be16 a_port;
	u32 a_isn;
	u32 s_isn;
	u16 a_syn_win;			/* A's SYN window, for the SYNs */
	s8 a_wscale;			/* A's shift, -1 if not offered */
	u8 a_ws;			/* shift of A's windows */
	u8 s_ws;			/* shift of the windows S sends A */
	u16 a_mss;			/* largest segment S sends A */
	u16 b_mss;			/* largest segment a source path allows */
	u32 a_win;			/* A's window, bytes */
	u64 a_acked;			/* S-stream offset A acked (FIN = +1) */
	u64 snd_nxt;			/* S-stream data sent to A */
	u64 a_rcv;			/* A-stream offset after A's last byte */
	u64 a_fin_off;
	unsigned long start;
	unsigned long last_rx;
	unsigned long last_progress;	/* last time A's ack moved */
	unsigned long linger_start;
	unsigned long rto;
	struct ecp_dbuf dbuf;
	unsigned int k;
	struct ecp_conn_src src[];
};

/* The sources' local ports, keyed by (netns, VIP, port). */
#define ECP_CONN_HASH_BITS	10
static DEFINE_HASHTABLE(ecp_conn_hash, ECP_CONN_HASH_BITS);
static DEFINE_SPINLOCK(ecp_conn_hash_lock);

static u32 ecp_conn_hashfn(const struct net *net, __be32 vip, __be16 port)
{
	return jhash_2words((__force u32)vip, (__force u32)port,
			    net_hash_mix(net));
}

struct ecp_conn_src *ecp_conn_lookup_source(const struct net *net,
					    const struct ecp_seg *p)
{
	struct ecp_conn_src *s;

	hash_for_each_possible_rcu(ecp_conn_hash, s, node,
				   ecp_conn_hashfn(net, p->daddr, p->dport)) {
		struct ecp_conn *c = s->conn;
		struct ecp_source *cfg = &c->t->src[s->idx];

		if (s->lport == p->dport && c->vip == p->daddr &&
		    net_eq(c->net, net) && cfg->addr.ip == p->saddr &&
		    cfg->port == p->sport)
			return s;
	}
	return NULL;
}

/* Is (net, vip, port) free?  Caller holds ecp_conn_hash_lock. */
static bool ecp_conn_port_free(const struct net *net, __be32 vip,
			       __be16 port)
{
	struct ecp_conn_src *s;

	hash_for_each_possible(ecp_conn_hash, s, node,
			       ecp_conn_hashfn(net, vip, port))
		if (s->lport == port && s->conn->vip == vip &&
		    net_eq(s->conn->net, net))
			return false;
	return true;
}

/*
 * Give every source a fresh local port from the ephemeral range, unique
 * for (netns, VIP): a new port per connection also keeps clear of a
 * source's TIME-WAIT from the previous one.
 */
static int ecp_conn_hash_ports(struct ecp_conn *c)
{
	unsigned int i, tries;
	int lo, hi;

	inet_get_local_port_range(c->net, &lo, &hi);
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		for (tries = 0; tries < 64; tries++) {
			__be16 port = htons(lo + get_random_u32_below(hi - lo + 1));

			if (ecp_conn_port_free(c->net, c->vip, port)) {
				s->lport = port;
				break;
			}
		}
		if (tries == 64) {
			spin_unlock_bh(&ecp_conn_hash_lock);
			return -EADDRNOTAVAIL;
		}
		hash_add_rcu(ecp_conn_hash, &s->node,
			     ecp_conn_hashfn(c->net, c->vip, s->lport));
		s->hashed = true;
	}
	spin_unlock_bh(&ecp_conn_hash_lock);
	return 0;
}

/* After teardown (dead set, task->conn cleared).  Not in hardirq. */
static void ecp_conn_free(struct ecp_conn *c)
{
	unsigned int i;

	del_timer(&c->timer);
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++)
		if (c->src[i].hashed)
			hash_del_rcu(&c->src[i].node);
	spin_unlock_bh(&ecp_conn_hash_lock);
	/*
	 * Readers that found c under RCU only look at it until they see
	 * dead under the task's lock, so the interval sets can go now.
	 */
	for (i = 0; i < c->k; i++)
		ecp_ivset_destroy(&c->src[i].iv);
	/* The task outlives RCU readers of c: its free is RCU-deferred too. */
	ecp_task_put(c->t);
	kfree_rcu(c, rcu);
}

static void ecp_conn_set_state(struct ecp_conn *c, u8 state)
{
	c->state = state;
	WRITE_ONCE(c->t->conn_state, state);
}

/* Zero what the connection left in the task's buffer for the next one. */
static void ecp_conn_clear_buffer(struct ecp_conn *c)
{
	struct ecp_dbuf_span sp;
	u64 base = ecp_dbuf_base(&c->dbuf);

	if (!ecp_dbuf_span(&c->dbuf, base, ecp_dbuf_occupancy(&c->dbuf),
			   &sp)) {
		memset(sp.ptr[0], 0, sp.len[0]);
		memset(sp.ptr[1], 0, sp.len[1]);
	}
}

/*
 * Detach c from its task; the caller frees it after unlocking.  Caller
 * holds the task's lock.
 */
static void ecp_conn_finish(struct ecp_conn *c)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	c->dead = true;
	t->conn = NULL;
	ecp_stats_buffer(&t->stats, ecp_dbuf_peak(&c->dbuf));
	ecp_conn_clear_buffer(c);
	WRITE_ONCE(t->conn_state, ECPROXY_CONN_NONE);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_IDLE);
}

/* ---- Building segments ---------------------------------------------- */

/* What every source has acknowledged of A's bytes (an A-stream offset). */
static u64 ecp_conn_acked_a(const struct ecp_conn *c)
{
	u64 m = U64_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		m = min(m, c->src[i].acked);
	return m;
}

/* The ack S gives A. */
static u32 ecp_conn_ack_a(const struct ecp_conn *c)
{
	return ecp_off_to_seq(ecp_conn_acked_a(c), c->a_isn + 1);
}

/* The window S gives A: the smallest of the sources' windows. */
static u16 ecp_conn_win_a(const struct ecp_conn *c)
{
	u32 m = U32_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		m = min(m, c->src[i].win);
	return min_t(u32, m >> c->s_ws, 0xffff);
}

static void ecp_conn_hdr_a(const struct ecp_conn *c, struct ecp_tcp_hdr *h,
			   u32 seq, u8 flags)
{
	memset(h, 0, sizeof(*h));
	h->saddr = c->vip;
	h->daddr = c->a_addr;
	h->sport = c->vport;
	h->dport = c->a_port;
	h->seq = seq;
	h->ack = ecp_conn_ack_a(c);
	h->flags = flags;
	h->win = ecp_conn_win_a(c);
	h->wscale = -1;
}

static void ecp_conn_hdr_b(const struct ecp_conn *c,
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

static void ecp_conn_send_syn(struct ecp_conn *c, struct ecp_conn_src *s,
			      struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	ecp_conn_hdr_b(c, s, &h, c->a_isn, 0, TCPHDR_SYN, c->a_syn_win);
	h.mss = min(c->a_mss, s->mss);
	h.wscale = c->a_wscale;
	if (ecp_tcp_build(q, &h, 0, &pay))
		ecp_conn_nomem(c);
}

static void ecp_conn_send_synack(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	unsigned int i;
	u8 *pay;
	u16 mss = c->b_mss;

	for (i = 0; i < c->k; i++)
		mss = min(mss, c->src[i].mss);
	ecp_conn_hdr_a(c, &h, c->s_isn, TCPHDR_SYN | TCPHDR_ACK);
	/* Windows in SYN segments are never scaled. */
	h.win = 0xffff;
	for (i = 0; i < c->k; i++)
		h.win = min_t(u32, h.win, c->src[i].win);
	h.mss = mss;
	h.wscale = c->a_wscale >= 0 ? c->s_ws : -1;
	if (ecp_tcp_build(q, &h, 0, &pay))
		ecp_conn_nomem(c);
}

/* Data [off, off + len) of the rebuilt stream to A, from the buffer. */
static int ecp_conn_send_data(struct ecp_conn *c, struct sk_buff_head *q,
			      u64 off, u32 len, bool push)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	ecp_conn_hdr_a(c, &h, ecp_off_to_seq(off, c->s_isn + 1),
		       TCPHDR_ACK | (push ? TCPHDR_PSH : 0));
	if (ecp_tcp_build(q, &h, len, &pay)) {
		ecp_conn_nomem(c);
		return -ENOMEM;
	}
	if (ecp_dbuf_read(&c->dbuf, off, pay, len)) {
		/* Cannot happen: [a_acked, snd_nxt) stays in the buffer. */
		WARN_ON_ONCE(1);
		kfree_skb(__skb_dequeue_tail(q));
		return -EFAULT;
	}
	/* Re-sent bytes count as RESENT only, so BYTES_OUT is the stream. */
	if (off + len > c->snd_nxt)
		ecp_stats_add(&c->t->stats, ECP_STAT_BYTES_OUT,
			      off + len - max(off, c->snd_nxt));
	ecp_stats_inc(&c->t->stats, ECP_STAT_SEGS_OUT);
	return 0;
}

/* A pure ACK to A, for its bytes every source now has. */
static void ecp_conn_send_ack_a(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	ecp_conn_hdr_a(c, &h, ecp_off_to_seq(c->snd_nxt + c->fin_sent,
					     c->s_isn + 1), TCPHDR_ACK);
	if (ecp_tcp_build(q, &h, 0, &pay))
		ecp_conn_nomem(c);
}

static void ecp_conn_send_fin_a(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	ecp_conn_hdr_a(c, &h, ecp_off_to_seq(c->snd_nxt, c->s_isn + 1),
		       TCPHDR_FIN | TCPHDR_ACK);
	if (ecp_tcp_build(q, &h, 0, &pay))
		ecp_conn_nomem(c);
}

/* The ack S gives source s: A's acknowledged offset, in s's space. */
static u32 ecp_conn_ack_b(const struct ecp_conn *c,
			  const struct ecp_conn_src *s)
{
	return ecp_off_to_seq(c->a_acked, s->isn + 1);
}

static u16 ecp_conn_win_b(struct ecp_conn *c, struct ecp_conn_src *s)
{
	unsigned int flags = 0;
	u16 win;

	win = ecp_ebsn_window(&s->ebsn, c->a_acked, c->a_win,
			      c->t->buffer_size, s->ws_out, &flags);
	if (flags & (ECP_EBSN_CLAMP_BUF | ECP_EBSN_CLAMP_FIELD))
		ecp_stats_inc(&c->t->stats, ECP_STAT_WINDOW_CLAMPS);
	return win;
}

/*
 * A segment to source s carrying A's sequence number @seq, flags and
 * payload from A's skb (may be NULL for a pure ACK).
 */
static void ecp_conn_send_b(struct ecp_conn *c, struct ecp_conn_src *s,
			    struct sk_buff_head *q, u32 seq, u8 flags,
			    const struct sk_buff *skb, unsigned int off,
			    unsigned int len)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	ecp_conn_hdr_b(c, s, &h, seq, ecp_conn_ack_b(c, s), flags,
		       ecp_conn_win_b(c, s));
	if (ecp_tcp_build(q, &h, len, &pay)) {
		ecp_conn_nomem(c);
		return;
	}
	if (len && skb_copy_bits(skb, off, pay, len))
		kfree_skb(__skb_dequeue_tail(q));
}

/*
 * A's segment @p to source s, cut to s's MSS: A's segments can be larger
 * (a GSO packet from A's side, or a path to s with a smaller MTU), and S
 * sends with DF.  Like TCP, never below TCP_MIN_SND_MSS, whatever the
 * source announced.
 */
static void ecp_conn_copy_b(struct ecp_conn *c, struct ecp_conn_src *s,
			    struct sk_buff_head *q, const struct sk_buff *skb,
			    const struct ecp_seg *p)
{
	unsigned int mss = max_t(unsigned int, s->mss, TCP_MIN_SND_MSS);
	unsigned int off = 0;

	while (p->len - off > mss) {
		ecp_conn_send_b(c, s, q, p->seq + off, TCPHDR_ACK, skb,
				p->dataoff + off, mss);
		off += mss;
	}
	ecp_conn_send_b(c, s, q, p->seq + off,
			TCPHDR_ACK | (p->flags & (TCPHDR_PSH | TCPHDR_FIN)),
			skb, p->dataoff + off, p->len - off);
}

static void ecp_conn_rst_a(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	if (!c->synack_sent) {
		/* A is in SYN-SENT: only an acceptable ack matters. */
		ecp_conn_hdr_a(c, &h, 0, TCPHDR_RST | TCPHDR_ACK);
		h.ack = c->a_isn + 1;
	} else {
		/*
		 * A accepts a RST only at exactly its rcv_nxt; our best
		 * guess is everything sent.  Otherwise A answers with a
		 * challenge ACK, which meets no connection and is reset by
		 * ecp_conn_rcv_client() at the sequence A asks for.
		 */
		ecp_conn_hdr_a(c, &h, ecp_off_to_seq(c->snd_nxt + c->fin_sent,
						     c->s_isn + 1),
			       TCPHDR_RST | TCPHDR_ACK);
	}
	h.win = 0;
	if (ecp_tcp_build(q, &h, 0, &pay))
		ecp_conn_nomem(c);
}

static void ecp_conn_rst_b(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q)
{
	struct ecp_tcp_hdr h;
	u8 *pay;

	if (!s->synack)
		return;
	ecp_conn_hdr_b(c, s, &h, ecp_off_to_seq(c->a_rcv, c->a_isn + 1),
		       ecp_conn_ack_b(c, s), TCPHDR_RST | TCPHDR_ACK, 0);
	if (ecp_tcp_build(q, &h, 0, &pay))
		ecp_conn_nomem(c);
}

/*
 * Reset every side, record why and detach.  @skip_a / @skip_src: the side
 * that reset us needs no RST back (-1 for none).  Caller frees c.
 */
static void ecp_conn_abort(struct ecp_conn *c, struct sk_buff_head *q,
			   u8 err, int err_src, bool skip_a, int skip_src)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	if (!skip_a)
		ecp_conn_rst_a(c, q);
	for (i = 0; i < c->k; i++)
		if ((int)i != skip_src)
			ecp_conn_rst_b(c, &c->src[i], q);
	t->last_error = err;
	t->last_error_source = err_src;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS_FAILED);
	ecp_conn_finish(c);
	if (err_src >= 0)
		WRITE_ONCE(t->src[err_src].state, ECPROXY_SOURCE_RESET);
}

/* ---- Towards A ------------------------------------------------------- */

/* Resend up to @segs segments from A's acknowledged offset. */
static void ecp_conn_resend(struct ecp_conn *c, struct sk_buff_head *q,
			    unsigned int segs)
{
	u64 off = c->a_acked;

	while (segs-- && off < c->snd_nxt) {
		u32 len = min_t(u64, c->a_mss, c->snd_nxt - off);

		if (ecp_conn_send_data(c, q, off, len, off + len == c->snd_nxt))
			return;
		ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
		off += len;
	}
	if (c->fin_sent && c->a_acked == c->snd_nxt && segs != UINT_MAX) {
		ecp_conn_send_fin_a(c, q);
		ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
	}
}

/*
 * Send A the complete bytes it has not seen, within its window, then the
 * FIN once every source has finished at the same length.  Returns false
 * if the connection was aborted (lengths differ).
 */
static bool ecp_conn_push(struct ecp_conn *c, struct sk_buff_head *q)
{
	u64 complete = ecp_ivset_min_low_of(c->src, c->k, iv);
	u64 limit = c->a_acked + c->a_win;
	unsigned int i, nfin = 0;
	u64 len = 0;

	while (c->snd_nxt < complete && c->snd_nxt < limit) {
		u32 len = min3((u64)c->a_mss, complete - c->snd_nxt,
			       limit - c->snd_nxt);

		if (ecp_conn_send_data(c, q, c->snd_nxt, len,
				       c->snd_nxt + len == complete))
			break;
		if (c->snd_nxt == c->a_acked)
			c->last_progress = jiffies;
		c->snd_nxt += len;
	}
	ecp_stats_buffer(&c->t->stats, ecp_dbuf_occupancy(&c->dbuf));

	for (i = 0; i < c->k; i++) {
		if (!c->src[i].fin)
			continue;
		if (nfin++ == 0)
			len = c->src[i].fin_off;
		if (c->src[i].fin_off != len) {
			ecp_conn_abort(c, q, ECPROXY_ERR_LENGTH_MISMATCH, i,
				       false, -1);
			return false;
		}
	}
	if (nfin == c->k && !c->fin_sent && c->snd_nxt == len) {
		ecp_conn_send_fin_a(c, q);
		if (c->a_acked == c->snd_nxt)
			c->last_progress = jiffies;
		c->fin_sent = true;
		ecp_conn_set_state(c, ECPROXY_CONN_CLOSING);
	}
	return true;
}

/* Everything is closed and acknowledged both ways: linger. */
static void ecp_conn_check_done(struct ecp_conn *c)
{
	unsigned int i;

	if (c->state == ECPROXY_CONN_LINGER || !c->fin_sent || !c->a_fin ||
	    c->a_acked != c->snd_nxt + 1)
		return;
	for (i = 0; i < c->k; i++)
		if (c->src[i].acked != c->a_fin_off + 1)
			return;
	ecp_conn_set_state(c, ECPROXY_CONN_LINGER);
	c->linger_start = jiffies;
	ecp_stats_inc(&c->t->stats, ECP_STAT_CONNS_DONE);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(c->t->src[i].state, ECPROXY_SOURCE_CLOSED);
}

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

static struct ecp_conn *ecp_conn_alloc(struct net *net, struct ecp_task *t,
				       const struct ecp_seg *p)
{
	unsigned int i, mtu;
	struct ecp_conn *c;

	c = kzalloc(struct_size(c, src, t->k), GFP_ATOMIC);
	if (!c)
		return NULL;
	c->k = t->k;
	c->t = t;
	c->net = net;
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		s->conn = c;
		s->idx = i;
		if (ecp_ivset_init(&s->iv, ECP_IVSET_DEFAULT_CAP,
				   GFP_ATOMIC))
			goto err;
		/* Routes are looked up once, for the MSS clamps. */
		mtu = ecp_route_mtu(net, p->daddr, t->src[i].addr.ip);
		if (mtu < 68)
			goto err;
		s->mss = mtu - sizeof(struct iphdr) - sizeof(struct tcphdr);
	}
	mtu = ecp_route_mtu(net, p->daddr, p->saddr);
	if (mtu < 68)
		goto err;
	c->a_mss = min_t(u32, p->mss ?: ECP_DEFAULT_MSS,
			 mtu - sizeof(struct iphdr) - sizeof(struct tcphdr));
	c->b_mss = 0xffff;
	for (i = 0; i < c->k; i++)
		c->b_mss = min(c->b_mss, c->src[i].mss);
	return c;
err:
	for (i = 0; i < c->k; i++)
		ecp_ivset_destroy(&c->src[i].iv);
	kfree(c);
	return NULL;
}

static void ecp_conn_timer(struct timer_list *timer);

/* A's SYN to an idle task: start the k handshakes.  Task lock held. */
static struct ecp_conn *ecp_conn_start(struct net *net, struct ecp_task *t,
				       const struct ecp_seg *p,
				       struct sk_buff_head *q)
{
	struct ecp_conn *c;
	unsigned int i;

	c = ecp_conn_alloc(net, t, p);
	if (!c) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_NO_MEMORY);
		return NULL;
	}
	if (!ecp_task_tryget(t)) {
		c->t = NULL;
		goto err;
	}
	c->vip = p->daddr;
	c->vport = p->dport;
	c->a_addr = p->saddr;
	c->a_port = p->sport;
	c->a_isn = p->seq;
	c->s_isn = get_random_u32();
	c->a_syn_win = p->win;
	c->a_wscale = p->wscale;
	c->a_ws = p->wscale >= 0 ? p->wscale : 0;
	c->a_win = p->win;
	c->start = jiffies;
	c->last_rx = jiffies;
	c->last_progress = jiffies;
	c->rto = ECP_RTO_MIN;
	/* The task's buffer is zero outside a connection (see finish). */
	c->dbuf.buf = t->buffer;
	c->dbuf.size = t->buffer_size + t->headroom;
	if (ecp_conn_hash_ports(c))
		goto err_put;
	timer_setup(&c->timer, ecp_conn_timer, 0);
	t->conn = c;
	ecp_conn_set_state(c, ECPROXY_CONN_HANDSHAKE);
	t->last_error = ECPROXY_ERR_NONE;
	t->last_error_source = -1;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS);
	for (i = 0; i < c->k; i++) {
		ecp_conn_send_syn(c, &c->src[i], q);
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_SYN_SENT);
	}
	mod_timer(&c->timer, jiffies + ECP_TICK);
	return c;

err_put:
	c->dead = true;
	/* Not published: free at once, minus the timer it never had. */
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++)
		if (c->src[i].hashed)
			hash_del_rcu(&c->src[i].node);
	spin_unlock_bh(&ecp_conn_hash_lock);
	ecp_task_put(t);
err:
	for (i = 0; i < c->k; i++)
		ecp_ivset_destroy(&c->src[i].iv);
	kfree_rcu(c, rcu);
	ecp_stats_drop(&t->stats, ECPROXY_DROP_NO_MEMORY);
	return NULL;
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
	if (ack_off < 0 || ack_off > snd_max || seq_off < 0 ||
	    seq_off > c->a_rcv + (1U << 30)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	if (c->state == ECPROXY_CONN_HANDSHAKE) {
		/* A's ACK of the SYN-ACK completes all k handshakes. */
		ecp_conn_set_state(c, ECPROXY_CONN_ESTABLISHED);
		c->rto = ECP_RTO_MIN;
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

		c->a_acked = ack_off;
		c->dupacks = 0;
		c->rto = ECP_RTO_MIN;
		c->last_progress = jiffies;
		ecp_dbuf_release(&c->dbuf, upto);
		for (i = 0; i < c->k; i++)
			ecp_ivset_trim(&c->src[i].iv, upto);
	} else if (ack_off == c->a_acked && !p->len && !fin &&
		   !win_changed && c->snd_nxt > c->a_acked) {
		/* Three duplicate ACKs: A lost what starts at a_acked. */
		if (++c->dupacks == 3)
			ecp_conn_resend(c, q, 1);
	}

	if (fin) {
		if (!c->a_fin) {
			c->a_fin = true;
			c->a_fin_off = seq_off + p->len;
		}
	}
	c->a_rcv = max_t(u64, c->a_rcv, seq_off + p->len + fin);

	/*
	 * Copy to every source: same sequence number, ack translated,
	 * window from EBSN.
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
	if (p->flags & TCPHDR_RST) {
		s64 off = ecp_seq_to_off(p->seq, c->a_isn + 1, c->a_rcv);

		if (off < 0 || off > c->a_rcv + 0xffff) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
			goto out;
		}
		ecp_conn_abort(c, &q, ECPROXY_ERR_CLIENT_RESET, -1, true, -1);
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

/* ---- Segments from the sources ---------------------------------------- */

void ecp_conn_source_drop(struct ecp_conn_src *s, int reason)
{
	ecp_stats_drop(&s->conn->t->stats, reason);
}

/* A source's SYN-ACK.  Task lock held. */
static void ecp_conn_source_synack(struct ecp_conn *c,
				   struct ecp_conn_src *s,
				   const struct ecp_seg *p,
				   struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	if (p->ack != c->a_isn + 1) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return;
	}
	if (s->synack) {
		/* Our ACK was lost (or is not due yet): repeat it. */
		if (c->state != ECPROXY_CONN_HANDSHAKE)
			ecp_conn_send_b(c, s, q, ecp_off_to_seq(c->a_rcv,
								c->a_isn + 1),
					TCPHDR_ACK, NULL, 0, 0);
		return;
	}
	s->synack = true;
	s->isn = p->seq;
	if (p->mss)
		s->mss = min(s->mss, p->mss);
	else
		s->mss = min_t(u16, s->mss, ECP_DEFAULT_MSS);
	/* Scaling is on only if both S (copying A) and the source offered. */
	if (c->a_wscale >= 0 && p->wscale >= 0) {
		s->ws = p->wscale;
		s->ws_out = c->a_wscale;
	}
	s->win = p->win;
	ecp_ebsn_reset(&s->ebsn, 0);

	for (i = 0; i < c->k; i++)
		if (!c->src[i].synack)
			return;
	/* Every source answered: one SYN-ACK to A. */
	c->s_ws = ECP_EBSN_MAX_WSCALE;
	for (i = 0; i < c->k; i++)
		c->s_ws = min(c->s_ws, c->src[i].ws);
	if (c->a_wscale < 0)
		c->s_ws = 0;
	c->synack_sent = true;
	c->last_progress = jiffies;
	c->rto = ECP_SYNACK_RTO;
	ecp_conn_send_synack(c, q);
}

/*
 * Data, FIN and ACK from an established source: combine, then push to A.
 * Returns false if the connection must be freed.
 */
static bool ecp_conn_source_seg(struct ecp_conn *c, struct ecp_conn_src *s,
				struct sk_buff *skb, const struct ecp_seg *p,
				struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	struct ecp_source *cfg = &t->src[s->idx];
	bool fin = p->flags & TCPHDR_FIN;
	bool ack_a = false;
	s64 off, aoff;
	u64 snd;
	s64 n;

	if (!(p->flags & TCPHDR_ACK) || (p->flags & TCPHDR_SYN)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		return true;
	}
	off = ecp_seq_to_off(p->seq, s->isn + 1, s->ref);
	aoff = ecp_seq_to_off(p->ack, c->a_isn + 1, s->acked);
	if (off < 0 || aoff < 0 || aoff > c->a_rcv ||
	    off + p->len > ecp_dbuf_limit(&c->dbuf) + (1ULL << 30)) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_OUT_OF_WINDOW);
		return true;
	}
	if ((u64)aoff > s->acked) {
		u64 before = ecp_conn_acked_a(c);

		s->acked = aoff;
		ack_a = ecp_conn_acked_a(c) > before;
	}
	s->win = (u32)p->win << s->ws;

	if (p->len) {
		atomic64_inc(&cfg->stats.segs_in);
		n = ecp_dbuf_apply_skb(&c->dbuf, &s->iv, &cfg->gf, off, skb,
				       p->dataoff, p->len);
		if (n == -ENOBUFS || n == -ENOSPC) {
			/* The source retransmits it; count and drop. */
			ecp_stats_inc(&t->stats, ECP_STAT_OVERFLOW);
			return true;
		}
		if (n < 0) {
			ecp_stats_drop(&t->stats, ECPROXY_DROP_TRUNCATED);
			return true;
		}
		atomic64_add(n, &cfg->stats.bytes_in);
		if (n)
			ecp_stats_inc(&t->stats, ECP_STAT_SEGS_APPLIED);
		if (n < p->len) {
			atomic64_add(p->len - n, &cfg->stats.dup_bytes);
			ecp_stats_inc(&t->stats, ECP_STAT_DUPS_SKIPPED);
		}
		s->ref = max_t(u64, s->ref, off + p->len);
	}
	if (fin && !s->fin) {
		s->fin = true;
		s->fin_off = off + p->len;
		WRITE_ONCE(cfg->state, ECPROXY_SOURCE_FIN_RECEIVED);
	}
	snd = c->snd_nxt + c->fin_sent;
	if (!ecp_conn_push(c, q))
		return false;
	/*
	 * Segments to A carry the ack of A's bytes.  If none went (the
	 * sources wait for the rest of A's request, or for its FIN), A must
	 * still learn that every source has them, or it retransmits them for
	 * ever and never sends the rest.
	 */
	if (ack_a && c->snd_nxt + c->fin_sent == snd)
		ecp_conn_send_ack_a(c, q);
	ecp_conn_check_done(c);
	return true;
}

void ecp_conn_rcv_source(struct net *net, struct ecp_conn_src *s,
			 struct sk_buff *skb, const struct ecp_seg *p)
{
	struct ecp_conn *c = s->conn, *to_free = NULL;
	struct ecp_task *t = c->t;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead)
		goto out;
	c->last_rx = jiffies;
	if (p->flags & TCPHDR_RST) {
		/* Refused in the handshake, or reset later. */
		if (!s->synack) {
			if (!(p->flags & TCPHDR_ACK) || p->ack != c->a_isn + 1) {
				ecp_stats_drop(&t->stats,
					       ECPROXY_DROP_OUT_OF_WINDOW);
				goto out;
			}
			ecp_conn_abort(c, &q, ECPROXY_ERR_SOURCE_REFUSED,
				       s->idx, false, s->idx);
		} else {
			s64 off = ecp_seq_to_off(p->seq, s->isn + 1, s->ref);

			if (off < 0 || off > s->ref + (1U << 30)) {
				ecp_stats_drop(&t->stats,
					       ECPROXY_DROP_OUT_OF_WINDOW);
				goto out;
			}
			ecp_conn_abort(c, &q, ECPROXY_ERR_SOURCE_RESET,
				       s->idx, false, s->idx);
		}
		to_free = c;
		goto out;
	}
	if ((p->flags & (TCPHDR_SYN | TCPHDR_ACK)) ==
	    (TCPHDR_SYN | TCPHDR_ACK)) {
		ecp_conn_source_synack(c, s, p, &q);
		goto out;
	}
	if (!s->synack || c->state == ECPROXY_CONN_HANDSHAKE) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_BAD_FLAGS);
		goto out;
	}
	if (!ecp_conn_source_seg(c, s, skb, p, &q))
		to_free = c;
out:
	spin_unlock_bh(&t->lock);
	ecp_xmit_queue(net, &q);
	if (to_free)
		ecp_conn_free(to_free);
}

/* ---- Timer and teardown ---------------------------------------------- */

static void ecp_conn_timer(struct timer_list *timer)
{
	struct ecp_conn *c = from_timer(c, timer, timer);
	struct ecp_task *t = c->t;
	unsigned long now = jiffies;
	struct sk_buff_head q;
	bool free = false;
	unsigned int i;
	int err_src = -1;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead) {
		spin_unlock_bh(&t->lock);
		return;
	}
	switch (c->state) {
	case ECPROXY_CONN_HANDSHAKE:
		if (time_before(now, c->start +
				msecs_to_jiffies(t->handshake_ms))) {
			/*
			 * A established on our SYN-ACK; if its ACK was lost
			 * it will not send another until we repeat ours.
			 */
			if (c->synack_sent &&
			    time_after_eq(now, c->last_progress + c->rto)) {
				ecp_conn_send_synack(c, &q);
				c->rto = min_t(unsigned long, c->rto * 2,
					       ECP_RTO_MAX);
				c->last_progress = now;
			}
			break;
		}
		for (i = 0; i < c->k && err_src < 0; i++)
			if (!c->src[i].synack)
				err_src = i;
		ecp_conn_abort(c, &q, ECPROXY_ERR_HANDSHAKE_TIMEOUT, err_src,
			       false, -1);
		free = true;
		break;
	case ECPROXY_CONN_LINGER:
		if (time_before(now, c->linger_start +
				msecs_to_jiffies(t->linger_ms)))
			break;
		ecp_conn_finish(c);
		free = true;
		break;
	default:
		if (time_after_eq(now, c->last_rx +
				  msecs_to_jiffies(t->idle_ms))) {
			ecp_conn_abort(c, &q, ECPROXY_ERR_IDLE_TIMEOUT, -1,
				       false, -1);
			free = true;
			break;
		}
		if ((c->snd_nxt + c->fin_sent > c->a_acked) &&
		    time_after_eq(now, c->last_progress + c->rto)) {
			ecp_conn_resend(c, &q, ECP_RTO_SEGS);
			c->rto = min_t(unsigned long, c->rto * 2, ECP_RTO_MAX);
			c->last_progress = now;
		}
		break;
	}
	if (!free)
		mod_timer(&c->timer, now + ECP_TICK);
	spin_unlock_bh(&t->lock);
	ecp_xmit_queue(c->net, &q);
	if (free)
		ecp_conn_free(c);
}

void ecp_conn_kill(struct ecp_task *t)
{
	struct sk_buff_head q;
	struct ecp_conn *c;

	might_sleep();
	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	c = t->conn;
	if (c) {
		if (c->state == ECPROXY_CONN_LINGER)
			ecp_conn_finish(c);
		else
			ecp_conn_abort(c, &q, ECPROXY_ERR_TASK_DELETED, -1,
				       false, -1);
	}
	spin_unlock_bh(&t->lock);
	if (!c)
		return;
	ecp_xmit_queue(c->net, &q);
	/* The callback sees dead and does not re-arm. */
	del_timer_sync(&c->timer);
	ecp_conn_free(c);
}
