// SPDX-License-Identifier: GPL-2.0
/*
 * The data path's entry point: an IPv4 PRE_ROUTING hook that picks out
 * the TCP segments of reconstruction tasks, validates them and hands them
 * to the connection code (conn_rcv_client.c, conn_rcv_src.c), which consumes
 * them.  Everything else passes untouched.
 */
#include <asm/unaligned.h>
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/tcp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/netfilter/ipv4/nf_defrag_ipv4.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "hook.h"
#include "netns.h"
#include "task.h"

/*
 * Check the options' layout on every segment, not only on SYNs: a
 * malformed list means a broken or hostile sender, and its payload is not
 * to be trusted either.  MSS, window scale and SACK-permitted are
 * recorded (conn.c only uses them from SYNs), SACK blocks (an output's
 * ACKs, conn_out.c) and timestamps (every leg, ts.h); the rest is skipped.
 */
static bool ecp_parse_opts(const u8 *opt, int len, struct ecp_seg *p)
{
	while (len > 0) {
		u8 kind = opt[0], olen;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			opt++;
			len--;
			continue;
		}
		if (len < 2)
			return false;
		olen = opt[1];
		if (olen < 2 || olen > len)
			return false;
		if (kind == TCPOPT_MSS) {
			if (olen != TCPOLEN_MSS)
				return false;
			p->h.mss = get_unaligned_be16(opt + 2);
		} else if (kind == TCPOPT_WINDOW) {
			if (olen != TCPOLEN_WINDOW)
				return false;
			p->h.wscale = min_t(u8, opt[2], TCP_MAX_WSCALE);
		} else if (kind == TCPOPT_SACK_PERM) {
			if (olen != TCPOLEN_SACK_PERM)
				return false;
			p->h.sack_ok = true;
		} else if (kind == TCPOPT_SACK) {
			unsigned int i, n = (olen - TCPOLEN_SACK_BASE) /
					    TCPOLEN_SACK_PERBLOCK;

			if (olen < TCPOLEN_SACK_BASE + TCPOLEN_SACK_PERBLOCK ||
			    (olen - TCPOLEN_SACK_BASE) % TCPOLEN_SACK_PERBLOCK ||
			    n > TCP_NUM_SACKS)
				return false;
			for (i = 0; i < n; i++) {
				p->sack[i].start_seq =
					get_unaligned_be32(opt + 2 + 8 * i);
				p->sack[i].end_seq =
					get_unaligned_be32(opt + 6 + 8 * i);
			}
			p->nsack = n;
		} else if (kind == TCPOPT_TIMESTAMP) {
			if (olen != TCPOLEN_TIMESTAMP)
				return false;
			p->h.ts = true;
			p->h.tsval = get_unaligned_be32(opt + 2);
			p->h.tsecr = get_unaligned_be32(opt + 6);
		}
		opt += olen;
		len -= olen;
	}
	return true;
}

/*
 * The flag combinations a TCP peer sends (those nf_conntrack accepts too),
 * whatever the state: others (SYN+FIN, SYN+RST, no flags, FIN without
 * ACK) are scans or attacks.  URG is refused as well: Linux takes the
 * urgent byte out of the stream, and a proxy that forwards the bytes but
 * not the urgent pointer would change the stream its sources see.  A RST
 * carrying data is refused so that a reset cannot smuggle in bytes, and
 * because no stack we talk to sends one.
 */
static bool ecp_flags_ok(u8 flags, unsigned int len)
{
	switch (flags & ~(TCPHDR_PSH | TCPHDR_ECE | TCPHDR_CWR)) {
	case TCPHDR_RST:
	case TCPHDR_RST | TCPHDR_ACK:
		return !len;
	case TCPHDR_SYN:
	case TCPHDR_SYN | TCPHDR_ACK:
	case TCPHDR_ACK:
	case TCPHDR_FIN | TCPHDR_ACK:
		return true;
	default:
		return false;
	}
}

/*
 * Validate the segment and fill @p.  Returns 0 or the drop reason.  The
 * checksum is verified here, before any byte of the payload is used.
 */
