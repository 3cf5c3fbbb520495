// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the decode buffer: span arithmetic on a table of cases,
 * memory reused after a release, occupancy, the skb form, and random
 * accumulation runs checked against a flat model of the stream.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "dbuf.h"
#include "gf.h"
#include "gf_ref_test.h"
#include "ivset.h"

#define G4	0x100000000ULL

static void ecp_dbuf_init_test(struct kunit *test)
{
	struct ecp_dbuf d;
	u32 i;

	KUNIT_EXPECT_EQ(test, ecp_dbuf_init(&d, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_init(&d, (1U << 30) + 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, 3001), 0);
	for (i = 0; i < d.size; i++)
		KUNIT_ASSERT_EQ(test, d.buf[i], 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_base(&d), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_limit(&d), 3001);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 0);
	ecp_dbuf_destroy(&d);
	KUNIT_EXPECT_NULL(test, d.buf);
}

struct ecp_dbuf_span_case {
	const char *name;
	u32 size;
	u64 base;
	u64 off;
	u32 len;
	int ret;
	u32 pos0, len0, len1;	/* piece 1, when present, is at buf[0] */
};

static const struct ecp_dbuf_span_case ecp_dbuf_span_cases[] = {
	{ "start", 1000, 0, 0, 100, 0, 0, 100, 0 },
	{ "whole_window", 1000, 0, 0, 1000, 0, 0, 1000, 0 },
	{ "one_past_window", 1000, 0, 1, 1000, -ENOBUFS },
	{ "longer_than_ring", 1000, 0, 0, 1001, -ENOBUFS },
	{ "far_beyond", 1000, 0, 5000, 10, -ENOBUFS },
	{ "below_base", 1000, 500, 499, 10, -ERANGE },
	{ "at_base", 1000, 500, 500, 10, 0, 500, 10, 0 },
	{ "ends_at_ring_end", 1000, 900, 900, 100, 0, 900, 100, 0 },
	{ "wraps", 1000, 900, 950, 100, 0, 950, 50, 50 },
	{ "starts_at_ring_start", 1000, 900, 1000, 100, 0, 0, 100, 0 },
	{ "whole_window_wrapped", 1000, 1300, 1300, 1000, 0, 300, 700, 300 },
	{ "empty_at_limit", 1000, 0, 1000, 0, 0, 0, 0, 0 },
	{ "empty_past_limit", 1000, 0, 1001, 0, -ENOBUFS },
	{ "odd_size_wrap", 1501, 3100, 4490, 20, 0, 1488, 13, 7 },
	{ "past_4g", 1000, 5 * G4 + 100, 5 * G4 + 500, 50, 0, 980, 20, 30 },
	{ "past_4g_window_edge", 1000, 5 * G4 + 100, 5 * G4 + 1051, 50,
	  -ENOBUFS },
	{ "past_4g_below_base", 1000, 5 * G4 + 100, 100, 50, -ERANGE },
	{ "at_2_pow_40", 4096, (1ULL << 40) + 200, (1ULL << 40) + 4000, 200, 0,
	  4000, 96, 104 },
};

static void ecp_dbuf_span_desc(const struct ecp_dbuf_span_case *c,
			       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_dbuf_span, ecp_dbuf_span_cases, ecp_dbuf_span_desc);

static void ecp_dbuf_span_test(struct kunit *test)
{
	const struct ecp_dbuf_span_case *c = test->param_value;
	struct ecp_dbuf_span sp;
	struct ecp_dbuf d;

	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, c->size), 0);
	ecp_dbuf_reset(&d, c->base);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_span(&d, c->off, c->len, &sp), c->ret);
	if (!c->ret) {
		KUNIT_EXPECT_PTR_EQ(test, sp.ptr[0], d.buf + c->pos0);
		KUNIT_EXPECT_EQ(test, sp.len[0], c->len0);
		KUNIT_EXPECT_EQ(test, sp.len[1], c->len1);
		if (sp.len[1])
			KUNIT_EXPECT_PTR_EQ(test, sp.ptr[1], d.buf);
		KUNIT_EXPECT_EQ(test, sp.len[0] + sp.len[1], c->len);
	}
	/* Looking does not count as writing. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 0);
	ecp_dbuf_destroy(&d);
}

/*
 * Released memory is not zeroed but stored over: bytes written again read
 * as the new product alone, never added to what was there; others keep
 * their sums, across the wrap; what was never written reads as zero.
 */
