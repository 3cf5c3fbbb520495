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

/* SACK blocks that fit in a header beside nothing else (4 * 8 + 4 bytes). */
#define ECP_TCP_SACK_MAX	4
/* Beside the timestamps option (12 bytes): 3 * 8 + 4. */
#define ECP_TCP_SACK_MAX_TS	3

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
	bool sack_ok;	/* SYN only: SACK-permitted option */
	bool ts;	/* timestamps option (RFC 7323): on a SYN, the offer */
	u32 tsval;
	u32 tsecr;
	u8 nsack;	/* not on a SYN: SACK blocks (RFC 2018), 0..4 */
	struct tcp_sack_block sack[ECP_TCP_SACK_MAX];
	bool ect;	/* ECN-capable transport, ECT(0), in the IP header */
};

/* The SACK blocks that fit beside @h's other options. */
static inline unsigned int ecp_tcp_sack_max(const struct ecp_tcp_hdr *h)
{
	return h->ts ? ECP_TCP_SACK_MAX_TS : ECP_TCP_SACK_MAX;
}

/*
 * Queue a segment without payload on @q (SYN, ACK, FIN, RST).  The
 * checksum is left to offload (CHECKSUM_PARTIAL).  Returns 0 or -ENOMEM.
 */
int ecp_tcp_build(struct sk_buff_head *q, const struct ecp_tcp_hdr *h);

/*
 * Payload bytes one ecp_tcp_build_data() segment may carry: the IP total
 * length must fit 16 bits with the longest IP and TCP headers (16 pages of
 * 4 KiB, below MAX_SKB_FRAGS).
 */
#define ECP_GSO_MAX	(65535 - 60 - 60)

/*
 * Queue a segment with @paylen (1..ECP_GSO_MAX) bytes of payload, sent as
 * segments of at most @mss payload bytes (GSO when longer: the device or
 * the stack cuts it).  The payload lives in page fragments of at most a
 * page each, sized to the data, never in the linear head: softirq must
 * not depend on finding contiguous memory, which a 9000-byte segment in
 * the head would need (order 2).
 * The caller writes it at ecp_tcp_payload_offset(), with skb_store_bits()
 * or ecp_tcp_copy_payload(); the pseudo header does not depend on the
 * payload, so filling it after the headers is fine.  Returns the queued
 * skb or NULL.
 */
struct sk_buff *ecp_tcp_build_data(struct sk_buff_head *q,
				   const struct ecp_tcp_hdr *h,
				   unsigned int paylen, unsigned int mss);

static inline unsigned int ecp_tcp_payload_offset(const struct sk_buff *skb)
{
	return skb_transport_offset(skb) + tcp_hdrlen(skb);
}

/*
 * Copy @len bytes at @from_off of @from (any layout) into the payload of
 * @to, a segment from ecp_tcp_build_data(), at payload offset 0.
 * Returns 0 or -EFAULT.
 */
int ecp_tcp_copy_payload(struct sk_buff *to, const struct sk_buff *from,
			 int from_off, int len);

/*
 * Route and send every queued segment, untracked by conntrack.  Any
 * context but hardirq.
 */
void ecp_xmit_queue(struct net *net, struct sk_buff_head *q);

/* MTU of the route from @saddr to @daddr, or 0 if there is none. */
unsigned int ecp_route_mtu(struct net *net, __be32 saddr, __be32 daddr);
/*
 * The MSS of that route, in [TCP_MIN_SND_MSS, ECP_GSO_MAX], or 0 if there
 * is none.
 */
u16 ecp_route_mss(struct net *net, __be32 saddr, __be32 daddr);
/*
 * From one lookup: the MSS of that route, as ecp_route_mss(), and the
 * largest GSO packet its device takes, @gso_bytes of TCP payload and
 * @gso_segs segments, as Linux's TCP reads them (sk_setup_caps(),
 * tcp_tso_autosize()).  A NIC's TSO has its limits, and an administrator
 * may lower them (ip link set DEV gso_max_size, gso_max_segs); the core
 * cuts what goes past them in software (gso_features_check()), the CPU
 * time TSO was to save.  0 and one segment if there is no route.
 */
u16 ecp_route_caps(struct net *net, __be32 saddr, __be32 daddr,
		   u32 *gso_bytes, u16 *gso_segs);

#endif
