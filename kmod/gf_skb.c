// SPDX-License-Identifier: GPL-2.0
/*
 * Multiply (and accumulate) straight out of an skb.  Linearizing would copy the
 * payload once more and may allocate in softirq; walking the head, the page
 * fragments and the frag_list costs nothing extra.
 */
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/skbuff.h>
#include <kunit/visibility.h>

#include "gf.h"

/* Caller has checked that [offset, offset + len) lies inside skb. */
static void ecp_gf_skb_walk(const struct ecp_gf_coef *k, u8 *dst,
			    const struct sk_buff *skb, int offset, int len,
			    bool acc)
{
	int start = skb_headlen(skb);
	struct sk_buff *frag_iter;
	int i, n;

	n = start - offset;
	if (n > 0) {
		n = min(n, len);
		ecp_gf_put(k, dst, skb->data + offset, n, acc);
		len -= n;
		if (!len)
			return;
		offset += n;
		dst += n;
	}

	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		int end = start + skb_frag_size(f);

		n = end - offset;
		if (n > 0) {
			u32 p_off, p_len, copied;
			struct page *p;
			u8 *vaddr;

			n = min(n, len);
			skb_frag_foreach_page(f, skb_frag_off(f) + offset - start,
					      n, p, p_off, p_len, copied) {
				vaddr = kmap_local_page(p);
				ecp_gf_put(k, dst + copied, vaddr + p_off, p_len,
					   acc);
				kunmap_local(vaddr);
			}
			len -= n;
			if (!len)
				return;
			offset += n;
			dst += n;
		}
		start = end;
	}

	skb_walk_frags(skb, frag_iter) {
		int end = start + frag_iter->len;

		n = end - offset;
		if (n > 0) {
			n = min(n, len);
			ecp_gf_skb_walk(k, dst, frag_iter, offset - start, n,
					acc);
			len -= n;
			if (!len)
				return;
			offset += n;
			dst += n;
		}
		start = end;
	}
	/* The length check in the caller makes this unreachable. */
	WARN_ON_ONCE(len);
}

static int ecp_gf_skb_apply(const struct ecp_gf_coef *k, u8 *dst,
			    const struct sk_buff *skb, int offset, int len,
			    bool acc)
{
	if (offset < 0 || len < 0 || offset > (int)skb->len - len)
		return -EFAULT;
	if (len)
		ecp_gf_skb_walk(k, dst, skb, offset, len, acc);
	return 0;
}

int ecp_gf_mul_acc_skb(const struct ecp_gf_coef *k, u8 *dst,
		       const struct sk_buff *skb, int offset, int len)
{
	return ecp_gf_skb_apply(k, dst, skb, offset, len, true);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mul_acc_skb);

int ecp_gf_mul_skb(const struct ecp_gf_coef *k, u8 *dst,
		   const struct sk_buff *skb, int offset, int len)
{
	return ecp_gf_skb_apply(k, dst, skb, offset, len, false);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mul_skb);