static void ecp_dbuf_release_test(struct kunit *test)
{
	struct ecp_gf_coef one;
	struct ecp_dbuf d;
	u8 src[100], out[100];
	u32 i;

	memset(src, 0xff, sizeof(src));
	ecp_gf_coef_init(&one, 1);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, 100), 0);
	ecp_dbuf_reset(&d, 50);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 50, src, 100), 0);
	for (i = 0; i < 100; i++)
		KUNIT_ASSERT_EQ(test, d.buf[i], 0xff);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 100);

	ecp_dbuf_release(&d, 120);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_base(&d), 120);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 30);
	/* Offsets 150..169 reuse buf[50..69]: stored, not added. */
	memset(src, 0x0f, sizeof(src));
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 150, src, 20), 0);
	/* 120..149 keep 0xff and get 0x0f added; 170..219 were never written. */
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 140, src, 10), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, 120, out, 100), 0);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, out[i],
				i < 20 ? 0xff : i < 30 ? 0xf0 : i < 50 ? 0x0f :
				0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 50);

	/* Old and duplicate ACKs change nothing. */
	ecp_dbuf_release(&d, 110);
	ecp_dbuf_release(&d, 120);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_base(&d), 120);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, 120, out, 1), 0);
	KUNIT_EXPECT_EQ(test, out[0], 0xff);

	/* An ACK far beyond the window leaves it empty: it reads as zero. */
	ecp_dbuf_release(&d, 120 + 5 * 100 + 7);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_base(&d), 627);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, 627, out, 100), 0);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, out[i], 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_peak(&d), 100);
	/* Reading is not writing. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 0);

	/*
	 * A reset for the next connection over memory full of sums: its
	 * writes are stored, the gap before a write that starts further on
	 * reads zero, and so does what nothing reached.
	 */
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 700, src, 27), 0);
	memset(d.buf, 0xa5, d.size);
	ecp_dbuf_reset(&d, 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_peak(&d), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 30, src, 10), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 35, src, 10), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, 0, out, 100), 0);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, out[i],
				i < 30 || i >= 45 ? 0 : i < 35 || i >= 40 ?
				0x0f : 0);
	ecp_dbuf_destroy(&d);
}

