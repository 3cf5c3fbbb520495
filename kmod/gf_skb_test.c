// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ecp_gf_mul_acc_skb(): the result for every skb layout
 * must equal the flat computation on the same bytes, for ranges that start,
 * end and cross at every fragment boundary.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "gf.h"
#include "gf_ref_test.h"

#define MAX_BOUNDS	16
#define GUARD		32

struct skb_layout {
	const char *name;
	struct sk_buff *(*build)(struct kunit *test, const u8 *data,
				 int *len, int *bounds, int *nbounds);
};

static struct sk_buff *linear_skb(const u8 *data, int len)
{
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);

	if (skb)
		skb_put_data(skb, data, len);
	return skb;
}

/* Append one page fragment holding data[0..size) at byte off of a page. */
static int add_frag(struct sk_buff *skb, const u8 *data, int off, int size,
		    unsigned int order)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, order);

	if (!page)
		return -ENOMEM;
	memcpy(page_address(page) + off, data, size);
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page, off, size,
			PAGE_SIZE << order);
	return 0;
}

/* Head, then fragments with odd offsets and sizes, one across two pages. */
static const struct {
	int off, size;
	unsigned int order;
} paged_frags[] = {
	{ 3, 1 }, { 1, 100 }, { 4095, 1 }, { 17, 1449 },
	{ PAGE_SIZE - 100, 300, 1 }, { 0, 4096 }, { 2001, 7 },
};

#define PAGED_HEAD	37

static struct sk_buff *paged_skb(struct kunit *test, const u8 *data,
				 int *len, int *bounds, int *nb)
{
	struct sk_buff *skb = linear_skb(data, PAGED_HEAD);
	int i, pos = PAGED_HEAD;

	if (!skb)
		return NULL;
	bounds[(*nb)++] = pos;
	for (i = 0; i < ARRAY_SIZE(paged_frags); i++) {
		if (add_frag(skb, data + pos, paged_frags[i].off,
			     paged_frags[i].size, paged_frags[i].order)) {
			kfree_skb(skb);
			return NULL;
		}
		pos += paged_frags[i].size;
		bounds[(*nb)++] = pos;
	}
	*len = pos;
	return skb;
}

static struct sk_buff *linear_only_skb(struct kunit *test, const u8 *data,
				       int *len, int *bounds, int *nb)
{
	*len = 3001;
	return linear_skb(data, *len);
}

/*
 * Head (linear + one frag) with a frag_list of a linear skb and a paged
 * skb, like GRO produces.
 */
static struct sk_buff *fraglist_skb(struct kunit *test, const u8 *data,
				    int *len, int *bounds, int *nb)
{
	struct sk_buff *head, *c1, *c2;
	int clen;

	head = linear_skb(data, 50);
	c1 = linear_skb(data + 50 + 333, 1448);
	c2 = linear_skb(data + 50 + 333 + 1448, 20);
	if (!head || !c1 || !c2)
		goto err;
	if (add_frag(head, data + 50, 5, 333, 0) ||
	    add_frag(c2, data + 50 + 333 + 1448 + 20, 11, 2000, 0) ||
	    add_frag(c2, data + 50 + 333 + 1448 + 20 + 2000, 0, 1, 0))
		goto err;
	bounds[(*nb)++] = 50;
	bounds[(*nb)++] = 50 + 333;
	bounds[(*nb)++] = 50 + 333 + 1448;
	bounds[(*nb)++] = 50 + 333 + 1448 + 20;
	bounds[(*nb)++] = 50 + 333 + 1448 + 20 + 2000;

	skb_shinfo(head)->frag_list = c1;
	c1->next = c2;
	clen = c1->len + c2->len;
	head->len += clen;
	head->data_len += clen;
	head->truesize += c1->truesize + c2->truesize;
	*len = head->len;
	return head;
err:
	kfree_skb(head);
	kfree_skb(c1);
	kfree_skb(c2);
	return NULL;
}

static const struct skb_layout layouts[] = {
	{ "linear", linear_only_skb },
	{ "paged", paged_skb },
	{ "frag_list", fraglist_skb },
};

