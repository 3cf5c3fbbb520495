/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: no highmem on x86-64; mapping a page is its address. */
#ifndef _SHIM_LINUX_HIGHMEM_H
#define _SHIM_LINUX_HIGHMEM_H

#include <linux/mm.h>

static inline void *kmap_local_page(struct page *page)
{
	return page_address(page);
}

static inline void kunmap_local(const void *addr __maybe_unused)
{
}

static inline void *kmap_atomic(struct page *page)
{
	return page_address(page);
}

static inline void kunmap_atomic(const void *addr __maybe_unused)
{
}

#endif