/* One ring added to another (a spare's check ring to a row). */
static void ecp_dbuf_mul_acc_dbuf_test(struct kunit *test)
{
	struct ecp_gf_coef one, two;
	struct ecp_dbuf d, q;
	u8 src[64], out[64];
	u32 i;

	ecp_gf_coef_init(&one, 1);
	ecp_gf_coef_init(&two, 2);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, 100), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&q, 100), 0);
	memset(d.buf, 0xa5, d.size);
	memset(q.buf, 0x5a, q.size);
	ecp_dbuf_reset(&d, 3 * G4 + 80);
	ecp_dbuf_reset(&q, 3 * G4 + 80);
	for (i = 0; i < sizeof(src); i++)
		src[i] = i + 1;
	/* The row has [80, 100); the check ring [80, 144), across the wrap. */
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 3 * G4 + 80, src,
					       20), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc(&q, &one, 3 * G4 + 80, src,
					       64), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_mul_acc_dbuf(&d, &two, &q, 3 * G4 + 80,
						    64), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, 3 * G4 + 80, out, 64), 0);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, out[i],
				(i < 20 ? src[i] : 0) ^ ecp_gf_mul1(2, src[i]));
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 64);
	/* Past either window: refused, nothing written. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_dbuf(&d, &two, &q, 3 * G4 + 150,
						    40), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_dbuf(&d, &two, &q, 3 * G4 + 79,
						    4), -ERANGE);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 64);
	ecp_dbuf_destroy(&q);
	ecp_dbuf_destroy(&d);
}

static void ecp_dbuf_occupancy_test(struct kunit *test)
{
	struct ecp_gf_coef one;
	struct ecp_dbuf d;
	u8 src[64] = {};

	ecp_gf_coef_init(&one, 1);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, 1000), 0);
	ecp_dbuf_reset(&d, 3 * G4);
	/* Out of order: occupancy follows the highest byte written. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 3 * G4 + 500, src,
					       64), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 564);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 3 * G4, src, 64), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 564);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_peak(&d), 564);
	/* A refused write does not count. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 3 * G4 + 990, src,
					       64), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 564);
	ecp_dbuf_release(&d, 3 * G4 + 200);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 364);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc(&d, &one, 3 * G4 + 1150, src,
					       50), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 1000);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_peak(&d), 1000);
	ecp_dbuf_release(&d, 3 * G4 + 1300);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_peak(&d), 1000);
	ecp_dbuf_wrote(&d, 3 * G4 + 1310);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 10);
	ecp_dbuf_destroy(&d);
}

/* The skb form across the wrap, and its refusals writing nothing. */
static void ecp_dbuf_skb_test(struct kunit *test)
{
	struct ecp_gf_coef one;
	struct sk_buff *skb;
	struct ecp_dbuf d;
	u8 data[300], out[300];
	u32 i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = i * 7 + 1;
	ecp_gf_coef_init(&one, 1);
	skb = alloc_skb(sizeof(data) + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	skb_put_data(skb, data, sizeof(data));
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, 256), 0);
	ecp_dbuf_reset(&d, G4 - 100);

	/* skb bytes 40..240 to offsets G4 - 100 .. G4 + 100, wrapping. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_skb(&d, &one, G4 - 100, skb,
						   40, 200), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, G4 - 100, out, 200), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, data + 40, 200), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 200);

	memset(out, 0, sizeof(out));
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_skb(&d, &one, G4 - 100, skb,
						   200, 101), -EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_skb(&d, &one, G4 - 100, skb,
						   -1, 10), -EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_skb(&d, &one, G4 + 100, skb,
						   0, 57), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_skb(&d, &one, G4 - 101, skb,
						   0, 10), -ERANGE);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, G4 - 100, out, 256), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, data + 40, 200), 0);
	for (i = 200; i < 256; i++)
		KUNIT_EXPECT_EQ(test, out[i], 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_occupancy(&d), 200);

	/* Applying the same bytes again cancels them (why ivset exists). */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_mul_acc_skb(&d, &one, G4 - 100, skb,
						   40, 200), 0);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, G4 - 100, out, 256), 0);
	for (i = 0; i < 256; i++)
		KUNIT_EXPECT_EQ(test, out[i], 0);
	kfree_skb(skb);
	ecp_dbuf_destroy(&d);
}

/*
 * Two sources with overlapping, duplicate, out-of-order and refused
 * segments: every byte ends up as c1 * x ^ c2 * y exactly once.
 */
#define APPLY_LEN	2000

struct ecp_dbuf_apply_src {
	struct ecp_gf_coef coef;
	struct ecp_ivset iv;
	struct sk_buff *skb;
	u8 data[APPLY_LEN];
	bool applied[APPLY_LEN];
	u8 c;
};

static s64 ecp_dbuf_apply_seg(struct ecp_dbuf *d, struct ecp_dbuf_apply_src *x,
			      u64 start, u32 from, u32 to)
{
	s64 ret = ecp_dbuf_apply_skb(d, &x->iv, &x->coef, start + from, x->skb,
				     from, to - from);
	u64 base = ecp_dbuf_base(d);
	u32 i;

	if (ret >= 0)
		for (i = from; i < to; i++)
			if (start + i >= base)
				x->applied[i] = true;
	return ret;
}