static int ecp_parse(struct sk_buff *skb, const struct nf_hook_state *state,
		     unsigned int thoff, struct ecp_seg *p)
{
	const struct tcphdr *th;
	unsigned int thlen;

	th = (const struct tcphdr *)(skb->data + thoff);
	thlen = th->doff * 4;
	if (thlen < sizeof(*th) || skb->len < thoff + thlen)
		return ECPROXY_DROP_TRUNCATED;
	if (!pskb_may_pull(skb, thoff + thlen))
		return ECPROXY_DROP_TRUNCATED;
	if (nf_ip_checksum(skb, state->hook, thoff, IPPROTO_TCP))
		return ECPROXY_DROP_BAD_CSUM;
	/* pskb_may_pull() may have moved the head: re-derive. */
	th = (const struct tcphdr *)(skb->data + thoff);
	p->h.seq = ntohl(th->seq);
	p->h.ack = ntohl(th->ack_seq);
	p->h.win = ntohs(th->window);
	p->h.flags = tcp_flag_byte(th);
	p->h.mss = 0;
	p->h.wscale = -1;
	p->h.sack_ok = false;
	p->h.ts = false;
	p->nsack = 0;
	p->ce = INET_ECN_is_ce(ip_hdr(skb)->tos);
	p->dataoff = thoff + thlen;
	p->len = skb->len - p->dataoff;
	if (!ecp_parse_opts((const u8 *)(th + 1), thlen - sizeof(*th), p))
		return ECPROXY_DROP_BAD_OPTIONS;
	if (!ecp_flags_ok(p->h.flags, p->len))
		return ECPROXY_DROP_BAD_FLAGS;
	return 0;
}

/*
 * ICMP "fragmentation needed" about a segment S sent from a VIP, to a
 * client or a source: a router beyond the first hop has a smaller MTU
 * (S sends with DF).  As TCP does (tcp_v4_err()), the connection checks
 * that the quoted sequence number is one it has in flight, then lowers
 * the route's path MTU and its MSS.  The message goes on to S's stack
 * either way (NF_ACCEPT): it may be about one of S's own sockets.
 */
static void ecp_hook_icmp(struct net *net, struct sk_buff *skb,
			  unsigned int hook)
{
	unsigned int off = ip_hdrlen(skb), inoff, inlen;
	const struct icmphdr *icmph;
	const struct iphdr *in;
	const struct tcphdr *th;
	struct ecp_conn_peer *peer;
	struct ecp_task *t;
	struct ecp_seg p = {};
	u32 mtu, seq;

	/* The quoted header and the first 8 bytes of TCP: ports, seq. */
	if (!pskb_may_pull(skb, off + sizeof(*icmph) + sizeof(*in)))
		return;
	icmph = (const struct icmphdr *)(skb->data + off);
	if (icmph->type != ICMP_DEST_UNREACH ||
	    icmph->code != ICMP_FRAG_NEEDED)
		return;
	/* A damaged message must not lower an MTU (icmp_rcv() checks later). */
	if (nf_ip_checksum(skb, hook, off, IPPROTO_ICMP))
		return;
	inoff = off + sizeof(*icmph);
	in = (const struct iphdr *)(skb->data + inoff);
	inlen = in->ihl * 4;
	if (in->protocol != IPPROTO_TCP || inlen < sizeof(*in) ||
	    !pskb_may_pull(skb, inoff + inlen + 8))
		return;
	icmph = (const struct icmphdr *)(skb->data + off);
	in = (const struct iphdr *)(skb->data + inoff);
	th = (const struct tcphdr *)(skb->data + inoff + inlen);
	mtu = ntohs(icmph->un.frag.mtu);
	seq = ntohl(th->seq);
	/* The quoted segment as it looks from its receiver's side. */
	p.h.saddr = in->daddr;
	p.h.daddr = in->saddr;
	p.h.sport = th->dest;
	p.h.dport = th->source;
	/* ipv4_update_pmtu() reads the quoted header at skb->data. */
	__skb_pull(skb, inoff);
	t = ecp_task_lookup_vip(ecp_net(net), AF_INET,
				(const union nf_inet_addr *)&in->saddr,
				th->source);
	if (!t || !ecp_conn_rcv_icmp_client(net, t, skb, &p, seq, mtu)) {
		peer = ecp_conn_lookup_peer(net, &p);
		if (peer && peer->role == ECP_PEER_SRC)
			ecp_conn_rcv_icmp_src(net, ecp_conn_peer_src(peer), skb,
					      seq, mtu);
		else if (peer)
			ecp_conn_rcv_icmp_tgt(net, ecp_conn_peer_out(peer),
					      skb, seq, mtu);
	}
	__skb_push(skb, inoff);
}

