/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building and sending the TCP segments the proxy originates (IPv4).
 *
 * Segments are built under the connection's spinlock into a local queue
 * and sent with ecp_xmit_queue() after it is released: routing and
 * ip_local_out() may run netfilter OUTPUT/POSTROUTING hooks and qdiscs,
 * which must not run under our lock.
 */
#ifndef _ECP_XMIT_H
#define _ECP_XMIT_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct net;

/* One TCP segment's addressing and header fields, host byte order. */
struct ecp_tcp_hdr {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
	u32 seq;
	u32 ack;
	u16 win;	/* raw field */
	u8 flags;	/* TCPHDR_* */
	u16 mss;	/* SYN only: MSS option if non-zero */
	s8 wscale;	/* SYN only: window scale option if >= 0 */
};

/*
 * Allocate a segment with @paylen bytes of payload (returned in @payload,
 * to be filled by the caller) and queue it on @q.  The checksum is left to
 * offload (CHECKSUM_PARTIAL); the pseudo header does not depend on the
 * payload, so filling it later is fine.  Returns 0 or -ENOMEM.
 */
int ecp_tcp_build(struct sk_buff_head *q, const struct ecp_tcp_hdr *h,
		  unsigned int paylen, u8 **payload);

/* Route and send every queued segment.  Any context but hardirq. */
void ecp_xmit_queue(struct net *net, struct sk_buff_head *q);

/* MTU of the route from @saddr to @daddr, or 0 if there is none. */
unsigned int ecp_route_mtu(struct net *net, __be32 saddr, __be32 daddr);

#endif