static void ecp_dbuf_apply_check(struct kunit *test, struct ecp_dbuf *d,
				 struct ecp_dbuf_apply_src *x, u64 start)
{
	u64 base = ecp_dbuf_base(d);
	u32 i, n = min_t(u64, start + APPLY_LEN, ecp_dbuf_limit(d)) - base;
	u8 *out = kunit_kmalloc(test, n, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_read(d, base, out, n), 0);
	for (i = 0; i < n; i++) {
		u32 r = base - start + i;
		u8 want = 0;

		if (x[0].applied[r])
			want ^= ecp_gf_ref_mul(x[0].c, x[0].data[r]);
		if (x[1].applied[r])
			want ^= ecp_gf_ref_mul(x[1].c, x[1].data[r]);
		KUNIT_ASSERT_EQ_MSG(test, out[i], want, "offset %u", r);
	}
}

static void ecp_dbuf_apply_test(struct kunit *test)
{
	const u64 start = G4 - 300;	/* wraps at the ring's end at once */
	struct ecp_dbuf_apply_src *x;
	struct rnd_state rnd;
	struct ecp_dbuf d;
	unsigned int i;
	u64 low;

	x = kunit_kcalloc(test, 2, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	prandom_seed_state(&rnd, 42);
	for (i = 0; i < 2; i++) {
		/* Without the field tables only XOR (c = 1) is exact. */
		x[i].c = ecp_gf_mul1(0x53, 0xca) ==
			 ecp_gf_ref_mul(0x53, 0xca) ? 3 + 4 * i : 1;
		ecp_gf_coef_init(&x[i].coef, x[i].c);
		KUNIT_ASSERT_EQ(test, ecp_ivset_init(&x[i].iv, 4, GFP_KERNEL),
				0);
		ecp_ivset_reset(&x[i].iv, start);
		prandom_bytes_state(&rnd, x[i].data, APPLY_LEN);
		x[i].skb = alloc_skb(APPLY_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, x[i].skb);
		skb_put_data(x[i].skb, x[i].data, APPLY_LEN);
	}
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, 1000), 0);
	ecp_dbuf_reset(&d, start);

	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[0], start, 0, 400), 400);
	/* Retransmission with other boundaries: only 400..700 is new. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[0], start, 300, 700),
			300);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[0], start, 200, 250), 0);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[0], start, 900, 1000),
			100);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start, 500, 1000),
			500);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start, 0, 600), 500);
	ecp_dbuf_apply_check(test, &d, x, start);

	/* Refusals record nothing, so the retransmission applies in full. */
	low = ecp_ivset_low(&x[0].iv);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[0], start, 650, 1001),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_skb(&d, &x[0].iv, &x[0].coef,
						 start + 650, x[0].skb, 1900,
						 200), -EFAULT);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&x[0].iv), low);
	KUNIT_EXPECT_EQ(test, ecp_ivset_count(&x[0].iv), 1);
	ecp_dbuf_apply_check(test, &d, x, start);
	KUNIT_EXPECT_EQ(test, ecp_ivset_min_low_of(x, 2, iv), start + 700);

	/* The client acked 600: the window moves, source 0 fills its hole. */
	ecp_dbuf_release(&d, start + 600);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[0], start, 550, 1300),
			500);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start, 0, 1200), 200);
	/* Below base: already complete and released, never applied again. */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start, 0, 600), 0);
	ecp_dbuf_apply_check(test, &d, x, start);
	KUNIT_EXPECT_EQ(test, ecp_ivset_min_low_of(x, 2, iv), start + 1200);

	/* A full interval set refuses a segment needing a new interval. */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start,
							 1210 + 10 * i,
							 1215 + 10 * i), 5);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start, 1250, 1255),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_seg(&d, &x[1], start, 1200, 1600),
			380);
	ecp_dbuf_apply_check(test, &d, x, start);

	for (i = 0; i < 2; i++) {
		kfree_skb(x[i].skb);
		ecp_ivset_destroy(&x[i].iv);
	}
	ecp_dbuf_destroy(&d);
}

/*
 * One source feeding three rows (ecp_dbuf_apply_skb_n()): rings of
 * different sizes whose bases move apart as their outputs ack.  Each new
 * byte lands in every row with that row's coefficient, or in none: a
 * segment past any row's limit (the tightest ring) is refused whole and
 * records nothing, a retransmission is applied to no row twice whichever
 * rows have released it, and nothing is applied below the floor.
 */
#define ROWS_N		3
#define ROWS_LEN	3000

