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
#include <linux/tcp.h>
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

/*
 * Payload bytes one ecp_tcp_build_gso() segment may carry: the IP total
 * length must fit 16 bits with the longest IP and TCP headers (16 pages of
 * 4 KiB, below MAX_SKB_FRAGS).
 */
#define ECP_GSO_MAX	(65535 - 60 - 60)

/*
 * Like ecp_tcp_build(), for up to ECP_GSO_MAX bytes of payload held in
 * page fragments, and sent as segments of at most @mss payload bytes
 * (GSO: the device or the stack cuts it).  The caller writes the payload
 * with skb_store_bits() at ecp_tcp_payload_offset().  Returns the queued
 * skb or NULL.
 */
struct sk_buff *ecp_tcp_build_gso(struct sk_buff_head *q,
				  const struct ecp_tcp_hdr *h,
				  unsigned int paylen, unsigned int mss);

static inline unsigned int ecp_tcp_payload_offset(const struct sk_buff *skb)
{
	return skb_transport_offset(skb) + tcp_hdrlen(skb);
}

/* Route and send every queued segment.  Any context but hardirq. */
void ecp_xmit_queue(struct net *net, struct sk_buff_head *q);

/* MTU of the route from @saddr to @daddr, or 0 if there is none. */
unsigned int ecp_route_mtu(struct net *net, __be32 saddr, __be32 daddr);

#endif
