// SPDX-License-Identifier: GPL-2.0
/*
 * The window towards the client (see cc.h).  Slow start counts acknowledged
 * bytes, at most two segments per ACK (RFC 3465, L = 2), so that a stretch ACK
 * after a stall does not release a burst.  In congestion avoidance the window
 * follows CUBIC's cubic in time, in integer arithmetic: milliseconds, bytes,
 * C = 0.4 segments/s^3 as 4/10^10 segments/ms^3.  Either only while the window
 * is in use, and after idle or application-limited periods it comes back
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

/* The integer cube root of @x, rounded down, bit by bit. */
static u32 ecp_cc_cbrt(u64 x)
{
	u64 r = 0;
	int s;

	for (s = 63; s >= 0; s -= 3) {
		u64 b;

		r <<= 1;
		b = 3 * r * (r + 1) + 1;
		if ((x >> s) >= b) {
			x -= b << s;
			r++;
		}
	}
	return r;
}

/*
 * Far enough beyond the plateau for any window: 100 s.  Before it, t - K
 * is at least -K, and K^3 <= 2^30 * 2.5e9 / 48 (the least MSS) keeps 4
 * (t - K)^3 within s64.
 */
#define ECP_CC_CUBIC_MAX_MS	100000

/* The cubic at @t_ms into the epoch, in bytes, at least a segment. */
static u64 ecp_cc_cubic(const struct ecp_cc *cc, s64 t_ms, u32 mss)
{
	s64 d = min_t(s64, t_ms - cc->k_ms, ECP_CC_CUBIC_MAX_MS);
	/* C d^3 segments: 4 d^3 / 10^10, scaled to bytes in two steps. */
	s64 w = div_s64(4 * d * d * d, 10000) * mss;

	w = div_s64(w, 1000000) + cc->origin;
	return clamp_t(s64, w, mss, ECP_CC_MAX);
}

/* Congestion avoidance: what @acked bytes acked at @now_us add (cc.h). */
static u64 ecp_cc_avoid(struct ecp_cc *cc, u32 acked, u32 mss, u64 now_us)
{
	u64 cwnd = cc->cwnd, target, grow, grow_est;

	if (!cc->epoch) {
		cc->epoch = true;
		cc->epoch_us = now_us;
		cc->w_est = cc->cwnd;
		cc->w_est_acc = 0;
		cc->origin = max(cc->w_max, cc->cwnd);
		/* K^3 = (W_max - cwnd) / C, in ms^3: bytes * 2.5e9 / mss. */
		cc->k_ms = ecp_cc_cbrt(div_u64((u64)(cc->origin - cc->cwnd) *
					       2500000000ULL, mss));
	}
	target = ecp_cc_cubic(cc, div_u64(now_us - min(now_us, cc->epoch_us) +
					  cc->rtt_min_us, 1000), mss);
	if (target > cwnd)
		grow = max_t(u64, 1, div64_u64((target - cwnd) * acked, cwnd));
	else
		grow = div64_u64((u64)mss * acked, 100 * cwnd);
	/* No loss yet to aim at: 5% per round trip at least (tcp_cubic.c). */
	if (!cc->w_max)
		grow = max_t(u64, grow, acked / 20);
	grow = min_t(u64, grow, max(acked / 2, 1U));
	/*
	 * Reno's 3 (1 - beta) / (1 + beta) = 9/17 segment per window, the
	 * remainder kept (tcp_cubic.c's ack_cnt): per ack it is 0 in a
	 * window of a megabyte.
	 */
	cc->w_est_acc += (u64)acked * mss * 9;
	grow_est = div64_u64(cc->w_est_acc, 17 * cwnd);
	cc->w_est_acc -= grow_est * 17 * cwnd;
	cc->w_est = min_t(u64, cc->w_est + grow_est, ECP_CC_MAX);
	if (cc->w_est > cwnd + grow)
		grow = cc->w_est - cwnd;
	return cwnd + grow;
}

void ecp_cc_acked(struct ecp_cc *cc, u32 acked, u32 mss, bool recovering,
		  u64 now_us)
{
	u64 cwnd;

	if (recovering || !acked)
		return;
	if (cc->cwnd < cc->ssthresh)
		cwnd = (u64)cc->cwnd + min(acked, 2 * mss);
	else
		cwnd = ecp_cc_avoid(cc, acked, mss, now_us);
	cc->cwnd = min_t(u64, cwnd, ECP_CC_MAX);
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
			cc->epoch = false;
		}
	}
	cc->idle_used = 0;
	cc->stamp = now;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_sent);

/* The round that ended: did its round trips show a queue? */
static bool ecp_cc_hystart_round(struct ecp_cc *cc, u32 mss)
{
	u32 thresh = clamp_t(u32, cc->rtt_min_us >> 3, ECP_CC_HYSTART_MIN_US,
			     ECP_CC_HYSTART_MAX_US);

	if (cc->cwnd < ECP_CC_HYSTART_SEGS * mss ||
	    cc->round_min_us <= cc->rtt_min_us + thresh)
		return false;
	cc->ssthresh = cc->cwnd;
	return true;
}

