// SPDX-License-Identifier: GPL-2.0
/*
 * An output's scoreboard; see sack.h.
 */
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "sack.h"

void ecp_sack_init(struct ecp_sack *k, struct ecp_iv *storage, u32 cap)
{
	k->ack = 0;
	k->sacked = 0;
	k->lost = 0;
	k->resent = 0;
	k->dups = 0;
	ecp_ivset_init_on(&k->iv, storage, cap);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_init);

/*
 * SACKed bytes in [from, to): below the set's watermark (a range that
 * reached the ack), then the ranges that end above @from, found by
 * binary search, until one starts at or beyond @to.
 */
static u64 ecp_sack_in(const struct ecp_sack *k, u64 from, u64 to)
{
	u64 n = 0;
	u32 i;

	if (from >= to)
		return 0;
	if (k->iv.low > from)
		n += min(k->iv.low, to) - from;
	for (i = ecp_ivset_search(&k->iv, from + 1);
	     i < k->iv.n && k->iv.iv[i].start < to; i++)
		n += min(k->iv.iv[i].end, to) - max(k->iv.iv[i].start, from);
	return n;
}

void ecp_sack_ack(struct ecp_sack *k, u64 ack, u32 mss)
{
	u64 segs;

	if (ack <= k->ack)
		return;
	segs = div_u64(ack - k->ack, mss);
	k->dups -= min_t(u64, k->dups, segs);
	/* What the ack passes is acked, no longer SACKed. */
	k->sacked -= min(k->sacked, ecp_sack_in(k, k->ack, ack));
	k->ack = ack;
	k->resent = max(k->resent, ack);
	ecp_ivset_trim(&k->iv, ack);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_ack);

void ecp_sack_add(struct ecp_sack *k, u64 start, u64 end)
{
	/* No room: the block's bytes may be re-sent for nothing (sack.h). */
	s64 n = ecp_ivset_insert(&k->iv, start, end, NULL, NULL);

	if (n > 0)
		k->sacked += n;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_add);

void ecp_sack_clear(struct ecp_sack *k)
{
	ecp_ivset_reset(&k->iv, k->ack);
	k->sacked = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_clear);

void ecp_sack_start(struct ecp_sack *k, u64 lost, u32 dups)
{
	k->lost = lost;
	k->resent = k->ack;
	k->dups = dups;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_start);

u64 ecp_sack_pipe(const struct ecp_sack *k, u64 nxt, u32 mss)
{
	u64 from = max(k->resent, k->ack), to = min(k->lost, nxt);
	u64 out = nxt > k->ack ? nxt - k->ack : 0;
	/* Every SACKed byte lies below @nxt: blocks beyond it are refused. */
	u64 gone = k->sacked + (u64)k->dups * mss;

	/* Lost and not re-sent yet: not in the network. */
	if (from < to)
		gone += to - from - ecp_sack_in(k, from, to);
	return out > gone ? out - gone : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_pipe);

bool ecp_sack_resent_lost(const struct ecp_sack *k, u64 start, u64 end,
			  u64 after)
{
	u64 s = max(start, k->ack), e = min(end, k->resent);

	/*
	 * An unSACKed byte below @s: the watermark is one, as no range
	 * starts at it (ivset.h), and everything below it is SACKed or acked.
	 */
	if (s < e && ecp_sack_in(k, s, e) != e - s &&
	    ecp_ivset_low(&k->iv) < s)
		return true;
	/* New bytes sent after the last copy; the watermark re-sent. */
	s = max(start, after);
	return s < end && ecp_sack_in(k, s, end) != end - s &&
	       ecp_ivset_low(&k->iv) < k->resent;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_resent_lost);

bool ecp_sack_next(const struct ecp_sack *k, u64 *start, u32 *len, u32 max)
{
	u64 pos = max3(k->resent, k->ack, k->iv.low);
	u32 i = ecp_ivset_search(&k->iv, pos + 1);

	/* The ranges are disjoint and apart: at most one covers @pos. */
	if (i < k->iv.n && k->iv.iv[i].start <= pos)
		pos = k->iv.iv[i++].end;
	if (pos >= k->lost || !max)
		return false;
	*start = pos;
	*len = min_t(u64, max, k->lost - pos);
	if (i < k->iv.n)
		*len = min_t(u64, *len, k->iv.iv[i].start - pos);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_next);
