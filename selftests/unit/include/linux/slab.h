/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: kmalloc and friends on the C heap, aligned the way the kernel
 * aligns them (power-of-two sizes naturally, vmalloc'd sizes to a page).
 * Every allocation is counted so that the runner can report leaks.
 */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H

#include <linux/gfp.h>
#include <linux/types.h>

void *kmalloc(size_t size, gfp_t flags);
void kfree(const void *p);
void *kvmalloc(size_t size, gfp_t flags);
void kvfree(const void *p);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void *kvzalloc(size_t size, gfp_t flags)
{
	return kvmalloc(size, flags | __GFP_ZERO);
}

static inline void *vmalloc(size_t size)
{
	return kvmalloc(size, GFP_KERNEL);
}

static inline void *vzalloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static inline void vfree(const void *p)
{
	kvfree(p);
}

/* Outstanding allocations (kmalloc, kvmalloc, pages), for leak checks. */
long ecp_shim_allocs(void);

#endif
