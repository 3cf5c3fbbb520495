// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: kmalloc, kvmalloc and pages on the C heap.  Alignment follows
 * the kernel's guarantees (power-of-two kmalloc sizes naturally aligned up
 * to a page, kvmalloc and pages page-aligned), so code that is fast or
 * correct only on the kernel's alignment behaves the same here.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/mm.h>
#include <linux/slab.h>

static long ecp_shim_nr_allocs;

long ecp_shim_allocs(void)
{
	return ecp_shim_nr_allocs;
}

static void *ecp_shim_alloc(size_t size, size_t align, gfp_t flags)
{
	void *p;

	if (posix_memalign(&p, align, size ? size : 1))
		return NULL;
	if (flags & __GFP_ZERO)
		memset(p, 0, size);
	else
		memset(p, 0x6b, size);	/* like slab poisoning: no free zeros */
	ecp_shim_nr_allocs++;
	return p;
}

static void ecp_shim_free(const void *p)
{
	if (!p)
		return;
	ecp_shim_nr_allocs--;
	free((void *)p);
}

void *kmalloc(size_t size, gfp_t flags)
{
	size_t align = 16;

	if (size && !(size & (size - 1)))
		align = size < PAGE_SIZE ? (size < 16 ? 16 : size) : PAGE_SIZE;
	return ecp_shim_alloc(size, align, flags);
}

void kfree(const void *p)
{
	ecp_shim_free(p);
}

void *kvmalloc(size_t size, gfp_t flags)
{
	if (size <= PAGE_SIZE)
		return kmalloc(size, flags);
	return ecp_shim_alloc(size, PAGE_SIZE, flags);
}

void kvfree(const void *p)
{
	ecp_shim_free(p);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	size_t n = 1UL << order, i;
	struct page *pages;
	u8 *mem;

	pages = calloc(n, sizeof(*pages));
	if (!pages)
		return NULL;
	mem = ecp_shim_alloc(PAGE_SIZE << order, PAGE_SIZE, gfp);
	if (!mem) {
		free(pages);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		pages[i].addr = mem + i * PAGE_SIZE;
		pages[i].head = pages;
	}
	pages->order = order;
	pages->refcount = 1;
	return pages;
}

void get_page(struct page *page)
{
	compound_head(page)->refcount++;
}

void put_page(struct page *page)
{
	struct page *head = compound_head(page);

	BUG_ON(head->refcount <= 0);
	if (--head->refcount)
		return;
	ecp_shim_free(head->addr);
	free(head);
}

void __free_pages(struct page *page, unsigned int order)
{
	WARN_ON(compound_head(page) != page || page->order != order);
	put_page(page);
}
