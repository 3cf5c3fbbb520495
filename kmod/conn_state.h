/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The connection state shared by the data path's files, which are split by
 * concern: conn.c (lifetime: ports, set-up, timer, teardown), conn_out.c
 * (the segments S originates, pushing complete bytes to A), conn_client.c
 * (segments from A) and conn_source.c (segments from the sources).  See
 * conn.h for the sequence spaces and the locking rules: every function
 * here expects the task's lock held unless it says otherwise.
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
	bool gone;			/* reset after its FIN was acked */
	u8 ws;				/* shift of the windows it sends */
	u8 ws_out;			/* shift of the windows S sends it */
	u16 mss;
	u32 isn;
	u32 win;			/* its window, bytes */
	u64 acked;			/* offset of A's stream it acked */
	u64 fin_off;			/* stream length, if fin */
	u64 ref;			/* highest offset seen */
	unsigned long last_rx;		/* jiffies of its last segment */
	u32 last_ack;			/* fields of the last ACK S sent it */
	u16 last_win;
	u64 last_ack_off;		/* last_ack as an offset */
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
	u64 recover;			/* snd_nxt when loss recovery began */
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
	unsigned long last_rx;		/* from any side */
	unsigned long a_last_rx;	/* from A */
	unsigned long last_progress;	/* last time A's ack moved */
	unsigned long linger_start;
	unsigned long rto;
	struct ecp_cc cc;		/* towards A */
	struct ecp_rtt rtt;		/* round trips to A, for rto */
	struct ecp_dbuf dbuf;
	unsigned int k;
	struct ecp_conn_src src[];
};

/*
 * The offset S acks to source s: everything it has contributed without a
 * gap (its FIN too, once every byte before it is in).  S acks each source
 * as a receiver would, not with A's ack: with A's ack, a source whose
 * retransmission arrived saw no ack for it as long as another source's
 * hole held A back, timed out again and again, and, its RTT samples
 * refused after retransmissions (Karn), backed its RTO off to tens of
 * seconds.  How far a source may run is still bounded by A's ack, through
 * the EBSN window (ecp_conn_win_b()).
 */
static inline u64 ecp_conn_ack_off_b(const struct ecp_conn_src *s)
{
	u64 low = ecp_ivset_low(&s->iv);

	return low + (s->fin && low == s->fin_off);
}

static inline u32 ecp_conn_ack_b(const struct ecp_conn_src *s)
{
	return ecp_off_to_seq(ecp_conn_ack_off_b(s), s->isn + 1);
}

/* The sequence number of S's own segments to the sources: A's next byte. */
static inline u32 ecp_conn_seq_b(const struct ecp_conn *c)
{
	return ecp_off_to_seq(c->a_rcv, c->a_isn + 1);
}

/*
 * Is s's connection closed both ways: its FIN acked by S, A's FIN acked
 * by s?  Its socket may then be gone, and anything more S sent it would
 * come back as a RST.
 */
static inline bool ecp_conn_src_closed(const struct ecp_conn *c,
				       const struct ecp_conn_src *s)
{
	return s->gone || (s->fin && s->last_ack_off > s->fin_off &&
			   c->a_fin && s->acked > c->a_fin_off);
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
	return ecp_ivset_count(&s->iv) && s->last_ack == ecp_conn_ack_b(s);
}

/* ---- conn.c ------------------------------------------------------------ */

/* A's SYN to an idle task: start the k handshakes. */
struct ecp_conn *ecp_conn_start(struct net *net, struct ecp_task *t,
				const struct ecp_seg *p, struct sk_buff_head *q);
void ecp_conn_set_state(struct ecp_conn *c, u8 state);
/* Detach c from its task; the caller frees it after unlocking. */
void ecp_conn_finish(struct ecp_conn *c);
/* After teardown (dead set, task->conn cleared), unlocked, not in hardirq. */
void ecp_conn_free(struct ecp_conn *c);

/* ---- conn_out.c -------------------------------------------------------- */

void ecp_conn_send_syn(struct ecp_conn *c, struct ecp_conn_src *s,
		       struct sk_buff_head *q);
void ecp_conn_send_synack(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * A segment to source s carrying A's sequence number @seq, flags and
 * payload [off, off + len) of A's skb (may be NULL for a pure ACK).
 */
void ecp_conn_send_b(struct ecp_conn *c, struct ecp_conn_src *s,
		     struct sk_buff_head *q, u32 seq, u8 flags,
		     const struct sk_buff *skb, unsigned int off,
		     unsigned int len);
/* A's segment @p to source s, cut to s's MSS. */
void ecp_conn_copy_b(struct ecp_conn *c, struct ecp_conn_src *s,
		     struct sk_buff_head *q, const struct sk_buff *skb,
		     const struct ecp_seg *p);
/* What every source has acknowledged of A's bytes (an A-stream offset). */
u64 ecp_conn_acked_a(const struct ecp_conn *c);
/* A pure ACK to A, for its bytes every source now has. */
void ecp_conn_send_ack_a(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * Ack what source s contributed: if @now, whenever there is something new
 * to ack, else once two segments' worth is unacked (delayed ACK; the
 * connection's timer acks the rest).
 */
void ecp_conn_ack_src(struct ecp_conn *c, struct ecp_conn_src *s,
		      struct sk_buff_head *q, bool now);
/* An ACK to s now, new or not (s asked for it). */
void ecp_conn_ack_src_now(struct ecp_conn *c, struct ecp_conn_src *s,
			  struct sk_buff_head *q);
/* @n duplicate ACKs to a source with a hole, see conn_out.c. */
void ecp_conn_prompt(struct ecp_conn *c, struct ecp_conn_src *s,
		     struct sk_buff_head *q, unsigned int n);
/*
 * Reset every side, record why and detach.  @skip_a / @skip_src: the side
 * that reset us needs no RST back (-1 for none).  Caller frees c.
 */
void ecp_conn_abort(struct ecp_conn *c, struct sk_buff_head *q,
		    u8 err, int err_src, bool skip_a, int skip_src);
/* Resend up to @segs segments from A's acknowledged offset. */
void ecp_conn_resend(struct ecp_conn *c, struct sk_buff_head *q,
		     unsigned int segs);
/*
 * Send A the complete bytes it has not seen, within its window, then the
 * FIN once every source has finished at the same length.  Returns false
 * if the connection was aborted (lengths differ).
 */
bool ecp_conn_push(struct ecp_conn *c, struct sk_buff_head *q);
/* Everything is closed and acknowledged both ways: linger. */
void ecp_conn_check_done(struct ecp_conn *c);

#endif
