// SPDX-License-Identifier: GPL-2.0
/*
 * Segments the proxy originates: SYNs and ACKs to the sources, the SYN-ACK
 * and the rebuilt data to the client, resets.  Modelled on what
 * nf_synproxy_core.c does for its own segments.
 */
#include <linux/export.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <kunit/visibility.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/route.h>
#include <net/tcp.h>

#include "xmit.h"

static unsigned int ecp_tcp_optlen(const struct ecp_tcp_hdr *h)
{
	unsigned int optlen = 0;

	/* SACK-permitted shares the timestamps' 4-byte word (as Linux). */
	if (h->ts)
		optlen += TCPOLEN_TSTAMP_ALIGNED;
	if (h->flags & TCPHDR_SYN) {
		if (h->mss)
			optlen += TCPOLEN_MSS;
		if (h->wscale >= 0)
			optlen += TCPOLEN_WSCALE_ALIGNED;
		if (h->sack_ok && !h->ts)
			optlen += TCPOLEN_SACKPERM_ALIGNED;
	} else if (h->nsack) {
		optlen += TCPOLEN_SACK_BASE_ALIGNED +
			  h->nsack * TCPOLEN_SACK_PERBLOCK;
	}
	return optlen;
}

/*
 * Write the TCP header (and options) at the tail of @skb's linear part;
 * @paged bytes of payload are already in its page fragments.  Then the IP
 * header in front.
 */
static void ecp_tcp_headers(struct sk_buff *skb, const struct ecp_tcp_hdr *h,
			    unsigned int optlen, unsigned int paged)
{
	unsigned int tcplen = sizeof(struct tcphdr) + optlen + paged;
	struct tcphdr *th;
	struct iphdr *iph;
	__be32 *opt;

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
	if (h->ts) {
		if ((h->flags & TCPHDR_SYN) && h->sack_ok)
			*opt++ = htonl((TCPOPT_SACK_PERM << 24) |
				       (TCPOLEN_SACK_PERM << 16) |
				       (TCPOPT_TIMESTAMP << 8) |
				       TCPOLEN_TIMESTAMP);
		else
			*opt++ = htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) |
				       (TCPOPT_TIMESTAMP << 8) |
				       TCPOLEN_TIMESTAMP);
		*opt++ = htonl(h->tsval);
		*opt++ = htonl(h->tsecr);
	} else if ((h->flags & TCPHDR_SYN) && h->sack_ok) {
		*opt++ = htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) |
			       (TCPOPT_SACK_PERM << 8) | TCPOLEN_SACK_PERM);
	}
	if (!(h->flags & TCPHDR_SYN) && h->nsack) {
		unsigned int i;

		*opt++ = htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) |
			       (TCPOPT_SACK << 8) |
			       (TCPOLEN_SACK_BASE +
				h->nsack * TCPOLEN_SACK_PERBLOCK));
		for (i = 0; i < h->nsack; i++) {
			*opt++ = htonl(h->sack[i].start_seq);
			*opt++ = htonl(h->sack[i].end_seq);
		}
	}
	skb->len += paged;
	skb->data_len += paged;

	/*
	 * Offload (or the stack, if the device cannot) finishes the sum;
	 * GSO adjusts this pseudo header sum to each segment's length.
	 */
	th->check = ~tcp_v4_check(tcplen, h->saddr, h->daddr, 0);
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = (unsigned char *)th - skb->head;
	skb->csum_offset = offsetof(struct tcphdr, check);

	iph = skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tos = h->ect ? INET_ECN_ECT_0 : 0;
	/* DF: the segments are sized to the path MSS; id 0 as with DF. */
	iph->frag_off = htons(IP_DF);
	iph->id = 0;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = h->saddr;
	iph->daddr = h->daddr;
	/* ttl, tot_len and the header checksum are set at send time. */
	skb->protocol = htons(ETH_P_IP);
}

int ecp_tcp_build(struct sk_buff_head *q, const struct ecp_tcp_hdr *h)
{
	unsigned int optlen = ecp_tcp_optlen(h);
	struct sk_buff *skb;

	skb = alloc_skb(MAX_TCP_HEADER + sizeof(struct tcphdr) + optlen,
			GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, MAX_TCP_HEADER);
	ecp_tcp_headers(skb, h, optlen, 0);
	__skb_queue_tail(q, skb);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_tcp_build);

/*
 * Page fragments sized to the payload, carved from the per-CPU page_frag
 * cache as tcp_sendmsg() carves them from sk_page_frag(): the receiver
 * charges an skb's truesize to its buffer, and a whole page under each
 * 1448-byte segment would fill a small receive buffer at a third of the
 * data its window allows, so that it drops in-window data.  Chunks of at
 * most a page: 16 of them fit MAX_SKB_FRAGS, and the cache serves them
 * even when it falls back to order-0 pages.
 */
