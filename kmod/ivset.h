/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-source progress tracker: the byte ranges of the stream a source has
 * already contributed to the decode buffer.  XOR is its own inverse, so a
 * byte applied twice silently cancels its contribution; TCP retransmissions
 * may cover any mix of applied and unapplied bytes with boundaries unrelated
 * to the original segments, so the record is kept per byte range, not per
 * packet (NetEC's per-slot tracker bits).
 *
 * Representation: everything below @low has been contributed (the low
 * watermark, the usual case once the stream is in order); above it at most
 * @cap disjoint, non-adjacent intervals, sorted, each starting above @low.
 * Offsets are 64-bit stream offsets (seq.h), so nothing wraps.
 *
 * Bounded on purpose: the storage is allocated by ecp_ivset_init() in
 * process context, or lent by the owner (ecp_ivset_init_on(): a task
 * reserves its sources' records with its rings), and nothing in the fast
 * path allocates.  When a range is
 * disjoint from everything recorded and all @cap slots are taken, the insert
 * is refused as a whole (-ENOSPC, nothing recorded, nothing reported new):
 * the caller drops the segment and counts it, and the source retransmits it.
 * A range that touches @low or a recorded interval never needs a new slot,
 * so the retransmission that fills the hole at the watermark is always
 * accepted and the set cannot wedge.
 *
 * Locking: none inside.  The data path serialises every call on one set
 * with the connection's spinlock (softirq); nothing here sleeps.
 */
#ifndef _ECP_IVSET_H
#define _ECP_IVSET_H

#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>

/* The fewest and the most intervals a set is made for. */
#define ECP_IVSET_MIN_CAP	32
#define ECP_IVSET_MAX_CAP	1024

struct ecp_iv {
	u64 start;
	u64 end;	/* exclusive */
};

struct ecp_ivset {
	struct ecp_iv *iv;
	u32 n;
	u32 cap;
	u64 low;
};

/*
 * Called by ecp_ivset_insert() for every newly contributed sub-range, in
 * ascending order, before the set is updated; it must not touch the set.
 */
typedef void (*ecp_ivset_fn)(void *ctx, u64 start, u64 end);

/* Process context.  @cap in 1..ECP_IVSET_MAX_CAP.  Returns 0 or -errno. */
int ecp_ivset_init(struct ecp_ivset *s, u32 cap, gfp_t gfp);
void ecp_ivset_destroy(struct ecp_ivset *s);
/*
 * A set on @cap intervals of storage the caller owns, and frees after
 * the set's last use; no ecp_ivset_destroy().
 */
void ecp_ivset_init_on(struct ecp_ivset *s, struct ecp_iv *storage, u32 cap);
/*
 * Forget everything; the stream restarts at @start (a new client connection).
 */
void ecp_ivset_reset(struct ecp_ivset *s, u64 start);

/*
 * Record [start, end) and call @fn (may be NULL) for each part of it that
 * was not recorded before.  Returns the number of new bytes (0 for a pure
 * duplicate or an empty range) or -ENOSPC, in which case nothing changed
 * and @fn was not called.
 */
s64 ecp_ivset_insert(struct ecp_ivset *s, u64 start, u64 end,
		     ecp_ivset_fn fn, void *ctx);

/*
 * From now on treat everything below @upto as contributed: the client
 * acknowledged it, so it was complete and its buffer space has been reused; a
 * late retransmission below it must not be applied into that reused space.
 */
void ecp_ivset_trim(struct ecp_ivset *s, u64 upto);

/* Everything below this offset has been contributed. */
static inline u64 ecp_ivset_low(const struct ecp_ivset *s)
{
	return s->low;
}

/* The highest contributed offset + 1 (the low watermark when in order). */
static inline u64 ecp_ivset_high(const struct ecp_ivset *s)
{
	return s->n ? s->iv[s->n - 1].end : s->low;
}

/* Intervals held above the watermark (reordering depth, for statistics). */
static inline u32 ecp_ivset_count(const struct ecp_ivset *s)
{
	return s->n;
}

/*
 * The index of the first interval above the watermark that ends at or
 * after @off, ecp_ivset_count() if none (a binary search: the ends
 * ascend).
 */
u32 ecp_ivset_search(const struct ecp_ivset *s, u64 off);

/*
 * The first run of [@start, @end) that the set holds (below the
 * watermark or in an interval), {0, 0} if none: the bytes a segment
 * repeats, for a D-SACK block (RFC 2883).
 */
struct ecp_iv ecp_ivset_held(const struct ecp_ivset *s, u64 start, u64 end);

/* The @i-th interval above the watermark, in ascending order. */
static inline struct ecp_iv ecp_ivset_at(const struct ecp_ivset *s, u32 i)
{
	return s->iv[i];
}

/*
 * The completion point of a connection: bytes below it have been
 * contributed by all @n sources of the array @sets (@n >= 1).
 */
static inline u64 ecp_ivset_min_low(const struct ecp_ivset *sets,
				    unsigned int n)
{
	u64 m = U64_MAX;
	unsigned int i;

	for (i = 0; i < n; i++)
		m = min(m, sets[i].low);
	return m;
}

/* The same over an array of structures that embed a set as @member. */
#define ecp_ivset_min_low_of(arr, n, member)				\
({									\
	u64 __m = U64_MAX;						\
	unsigned int __i;						\
									\
	for (__i = 0; __i < (n); __i++)					\
		__m = min(__m, ecp_ivset_low(&(arr)[__i].member));	\
	__m;								\
})

#endif
