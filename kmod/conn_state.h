/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The connection state shared by the data path's files, which a packet
 * meets in this order: conn_rcv_client.c and conn_rcv_src.c (segments
 * from the client and from the sources), conn.c (lifetime: ports,
 * set-up, timer, teardown) and conn_send.c (the segments S originates,
 * pushing complete bytes to the client).  See conn.h for the sequence
 * spaces and the locking rules: every function here expects the task's
 * lock held unless it says otherwise.
 */
#ifndef _ECP_CONN_STATE_H
#define _ECP_CONN_STATE_H

#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/types.h>

#include "cc.h"
#include "conn.h"
#include "dbuf.h"
#include "ebsn.h"
#include "ivset.h"
#include "rtt.h"
#include "seq.h"

#define ECP_TICK	(HZ / 20)
/* First repetition of the SYN-ACK to the client (RFC 6298 §2.1: 1 s). */
#define ECP_SYNACK_RTO	HZ
/* Longest interval between probes of a zero window (TCP: 120 s). */
#define ECP_PERSIST_MAX	(60 * HZ)
/* Segments re-sent when the RTO fires. */
#define ECP_RTO_SEGS	4
/* MSS assumed when a SYN carries none (RFC 9293 §3.7.1). */
#define ECP_DEFAULT_MSS	536

/*
 * A source: a server S connects to from the VIP and reads a fragment from.
 * S receives its stream (into the decode buffer) and sends it the
 * client's bytes, its own ACKs and EBSN windows.
 */
struct ecp_conn_src {
	struct hlist_node node;		/* ecp_conn_hash, RCU */
	struct ecp_conn *conn;
	unsigned int idx;
	__be16 lport;			/* S's port towards this source */
	bool hashed;
	bool synack;			/* its SYN-ACK arrived */
	bool fin;
	bool gone;			/* reset after its FIN was acked */
	u8 stale_resets;		/* its TIME-WAIT ACKs answered */
	u8 ws;				/* shift of the windows it sends */
	u8 ws_out;			/* shift of the windows S sends it */
	u16 mss;
	u32 isn;
	u32 win;			/* its window, bytes */
	u64 acked;			/* client-stream offset it acked */
	u64 fin_off;			/* stream length, if fin */
	u64 ref;			/* highest offset seen */
	unsigned long last_rx;		/* jiffies of its last segment */
	u32 last_ack;			/* fields of the last ACK S sent it */
	u16 last_win;
	u64 last_ack_off;		/* last_ack as an offset */
	struct ecp_ivset iv;
	struct ecp_ebsn_src ebsn;
};

/*
 * The client: the peer that connected to VIP:port.  S sends it the
 * rebuilt stream (from its own ISN, iss) and forwards its bytes to every
 * source (with the client's own sequence numbers, isn).
 */
struct ecp_conn_client {
	__be32 addr;
	__be16 port;
	bool synack_sent;		/* S sent its SYN-ACK */
	bool fin_sent;			/* S sent its FIN */
	bool fin;			/* the client sent its FIN */
	u32 isn;			/* its ISN */
	u32 iss;			/* S's ISN towards it */
	u16 syn_win;			/* its SYN's window, for the SYNs */
	s8 wscale;			/* its shift, -1 if not offered */
	u8 ws;				/* shift of the windows it sends */
	u8 ws_out;			/* shift of the windows S sends it */
	u16 mss;			/* largest segment S sends it */
	u32 win;			/* its window, bytes */
	u64 acked;			/* S-stream offset it acked */
	u64 snd_nxt;			/* S-stream bytes sent to it */
	u64 rcv_nxt;			/* client-stream offset after its end */
	u64 fin_off;			/* client-stream length, if fin */
	unsigned long last_rx;		/* jiffies of its last segment */
	unsigned long last_progress;	/* last time its ack moved */
	unsigned long rto;
	struct ecp_cc cc;
	struct ecp_rtt rtt;		/* round trips to it, for rto */
};