static void ecp_dbuf_rows_check(struct kunit *test, struct ecp_dbuf *d,
				const u8 *c, const u8 *data, const bool *got,
				u64 start)
{
	u8 *out = kunit_kmalloc(test, ROWS_LEN, GFP_KERNEL);
	unsigned int r;
	u32 i, n;

	KUNIT_ASSERT_NOT_NULL(test, out);
	for (r = 0; r < ROWS_N; r++) {
		u64 base = ecp_dbuf_base(&d[r]);

		n = min_t(u64, start + ROWS_LEN, ecp_dbuf_limit(&d[r])) - base;
		KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d[r], base, out, n), 0);
		for (i = 0; i < n; i++) {
			u32 x = base - start + i;
			u8 want = got[x] ? ecp_gf_ref_mul(c[r], data[x]) : 0;

			KUNIT_ASSERT_EQ_MSG(test, out[i], want,
					    "row %u offset %u", r, x);
		}
	}
}

static void ecp_dbuf_apply_n_test(struct kunit *test)
{
	const u64 start = 3 * G4 - 1000;
	const u32 size[ROWS_N] = { 1000, 1500, 2200 };
	struct ecp_dbuf d[ROWS_N], *dp[ROWS_N];
	const struct ecp_gf_coef *cp[ROWS_N];
	struct ecp_gf_coef coef[ROWS_N];
	u8 c[ROWS_N], *data;
	struct rnd_state rnd;
	struct sk_buff *skb;
	struct ecp_ivset iv, iv2;
	bool *got;
	unsigned int r;
	u32 i;

	data = kunit_kmalloc(test, ROWS_LEN, GFP_KERNEL);
	got = kunit_kzalloc(test, ROWS_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_NOT_NULL(test, got);
	prandom_seed_state(&rnd, 7);
	prandom_bytes_state(&rnd, data, ROWS_LEN);
	skb = alloc_skb(ROWS_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, data, ROWS_LEN);
	KUNIT_ASSERT_EQ(test, ecp_ivset_init(&iv, 4, GFP_KERNEL), 0);
	ecp_ivset_reset(&iv, start);
	for (r = 0; r < ROWS_N; r++) {
		/* Without the field tables only XOR (c = 1) is exact. */
		c[r] = ecp_gf_mul1(0x53, 0xca) == ecp_gf_ref_mul(0x53, 0xca) ?
		       0x1d + 0x40 * r : 1;
		ecp_gf_coef_init(&coef[r], c[r]);
		KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d[r], size[r]), 0);
		ecp_dbuf_reset(&d[r], start);
		dp[r] = &d[r];
		cp[r] = &coef[r];
	}

#define APPLY_N(from, to) \
	ecp_dbuf_apply_skb_n(dp, cp, ROWS_N, &iv, 0, start + (from), skb, \
			     (from), (to) - (from))
	KUNIT_EXPECT_EQ(test, APPLY_N(0, 600), 600);
	KUNIT_EXPECT_EQ(test, APPLY_N(800, 1000), 200);
	KUNIT_EXPECT_EQ(test, APPLY_N(500, 900), 200);
	for (i = 0; i < 1000; i++)
		got[i] = true;
	ecp_dbuf_rows_check(test, d, c, data, got, start);

	/* Row 0's ring ends at 1000: refused whole, nothing recorded. */
	KUNIT_EXPECT_EQ(test, APPLY_N(900, 1100), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&iv), start + 1000);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_skb_n(dp, cp, ROWS_N, &iv, 0,
						   start + 900, skb, 2900,
						   200), -EFAULT);
	ecp_dbuf_rows_check(test, d, c, data, got, start);

	/*
	 * Rows 0 and 2 released to 800, row 1 only to 300: a retransmission
	 * of 200..1200 is new from 1000 on, and lands in all three.
	 */
	ecp_dbuf_release(&d[0], start + 800);
	ecp_dbuf_release(&d[1], start + 300);
	ecp_dbuf_release(&d[2], start + 800);
	KUNIT_EXPECT_EQ(test, APPLY_N(200, 1200), 200);
	for (i = 1000; i < 1200; i++)
		got[i] = true;
	ecp_dbuf_rows_check(test, d, c, data, got, start);
	/* Bytes row 1 still holds were not applied twice. */
	KUNIT_EXPECT_EQ(test, APPLY_N(300, 700), 0);
	ecp_dbuf_rows_check(test, d, c, data, got, start);

	/* Row 1 (base 300, size 1500) limits the window to 1800. */
	KUNIT_EXPECT_EQ(test, APPLY_N(1200, 1801), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, APPLY_N(1200, 1800), 600);
	for (i = 1200; i < 1800; i++)
		got[i] = true;
	ecp_dbuf_rows_check(test, d, c, data, got, start);

	/* No rows: the record still moves (a source no row uses). */
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_skb_n(dp, cp, 0, &iv, 0,
						   start + 1800, skb, 1800,
						   100), 100);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&iv), start + 1900);
