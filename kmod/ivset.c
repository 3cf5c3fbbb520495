// SPDX-License-Identifier: GPL-2.0
/*
 * Per-source interval set; see ivset.h for the semantics.  A sorted array:
 * a binary search finds where a range goes, a memmove of at most
 * ECP_IVSET_MAX_CAP entries (16 KiB) makes room, and the fast path stays
 * allocation-free and bounded; the usual set holds a few intervals.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "ivset.h"

int ecp_ivset_init(struct ecp_ivset *s, u32 cap, gfp_t gfp)
{
	if (!cap || cap > ECP_IVSET_MAX_CAP)
		return -EINVAL;
	s->iv = kmalloc_array(cap, sizeof(*s->iv), gfp);
	if (!s->iv)
		return -ENOMEM;
	s->cap = cap;
	ecp_ivset_reset(s, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_init);

void ecp_ivset_init_on(struct ecp_ivset *s, struct ecp_iv *storage, u32 cap)
{
	s->iv = storage;
	s->cap = cap;
	ecp_ivset_reset(s, 0);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_init_on);

void ecp_ivset_destroy(struct ecp_ivset *s)
{
	kfree(s->iv);
	s->iv = NULL;
	s->cap = 0;
	s->n = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_destroy);

void ecp_ivset_reset(struct ecp_ivset *s, u64 start)
{
	s->n = 0;
	s->low = start;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_reset);

/* Drop entries [from, to) of the array. */
static void ecp_ivset_remove(struct ecp_ivset *s, u32 from, u32 to)
{
	memmove(&s->iv[from], &s->iv[to], (s->n - to) * sizeof(*s->iv));
	s->n -= to - from;
}

u32 ecp_ivset_search(const struct ecp_ivset *s, u64 off)
{
	u32 lo = 0, hi = s->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->iv[mid].end < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_search);

struct ecp_iv ecp_ivset_held(const struct ecp_ivset *s, u64 start, u64 end)
{
	struct ecp_iv none = { 0, 0 };
	u32 i;

	if (start >= end)
		return none;
	/* Intervals start above the watermark: this run is whole. */
	if (start < s->low)
		return (struct ecp_iv){ start, min(end, s->low) };
	i = ecp_ivset_search(s, start + 1);
	if (i == s->n || s->iv[i].start >= end)
		return none;
	return (struct ecp_iv){ max(s->iv[i].start, start),
				min(s->iv[i].end, end) };
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_held);

s64 ecp_ivset_insert(struct ecp_ivset *s, u64 start, u64 end,
		     ecp_ivset_fn fn, void *ctx)
{
	u64 pos, added = 0, mstart, mend;
	u32 i, j, k;

	start = max(start, s->low);
	if (start >= end)
		return 0;

	/*
	 * Entries i..j-1 overlap or touch [start, end) and are merged with
	 * it: the first with end >= start up to the last with start <= end.
	 */
	i = ecp_ivset_search(s, start);
	for (j = i; j < s->n && s->iv[j].start <= end; j++)
		;

	if (i == j && start > s->low) {
		/* Disjoint from everything: the only case needing a slot. */
		if (s->n == s->cap)
			return -ENOSPC;
		memmove(&s->iv[i + 1], &s->iv[i], (s->n - i) * sizeof(*s->iv));
		s->iv[i].start = start;
		s->iv[i].end = end;
		s->n++;
		if (fn)
			fn(ctx, start, end);
		return end - start;
	}

	/* The new bytes are the gaps between the merged entries. */
	pos = start;
	for (k = i; k < j; k++) {
		if (s->iv[k].start > pos) {
			if (fn)
				fn(ctx, pos, s->iv[k].start);
			added += s->iv[k].start - pos;
		}
		pos = max(pos, s->iv[k].end);
	}
	if (pos < end) {
		if (fn)
			fn(ctx, pos, end);
		added += end - pos;
	}

	mstart = i < j ? min(start, s->iv[i].start) : start;
	mend = i < j ? max(end, s->iv[j - 1].end) : end;
	if (mstart <= s->low) {
		/* Joins the contiguous prefix. */
		s->low = mend;
		ecp_ivset_remove(s, i, j);
	} else {
		s->iv[i].start = mstart;
		s->iv[i].end = mend;
		ecp_ivset_remove(s, i + 1, j);
	}
	return added;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_insert);

void ecp_ivset_trim(struct ecp_ivset *s, u64 upto)
{
	u32 i;

	if (upto <= s->low)
		return;
	s->low = upto;
	for (i = 0; i < s->n && s->iv[i].start <= s->low; i++)
		s->low = max(s->low, s->iv[i].end);
	ecp_ivset_remove(s, 0, i);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ivset_trim);
