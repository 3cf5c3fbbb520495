// SPDX-License-Identifier: GPL-2.0
/*
 * NewReno towards the client (see cc.h).  Slow start counts acknowledged bytes,
 * at most two segments per ACK (RFC 3465, L = 2), so that a stretch ACK after a
 * stall does not release a burst.  In congestion avoidance the window grows by
 * about one segment per window acknowledged.  Either only while the window is
 * in use, and after idle or application-limited periods it comes back
 * towards what was used, as Linux's TCP does.
 */
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "cc.h"

void ecp_cc_init(struct ecp_cc *cc, u32 mss)
{
	memset(cc, 0, sizeof(*cc));
	cc->cwnd = ECP_CC_INIT_SEGS * mss;
	cc->ssthresh = ECP_CC_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_init);

void ecp_cc_acked(struct ecp_cc *cc, u32 acked, u32 mss, bool recovering)
{
	u64 grow;

	if (recovering || !acked)
		return;
	if (cc->cwnd < cc->ssthresh)
		grow = min(acked, 2 * mss);
	else
		grow = max_t(u64, 1, div_u64((u64)mss * acked, cc->cwnd));
	cc->cwnd = min_t(u64, (u64)cc->cwnd + grow, ECP_CC_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_acked);

/* Linux's tcp_current_ssthresh(): what the window reached is kept. */
static void ecp_cc_keep(struct ecp_cc *cc)
{
	cc->ssthresh = max(cc->ssthresh, (cc->cwnd >> 1) + (cc->cwnd >> 2));
}

void ecp_cc_sent(struct ecp_cc *cc, u64 ack, u64 nxt, u64 flight, bool full,
		 unsigned long now, unsigned long rto, u32 mss)
{
	u32 used = min_t(u64, flight, U32_MAX);

	if (ack >= cc->used_end || used > cc->used || full) {
		cc->used = used;
		cc->used_end = nxt;
		cc->full = full;
	}
	if (ecp_cc_full(cc)) {
		cc->idle_used = 0;
		cc->stamp = now;
		return;
	}
	cc->idle_used = max(cc->idle_used, used);
	if (time_before(now, cc->stamp + rto))
		return;
	/* Not in a recovery: there the window is the recovery's. */
	if (ack >= cc->recover) {
		used = max_t(u32, cc->idle_used, ECP_CC_INIT_SEGS * mss);
		if (used < cc->cwnd) {
			ecp_cc_keep(cc);
			cc->cwnd = (cc->cwnd + used) >> 1;
		}
	}
	cc->idle_used = 0;
	cc->stamp = now;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_sent);

void ecp_cc_restart(struct ecp_cc *cc, unsigned long idle, unsigned long rto,
		    unsigned long now, u32 mss)
{
	u32 restart = min_t(u32, ECP_CC_INIT_SEGS * mss, cc->cwnd);
	u32 cwnd = cc->cwnd;

	if (!rto || idle < rto)
		return;
	ecp_cc_keep(cc);
	while (idle >= rto && cwnd > restart) {
		cwnd >>= 1;
		idle -= rto;
	}
	cc->cwnd = max(cwnd, restart);
	cc->idle_used = 0;
	cc->stamp = now;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_restart);

void ecp_cc_recovered(struct ecp_cc *cc)
{
	cc->cwnd = min(cc->cwnd, cc->ssthresh);
	cc->rto = false;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_recovered);

static u32 ecp_cc_half(u64 flight, u32 mss)
{
	return clamp_t(u64, flight / 2, 2 * mss, ECP_CC_MAX);
}

void ecp_cc_loss(struct ecp_cc *cc, u64 flight, u32 mss)
{
	cc->ssthresh = ecp_cc_half(flight, mss);
	cc->cwnd = cc->ssthresh;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_loss);

void ecp_cc_timeout(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss)
{
	cc->ssthresh = ecp_cc_half(flight, mss);
	cc->cwnd = mss;
	cc->recover = nxt;
	cc->rto = true;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_timeout);

void ecp_cc_resent(struct ecp_cc *cc, u64 nxt)
{
	cc->recover = max(cc->recover, nxt);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_resent);

bool ecp_cc_ack(struct ecp_cc *cc, u64 prev, u64 ack, u32 mss)
{
	bool recovering = prev < cc->recover;

	cc->dupacks = 0;
	if (ack < cc->recover) {
		if (cc->rto && ecp_cc_full(cc))
			ecp_cc_acked(cc, min_t(u64, ack - prev, U32_MAX), mss,
				     false);
		return true;
	}
	if (recovering)
		ecp_cc_recovered(cc);
	/* A window cut by an ECN echo grows again once its data is acked. */
	if (ecp_cc_full(cc) && ack >= cc->cwr)
		ecp_cc_acked(cc, min_t(u64, ack - prev, U32_MAX), mss, false);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_ack);

bool ecp_cc_dupack(struct ecp_cc *cc, u64 ack)
{
	if (cc->dupacks >= ECP_CC_DUPACKS)
		return false;
	return ++cc->dupacks == ECP_CC_DUPACKS && ack >= cc->recover;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_dupack);

bool ecp_cc_ece(struct ecp_cc *cc, u64 ack, u64 flight, u64 nxt, u32 mss)
{
	if (ack < cc->recover || ack < cc->cwr || !flight)
		return false;
	ecp_cc_loss(cc, flight, mss);
	cc->cwr = nxt;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_ece);

void ecp_cc_recover(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss)
{
	ecp_cc_loss(cc, flight, mss);
	cc->recover = nxt;
	cc->rto = false;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_recover);