#undef APPLY_N

	/*
	 * A second source with the same bytes, behind the rows (a spare
	 * stood in for it below start + 500, the floor): all it sends is
	 * recorded, but applied only from the floor up, and to no ring
	 * below that ring's base.  Equal bytes applied twice cancel.
	 */
	KUNIT_ASSERT_EQ(test, ecp_ivset_init(&iv2, 4, GFP_KERNEL), 0);
	ecp_ivset_reset(&iv2, start + 300);
	KUNIT_EXPECT_EQ(test, ecp_dbuf_apply_skb_n(dp, cp, ROWS_N, &iv2,
						   start + 500, start + 300,
						   skb, 300, 600), 600);
	KUNIT_EXPECT_EQ(test, ecp_ivset_low(&iv2), start + 900);
	for (i = 500; i < 900; i++)
		got[i] = false;
	ecp_dbuf_rows_check(test, d, c, data, got, start);
	ecp_ivset_destroy(&iv2);

	kfree_skb(skb);
	ecp_ivset_destroy(&iv);
	for (r = 0; r < ROWS_N; r++)
		ecp_dbuf_destroy(&d[r]);
}

/*
 * Random accumulation at random offsets and coefficients, random releases,
 * and reads, against a model ring of a different size (so that a modulus
 * mistake cannot cancel out); every few operations the whole window is
 * compared, which also proves that memory reused after a release, or
 * left by an earlier connection (dirty), reads as zero until written.
 */
#define MODEL	(128 * 1024)
#define NOPS	6000

struct ecp_dbuf_rand_case {
	const char *name;
	u32 size;
	u64 start;
	u32 maxlen;
	u64 seed;
	bool dirty;	/* memory full of an earlier connection's bytes */
};

static const struct ecp_dbuf_rand_case ecp_dbuf_rand_cases[] = {
	{ "pow2", 4096, 0, 1500, 1 },
	{ "odd_size", 3001, 0, 1448, 2 },
	{ "mss_plus_headroom", 65536 + 1460, 0, 9000, 3 },
	{ "past_4g", 2000, 9 * G4 - 77777, 700, 4 },
	{ "tiny_ring", 7, 5 * G4 + 3, 7, 5 },
	{ "dirty", 3001, G4 - 1000, 1448, 6, true },
	{ "dirty_tiny_ring", 7, 11, 7, 7, true },
};

static void ecp_dbuf_rand_desc(const struct ecp_dbuf_rand_case *c,
			       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_dbuf_rand, ecp_dbuf_rand_cases, ecp_dbuf_rand_desc);

