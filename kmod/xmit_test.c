// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the segments S builds (xmit.c): headers, the checksum
 * set-up for offload, GSO fields, and payload that lives in order-0 page
 * fragments only, whatever its size, so that a re-sent 9000-byte segment
 * needs no contiguous memory in softirq.
 */
#include <asm/unaligned.h>
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <net/tcp.h>

#include "xmit.h"

static const struct ecp_tcp_hdr hdr = {
	.saddr = cpu_to_be32(0x0a630001),
	.daddr = cpu_to_be32(0x0a000102),
	.sport = cpu_to_be16(7000),
	.dport = cpu_to_be16(40000),
	.seq = 1000,
	.ack = 2000,
	.win = 512,
	.flags = TCPHDR_ACK,
	.wscale = -1,
};

static void ecp_xmit_check_headers(struct kunit *test, struct sk_buff *skb,
				   unsigned int paylen)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct tcphdr *th = tcp_hdr(skb);

	KUNIT_EXPECT_EQ(test, (int)iph->version, 4);
	KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_TCP);
	KUNIT_EXPECT_EQ(test, iph->saddr, hdr.saddr);
	KUNIT_EXPECT_EQ(test, iph->daddr, hdr.daddr);
	KUNIT_EXPECT_TRUE(test, iph->frag_off & htons(IP_DF));
	KUNIT_EXPECT_EQ(test, th->source, hdr.sport);
	KUNIT_EXPECT_EQ(test, th->dest, hdr.dport);
	KUNIT_EXPECT_EQ(test, ntohl(th->seq), hdr.seq);
	KUNIT_EXPECT_EQ(test, ntohl(th->ack_seq), hdr.ack);
	KUNIT_EXPECT_EQ(test, ntohs(th->window), hdr.win);
	KUNIT_EXPECT_EQ(test, (int)skb->ip_summed, CHECKSUM_PARTIAL);
	KUNIT_EXPECT_EQ(test, skb->len,
			(unsigned int)(sizeof(*iph) + sizeof(*th) + paylen));
	/* The pseudo header's sum, which offload completes. */
	KUNIT_EXPECT_EQ(test, th->check,
			(__sum16)~tcp_v4_check(sizeof(*th) + paylen, hdr.saddr,
					       hdr.daddr, 0));
}

static void ecp_xmit_control_test(struct kunit *test)
{
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	KUNIT_ASSERT_EQ(test, ecp_tcp_build(&q, &hdr), 0);
	skb = __skb_dequeue(&q);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	ecp_xmit_check_headers(test, skb, 0);
	KUNIT_EXPECT_EQ(test, skb->data_len, 0U);
	kfree_skb(skb);
}

/* A SYN's options: MSS, window scale, SACK-permitted, each 32-bit aligned. */
static void ecp_xmit_syn_test(struct kunit *test)
{
	static const u8 want[] = { TCPOPT_MSS, TCPOLEN_MSS, 0x05, 0xb4,
				   TCPOPT_NOP, TCPOPT_WINDOW, TCPOLEN_WINDOW, 7,
				   TCPOPT_NOP, TCPOPT_NOP, TCPOPT_SACK_PERM,
				   TCPOLEN_SACK_PERM };
	struct ecp_tcp_hdr h = hdr;
	struct sk_buff_head q;
	struct sk_buff *skb;
	const struct tcphdr *th;

	h.flags = TCPHDR_SYN | TCPHDR_ACK;
	h.mss = 1460;
	h.wscale = 7;
	h.sack_ok = true;
	__skb_queue_head_init(&q);
	KUNIT_ASSERT_EQ(test, ecp_tcp_build(&q, &h), 0);
	skb = __skb_dequeue(&q);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	th = tcp_hdr(skb);
	KUNIT_EXPECT_EQ(test, th->doff * 4U, sizeof(*th) + sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(th + 1, want, sizeof(want)), 0);
	kfree_skb(skb);

	/* Only a SYN carries them. */
	h.flags = TCPHDR_ACK;
	KUNIT_ASSERT_EQ(test, ecp_tcp_build(&q, &h), 0);
	skb = __skb_dequeue(&q);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, tcp_hdr(skb)->doff * 4U, sizeof(*th));
	kfree_skb(skb);
}

/*
 * Timestamps (RFC 7323): on a SYN sharing a word with SACK-permitted, as
 * Linux lays them out; on other segments after two NOPs, leaving room for
 * three SACK blocks, the most a 60-byte header holds beside them.
 */
