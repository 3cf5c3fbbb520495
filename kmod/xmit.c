// SPDX-License-Identifier: GPL-2.0
/*
 * Segments the proxy originates: SYNs and ACKs to the sources, the SYN-ACK
 * and the rebuilt data to the client, resets.  Modelled on what
 * nf_synproxy_core.c does for its own segments.
 */
#include <linux/ip.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/tcp.h>

#include "xmit.h"

int ecp_tcp_build(struct sk_buff_head *q, const struct ecp_tcp_hdr *h,
		  unsigned int paylen, u8 **payload)
{
	unsigned int optlen = 0, tcplen;
	struct sk_buff *skb;
	struct tcphdr *th;
	struct iphdr *iph;
	__be32 *opt;

	if (h->flags & TCPHDR_SYN) {
		if (h->mss)
			optlen += TCPOLEN_MSS;
		if (h->wscale >= 0)
			optlen += TCPOLEN_WSCALE_ALIGNED;
	}
	tcplen = sizeof(*th) + optlen + paylen;
	skb = alloc_skb(MAX_TCP_HEADER + tcplen, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, MAX_TCP_HEADER);

	skb_reset_transport_header(skb);
	th = skb_put_zero(skb, sizeof(*th) + optlen);
	th->source = h->sport;
	th->dest = h->dport;
	th->seq = htonl(h->seq);
	th->ack_seq = htonl(h->ack);
	tcp_flag_word(th) = htonl((u32)h->flags << 16);
	th->doff = (sizeof(*th) + optlen) / 4;
	th->window = htons(h->win);
	opt = (__be32 *)(th + 1);
	if ((h->flags & TCPHDR_SYN) && h->mss)
		*opt++ = htonl((TCPOPT_MSS << 24) | (TCPOLEN_MSS << 16) |
			       h->mss);
	if ((h->flags & TCPHDR_SYN) && h->wscale >= 0)
		*opt++ = htonl((TCPOPT_NOP << 24) | (TCPOPT_WINDOW << 16) |
			       (TCPOLEN_WINDOW << 8) | h->wscale);
	*payload = paylen ? skb_put(skb, paylen) : NULL;

	/* Offload (or the stack, if the device cannot) finishes the sum. */
	th->check = ~tcp_v4_check(tcplen, h->saddr, h->daddr, 0);
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = (unsigned char *)th - skb->head;
	skb->csum_offset = offsetof(struct tcphdr, check);

	iph = skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tos = 0;
	/* DF: the segments are sized to the path MSS; id 0 as with DF. */
	iph->frag_off = htons(IP_DF);
	iph->id = 0;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = h->saddr;
	iph->daddr = h->daddr;
	/* ttl, tot_len and the header checksum are set at send time. */
	skb->protocol = htons(ETH_P_IP);
	__skb_queue_tail(q, skb);
	return 0;
}

static struct rtable *ecp_route(struct net *net, __be32 saddr, __be32 daddr)
{
	struct flowi4 fl4 = {
		.daddr = daddr,
		.saddr = saddr,
		.flowi4_proto = IPPROTO_TCP,
	};

	return ip_route_output_key(net, &fl4);
}

unsigned int ecp_route_mtu(struct net *net, __be32 saddr, __be32 daddr)
{
	struct rtable *rt = ecp_route(net, saddr, daddr);
	unsigned int mtu;

	if (IS_ERR(rt))
		return 0;
	mtu = dst_mtu(&rt->dst);
	ip_rt_put(rt);
	return mtu;
}

void ecp_xmit_queue(struct net *net, struct sk_buff_head *q)
{
	struct sk_buff *skb;
	struct rtable *rt;
	struct iphdr *iph;

	while ((skb = __skb_dequeue(q))) {
		iph = ip_hdr(skb);
		rt = ecp_route(net, iph->saddr, iph->daddr);
		if (IS_ERR(rt)) {
			kfree_skb(skb);
			continue;
		}
		skb_dst_set(skb, &rt->dst);
		iph->ttl = ip4_dst_hoplimit(&rt->dst);
		ip_local_out(net, NULL, skb);
	}
}