static void layout_desc(const struct skb_layout *l, char *desc)
{
	strscpy(desc, l->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skb_layout, layouts, layout_desc);

struct skb_ctx {
	struct kunit *test;
	struct sk_buff *skb;
	const u8 *data;
	u8 *dst, *want, row[256];
	struct ecp_gf_coef k;
	int len;
	bool store;	/* ecp_gf_mul_skb(), not ecp_gf_mul_acc_skb() */
};

static bool check_range(struct skb_ctx *x, int off, int len)
{
	int i, ret;

	memset(x->dst, 0xa5, len + 2 * GUARD);
	memset(x->want, 0xa5, len + 2 * GUARD);
	for (i = 0; i < len; i++)
		x->want[GUARD + i] = x->row[x->data[off + i]] ^
				     (x->store ? 0 : 0xa5);
	if (x->store)
		ret = ecp_gf_mul_skb(&x->k, x->dst + GUARD, x->skb, off, len);
	else
		ret = ecp_gf_mul_acc_skb(&x->k, x->dst + GUARD, x->skb, off,
					 len);
	KUNIT_EXPECT_EQ_MSG(x->test, ret, 0, "off %d len %d%s", off, len,
			    x->store ? " (store)" : "");
	for (i = 0; i < len + 2 * GUARD; i++) {
		if (x->dst[i] != x->want[i]) {
			KUNIT_FAIL(x->test, "c %#x off %d len %d%s: dst[%d] is %#x, want %#x",
				   x->k.c, off, len,
				   x->store ? " (store)" : "", i - GUARD,
				   x->dst[i], x->want[i]);
			return false;
		}
	}
	return true;
}

static void set_coef(struct skb_ctx *x, u8 c)
{
	int i;

	ecp_gf_coef_init(&x->k, c);
	for (i = 0; i < 256; i++)
		x->row[i] = ecp_gf_ref_mul(c, i);
}

#define DATA_MAX	(3 * PAGE_SIZE)

static void gf_skb_test(struct kunit *test)
{
	static const u8 coefs[] = { 0x02, 0x8e, 0x01, 0xff, 0x00 };
	const struct skb_layout *l = test->param_value;
	int bounds[MAX_BOUNDS + 2], nb = 0, i, j, a, b, off, len, n = 0;
	struct skb_ctx x = { .test = test };
	u8 *data, *flat;
	u32 seed = 1;

	data = kunit_kmalloc(test, DATA_MAX, GFP_KERNEL);
	flat = kunit_kmalloc(test, DATA_MAX, GFP_KERNEL);
	x.dst = kunit_kmalloc(test, DATA_MAX + 2 * GUARD, GFP_KERNEL);
	x.want = kunit_kmalloc(test, DATA_MAX + 2 * GUARD, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_NOT_NULL(test, flat);
	KUNIT_ASSERT_NOT_NULL(test, x.dst);
	KUNIT_ASSERT_NOT_NULL(test, x.want);
	for (i = 0; i < DATA_MAX; i++) {
		seed = seed * 1664525u + 1013904223u;
		data[i] = seed >> 24;
	}

	bounds[nb++] = 0;
	x.skb = l->build(test, data, &x.len, bounds, &nb);
	KUNIT_ASSERT_NOT_NULL(test, x.skb);
	KUNIT_ASSERT_LE(test, x.len, DATA_MAX);
	KUNIT_ASSERT_EQ(test, (int)x.skb->len, x.len);
	bounds[nb++] = x.len;
	x.data = data;
	/* The builder must have laid the bytes out as intended. */
	KUNIT_ASSERT_EQ(test, skb_copy_bits(x.skb, 0, flat, x.len), 0);
	KUNIT_ASSERT_EQ(test, memcmp(flat, data, x.len), 0);

	/* Every range between points next to fragment boundaries. */
	for (i = 0; i < nb; i++) {
		for (j = i; j < nb; j++) {
			for (a = -1; a <= 1; a++) {
				for (b = -1; b <= 1; b++) {
					off = bounds[i] + a;
					len = bounds[j] + b - off;
					if (off < 0 || len < 0 ||
					    off + len > x.len)
						continue;
					set_coef(&x, coefs[n % ARRAY_SIZE(coefs)]);
					/* Both forms, with every coefficient. */
					x.store = (n++ / ARRAY_SIZE(coefs)) & 1;
					if (!check_range(&x, off, len))
						goto out;
				}
			}
		}
	}
	/* And a sweep of starting points with varied lengths. */
	set_coef(&x, 0x3d);
	for (off = 0; off < x.len; off += 7) {
		len = min(x.len - off, (off * 37) % 1700);
		x.store = off & 8;
		if (!check_range(&x, off, len))
			goto out;
	}

	KUNIT_EXPECT_EQ(test, ecp_gf_mul_acc_skb(&x.k, x.dst, x.skb, 0,
						 x.len + 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_acc_skb(&x.k, x.dst, x.skb, x.len, 1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_acc_skb(&x.k, x.dst, x.skb, -1, 1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_acc_skb(&x.k, x.dst, x.skb, 0, -1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_acc_skb(&x.k, x.dst, x.skb, x.len, 0),
			0);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_skb(&x.k, x.dst, x.skb, 0, x.len + 1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_skb(&x.k, x.dst, x.skb, -1, 1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_gf_mul_skb(&x.k, x.dst, x.skb, x.len, 0), 0);
out:
	kfree_skb(x.skb);
}

static struct kunit_case ecp_gf_skb_test_cases[] = {
	KUNIT_CASE_PARAM(gf_skb_test, skb_layout_gen_params),
	{}
};

static struct kunit_suite ecp_gf_skb_test_suite = {
	.name = "ecproxy_gf_skb",
	.test_cases = ecp_gf_skb_test_cases,
};
kunit_test_suite(ecp_gf_skb_test_suite);
