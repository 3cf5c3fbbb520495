/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The connection state shared by the data path's files, which a packet
 * meets in this order: conn_rcv_client.c, conn_rcv_writer.c,
 * conn_rcv_src.c and conn_rcv_tgt.c (segments from the client, the
 * writer, the sources and the targets), conn_out.c (what an output's
 * ACKs and timers do), conn_rows.c (the rows: what the sources' bytes
 * add, what is complete, where an output's bytes are), conn.c
 * (lifetime: ports, set-up, timer, teardown) and conn_send.c (the
 * segments S originates).  See conn.h for the sequence spaces and the
 * locking rules: every function here expects the task's lock held unless
 * it says otherwise.
 *
 * The roles: k sources (S connects to them and reads a fragment from
 * each), rows (the GF(2^8) sums of the sources' streams, one ring each),
 * and outputs (the peers S sends rows to: the client that connected to
 * VIP:port, or one target per row that S connects to).  The client's own
 * bytes, if any, are the request stream, which S forwards to every
 * source.  A write (ECPROXY_MODE_WRITE) has a writer instead of a client
 * and of sources: the writer connected to VIP:port and sends the block,
 * and its k data fragments stand in for the sources (no peers: what the
 * writer sends of fragment i is applied as source i's bytes would be,
 * conn_rcv_writer.c); the outputs are one target per fragment.
 */
#ifndef _ECP_CONN_STATE_H
#define _ECP_CONN_STATE_H

#include <linux/hrtimer.h>
#include <linux/skbuff.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/ecproxy.h>
#include <net/tcp.h>

#include "cc.h"
#include "conn.h"
#include "dbuf.h"
#include "ebsn.h"
#include "ivset.h"
#include "pace.h"
#include "rtt.h"
#include "sack.h"
#include "seq.h"
#include "ts.h"
#include "xmit.h"

#define ECP_TICK	(HZ / 20)
/*
 * Most bytes one push puts on the wire to one output, re-sent and new:
 * an ACK that opens a wide window (a recovery's end, a window update)
 * must not make one softirq copy megabytes, nor put them in one burst on
 * the output's queue.  The rest goes on the ACKs that this much brings
 * back.  Linux's tcp_limit_output_bytes is the same size.
 */
#define ECP_PUSH_MAX	(16 * ECP_GSO_MAX)
/* First repetition of a SYN-ACK or SYN (RFC 6298 §2.1: 1 s). */
#define ECP_SYNACK_RTO	HZ
/* Longest interval between probes of a zero window (TCP: 120 s). */
#define ECP_PERSIST_MAX	(60 * HZ)
/* Seconds the measured rate spans while a connection runs. */
#define ECP_MEASURE_SLOTS	4
/* MSS assumed when a SYN carries none (RFC 9293 §3.7.1). */
#define ECP_DEFAULT_MSS	536

/* A peer S connects to from the VIP: a source or a target. */
enum {
	ECP_PEER_SRC,
	ECP_PEER_TGT,
};

/* What finds a source's or a target's segments: its port on the VIP. */
struct ecp_conn_peer {
	struct hlist_node node;		/* ecp_conn_hash, RCU */
	struct ecp_conn *conn;
	__be32 addr;
	__be16 port;
	__be16 lport;			/* S's port towards it */
	u8 role;			/* ECP_PEER_* */
	u8 idx;				/* source or target index */
	bool hashed;
	u8 syns;			/* SYNs S sent it */
	u8 stale_resets;		/* its TIME-WAIT ACKs answered */
	unsigned long syn_at;		/* jiffies of the last one */
	unsigned long oow_at;		/* S's last ACK to a PAWS drop */
};

/*
 * A source: a server S connects to from the VIP and reads a fragment
 * from.  S receives its stream (into the rings of the rows it feeds) and
 * sends it the client's bytes, its own ACKs and EBSN windows.
 */
struct ecp_conn_src {
	struct ecp_conn_peer peer;
	bool synack;			/* its SYN-ACK arrived */
	bool fin;
	bool gone;			/* reset: S sends it nothing more */
	bool lost;			/* failed, a spare in its place */
	u8 ws;				/* shift of the windows it sends */
	u8 ws_out;			/* shift of the windows S sends it */
	bool sack_ok;			/* it answered S's SACK-permitted */
	bool ecn_ok;			/* ECN set up (RFC 3168) */
	bool ece;			/* S echoes a mark until its CWR */
	u16 mss;			/* largest payload S sends it */
	u32 isn;
	u32 win;			/* its window, bytes */
	u32 wl1;			/* seq of the ACK win came from */
	u64 len;			/* its exact length, or U64_MAX */
	u64 acked;			/* request-stream offset it acked */
	u64 fin_off;			/* stream length, if fin */
	u64 ref;			/* highest offset seen */
	u64 recent;			/* its last segment past a hole */
	struct ecp_iv dsack;		/* bytes it sent twice, for S's
					 * next ACK; end 0: none
					 */
	unsigned long last_rx;		/* jiffies of its last segment */
	u32 last_ack;			/* fields of the last ACK S sent it */
	u16 last_win;
	u64 last_ack_off;		/* last_ack as an offset */
	struct ecp_ts ts;
	struct ecp_ivset iv;
	struct ecp_ebsn_src ebsn;
};

/*
 * An output: a peer S sends a stream of rebuilt bytes to, from its own
 * ISN (iss): the client (which reads row 0, or the block in logical
 * order), or a target (which stores one row).
 */
struct ecp_conn_out {
	struct ecp_conn_peer peer;	/* a target's; the client's address */
	bool synack;			/* target: its SYN-ACK arrived */
	bool synack_sent;		/* client: S sent its SYN-ACK */
	bool fin_sent;			/* S sent its FIN */
	bool fin;			/* target: it sent its FIN */
	bool done;			/* every byte and the FIN acked */
	u32 iss;			/* S's ISN towards it */
	u32 irs;			/* target: its ISN */
	u8 ws;				/* shift of the windows it sends */
	u8 ws_out;			/* shift of the windows S sends it */
	bool sack_ok;			/* both offered SACK (RFC 2018) */
	bool ecn_ok;			/* ECN set up (RFC 3168) */
	bool cwr;			/* CWR on the next new data */
	bool ece;			/* writer: S echoes a mark until CWR */
	u16 mss;			/* largest payload S sends it */
	u16 gso_segs;			/* its device's GSO limits ... */
	u32 gso_bytes;			/* ... (ecp_route_caps()) */
	u32 win;			/* its window, bytes */
	u32 wl1;			/* seq of the ACK win came from */
	u64 acked;			/* output-stream offset it acked */
	u64 snd_nxt;			/* output-stream bytes sent to it */
	unsigned long last_rx;		/* jiffies of its last segment */
	unsigned long last_progress;	/* last time its ack moved */
	unsigned long last_sent;	/* last time S sent it data */
	unsigned long rto;
	u64 probe_start;		/* the tail loss probe in flight, */
	u64 probe_end;			/* [start, end); end 0: none */
	u64 round_us;			/* a recovery's round of re-sending began */
	u64 resent_nxt;			/* snd_nxt when the last copy went */
	u64 reo_us;			/* a copy is lost then (RACK); 0: none */
	struct ecp_cc cc;
	struct ecp_pace pace;		/* when its next segment may leave */
	struct ecp_rtt rtt;		/* round trips to it, for rto */
	struct ecp_ts ts;
	struct ecp_sack sack;		/* what it holds beyond acked */
};

/*
 * The request stream: the client's bytes, forwarded to every source with
 * the client's own sequence numbers.  With targets there is no client: S
 * picks the ISN and closes the stream at once.  A writer's stream is the
 * block: rcv_nxt is where its first missing byte is, fin is set once
 * every byte before its FIN is in.
 */
struct ecp_conn_client {
	u32 isn;			/* its ISN */
	u16 syn_win;			/* its SYN's window, for the SYNs */
	s8 wscale;			/* its shift, -1 if not offered */
	bool fin;			/* the stream is closed */
	bool fin_seen;			/* writer: its FIN arrived, at fin_off */
	u64 rcv_nxt;			/* stream offset after its end */
	u64 fin_off;			/* stream length, if fin */
	unsigned long fin_at;		/* no client: S last sent its FIN */
	u64 edge;			/* the right edge S offered it */
	u64 ack_sent;			/* writer: the last ack S sent it */
	u64 recent;			/* writer: its last segment past a hole */
	struct ecp_iv dsack;		/* writer: as a source's */
	/*
	 * Writer: what S holds of its stream, for its SACK blocks; the
	 * data fragments' sets (src[i].iv) hold the same bytes by fragment.
	 */
	struct ecp_ivset iv;
};

/* A row's ring of partial sums. */
struct ecp_conn_row {
	struct ecp_dbuf dbuf;
	u64 len;			/* exact length, or U64_MAX */
};

struct ecp_conn {
	struct ecp_task *t;		/* holds a reference */
	struct net *net;
	struct rcu_head rcu;
	struct timer_list timer;
	/* Sends what pacing held back (pace.h), soft: it takes t->lock. */
	struct hrtimer pace_timer;
	u64 pace_at;			/* when it is armed for; 0: not armed */
	/*
	 * Sends the sources' delayed ACKs (ecp_conn_send_ack_src_later()),
	 * soft: it takes t->lock.
	 */
	struct hrtimer ack_timer;
	/* ecp_conn_free() of a connection the pacing timer tore down. */
	struct work_struct free_work;
	bool dead;
	u8 state;			/* enum ecproxy_conn_state */
	u8 mode;			/* enum ecproxy_task_mode, the task's */
	__be32 vip;
	__be16 vport;
	u16 src_mss;			/* largest all source paths take */
	bool ts_offer;			/* S offers timestamps (tcp_timestamps) */
	unsigned long start;
	unsigned long synack_at;	/* S's first SYN-ACK to the caller */
	/* The slowest answer to a first SYN, jiffies, if syn_timed */
	unsigned long syn_rtt;
	bool syn_timed;
	unsigned long last_rx;		/* from any side */
	unsigned long linger_start;
	unsigned int home;		/* its CPU (steer.h) */
	u64 tokens;			/* rate cap: bytes S may send now */
	u64 tokens_ns;			/* of the last refill, monotonic */
	u64 bytes_out;			/* to every output, each byte once */
	/* The last samples of bytes_out, a second apart (ecp_conn_measure()) */
	u64 measured_bytes[ECP_MEASURE_SLOTS];
	unsigned long measured_at[ECP_MEASURE_SLOTS];
	u8 measured_slot;		/* the oldest sample */
	struct ecp_conn_client client;
	/* WRITE: the writer's end (it sends the block, S only acks and FINs) */
	struct ecp_conn_out w;
	unsigned int k, nrow, nout;
	/* nrow, after src[], then the nspare check rows (ecp_conn_check()) */
	struct ecp_conn_row *row;
	unsigned int nspare;		/* the last nspare sources */
	/*
	 * With spares: every row is final below it, the spares having stood
	 * in where sources were missing (ecp_conn_spare_fix()).
	 */
	u64 fixed;
	struct ecp_conn_out *out;	/* nout, after row[] */
	struct ecp_conn_src src[];
};

static inline struct ecp_conn_src *ecp_conn_peer_src(struct ecp_conn_peer *p)
{
	return container_of(p, struct ecp_conn_src, peer);
}

static inline struct ecp_conn_out *ecp_conn_peer_out(struct ecp_conn_peer *p)
{
	return container_of(p, struct ecp_conn_out, peer);
}

/* Spare @q's check row (task.h), after the rows. */
static inline struct ecp_conn_row *ecp_conn_check(const struct ecp_conn *c,
						  unsigned int q)
{
	return &c->row[c->nrow + q];
}

/* Has the connection a client (PULL, READ), which is then out[0]? */
static inline bool ecp_conn_has_client(const struct ecp_conn *c)
{
	return c->mode == ECPROXY_MODE_PULL || c->mode == ECPROXY_MODE_READ;
}

/* Has it a writer (WRITE), which is then c->w, and no sources? */
static inline bool ecp_conn_has_writer(const struct ecp_conn *c)
{
	return c->mode == ECPROXY_MODE_WRITE;
}

/* Are its outputs targets, one per row (DEST, WRITE)? */
static inline bool ecp_conn_has_targets(const struct ecp_conn *c)
{
	return c->mode == ECPROXY_MODE_DEST || c->mode == ECPROXY_MODE_WRITE;
}

/* Are its sources peers S connects to (all but WRITE)? */
static inline bool ecp_conn_has_sources(const struct ecp_conn *c)
{
	return c->mode != ECPROXY_MODE_WRITE;
}

/*
 * Whether S's SYN to peer @p asks for ECN (RFC 3168 §6.1.1), as Linux asks
 * on its own connections: when S's namespace has tcp_ecn 1 (the default,
 * 2, only takes ECN when asked), and in the first SYN only where
 * tcp_ecn_fallback is on (the default): a repeat goes without, in case a
 * middlebox drops ECN-setup SYNs (tcp_ecn_clear_syn()).
 */
static inline bool ecp_conn_ecn_ask(const struct ecp_conn *c,
				    const struct ecp_conn_peer *p)
{
	return READ_ONCE(c->net->ipv4.sysctl_tcp_ecn) == 1 &&
	       (!p->syns || !READ_ONCE(c->net->ipv4.sysctl_tcp_ecn_fallback));
}

/* An ECN-setup SYN-ACK (RFC 3168 §6.1.1): ECE without CWR. */
static inline bool ecp_conn_ecn_answered(const struct ecp_seg *p)
{
	return (p->h.flags & (TCPHDR_ECE | TCPHDR_CWR)) == TCPHDR_ECE;
}

/*
 * S as the receiver of a sender (a source, the writer) that sent
 * [@off, @off + @len) again: the first run of it that S holds already
 * (in @held, its record of the sender's stream), as the D-SACK block of
 * its next ACK (RFC 2883).  The sender's stack then learns that it
 * re-sent for nothing and undoes the window it cut for that loss
 * (tcp_check_dsack()), and RACK widens its reordering window.  Only for
 * a sender with SACK, whose Linux takes D-SACK by default (tcp_dsack).
 */
static inline struct ecp_iv ecp_conn_dsack(bool sack_ok,
					   const struct ecp_ivset *held,
					   u64 off, u32 len)
{
	return sack_ok ? ecp_ivset_held(held, off, off + len) :
			 (struct ecp_iv){ 0, 0 };
}

/*
 * S as the receiver of a sender that set ECN up (a source, the writer),
 * RFC 3168 §6.1.3: a congestion mark on its data makes S's ACKs echo it
 * (*@ece) until its CWR says that it cut its window.  CWR first: one
 * segment can end an echo and start the next.  Returns true if an echo
 * starts, whose first ACK goes at once, as Linux's quick ACK for a mark
 * (tcp_ecn_check_ce()).
 */
static inline bool ecp_conn_ecn_rcv(bool *ece, const struct ecp_seg *p)
{
	if (p->h.flags & TCPHDR_CWR)
		*ece = false;
	if (!p->ce || !p->len || *ece)
		return false;
	*ece = true;
	return true;
}

/* @flags of a segment to such a sender: ECE while S echoes, but on SYN, RST. */
static inline u8 ecp_conn_ecn_echo(bool ece, u8 flags)
{
	return ece && !(flags & (TCPHDR_SYN | TCPHDR_RST)) ?
	       flags | TCPHDR_ECE : flags;
}

/* The end that connected to VIP:port: the client (out[0]) or the writer. */
static inline struct ecp_conn_out *ecp_conn_caller(struct ecp_conn *c)
{
	return ecp_conn_has_writer(c) ? &c->w : &c->out[0];
}

/*
 * The offset S acks to source s: everything it has contributed without a
 * gap (its FIN too, once every byte before it is in).  S acks each source
 * as a receiver would, not with the outputs' acks: with those, a source
 * whose retransmission arrived saw no ack for it as long as another
 * source's hole held the outputs back, timed out again and again, and,
 * its RTT samples refused after retransmissions (Karn), backed its RTO
 * off to tens of seconds.  How far a source may run is still bounded by
 * the outputs, through the EBSN window (ecp_conn_src_win()).
 */
static inline u64 ecp_conn_src_ack_off(const struct ecp_conn_src *s)
{
	u64 low = ecp_ivset_low(&s->iv);

	/*
	 * Once s is done, the rows it fed may have been released past its
	 * end, and its record trimmed with them: never ack beyond its FIN.
	 */
	if (s->fin && low >= s->fin_off)
		return s->fin_off + 1;
	return low;
}

static inline u32 ecp_conn_src_ack_seq(const struct ecp_conn_src *s)
{
	return ecp_off_to_seq(ecp_conn_src_ack_off(s), s->isn + 1);
}

/*
 * Has source s given everything it has to give: its FIN at its exact
 * length?  Past it, its fragment counts as zeros (a short data fragment of
 * a striped block), and no row waits for it.
 */
static inline bool ecp_conn_src_done(const struct ecp_conn_src *s)
{
	return s->fin && s->len != U64_MAX && s->fin_off == s->len &&
	       ecp_ivset_low(&s->iv) >= s->fin_off;
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

/* Everything S sent output o, its FIN included (snd_max). */
static inline u64 ecp_conn_out_snd_max(const struct ecp_conn_out *o)
{
	return o->snd_nxt + o->fin_sent;
}

/*
 * The most one GSO packet to output o carries: whole segments, within its
 * device's limits and ECP_GSO_MAX, one at least.
 */
static inline u32 ecp_conn_out_gso_max(const struct ecp_conn_out *o)
{
	u32 n = min_t(u32, o->gso_bytes, ECP_GSO_MAX) / o->mss;

	return clamp_t(u32, n, 1, o->gso_segs) * o->mss;
}

/*
 * The data bytes S sent output o that it has not acked (Linux's
 * packets_out, in bytes); once its FIN is acked, acked is snd_nxt + 1.
 */
static inline u64 ecp_conn_out_flight(const struct ecp_conn_out *o)
{
	return o->acked < o->snd_nxt ? o->snd_nxt - o->acked : 0;
}

/* The sequence number of offset @off of the stream S sends output o. */
static inline u32 ecp_conn_out_seq(const struct ecp_conn_out *o, u64 off)
{
	return ecp_off_to_seq(off, o->iss + 1);
}

/*
 * The sequence number of S's own segments to the sources: the request
 * stream's next byte.
 */
static inline u32 ecp_conn_src_seq(const struct ecp_conn *c)
{
	return ecp_off_to_seq(c->client.rcv_nxt, c->client.isn + 1);
}

/*
 * Is s's connection closed both ways: its FIN acked by S, the request
 * stream's FIN acked by s?  Its socket may then be gone, and anything
 * more S sent it would come back as a RST.
 */
static inline bool ecp_conn_src_closed(const struct ecp_conn *c,
				       const struct ecp_conn_src *s)
{
	return s->gone || (s->fin && s->last_ack_off > s->fin_off &&
			   c->client.fin && s->acked > c->client.fin_off);
}

/*
 * Is the handshake still waiting for s: no SYN-ACK yet, and no spare
 * stands in for it?
 */
static inline bool ecp_conn_src_unanswered(const struct ecp_conn_src *s)
{
	return !s->synack && !s->gone;
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

/* The edge of the window S last gave s: what s may send up to. */
static inline u64 ecp_conn_src_told_edge(const struct ecp_conn_src *s)
{
	u8 ws = min_t(u8, s->ws_out, ECP_EBSN_MAX_WSCALE);

	return s->last_ack_off + ((u64)s->last_win << ws);
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

/*
 * Timestamps on a leg (ts.h).  S's clock is Linux's: milliseconds of the
 * monotonic clock (tcp_time_stamp_raw()); TS.Recent ages in seconds.
 */
static inline void ecp_conn_ts_hdr(const struct ecp_ts *ts,
				   struct ecp_tcp_hdr *h)
{
	h->ts = ts->ok;
	h->tsval = ecp_ts_val(ts, tcp_time_stamp_raw());
	h->tsecr = ts->recent;
}

/* @p passed PAWS and is at the edge S acks (ecp_ts_at_edge()). */
static inline void ecp_conn_ts_seen(struct ecp_ts *ts, const struct ecp_seg *p)
{
	if (p->h.ts)
		ecp_ts_update(ts, p->h.tsval, ktime_get_seconds());
}

/*
 * The largest payload of S's segments on a leg with MSS @mss: less the
 * timestamps' room, never below TCP_MIN_SND_MSS, as a TCP sender.
 */
static inline u16 ecp_conn_ts_mss(const struct ecp_ts *ts, u16 mss)
{
	return max_t(int, (int)mss - (int)ecp_ts_optlen(ts), TCP_MIN_SND_MSS);
}

/* The peer's SYN or SYN-ACK @p: timestamps on if both offered them. */
static inline void ecp_conn_ts_open(struct ecp_conn *c, struct ecp_ts *ts,
				    const struct ecp_seg *p)
{
	ecp_ts_open(ts, c->ts_offer, p->h.ts, p->h.tsval, ktime_get_seconds());
}

/*
 * The slack of PAWS for a pure duplicate ACK that updates nothing: one
 * RTO's worth of ticks, as Linux's tcp_disordered_ack(), so that ACKs
 * reordered on the way are not dropped as old.  ECP_TS_SLACK otherwise.
 */
static inline u32 ecp_conn_ts_slack(const struct ecp_conn_out *o,
				    const struct ecp_seg *p, u64 ack_off)
{
	if (!p->len && !(p->h.flags & (TCPHDR_FIN | TCPHDR_SYN)) &&
	    ack_off == o->acked && ((u32)p->h.win << o->ws) == o->win)
		return max_t(u32, jiffies_to_msecs(o->rto), ECP_TS_SLACK);
	return ECP_TS_SLACK;
}

/* ---- conn_rcv_writer.c ------------------------------------------------- */

/*
 * A segment from the writer of an open write: its ack, bytes and FIN.
 * Returns false if the connection must be freed.
 */
bool ecp_conn_rcv_writer_seg(struct ecp_conn *c, struct sk_buff *skb,
			     const struct ecp_seg *p, struct sk_buff_head *q);

/* ---- conn_out.c -------------------------------------------------------- */

void ecp_conn_out_handshake_rtt(struct ecp_conn_out *o,
				const struct ecp_seg *p);

/*
 * Output o acknowledged its stream up to @ack with window @win (bytes), in
 * segment @p (its SACK blocks), which carried bytes or a FIN (@data):
 * release what it has, time the round trip, take what it SACKed, count
 * duplicate ACKs, detect a loss.  What is lost goes out with the next
 * ecp_conn_push(), which the caller runs.
 */
void ecp_conn_out_ack(struct ecp_conn *c, struct ecp_conn_out *o,
		      const struct ecp_seg *p, u64 ack, u32 win, bool data);
/*
 * ICMP "fragmentation needed" (@mtu) about offset @off of o's stream, with
 * @skb's data at the quoted header: lower o's MSS and re-send.
 */
void ecp_conn_out_pmtu(struct ecp_conn *c, struct ecp_conn_out *o,
		       struct sk_buff *skb, u64 off, u32 mtu,
		       struct sk_buff_head *q);

/* ---- conn_rows.c ------------------------------------------------------- */

/*
 * Apply [off, off + len) of source s's stream, at @dataoff in @skb, to the
 * ring of every row s feeds, each with its coefficient: the bytes that
 * were new, or ecp_dbuf_apply_skb_n()'s errors.
 */
s64 ecp_conn_src_apply(struct ecp_conn *c, struct ecp_conn_src *s, u64 off,
		       const struct sk_buff *skb, unsigned int dataoff, u32 len);
/*
 * Up to where row r is complete: every source it uses has given it, or,
 * with spares, the rows are final (ecp_conn_spare_fix()).
 */
u64 ecp_conn_row_complete(const struct ecp_conn *c, unsigned int r);
/*
 * With spares: make the rows final as far as all sources but nspare have
 * given, adding the check rows where sources are missing; at most
 * ECP_PUSH_MAX bytes over all rows a call, the outputs' ACKs for what
 * that completes bringing the rest.
 */
void ecp_conn_spare_fix(struct ecp_conn *c);
/* Up to where output o's stream is complete. */
u64 ecp_conn_out_complete(const struct ecp_conn *c,
			  const struct ecp_conn_out *o);
/* The length of output o's stream, or U64_MAX while it is not known. */
u64 ecp_conn_out_len(const struct ecp_conn *c, const struct ecp_conn_out *o);
/*
 * Copy output o's bytes [off, off + len) into @skb at @at, from the rings
 * of the rows it reads.
 */
int ecp_conn_out_copy(struct ecp_conn *c, const struct ecp_conn_out *o,
		      struct sk_buff *skb, unsigned int at, u64 off, u32 len);
/* Output o has every byte below @upto: release them in its rows. */
void ecp_conn_out_release(struct ecp_conn *c, struct ecp_conn_out *o,
			  u64 upto);
/*
 * Has row r been released to its exact length?  It then bounds no source
 * and takes no more bytes.
 */
bool ecp_conn_row_finished(const struct ecp_conn *c, unsigned int r);
/*
 * The lowest ring base of the unfinished rows source s feeds: the buffer
 * bounds s from there (ecp_ebsn_window()), the lowest ring being the one
 * that fills first.
 */
u64 ecp_conn_src_base(const struct ecp_conn *c, const struct ecp_conn_src *s);
/*
 * The lengths the sources closed at are wrong (a source short of its
 * exact length, or one that ends before bytes another already sent):
 * returns the index of the source at fault, or -1.
 */
int ecp_conn_src_mismatch(const struct ecp_conn *c);
/*
 * Did s, without a layout, close before bytes another source sent?  Its
 * fragment is short, not the others' long: what it sent is right as far
 * as it goes.
 */
bool ecp_conn_src_short(const struct ecp_conn *c, const struct ecp_conn_src *s);

/* ---- conn.c ------------------------------------------------------------ */

/*
 * S's clock offset for the timestamps on the leg to @addr:@port from its
 * port @lport on the VIP: the same for the same four ports (ts.h), none if
 * the namespace's tcp_timestamps is 2, as for Linux's own sockets.
 */
u32 ecp_conn_ts_off(const struct ecp_conn *c, __be32 addr, __be16 port,
		    __be16 lport);
/*
 * PAWS on segment @p of the peer of @ts, with @slack ticks of tolerance:
 * true if it is an old duplicate, counted as PAWS.  The caller drops it
 * and answers with an ACK (RFC 7323 §5.3) if ecp_conn_oow_ack() lets it.
 */
bool ecp_conn_ts_paws(struct ecp_conn *c, const struct ecp_ts *ts,
		      const struct ecp_seg *p, u32 slack);
/*
 * May S answer a segment of peer @pr that it dropped as PAWS?  One ACK
 * per half second, as Linux's tcp_oow_rate_limited(): PAWS runs before
 * the window check, so a blind sender that knows the four ports could
 * otherwise make S send the peer an ACK for each segment it forges.
 */
bool ecp_conn_oow_ack(struct ecp_conn_peer *pr);
/*
 * A segment on one of c's flows (before its window checks): counted in
 * OFF_HOME if it came in on a CPU other than c's home, and its flow
 * steered home (steer.h).  Caller holds rcu_read_lock().
 */
void ecp_conn_steer(struct ecp_conn *c, struct sk_buff *skb);
/* The client's SYN to an idle task: start the k handshakes. */
struct ecp_conn *ecp_conn_start(struct net *net, struct ecp_task *t,
				const struct ecp_seg *p,
				struct sk_buff_head *q);
void ecp_conn_set_state(struct ecp_conn *c, u8 state);
/*
 * Source or target @p answered S's SYN: a round trip for the repeats of
 * ecp_conn_tick_syns().  Once every one has, the handshake goes on: a
 * SYN-ACK to the client, or, without one, ACKs to the targets and to the
 * sources, with the FIN that closes the request stream.
 */
void ecp_conn_answered(struct ecp_conn *c, struct ecp_conn_peer *p,
		       struct sk_buff_head *q);
/*
 * Source s reset its connection, refused S's SYN, did not answer it, or
 * closed short (@state says which: ECPROXY_SOURCE_RESET, _SILENT or
 * _SHORT).  With spares, it is one more source missing from the rows,
 * which ecp_conn_spare_fix() completes wherever all sources but as many
 * as there are spares have given: the connection goes on while no more
 * sources are lost than there are spares, without s, whose watermark
 * stays where it was; if the handshake waited for s alone, it goes on.
 * Returns false, leaving s alone, if the connection must fail instead.
 * Task lock held.
 */
bool ecp_conn_src_stand_in(struct ecp_conn *c, struct ecp_conn_src *s,
			   u8 state, struct sk_buff_head *q);
/* For how many more sources could the spares stand in? */
unsigned int ecp_conn_spares_free(const struct ecp_conn *c);
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
/* A TIME-WAIT's ACK to S's SYN, reset: the caller sends the SYN again. */
bool ecp_conn_send_rst_stale(struct ecp_conn *c, struct ecp_conn_peer *peer,
			     const struct ecp_seg *p, u32 isn,
			     struct sk_buff_head *q);
void ecp_conn_send_syn_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q);
void ecp_conn_send_syn_tgt(struct ecp_conn *c, struct ecp_conn_out *o,
			   struct sk_buff_head *q);
void ecp_conn_send_synack_client(struct ecp_conn *c, struct sk_buff_head *q);
void ecp_conn_send_synack_writer(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * The window S offers the writer (in its units): up to the first byte of
 * the block the rings cannot take yet.  Records the right edge offered.
 */
u16 ecp_conn_writer_win(struct ecp_conn *c);
/* A window update to the writer, if the targets' ACKs at least doubled it. */
void ecp_conn_send_win_writer(struct ecp_conn *c, struct sk_buff_head *q);
/* A pure ACK to the writer, with the window. */
void ecp_conn_send_ack_writer(struct ecp_conn *c, struct sk_buff_head *q);
/* @n duplicate ACKs to the writer, past a hole, see conn_send.c. */
bool ecp_conn_send_prompt_writer(struct ecp_conn *c, struct sk_buff_head *q,
				 unsigned int n);
/* S's FIN to the writer, acking its FIN: the block is stored. */
void ecp_conn_send_fin_writer(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * A segment to source s carrying the request stream's sequence number
 * @seq, flags and payload [off, off + len) of the client's skb (may be
 * NULL for a pure ACK).
 */
void ecp_conn_send_src(struct ecp_conn *c, struct ecp_conn_src *s,
		       struct sk_buff_head *q, u32 seq, u8 flags,
		       const struct sk_buff *skb, unsigned int off,
		       unsigned int len);
/* The client's segment @p to source s, cut to s's MSS. */
void ecp_conn_send_copy_src(struct ecp_conn *c, struct ecp_conn_src *s,
			    struct sk_buff_head *q, const struct sk_buff *skb,
			    const struct ecp_seg *p);
/* What every source has acknowledged of the request stream (an offset). */
u64 ecp_conn_client_ack_off(const struct ecp_conn *c);
/*
 * A probe of output o's zero window (the persist timer): an ACK with the
 * sequence number before what it acknowledged, which it answers with its
 * current window (tcp_xmit_probe_skb()).
 */
void ecp_conn_send_probe_out(struct ecp_conn *c, struct ecp_conn_out *o,
			     struct sk_buff_head *q);
/*
 * A pure ACK to output o: for the client, of its bytes every source now
 * has; for a target, of its FIN.
 */
void ecp_conn_send_ack_out(struct ecp_conn *c, struct ecp_conn_out *o,
			   struct sk_buff_head *q);
/*
 * An output's ACK freed ring space: send source s a window update if its
 * window at least doubles, as a receiver's stack does when its reader
 * frees buffer (__tcp_cleanup_rbuf()); without one, a source at its edge
 * would wait for its own zero-window probe.  For a client's pure ACKs
 * too: what else it sends is copied (ecp_conn_send_copy_src()).
 */
void ecp_conn_send_win_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q);
/* Ack what source s contributed, if S has not acked all of it. */
void ecp_conn_send_ack_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q);
/* The same for every source: the delayed ACKs, from the timers. */
void ecp_conn_send_ack_srcs(struct ecp_conn *c, struct sk_buff_head *q);
/*
 * Ack source s's in-order data every ack_segs segments, the rest within
 * ack_delay_us (a stretch ACK, see conn_send.c).
 */
void ecp_conn_send_ack_src_later(struct ecp_conn *c, struct ecp_conn_src *s,
				 struct sk_buff_head *q);
/* An ACK to s now, new or not (s asked for it). */
void ecp_conn_send_ack_src_always(struct ecp_conn *c, struct ecp_conn_src *s,
				  struct sk_buff_head *q);
/* S's FIN to source s, closing the request stream (no client). */
void ecp_conn_send_fin_src(struct ecp_conn *c, struct ecp_conn_src *s,
			   struct sk_buff_head *q);
/* @n duplicate ACKs to a source with a hole, see conn_send.c. */
void ecp_conn_send_prompt_src(struct ecp_conn *c, struct ecp_conn_src *s,
			      struct sk_buff_head *q, unsigned int n);
/*
 * Reset every side, record why and whom to blame (@err_src, @err_tgt: a
 * source or target index, -1 for none), and detach.  The side that reset
 * S needs no RST back: @skip_client, @skip_src, @skip_tgt (-1 for none).
 * Caller frees c.
 */
void ecp_conn_abort(struct ecp_conn *c, struct sk_buff_head *q, u8 err,
		    int err_src, int err_tgt, bool skip_client, int skip_src,
		    int skip_tgt);
/*
 * In a recovery, re-send what output o lost (sack.h) as far as the
 * congestion window lets in flight and @budget (ECP_PUSH_MAX, reduced
 * by what it sends) allows.  Returns the room it leaves for new bytes:
 * none while lost bytes wait.
 */
u64 ecp_conn_resend_out(struct ecp_conn *c, struct ecp_conn_out *o,
			struct sk_buff_head *q, u64 *budget);
/*
 * A tail loss probe to output o (RFC 8985 §7): one segment of new bytes
 * if its windows have room, else its last segment again, so that its ACK
 * says (with SACK) what the tail of the flight lost.
 */
void ecp_conn_send_tail_probe(struct ecp_conn *c, struct ecp_conn_out *o,
			      struct sk_buff_head *q);
/* S's FIN to output o, after every byte of its stream. */
void ecp_conn_send_fin_out(struct ecp_conn *c, struct ecp_conn_out *o,
			   struct sk_buff_head *q);
/*
 * Send every output the complete bytes it has not seen, within its
 * window and the rate cap, then its FIN at the end of its stream.
 * Returns false if the connection was aborted (lengths differ).
 */
bool ecp_conn_push(struct ecp_conn *c, struct sk_buff_head *q);
/* Set the connection's timer for its outputs' earliest work (conn.c). */
void ecp_conn_timer_due(struct ecp_conn *c);
/*
 * Everything is closed and acknowledged: linger (client, writer) or end
 * (DEST).  A writer gets S's FIN once every target has its fragment.
 */
void ecp_conn_check_done(struct ecp_conn *c, struct sk_buff_head *q);

#endif
