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
	d->base = 0;
	d->high = 0;
	d->peak = 0;
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
	memset(d->buf, 0, d->size);
	d->base = base;
	d->high = base;
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

int ecp_dbuf_mul_acc(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
		     u64 off, const u8 *src, u32 len)
{
	struct ecp_dbuf_span sp;
	int ret;

	ret = ecp_dbuf_span(d, off, len, &sp);
	if (ret)
		return ret;
	ecp_gf_mul_acc(c, sp.ptr[0], src, sp.len[0]);
	if (sp.len[1])
		ecp_gf_mul_acc(c, sp.ptr[1], src + sp.len[0], sp.len[1]);
	ecp_dbuf_wrote(d, off + len);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_mul_acc);

int ecp_dbuf_mul_acc_skb(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
			 u64 off, const struct sk_buff *skb, int skb_off,
			 u32 len)
{
	struct ecp_dbuf_span sp;
	int ret;

	/* Checked as a whole so that a short skb writes nothing. */
	if (skb_off < 0 || len > INT_MAX || skb_off > (int)skb->len - (int)len)
		return -EFAULT;
	ret = ecp_dbuf_span(d, off, len, &sp);
	if (ret)
		return ret;
	ret = ecp_gf_mul_acc_skb(c, sp.ptr[0], skb, skb_off, sp.len[0]);
	if (!ret && sp.len[1])
		ret = ecp_gf_mul_acc_skb(c, sp.ptr[1], skb,
					 skb_off + sp.len[0], sp.len[1]);
	if (WARN_ON_ONCE(ret))
		return ret;
	ecp_dbuf_wrote(d, off + len);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_mul_acc_skb);

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

int ecp_dbuf_read(const struct ecp_dbuf *d, u64 off, u8 *dst, u32 len)
{
	struct ecp_dbuf_span sp;
	int ret;

	ret = ecp_dbuf_span(d, off, len, &sp);
	if (ret)
		return ret;
	memcpy(dst, sp.ptr[0], sp.len[0]);
	memcpy(dst + sp.len[0], sp.ptr[1], sp.len[1]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_read);

void ecp_dbuf_release(struct ecp_dbuf *d, u64 upto)
{
	struct ecp_dbuf_span sp;
	u64 n;

	if (upto <= d->base)
		return;
	/*
	 * Zero all of [base, upto), not just up to high: a caller that
	 * wrote through ecp_dbuf_span() without ecp_dbuf_wrote() must not
	 * leave stale sums behind.  An ACK beyond the window (the client cannot
	 * acknowledge what S never sent, but be safe) clears everything.
	 */
	n = min_t(u64, upto - d->base, d->size);
	if (!ecp_dbuf_span(d, d->base, n, &sp)) {
		memset(sp.ptr[0], 0, sp.len[0]);
		memset(sp.ptr[1], 0, sp.len[1]);
	}
	d->base = upto;
	d->high = max(d->high, upto);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_dbuf_release);