struct ecp_conn {
	struct ecp_task *t;		/* holds a reference */
	struct net *net;
	struct rcu_head rcu;
	struct timer_list timer;
	bool dead;
	u8 state;			/* enum ecproxy_conn_state */
	__be32 vip;
	__be16 vport;
	u16 src_mss;			/* largest all source paths take */
	unsigned long start;
	unsigned long last_rx;		/* from any side */
	unsigned long linger_start;
	struct ecp_conn_client client;
	struct ecp_dbuf dbuf;
	unsigned int k;
	struct ecp_conn_src src[];
};

/*
 * The offset S acks to source s: everything it has contributed without a gap
 * (its FIN too, once every byte before it is in).  S acks each source as a
 * receiver would, not with the client's ack: with the client's ack, a source
 * whose retransmission arrived saw no ack for it as long as another source's
 * hole held the client back, timed out again and again, and, its RTT samples
 * refused after retransmissions (Karn), backed its RTO off to tens of seconds.
 * How far a source may run is still bounded by the client's ack, through the
 * EBSN window (ecp_conn_src_win()).
 */
static inline u64 ecp_conn_src_ack_off(const struct ecp_conn_src *s)
{
	u64 low = ecp_ivset_low(&s->iv);

	return low + (s->fin && low == s->fin_off);
}

static inline u32 ecp_conn_src_ack_seq(const struct ecp_conn_src *s)
{
	return ecp_off_to_seq(ecp_conn_src_ack_off(s), s->isn + 1);
}

/*
 * The window-scale shift S announces to the sources: the smallest that
 * lets a 16-bit window cover the buffer, since EBSN never offers a source
 * more.  The client's shift (up to 14) would round the window of a small
 * buffer down to zero for ever.
 */
static inline u8 ecp_conn_src_wscale(u32 buffer_size)
{
	return clamp_t(int, fls(buffer_size) - 16, 0, ECP_EBSN_MAX_WSCALE);
}

/* Everything S sent the client, its FIN included (snd_max). */
static inline u64 ecp_conn_client_snd_max(const struct ecp_conn_client *cl)
{
	return cl->snd_nxt + cl->fin_sent;
}

/* The sequence number of offset @off of the stream S sends the client. */
static inline u32 ecp_conn_client_seq(const struct ecp_conn_client *cl,
				      u64 off)
{
	return ecp_off_to_seq(off, cl->iss + 1);
}

/*
 * The sequence number of S's own segments to the sources: the client's next
 * byte.
 */
static inline u32 ecp_conn_src_seq(const struct ecp_conn *c)
{
	return ecp_off_to_seq(c->client.rcv_nxt, c->client.isn + 1);
}

/*
 * Is s's connection closed both ways: its FIN acked by S, the client's FIN
 * acked by s?  Its socket may then be gone, and anything more S sent it would
 * come back as a RST.
 */
static inline bool ecp_conn_src_closed(const struct ecp_conn *c,
				       const struct ecp_conn_src *s)
{
	return s->gone || (s->fin && s->last_ack_off > s->fin_off &&
			   c->client.fin && s->acked > c->client.fin_off);
}

/*
 * Has S acked s's FIN?  s has nothing more to send then, and its socket,
 * in FIN-WAIT-2, may vanish after tcp_fin_timeout (60 s on Linux) while
 * the others still send.
 */
static inline bool ecp_conn_src_fin_acked(const struct ecp_conn_src *s)
{
	return s->fin && s->last_ack_off > s->fin_off;
}

/*
 * Has s sent past a hole, and was the last ACK it got for the hole?  Then
 * a duplicate of that ACK tells it so (RFC 5681 §4.2).
 */
static inline bool ecp_conn_src_holed(const struct ecp_conn_src *s)
{
	return ecp_ivset_count(&s->iv) &&
	       s->last_ack == ecp_conn_src_ack_seq(s);
}

/* ---- conn.c ------------------------------------------------------------ */

/* The client's SYN to an idle task: start the k handshakes. */
struct ecp_conn *ecp_conn_start(struct net *net, struct ecp_task *t,
				const struct ecp_seg *p,
				struct sk_buff_head *q);
