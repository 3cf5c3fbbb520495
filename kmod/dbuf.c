// SPDX-License-Identifier: GPL-2.0
/*
 * Decode buffer ring; see dbuf.h for the semantics.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "dbuf.h"
#include "gf.h"
#include "ivset.h"

/* kvmalloc refuses (and warns about) anything above INT_MAX. */
#define ECP_DBUF_MAX_SIZE	(1U << 30)

int ecp_dbuf_init(struct ecp_dbuf *d, u32 size)
{
	if (!size || size > ECP_DBUF_MAX_SIZE)
		return -EINVAL;
	d->buf = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!d->buf)
		return -ENOMEM;
	d->size = size;
	ecp_dbuf_reset(d, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_init);

void ecp_dbuf_destroy(struct ecp_dbuf *d)
{
	kvfree(d->buf);
	d->buf = NULL;
	d->size = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_destroy);

void ecp_dbuf_reset(struct ecp_dbuf *d, u64 base)
{
	d->base = base;
	d->high = base;
	d->valid = base;
	d->peak = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_reset);

int ecp_dbuf_span(const struct ecp_dbuf *d, u64 off, u32 len,
		  struct ecp_dbuf_span *sp)
{
	u32 pos, first;

	if (off < d->base)
		return -ERANGE;
	/* off - base cannot overflow, and the sum stays far below 2^64. */
	if (off - d->base + len > d->size)
		return -ENOBUFS;
	div_u64_rem(off, d->size, &pos);
	first = min(len, d->size - pos);
	sp->ptr[0] = d->buf + pos;
	sp->len[0] = first;
	sp->ptr[1] = d->buf;
	sp->len[1] = len - first;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_span);

void ecp_dbuf_wrote(struct ecp_dbuf *d, u64 end)
{
	if (end <= d->high)
		return;
	d->high = end;
	d->peak = max_t(u32, d->peak, end - d->base);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_wrote);

/* Zero the memory of [from, to), which lies inside the window. */
static void ecp_dbuf_zero(const struct ecp_dbuf *d, u64 from, u64 to)
{
	struct ecp_dbuf_span sp;

	if (from < to && !WARN_ON_ONCE(ecp_dbuf_span(d, from, to - from, &sp))) {
		memset(sp.ptr[0], 0, sp.len[0]);
		memset(sp.ptr[1], 0, sp.len[1]);
	}
}

int ecp_dbuf_view(struct ecp_dbuf *d, u64 off, u32 len,
		  struct ecp_dbuf_span *sp)
{
	int ret = ecp_dbuf_span(d, off, len, sp);

	if (!ret && off + len > d->valid) {
		ecp_dbuf_zero(d, d->valid, off + len);
		d->valid = off + len;
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_view);

/*
 * How one write puts its bytes in: @fn(@ctx, dst, at, n, acc) for each
 * piece of memory, where at is the piece's offset in the write and acc
 * says whether to add to what the memory holds (below valid) or to store
 * over stale bytes (past it).
 */
typedef int (*ecp_dbuf_put_fn)(void *ctx, u8 *dst, u32 at, u32 n, bool acc);

static int ecp_dbuf_put(struct ecp_dbuf *d, u64 off, u32 len,
			ecp_dbuf_put_fn fn, void *ctx)
{
	struct ecp_dbuf_span sp;
	u64 end = off + len;
	u32 at = 0, nacc;
	unsigned int i;
	int ret;

	ret = ecp_dbuf_span(d, off, len, &sp);
	if (ret)
		return ret;
	/* A write that starts past valid leaves a gap that must read 0. */
	if (off > d->valid) {
		ecp_dbuf_zero(d, d->valid, off);
		d->valid = off;
	}
	/* The first nacc bytes add, the rest store; either piece may split. */
	nacc = min(d->valid, end) - off;
	for (i = 0; !ret && i < 2; i++) {
		u32 a = min(sp.len[i], nacc);

		if (a)
			ret = fn(ctx, sp.ptr[i], at, a, true);
		if (!ret && sp.len[i] > a)
			ret = fn(ctx, sp.ptr[i] + a, at + a, sp.len[i] - a,
				 false);
		nacc -= a;
		at += sp.len[i];
	}
	if (WARN_ON_ONCE(ret))
		return ret;
	d->valid = max(d->valid, end);
	ecp_dbuf_wrote(d, end);
	return 0;
}

struct ecp_dbuf_put_flat {
	const struct ecp_gf_coef *c;
	const u8 *src;
};

static int ecp_dbuf_put_flat_fn(void *ctx, u8 *dst, u32 at, u32 n, bool acc)
{
	struct ecp_dbuf_put_flat *p = ctx;

	ecp_gf_put(p->c, dst, p->src + at, n, acc);
	return 0;
}

int ecp_dbuf_mul_acc(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
		     u64 off, const u8 *src, u32 len)
{
	struct ecp_dbuf_put_flat p = { .c = c, .src = src };

	return ecp_dbuf_put(d, off, len, ecp_dbuf_put_flat_fn, &p);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_mul_acc);

struct ecp_dbuf_put_skb {
	const struct ecp_gf_coef *c;
	const struct sk_buff *skb;
	int skb_off;
};

static int ecp_dbuf_put_skb_fn(void *ctx, u8 *dst, u32 at, u32 n, bool acc)
{
	struct ecp_dbuf_put_skb *p = ctx;

	if (acc)
		return ecp_gf_mul_acc_skb(p->c, dst, p->skb, p->skb_off + at,
					  n);
	return ecp_gf_mul_skb(p->c, dst, p->skb, p->skb_off + at, n);
}

int ecp_dbuf_mul_acc_skb(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
			 u64 off, const struct sk_buff *skb, int skb_off,
			 u32 len)
{
	struct ecp_dbuf_put_skb p = { .c = c, .skb = skb, .skb_off = skb_off };

	/* Checked as a whole so that a short skb writes nothing. */
	if (skb_off < 0 || len > INT_MAX || skb_off > (int)skb->len - (int)len)
		return -EFAULT;
	return ecp_dbuf_put(d, off, len, ecp_dbuf_put_skb_fn, &p);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_mul_acc_skb);

struct ecp_dbuf_put_dbuf {
	const struct ecp_gf_coef *c;
	struct ecp_dbuf *src;
	u64 off;
};

static int ecp_dbuf_put_dbuf_fn(void *ctx, u8 *dst, u32 at, u32 n, bool acc)
{
	struct ecp_dbuf_put_dbuf *p = ctx;
	struct ecp_dbuf_span sp;
	unsigned int i;
	int ret;

	ret = ecp_dbuf_view(p->src, p->off + at, n, &sp);
	for (i = 0; !ret && i < 2; i++) {
		ecp_gf_put(p->c, dst, sp.ptr[i], sp.len[i], acc);
		dst += sp.len[i];
	}
	return ret;
}

int ecp_dbuf_mul_acc_dbuf(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
			  struct ecp_dbuf *src, u64 off, u32 len)
{
	struct ecp_dbuf_put_dbuf p = { .c = c, .src = src, .off = off };
	struct ecp_dbuf_span sp;
	int ret;