static void ecp_xmit_ts_test(struct kunit *test)
{
	static const u8 syn[] = { TCPOPT_MSS, TCPOLEN_MSS, 0x05, 0xb4,
				  TCPOPT_NOP, TCPOPT_WINDOW, TCPOLEN_WINDOW, 7,
				  TCPOPT_SACK_PERM, TCPOLEN_SACK_PERM,
				  TCPOPT_TIMESTAMP, TCPOLEN_TIMESTAMP,
				  0x01, 0x02, 0x03, 0x04, 0, 0, 0, 0 };
	static const u8 ack[] = { TCPOPT_NOP, TCPOPT_NOP, TCPOPT_TIMESTAMP,
				  TCPOLEN_TIMESTAMP, 0x01, 0x02, 0x03, 0x04,
				  0xfe, 0xdc, 0xba, 0x98,
				  TCPOPT_NOP, TCPOPT_NOP, TCPOPT_SACK,
				  TCPOLEN_SACK_BASE + 3 * TCPOLEN_SACK_PERBLOCK };
	struct ecp_tcp_hdr h = hdr;
	const struct tcphdr *th;
	struct sk_buff_head q;
	struct sk_buff *skb;
	unsigned int i;

	h.flags = TCPHDR_SYN;
	h.mss = 1460;
	h.wscale = 7;
	h.sack_ok = true;
	h.ts = true;
	h.tsval = 0x01020304;
	__skb_queue_head_init(&q);
	KUNIT_ASSERT_EQ(test, ecp_tcp_build(&q, &h), 0);
	skb = __skb_dequeue(&q);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	th = tcp_hdr(skb);
	KUNIT_EXPECT_EQ(test, th->doff * 4U, sizeof(*th) + sizeof(syn));
	KUNIT_EXPECT_EQ(test, memcmp(th + 1, syn, sizeof(syn)), 0);
	kfree_skb(skb);

	h.flags = TCPHDR_ACK;
	h.tsecr = 0xfedcba98;
	KUNIT_EXPECT_EQ(test, ecp_tcp_sack_max(&h), 3U);
	h.nsack = ecp_tcp_sack_max(&h);
	for (i = 0; i < h.nsack; i++) {
		h.sack[i].start_seq = 1000 * (i + 2);
		h.sack[i].end_seq = 1000 * (i + 2) + 500;
	}
	KUNIT_ASSERT_EQ(test, ecp_tcp_build(&q, &h), 0);
	skb = __skb_dequeue(&q);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	th = tcp_hdr(skb);
	KUNIT_EXPECT_EQ(test, th->doff * 4U, 60U);
	KUNIT_EXPECT_EQ(test, memcmp(th + 1, ack, sizeof(ack)), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32((u8 *)(th + 1) + 16 + 16),
			4000U);
	kfree_skb(skb);

	/* Without them, four blocks fit. */
	h.ts = false;
	KUNIT_EXPECT_EQ(test, ecp_tcp_sack_max(&h), 4U);
}

/* Payload sizes: one byte, an MSS at 1500 and at 9000, a GSO packet. */
static const unsigned int ecp_xmit_lens[] = { 1, 1448, 8948, ECP_GSO_MAX };

static void ecp_xmit_data_test(struct kunit *test)
{
	unsigned int mss = 8948, i, f;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	for (i = 0; i < ARRAY_SIZE(ecp_xmit_lens); i++) {
		unsigned int len = ecp_xmit_lens[i], sum = 0;
		struct sk_buff *skb;

		skb = ecp_tcp_build_data(&q, &hdr, len, mss);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		__skb_unlink(skb, &q);
		ecp_xmit_check_headers(test, skb, len);
		/* Only headers in the head: the payload is paged. */
		KUNIT_EXPECT_EQ(test, skb_headlen(skb),
				ecp_tcp_payload_offset(skb));
		KUNIT_EXPECT_EQ(test, skb->data_len, len);
		for (f = 0; f < skb_shinfo(skb)->nr_frags; f++) {
			unsigned int n = skb_frag_size(&skb_shinfo(skb)->frags[f]);

			KUNIT_EXPECT_LE(test, n, (unsigned int)PAGE_SIZE);
			sum += n;
		}
		KUNIT_EXPECT_EQ(test, sum, len);
		/* A receiver charges the payload, not the pages under it. */
		KUNIT_EXPECT_LE(test, skb->truesize,
				SKB_TRUESIZE(skb_end_offset(skb)) + len);
		if (len > mss) {
			KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_size, mss);
			KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_segs,
					DIV_ROUND_UP(len, mss));
		} else {
			KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_size, 0);
		}
		kfree_skb(skb);
	}
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&q));
}

/* Copying from a linear and from a paged skb lands every byte. */
static void ecp_xmit_copy_test(struct kunit *test)
{
	unsigned int len = 9000, head = 100, i;
	struct sk_buff *from, *to;
	int err;
	struct sk_buff_head q;
	u8 *want, *got;

	want = kunit_kmalloc(test, len, GFP_KERNEL);
	got = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0; i < len; i++)
		want[i] = i * 7 + (i >> 8);
	/* A head of @head bytes, the rest in pages, as GRO leaves it. */
	from = alloc_skb_with_frags(head, len - head, 0, &err, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, from);
	skb_put(from, head);
	from->len += len - head;
	from->data_len = len - head;
	KUNIT_ASSERT_EQ(test, skb_store_bits(from, 0, want, len), 0);

	__skb_queue_head_init(&q);
	to = ecp_tcp_build_data(&q, &hdr, len - 17, 1448);
	KUNIT_ASSERT_NOT_NULL(test, to);
	__skb_unlink(to, &q);
	KUNIT_EXPECT_EQ(test, ecp_tcp_copy_payload(to, from, 17, len - 17), 0);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(to, ecp_tcp_payload_offset(to),
					    got, len - 17), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, want + 17, len - 17), 0);
	/* More than the source has is refused. */
	KUNIT_EXPECT_NE(test, ecp_tcp_copy_payload(to, from, 18, len - 17), 0);
	kfree_skb(to);
	kfree_skb(from);
}

static struct kunit_case ecp_xmit_test_cases[] = {
	KUNIT_CASE(ecp_xmit_control_test),
	KUNIT_CASE(ecp_xmit_syn_test),
	KUNIT_CASE(ecp_xmit_ts_test),
	KUNIT_CASE(ecp_xmit_data_test),
	KUNIT_CASE(ecp_xmit_copy_test),
	{}
};

static struct kunit_suite ecp_xmit_test_suite = {
	.name = "ecproxy_xmit",
	.test_cases = ecp_xmit_test_cases,
};

kunit_test_suite(ecp_xmit_test_suite);