bool ecp_cc_hystart(struct ecp_cc *cc, u64 ack, u64 nxt, u32 rtt_us,
		    bool every, u32 mss)
{
	bool found = false;

	if (!rtt_us)
		return false;
	if (!cc->rtt_min_us || rtt_us < cc->rtt_min_us)
		cc->rtt_min_us = rtt_us;
	/* Slow start, after an RTO too; a fast recovery's window is fixed. */
	if (cc->cwnd >= cc->ssthresh || (ack < cc->recover && !cc->rto)) {
		cc->round_end = 0;
		return false;
	}
	if (ack >= cc->round_end) {
		/*
		 * A leg without timestamps times one segment per round
		 * trip: its round is judged by those it had, when it ends.
		 * With a sample on every ack, never on fewer than 8.
		 */
		if (!every && cc->round_end && cc->round_samples &&
		    cc->round_samples < ECP_CC_HYSTART_SAMPLES)
			found = ecp_cc_hystart_round(cc, mss);
		cc->round_end = nxt;
		cc->round_min_us = U32_MAX;
		cc->round_samples = 0;
		if (found)
			return true;
	}
	if (cc->round_samples >= ECP_CC_HYSTART_SAMPLES)
		return false;
	cc->round_min_us = min(cc->round_min_us, rtt_us);
	if (++cc->round_samples == ECP_CC_HYSTART_SAMPLES)
		return ecp_cc_hystart_round(cc, mss);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_hystart);

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
	cc->epoch = false;
	cc->idle_used = 0;
	cc->stamp = now;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_restart);

void ecp_cc_recovered(struct ecp_cc *cc)
{
	cc->cwnd = cc->rto || !cc->prr_fs ? min(cc->cwnd, cc->ssthresh) :
		   cc->ssthresh;
	cc->rto = false;
	cc->prr_fs = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_recovered);

/* What a loss with @flight outstanding leaves: beta of it, 2 MSS least. */
static u32 ecp_cc_beta(u64 flight, u32 mss)
{
	return clamp_t(u64, div_u64(min_t(u64, flight, ECP_CC_MAX) *
				    ECP_CC_BETA_NUM, ECP_CC_BETA_DEN),
		       2 * mss, ECP_CC_MAX);
}

void ecp_cc_loss(struct ecp_cc *cc, u64 flight, u32 mss)
{
	u32 w = min_t(u64, flight, ECP_CC_MAX);

	cc->w_max = w < cc->w_max ?
		    div_u64((u64)w * (ECP_CC_BETA_DEN + ECP_CC_BETA_NUM),
			    2 * ECP_CC_BETA_DEN) : w;
	cc->epoch = false;
	cc->ssthresh = ecp_cc_beta(flight, mss);
	cc->cwnd = cc->ssthresh;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_loss);

void ecp_cc_timeout(struct ecp_cc *cc, u64 flight, u64 nxt, u32 mss)
{
	cc->prr_fs = 0;
	cc->ssthresh = ecp_cc_beta(flight, mss);
	cc->cwnd = mss;
	cc->recover = nxt;
	cc->rto = true;
	/* As tcp_cubic.c after an RTO: the path may have changed. */
	cc->rtt_min_us = 0;
	cc->round_end = 0;
	cc->w_max = 0;
	cc->epoch = false;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_timeout);

void ecp_cc_resent(struct ecp_cc *cc, u64 nxt)
{
	cc->recover = max(cc->recover, nxt);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_resent);

bool ecp_cc_ack(struct ecp_cc *cc, u64 prev, u64 ack, u32 mss, u64 now_us)
{
	bool recovering = prev < cc->recover;

	cc->dupacks = 0;
	if (ack < cc->recover) {
		if (cc->rto && ecp_cc_full(cc))
			ecp_cc_acked(cc, min_t(u64, ack - prev, U32_MAX), mss,
				     false, now_us);
		return true;
	}
	if (recovering)
		ecp_cc_recovered(cc);
	/* A window cut by an ECN echo grows again once its data is acked. */
	if (ecp_cc_full(cc) && ack >= cc->cwr)
		ecp_cc_acked(cc, min_t(u64, ack - prev, U32_MAX), mss, false,
			     now_us);
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
	cc->prr_fs = max_t(u64, flight, mss);
	cc->prr_delivered = 0;
	cc->prr_out = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_recover);

void ecp_cc_prr(struct ecp_cc *cc, u64 delivered, u64 pipe, bool advanced,
		u32 mss)
{
	u64 sndcnt;

	if (!delivered || !cc->prr_fs)
		return;
	cc->prr_delivered += delivered;
	if (pipe > cc->ssthresh) {
		/* ceil(ssthresh * delivered / RecoverFS) - out */
		sndcnt = div64_u64((u64)cc->ssthresh * cc->prr_delivered +
				   cc->prr_fs - 1, cc->prr_fs);
		sndcnt = sndcnt > cc->prr_out ? sndcnt - cc->prr_out : 0;
	} else {
		sndcnt = cc->prr_delivered > cc->prr_out ?
			 cc->prr_delivered - cc->prr_out : 0;
		sndcnt = max(sndcnt, delivered);
		/* As Linux: a segment more when the ack moved. */
		if (advanced)
			sndcnt += mss;
		sndcnt = min(sndcnt, cc->ssthresh - pipe);
	}
	cc->cwnd = clamp_t(u64, pipe + sndcnt, mss, ECP_CC_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_cc_prr);