	/* Checked first so that a refusal writes nothing. */
	ret = ecp_dbuf_span(src, off, len, &sp);
	return ret ?: ecp_dbuf_put(d, off, len, ecp_dbuf_put_dbuf_fn, &p);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_mul_acc_dbuf);

struct ecp_dbuf_apply {
	struct ecp_dbuf *const *d;
	const struct ecp_gf_coef *const *c;
	unsigned int n;
	const struct sk_buff *skb;
	int skb_off;
	u64 off;
	u64 floor;
};

static void ecp_dbuf_apply_fn(void *ctx, u64 start, u64 end)
{
	struct ecp_dbuf_apply *a = ctx;
	unsigned int i;

	/*
	 * ecp_dbuf_apply_skb_n() checked the windows and the skb up front.
	 * What a ring released was complete and its memory reused, and
	 * what is below the floor final: new bytes there go nowhere.
	 */
	for (i = 0; i < a->n; i++) {
		u64 from = max3(start, a->floor, ecp_dbuf_base(a->d[i]));

		if (from < end)
			WARN_ON_ONCE(ecp_dbuf_mul_acc_skb(a->d[i], a->c[i], from,
							  a->skb, a->skb_off +
							  (int)(from - a->off),
							  end - from));
	}
}

s64 ecp_dbuf_apply_skb_n(struct ecp_dbuf *const *d,
			 const struct ecp_gf_coef *const *c, unsigned int n,
			 struct ecp_ivset *iv, u64 floor, u64 off,
			 const struct sk_buff *skb, int skb_off, u32 len)
{
	struct ecp_dbuf_apply a = {
		.d = d, .c = c, .n = n, .skb = skb, .skb_off = skb_off,
		.off = off, .floor = floor,
	};
	unsigned int i;

	if (skb_off < 0 || len > INT_MAX || skb_off > (int)skb->len - (int)len)
		return -EFAULT;
	/*
	 * Bytes beyond a window cannot have been applied (nothing is
	 * written there), so refusing the whole segment loses nothing.
	 */
	for (i = 0; i < n; i++)
		if (off + len > ecp_dbuf_limit(d[i]))
			return -ENOBUFS;
	return ecp_ivset_insert(iv, off, off + len, ecp_dbuf_apply_fn, &a);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_apply_skb_n);

s64 ecp_dbuf_apply_skb(struct ecp_dbuf *d, struct ecp_ivset *iv,
		       const struct ecp_gf_coef *c, u64 off,
		       const struct sk_buff *skb, int skb_off, u32 len)
{
	return ecp_dbuf_apply_skb_n(&d, &c, 1, iv, 0, off, skb, skb_off, len);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_apply_skb);

int ecp_dbuf_read(struct ecp_dbuf *d, u64 off, u8 *dst, u32 len)
{
	struct ecp_dbuf_span sp;
	int ret;

	ret = ecp_dbuf_view(d, off, len, &sp);
	if (ret)
		return ret;
	memcpy(dst, sp.ptr[0], sp.len[0]);
	memcpy(dst + sp.len[0], sp.ptr[1], sp.len[1]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_read);

void ecp_dbuf_release(struct ecp_dbuf *d, u64 upto)
{
	if (upto <= d->base)
		return;
	/*
	 * Nothing to zero: the memory past valid is stored over, not added
	 * to.  An ACK beyond what was written (the client cannot acknowledge
	 * what S never sent, but be safe) leaves an empty window.
	 */
	d->base = upto;
	d->high = max(d->high, upto);
	d->valid = max(d->valid, upto);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_release);
