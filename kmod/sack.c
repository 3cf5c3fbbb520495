// SPDX-License-Identifier: GPL-2.0
/*
 * An output's scoreboard; see sack.h.  The SACKed ranges are few (at most
 * ECP_SACK_CAP), so every question is a linear walk over them.
 */
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "sack.h"

int ecp_sack_init(struct ecp_sack *k, gfp_t gfp)
{
	k->ack = 0;
	k->lost = 0;
	k->resent = 0;
	k->dups = 0;
	return ecp_ivset_init(&k->iv, ECP_SACK_CAP, gfp);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_init);

void ecp_sack_destroy(struct ecp_sack *k)
{
	ecp_ivset_destroy(&k->iv);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_destroy);

void ecp_sack_ack(struct ecp_sack *k, u64 ack, u32 mss)
{
	u64 segs;

	if (ack <= k->ack)
		return;
	segs = div_u64(ack - k->ack, mss);
	k->dups -= min_t(u64, k->dups, segs);
	k->ack = ack;
	k->resent = max(k->resent, ack);
	ecp_ivset_trim(&k->iv, ack);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_ack);

void ecp_sack_add(struct ecp_sack *k, u64 start, u64 end)
{
	/* No room: the block's bytes may be re-sent for nothing (sack.h). */
	ecp_ivset_insert(&k->iv, start, end, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_add);

void ecp_sack_clear(struct ecp_sack *k)
{
	ecp_ivset_reset(&k->iv, k->ack);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_clear);

/* SACKed bytes in [from, to). */
static u64 ecp_sack_in(const struct ecp_sack *k, u64 from, u64 to)
{
	u64 n = 0;
	u32 i;

	if (from >= to)
		return 0;
	if (k->iv.low > from)
		n += min(k->iv.low, to) - from;
	for (i = 0; i < k->iv.n; i++) {
		u64 s = max(k->iv.iv[i].start, from);
		u64 e = min(k->iv.iv[i].end, to);

		if (s < e)
			n += e - s;
	}
	return n;
}

u64 ecp_sack_bytes(const struct ecp_sack *k)
{
	return ecp_sack_in(k, k->ack, U64_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_bytes);

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
	u64 gone = ecp_sack_in(k, k->ack, nxt) + (u64)k->dups * mss;

	/* Lost and not re-sent yet: not in the network. */
	if (from < to)
		gone += to - from - ecp_sack_in(k, from, to);
	return out > gone ? out - gone : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_pipe);

bool ecp_sack_resent_lost(const struct ecp_sack *k, u64 start, u64 end)
{
	u64 s = max(start, k->ack), e = min(end, k->resent);

	if (s >= e || ecp_sack_in(k, s, e) == e - s)
		return false;
	return ecp_sack_in(k, k->ack, s) < s - k->ack;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_resent_lost);

bool ecp_sack_next(const struct ecp_sack *k, u64 *start, u32 *len, u32 max)
{
	u64 pos = max3(k->resent, k->ack, k->iv.low);
	u32 i;

	for (i = 0; i < k->iv.n && pos < k->lost; i++) {
		if (k->iv.iv[i].end <= pos)
			continue;
		if (k->iv.iv[i].start > pos)
			break;
		pos = k->iv.iv[i].end;
	}
	if (pos >= k->lost || !max)
		return false;
	*start = pos;
	*len = min_t(u64, max, k->lost - pos);
	if (i < k->iv.n)
		*len = min_t(u64, *len, k->iv.iv[i].start - pos);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_sack_next);
