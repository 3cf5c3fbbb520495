/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the part of struct sk_buff the units use, laid out as in the
 * kernel: a linear head with the shared info at its end, page fragments,
 * and a frag_list of further skbs.  The walking macros are the kernel's.
 */
#ifndef _SHIM_LINUX_SKBUFF_H
#define _SHIM_LINUX_SKBUFF_H

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/types.h>

#define MAX_SKB_FRAGS	(65536 / PAGE_SIZE + 1)

typedef struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
} skb_frag_t;

struct sk_buff;

struct skb_shared_info {
	u8 nr_frags;
	struct sk_buff *frag_list;
	skb_frag_t frags[MAX_SKB_FRAGS];
};

struct sk_buff {
	struct sk_buff *next;
	unsigned int len, data_len;
	unsigned int truesize;
	unsigned int tail, end;		/* offsets from head */
	unsigned char *head, *data;
};

struct sk_buff *alloc_skb(unsigned int size, gfp_t gfp);
void kfree_skb(struct sk_buff *skb);
void *skb_put(struct sk_buff *skb, unsigned int len);
int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len);
void skb_add_rx_frag(struct sk_buff *skb, int i, struct page *page, int off,
		     int size, unsigned int truesize);

static inline void consume_skb(struct sk_buff *skb)
{
	kfree_skb(skb);
}

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)(skb->head + skb->end);
}

static inline unsigned int skb_headlen(const struct sk_buff *skb)
{
	return skb->len - skb->data_len;
}

static inline bool skb_is_nonlinear(const struct sk_buff *skb)
{
	return skb->data_len;
}

static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb)
{
	return skb->head + skb->tail;
}

static inline unsigned int skb_headroom(const struct sk_buff *skb)
{
	return skb->data - skb->head;
}

static inline int skb_tailroom(const struct sk_buff *skb)
{
	return skb_is_nonlinear(skb) ? 0 : skb->end - skb->tail;
}

static inline void skb_reserve(struct sk_buff *skb, int len)
{
	skb->data += len;
	skb->tail += len;
}

static inline void *skb_put_data(struct sk_buff *skb, const void *data,
				 unsigned int len)
{
	void *tmp = skb_put(skb, len);

	memcpy(tmp, data, len);
	return tmp;
}

static inline struct page *skb_frag_page(const skb_frag_t *frag)
{
	return frag->bv_page;
}

static inline unsigned int skb_frag_size(const skb_frag_t *frag)
{
	return frag->bv_len;
}

static inline unsigned int skb_frag_off(const skb_frag_t *frag)
{
	return frag->bv_offset;
}

static inline void skb_frag_size_set(skb_frag_t *frag, unsigned int size)
{
	frag->bv_len = size;
}

static inline void skb_fill_page_desc(struct sk_buff *skb, int i,
				      struct page *page, int off, int size)
{
	skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

	frag->bv_page = page;
	frag->bv_offset = off;
	frag->bv_len = size;
	skb_shinfo(skb)->nr_frags = i + 1;
}

static inline bool skb_frag_must_loop(struct page *p __maybe_unused)
{
	return false;
}

#define skb_frag_foreach_page(f, f_off, f_len, p, p_off, p_len, copied)	\
	for (p = skb_frag_page(f) + ((f_off) >> PAGE_SHIFT),		\
	     p_off = (f_off) & (PAGE_SIZE - 1),				\
	     p_len = skb_frag_must_loop(p) ?				\
	     min_t(u32, f_len, PAGE_SIZE - p_off) : f_len,		\
	     copied = 0;						\
	     copied < f_len;						\
	     copied += p_len, p++, p_off = 0,				\
	     p_len = min_t(u32, f_len - copied, PAGE_SIZE))

#define skb_walk_frags(skb, iter)	\
	for (iter = skb_shinfo(skb)->frag_list; iter; iter = iter->next)

#endif