static int ecp_tcp_fill_frags(struct sk_buff *skb, unsigned int paylen)
{
	int i;

	for (i = 0; paylen; i++) {
		unsigned int n = min_t(unsigned int, paylen, PAGE_SIZE);
		struct page *page;
		void *va;

		if (WARN_ON_ONCE(i >= MAX_SKB_FRAGS))
			return -EMSGSIZE;
		va = netdev_alloc_frag(n);
		if (!va)
			return -ENOMEM;
		page = virt_to_head_page(va);
		skb_fill_page_desc(skb, i, page, va - page_address(page), n);
		skb->truesize += n;
		paylen -= n;
	}
	return 0;
}

struct sk_buff *ecp_tcp_build_data(struct sk_buff_head *q,
				   const struct ecp_tcp_hdr *h,
				   unsigned int paylen, unsigned int mss)
{
	unsigned int optlen = ecp_tcp_optlen(h);
	struct sk_buff *skb;

	if (WARN_ON_ONCE(!mss || !paylen || paylen > ECP_GSO_MAX))
		return NULL;
	skb = alloc_skb(MAX_TCP_HEADER + sizeof(struct tcphdr) + optlen,
			GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, MAX_TCP_HEADER);
	if (ecp_tcp_fill_frags(skb, paylen)) {
		kfree_skb(skb);
		return NULL;
	}
	ecp_tcp_headers(skb, h, optlen, paylen);
	if (paylen > mss) {
		skb_shinfo(skb)->gso_size = mss;
		skb_shinfo(skb)->gso_type = SKB_GSO_TCPV4;
		/* GSO puts CWR on the first segment only (tcp_gso_segment()). */
		if (h->flags & TCPHDR_CWR)
			skb_shinfo(skb)->gso_type |= SKB_GSO_TCP_ECN;
		skb_shinfo(skb)->gso_segs = DIV_ROUND_UP(paylen, mss);
	}
	__skb_queue_tail(q, skb);
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_tcp_build_data);

int ecp_tcp_copy_payload(struct sk_buff *to, const struct sk_buff *from,
			 int from_off, int len)
{
	unsigned int at = ecp_tcp_payload_offset(to);
	struct skb_shared_info *sh = skb_shinfo(to);
	int i;

	/* ecp_tcp_build_data() put nothing after the headers in the head. */
	if (at != skb_headlen(to) || len != to->data_len)
		return -EFAULT;
	for (i = 0; i < sh->nr_frags && len; i++) {
		skb_frag_t *f = &sh->frags[i];
		int n = min_t(int, len, skb_frag_size(f));
		/* Page frag cache pages are never highmem. */
		int err = skb_copy_bits(from, from_off, skb_frag_address(f), n);

		if (err)
			return err;
		from_off += n;
		len -= n;
	}
	return len ? -EFAULT : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_tcp_copy_payload);

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

/* mtu's MSS without options, as ecp_route_mss() defines it. */
static u16 ecp_mtu_mss(unsigned int mtu)
{
	if (mtu < 68)
		return 0;
	return clamp_t(unsigned int,
		       mtu - sizeof(struct iphdr) - sizeof(struct tcphdr),
		       TCP_MIN_SND_MSS, ECP_GSO_MAX);
}

u16 ecp_route_mss(struct net *net, __be32 saddr, __be32 daddr)
{
	return ecp_mtu_mss(ecp_route_mtu(net, saddr, daddr));
}

u16 ecp_route_caps(struct net *net, __be32 saddr, __be32 daddr,
		   u32 *gso_bytes, u16 *gso_segs)
{
	struct rtable *rt = ecp_route(net, saddr, daddr);
	struct net_device *dev;
	u32 size;
	u16 mss;

	*gso_bytes = 0;
	*gso_segs = 1;
	if (IS_ERR(rt))
		return 0;
	mss = ecp_mtu_mss(dst_mtu(&rt->dst));
	dev = rt->dst.dev;
#ifdef ECP_GSO_IPV4_MAX
	size = READ_ONCE(dev->gso_ipv4_max_size);
#else
	size = READ_ONCE(dev->gso_max_size);
#endif
	/* As tcp_tso_autosize(): room for the headers. */
	*gso_bytes = size > MAX_TCP_HEADER + 1 ? size - MAX_TCP_HEADER - 1 : 0;
	*gso_segs = max_t(u16, READ_ONCE(dev->gso_max_segs), 1);
	ip_rt_put(rt);
	return mss;
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
#if IS_ENABLED(CONFIG_NF_CONNTRACK)
		/*
		 * S's segments belong to no connection conntrack could
		 * follow: the segments they answer were consumed before
		 * conntrack (hook.c), so it would see half of each flow and
		 * call it INVALID, and a stateful ruleset would drop S's
		 * SYNs.  Untracked, they create no entry and meet no NAT.
		 */
		nf_ct_set(skb, NULL, IP_CT_UNTRACKED);
#endif
		ip_local_out(net, NULL, skb);
	}
}