static void ecp_dbuf_random_test(struct kunit *test)
{
	const struct ecp_dbuf_rand_case *c = test->param_value;
	u8 *model, *src, *out, *exp;
	unsigned int op, refused = 0, releases = 0;
	bool full_field;
	struct rnd_state rnd;
	struct ecp_dbuf d;
	u64 high;
	u32 peak = 0, i;

	model = kunit_kzalloc(test, MODEL, GFP_KERNEL);
	src = kunit_kzalloc(test, c->maxlen, GFP_KERNEL);
	out = kunit_kzalloc(test, c->size, GFP_KERNEL);
	exp = kunit_kzalloc(test, c->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	KUNIT_ASSERT_NOT_NULL(test, model);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, c->size), 0);
	prandom_seed_state(&rnd, c->seed);
	if (c->dirty)
		prandom_bytes_state(&rnd, d.buf, d.size);
	ecp_dbuf_reset(&d, c->start);
	high = c->start;
	/* The field tables come from ecp_gf_init() at module load. */
	full_field = ecp_gf_mul1(0x53, 0xca) == ecp_gf_ref_mul(0x53, 0xca);
	if (!full_field)
		kunit_info(test, "GF tables not initialised: XOR only\n");

	for (op = 0; op < NOPS; op++) {
		u32 r = prandom_u32_state(&rnd);
		u64 base = ecp_dbuf_base(&d), off;
		u32 len;
		int ret;

		if (r % 4 == 0) {
			u64 upto = base + (r >> 4) % (c->size / 2 + 2);

			ecp_dbuf_release(&d, upto);
			/* The model forgets what the client acknowledged. */
			for (off = base; off < upto; off++)
				model[(off - c->start) % MODEL] = 0;
			high = max(high, upto);
			releases++;
		} else {
			struct ecp_gf_coef coef;
			u8 k = full_field ? (r >> 2) & 0xff : 1;

			len = prandom_u32_state(&rnd) % (c->maxlen + 1);
			/* Sometimes out of the window on either side. */
			off = base - min_t(u64, base - c->start, 16) +
				(r >> 10) % (c->size + 32);
			prandom_bytes_state(&rnd, src, len);
			ecp_gf_coef_init(&coef, k);
			ret = ecp_dbuf_mul_acc(&d, &coef, off, src, len);
			if (off < base) {
				KUNIT_ASSERT_EQ(test, ret, -ERANGE);
				refused++;
			} else if (off + len > base + c->size) {
				KUNIT_ASSERT_EQ(test, ret, -ENOBUFS);
				refused++;
			} else {
				KUNIT_ASSERT_EQ(test, ret, 0);
				for (i = 0; i < len; i++)
					model[(off - c->start + i) % MODEL] ^=
						ecp_gf_ref_mul(k, src[i]);
				if (off + len > high) {
					high = off + len;
					peak = max_t(u32, peak, high - base);
				}
			}
		}
		base = ecp_dbuf_base(&d);
		KUNIT_ASSERT_EQ(test, ecp_dbuf_occupancy(&d), high - base);
		KUNIT_ASSERT_EQ(test, ecp_dbuf_peak(&d), peak);
		if (op % 16 == 0) {
			KUNIT_ASSERT_EQ(test, ecp_dbuf_read(&d, base, out,
							    c->size), 0);
			for (i = 0; i < c->size; i++)
				exp[i] = model[(base - c->start + i) % MODEL];
			KUNIT_ASSERT_EQ(test, memcmp(out, exp, c->size), 0);
		}
	}
	kunit_info(test, "%u ops, %u refused, %u releases, peak %u\n", op,
		   refused, releases, peak);
	KUNIT_EXPECT_GT(test, refused, 0);
	ecp_dbuf_destroy(&d);
}

static struct kunit_case ecp_dbuf_test_cases[] = {
	KUNIT_CASE(ecp_dbuf_init_test),
	KUNIT_CASE_PARAM(ecp_dbuf_span_test, ecp_dbuf_span_gen_params),
	KUNIT_CASE(ecp_dbuf_release_test),
	KUNIT_CASE(ecp_dbuf_mul_acc_dbuf_test),
	KUNIT_CASE(ecp_dbuf_occupancy_test),
	KUNIT_CASE(ecp_dbuf_skb_test),
	KUNIT_CASE(ecp_dbuf_apply_test),
	KUNIT_CASE(ecp_dbuf_apply_n_test),
	KUNIT_CASE_PARAM(ecp_dbuf_random_test, ecp_dbuf_rand_gen_params),
	{}
};

static struct kunit_suite ecp_dbuf_test_suite = {
	.name = "ecproxy_dbuf",
	.test_cases = ecp_dbuf_test_cases,
};

kunit_test_suite(ecp_dbuf_test_suite);
