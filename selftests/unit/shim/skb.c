// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: sk_buff allocation, growth and freeing, and skb_copy_bits()
 * as net/core/skbuff.c has it (the tests use it to check their layouts).
 */
#include <linux/highmem.h>
#include <linux/skbuff.h>

struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp)
{
	struct sk_buff *skb = kzalloc(sizeof(*skb), gfp);

	if (!skb)
		return NULL;
	size = ALIGN(size, 64);
	/* The shared info sits right after the data, as in the kernel. */
	skb->head = kmalloc(size + sizeof(struct skb_shared_info), gfp);
	if (!skb->head) {
		kfree(skb);
		return NULL;
	}
	skb->data = skb->head;
	skb->end = size;
	skb->truesize = size + sizeof(*skb);
	memset(skb_shinfo(skb), 0, sizeof(struct skb_shared_info));
	return skb;
}

void kfree_skb(struct sk_buff *skb)
{
	struct skb_shared_info *sh;
	struct sk_buff *c, *next;
	int i;

	if (!skb)
		return;
	sh = skb_shinfo(skb);
	for (i = 0; i < sh->nr_frags; i++)
		put_page(skb_frag_page(&sh->frags[i]));
	for (c = sh->frag_list; c; c = next) {
		next = c->next;
		kfree_skb(c);
	}
	kfree(skb->head);
	kfree(skb);
}

void *skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tmp = skb_tail_pointer(skb);

	/* skb_over_panic() in the kernel. */
	BUG_ON(skb_is_nonlinear(skb) || skb->tail + len > skb->end);
	skb->tail += len;
	skb->len += len;
	return tmp;
}

void skb_add_rx_frag(struct sk_buff *skb, int i, struct page *page, int off,
		     int size, unsigned int truesize)
{
	BUG_ON(i >= (int)MAX_SKB_FRAGS);
	skb_fill_page_desc(skb, i, page, off, size);
	skb->len += size;
	skb->data_len += size;
	skb->truesize += truesize;
}

int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len)
{
	int start = skb_headlen(skb);
	struct sk_buff *frag_iter;
	int i, copy;

	if (offset > (int)skb->len - len)
		goto fault;

	copy = start - offset;
	if (copy > 0) {
		if (copy > len)
			copy = len;
		memcpy(to, skb->data + offset, copy);
		len -= copy;
		if (len == 0)
			return 0;
		offset += copy;
		to += copy;
	}

	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		int end;

		WARN_ON(start > offset + len);
		end = start + skb_frag_size(f);
		copy = end - offset;
		if (copy > 0) {
			u32 p_off, p_len, copied, n;
			struct page *p;
			u8 *vaddr;

			if (copy > len)
				copy = len;
			n = copy;
			skb_frag_foreach_page(f, skb_frag_off(f) + offset - start,
					      n, p, p_off, p_len, copied) {
				vaddr = kmap_atomic(p);
				memcpy((u8 *)to + copied, vaddr + p_off, p_len);
				kunmap_atomic(vaddr);
			}
			len -= copy;
			if (len == 0)
				return 0;
			offset += copy;
			to += copy;
		}
		start = end;
	}

	skb_walk_frags(skb, frag_iter) {
		int end;

		WARN_ON(start > offset + len);
		end = start + frag_iter->len;
		copy = end - offset;
		if (copy > 0) {
			if (copy > len)
				copy = len;
			if (skb_copy_bits(frag_iter, offset - start, to, copy))
				goto fault;
			len -= copy;
			if (len == 0)
				return 0;
			offset += copy;
			to += copy;
		}
		start = end;
	}
	if (!len)
		return 0;
fault:
	return -EFAULT;
}
