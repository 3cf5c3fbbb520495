/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: pages.  A struct page per PAGE_SIZE of memory, in an array as
 * in the kernel's memmap, so page + n is the n-th page of a higher-order
 * allocation the way skb_frag_foreach_page() walks it.
 */
#ifndef _SHIM_LINUX_MM_H
#define _SHIM_LINUX_MM_H

#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

struct page {
	u8 *addr;
	struct page *head;	/* first page of the allocation */
	unsigned int order;	/* of the allocation, in the head */
	int refcount;		/* in the head */
};

struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
void get_page(struct page *page);
void put_page(struct page *page);

static inline struct page *alloc_page(gfp_t gfp)
{
	return alloc_pages(gfp, 0);
}

static inline void *page_address(const struct page *page)
{
	return page->addr;
}

static inline struct page *compound_head(struct page *page)
{
	return page->head;
}

static inline bool PageHighMem(const struct page *page __maybe_unused)
{
	return false;
}

#endif