void ecp_conn_set_state(struct ecp_conn *c, u8 state);
/*
 * The MSS of the route from @saddr to @daddr, in [48, ECP_GSO_MAX], or 0
 * if there is none.
 */
u16 ecp_conn_path_mss(struct net *net, __be32 saddr, __be32 daddr);
/* Detach c from its task; the caller frees it after unlocking. */
void ecp_conn_finish(struct ecp_conn *c);
/* After teardown (dead set, task->conn cleared), unlocked, not in hardirq. */
void ecp_conn_free(struct ecp_conn *c);
/*
 * The end of every path that handled a segment or a tick under the task's
 * lock: unlock, send what it queued (never under the lock, see xmit.h)
 * and free @to_free, the connection it tore down (NULL if none).
 */
void ecp_conn_unlock_send(struct ecp_task *t, struct net *net,
			  struct sk_buff_head *q, struct ecp_conn *to_free)
	__releases(&t->lock);

/* ---- conn_send.c ------------------------------------------------------- */

/* A RST answering @p, which belongs to no connection. */
void ecp_conn_send_rst_reply(const struct ecp_seg *p, struct sk_buff_head *q);
void ecp_conn_send_syn_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q);
void ecp_conn_send_synack_client(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * A segment to source s carrying the client's sequence number @seq, flags and
 * payload [off, off + len) of the client's skb (may be NULL for a pure ACK).
 */
void ecp_conn_send_src(struct ecp_conn *c, struct ecp_conn_src *s,
		       struct sk_buff_head *q, u32 seq, u8 flags,
		       const struct sk_buff *skb, unsigned int off,
		       unsigned int len);
/* The client's segment @p to source s, cut to s's MSS. */
void ecp_conn_send_copy_src(struct ecp_conn *c, struct ecp_conn_src *s,
			    struct sk_buff_head *q, const struct sk_buff *skb,
			    const struct ecp_seg *p);
/*
 * What every source has acknowledged of the client's bytes (an client-stream
 * offset).
 */
u64 ecp_conn_client_ack_off(const struct ecp_conn *c);
/*
 * A probe of the client's zero window (the persist timer): an ACK with
 * the sequence number before what it acknowledged, which it answers with
 * its current window (tcp_xmit_probe_skb()).
 */
void ecp_conn_send_probe_client(struct ecp_conn *c, struct sk_buff_head *q);
/* A pure ACK to the client, for its bytes every source now has. */
void ecp_conn_send_ack_client(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * Ack what source s contributed: if @now, whenever there is something new
 * to ack, else once two segments' worth is unacked (delayed ACK; the
 * connection's timer acks the rest).
 */
void ecp_conn_send_ack_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q, bool now);
/* An ACK to s now, new or not (s asked for it). */
void ecp_conn_send_ack_src_always(struct ecp_conn *c, struct ecp_conn_src *s,
				  struct sk_buff_head *q);
/* @n duplicate ACKs to a source with a hole, see conn_send.c. */
void ecp_conn_send_prompt_src(struct ecp_conn *c, struct ecp_conn_src *s,
			      struct sk_buff_head *q, unsigned int n);
/*
 * Reset every side, record why and detach.  @skip_client / @skip_src: the side
 * that reset us needs no RST back (-1 for none).  Caller frees c.
 */
void ecp_conn_abort(struct ecp_conn *c, struct sk_buff_head *q,
		    u8 err, int err_src, bool skip_client, int skip_src);
/* Resend up to @segs segments from the client's acknowledged offset. */
void ecp_conn_resend_client(struct ecp_conn *c, struct sk_buff_head *q,
			    unsigned int segs);
/*
 * Send the client the complete bytes it has not seen, within its window, then
 * the FIN once every source has finished at the same length.  Returns false if
 * the connection was aborted (lengths differ).
 */
bool ecp_conn_push_client(struct ecp_conn *c, struct sk_buff_head *q);
/* Everything is closed and acknowledged both ways: linger. */
void ecp_conn_check_done(struct ecp_conn *c);

#endif
