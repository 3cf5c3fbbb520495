/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One connection of a task: the k connections from the VIP to the
 * sources, whose streams are combined over GF(2^8) into the task's rows,
 * and the outputs the rows go to: the client's TCP connection to
 * VIP:port, or one connection from the VIP to each target.
 *
 * Sequence spaces:
 *  - the request stream (the client's bytes) keeps the client's sequence
 *    numbers on the way to every source (the SYNs to the sources carry
 *    the client's ISN), so only acks are translated.  With targets there
 *    is no client, and S picks that ISN itself.
 *  - Source i's bytes are at offset seq - (isn_i + 1) of its fragment,
 *    which is the rows' offset too; S sends each output its stream from
 *    its own ISN.  A row's offset is the output's, except for a read,
 *    whose output interleaves the rows cell by cell (conn_rows.c).
 *
 * Locking and lifetime: every field is under the task's spinlock
 * (task->lock, taken with spin_lock_bh).  task->conn points to the live
 * connection; whoever clears it (under the lock, also setting dead) owns
 * the teardown and calls ecp_conn_free() after unlocking.  Packets reach
 * a connection through the task (the client) or an RCU hash of the local
 * ports of the sources and targets; either path checks task->conn and
 * dead under the lock.  The memory goes one grace period after
 * ecp_conn_free().
 */
#ifndef _ECP_CONN_H
#define _ECP_CONN_H

#include <linux/skbuff.h>
#include <linux/types.h>

#include "xmit.h"

struct ecp_task;
struct ecp_conn_out;
struct ecp_conn_peer;
struct ecp_conn_src;
struct net;

/*
 * A TCP segment as the hook parsed and validated it: the header fields in
 * the form S builds its own segments from (xmit.h), MSS and window scale
 * only from a SYN's options, and where the payload lies in the skb.
 */
struct ecp_seg {
	struct ecp_tcp_hdr h;
	unsigned int dataoff;	/* payload offset in the skb */
	unsigned int len;	/* payload length */
	bool ce;		/* its IP header's congestion mark (RFC 3168) */
	/* Its SACK option's blocks, sequence numbers in host order. */
	unsigned int nsack;
	struct tcp_sack_block sack[TCP_NUM_SACKS];
};

/* A segment to a task's VIP:port.  Caller holds rcu_read_lock(). */
void ecp_conn_rcv_client(struct net *net, struct ecp_task *t,
			 struct sk_buff *skb, const struct ecp_seg *p);

/*
 * The source or target that @p (from it to the VIP) belongs to, or NULL.
 * Caller holds rcu_read_lock().
 */
struct ecp_conn_peer *ecp_conn_lookup_peer(const struct net *net,
					   const struct ecp_seg *p);

/*
 * A segment from a source or target found by ecp_conn_lookup_peer(), by
 * its role (struct ecp_conn_peer, conn_state.h).
 */
void ecp_conn_rcv_src(struct net *net, struct ecp_conn_src *s,
		      struct sk_buff *skb, const struct ecp_seg *p);
void ecp_conn_rcv_tgt(struct net *net, struct ecp_conn_out *o,
		      struct sk_buff *skb, const struct ecp_seg *p);

/*
 * ICMP "fragmentation needed" (@mtu) about a segment S sent from task t's
 * VIP: @p is the quoted segment turned round (its saddr and sport are the
 * receiver's), @seq its sequence number, and @skb's data starts at the
 * quoted IP header (for ipv4_update_pmtu()).  Returns false if the segment
 * was not one to t's client.  Caller holds rcu_read_lock().
 */
bool ecp_conn_rcv_icmp_client(struct net *net, struct ecp_task *t,
			      struct sk_buff *skb, const struct ecp_seg *p,
			      u32 seq, u32 mtu);
/* The same about a segment to a source or target (ecp_conn_lookup_peer()). */
void ecp_conn_rcv_icmp_src(struct net *net, struct ecp_conn_src *s,
			   struct sk_buff *skb, u32 seq, u32 mtu);
void ecp_conn_rcv_icmp_tgt(struct net *net, struct ecp_conn_out *o,
			   struct sk_buff *skb, u32 seq, u32 mtu);

/* Count a segment from a source or target that failed validation. */
void ecp_conn_peer_drop(struct ecp_conn_peer *peer, int reason);

/*
 * Is VIP:@port S's end of a live connection to a source or target?  A
 * task on it would take that peer's segments for a client's.  Any
 * context.
 */
bool ecp_conn_port_in_use(const struct net *net, __be32 vip, __be16 port);

/* Module start and end: the workqueue that zeroes aborted buffers. */
int ecp_conn_init(void);
void ecp_conn_exit(void);

/*
 * The task is going away (delete, flush, netns exit, module unload): reset
 * both sides of a live connection and free it.  Process context.
 */
void ecp_conn_kill(struct ecp_task *t);

/*
 * TASK_START of a task with targets: connect to its sources and targets.
 * Process context, task lock not held.  -EBUSY if it has a connection or
 * is zeroing its rings, -ENOMEM, -EHOSTUNREACH (no route to a peer), or
 * -EADDRNOTAVAIL (no free port).
 */
int ecp_conn_start_tgt(struct net *net, struct ecp_task *t);

#endif