static unsigned int ecp_hook_in(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	struct net *net = state->net;
	struct ecp_conn_peer *peer = NULL;
	struct ecp_task *t;
	const struct iphdr *iph;
	const struct tcphdr *th;
	struct ecp_seg p;
	unsigned int thoff;
	int reason;

	iph = ip_hdr(skb);
	/*
	 * Fragments cannot be matched by port: defrag (enabled with the
	 * hook) runs before us, so only what it could not reassemble yet is
	 * seen here.
	 */
	if (ip_is_fragment(iph))
		return NF_ACCEPT;
	if (iph->protocol == IPPROTO_ICMP) {
		ecp_hook_icmp(net, skb, state->hook);
		return NF_ACCEPT;
	}
	if (iph->protocol != IPPROTO_TCP)
		return NF_ACCEPT;
	thoff = iph->ihl * 4;
	/*
	 * The ports are enough to tell whether a segment is ours; one of
	 * ours whose header is cut short is dropped and counted below.
	 */
	if (!pskb_may_pull(skb, thoff + 2 * sizeof(__be16)))
		return NF_ACCEPT;
	iph = ip_hdr(skb);
	th = (const struct tcphdr *)(skb->data + thoff);
	p.h.saddr = iph->saddr;
	p.h.daddr = iph->daddr;
	p.h.sport = th->source;
	p.h.dport = th->dest;

	/* nf_hook() runs hooks under rcu_read_lock(). */
	t = ecp_task_lookup_vip(ecp_net(net), AF_INET,
				(const union nf_inet_addr *)&iph->daddr,
				th->dest);
	if (!t) {
		peer = ecp_conn_lookup_peer(net, &p);
		if (!peer)
			return NF_ACCEPT;
	}

	if (!pskb_may_pull(skb, thoff + sizeof(*th)))
		reason = ECPROXY_DROP_TRUNCATED;
	else
		reason = ecp_parse(skb, state, thoff, &p);
	if (reason) {
		if (t)
			ecp_stats_drop(&t->stats, reason);
		else
			ecp_conn_peer_drop(peer, reason);
		kfree_skb(skb);
		return NF_STOLEN;
	}
	if (t)
		ecp_conn_rcv_client(net, t, skb, &p);
	else if (peer->role == ECP_PEER_SRC)
		ecp_conn_rcv_src(net, ecp_conn_peer_src(peer), skb, &p);
	else
		ecp_conn_rcv_tgt(net, ecp_conn_peer_out(peer), skb, &p);
	consume_skb(skb);
	return NF_STOLEN;
}

/*
 * Priority: after defragmentation (NF_IP_PRI_CONNTRACK_DEFRAG, -400, which
 * ecp_hook_register() enables), so that a fragmented segment is seen
 * whole, and before raw (-300) and conntrack (-200), so that the proxied
 * flows never create conntrack entries nor get dropped as INVALID by it:
 * the segments are consumed here and S's own stack never sees them.  An
 * operator who wants to filter what reaches a VIP does it earlier: in the
 * netdev ingress hook, or an ip prerouting chain below -400 (README,
 * "Deploying on a router").
 */
static const struct nf_hook_ops ecp_hook_ops[] = {
	{
		.hook = ecp_hook_in,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_PRE_ROUTING,
		.priority = NF_IP_PRI_CONNTRACK_DEFRAG + 1,
	},
};

int ecp_hook_register(struct net *net)
{
	int ret;

	ret = nf_defrag_ipv4_enable(net);
	if (ret)
		return ret;
	ret = nf_register_net_hooks(net, ecp_hook_ops,
				    ARRAY_SIZE(ecp_hook_ops));
	if (ret)
		nf_defrag_ipv4_disable(net);
	return ret;
}

void ecp_hook_unregister(struct net *net)
{
	nf_unregister_net_hooks(net, ecp_hook_ops, ARRAY_SIZE(ecp_hook_ops));
	nf_defrag_ipv4_disable(net);
}
