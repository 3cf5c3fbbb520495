// SPDX-License-Identifier: GPL-2.0
/*
 * The pacing rate and the departure times of pace.h, as Linux computes
 * them (tcp_update_pacing_rate(), tcp_update_skb_after_send(),
 * tcp_tso_autosize()).
 */
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "pace.h"

u64 ecp_pace_rate(u32 cwnd, u32 ssthresh, u64 out, u32 srtt_us)
{
	u32 window = max_t(u64, cwnd, min_t(u64, out, U32_MAX));
	u64 rate = (u64)window * USEC_PER_SEC *
		   (cwnd < ssthresh / 2 ? ECP_PACE_SS_PCT : ECP_PACE_CA_PCT) /
		   100;

	if (!srtt_us)
		return 0;
	return max_t(u64, div_u64(rate, srtt_us), 1);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_pace_rate);

u32 ecp_pace_size(const struct ecp_pace *p, u32 mss, u32 most)
{
	u64 bytes = p->rate ? p->rate >> ECP_PACE_SHIFT : most;

	bytes = min_t(u64, max_t(u64, bytes, (u64)ECP_PACE_MIN_SEGS * mss),
		      most);
	/* Whole segments: only the stream's tail makes a short one. */
	return max_t(u32, (u32)bytes / mss * mss, mss);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_pace_size);

void ecp_pace_sent(struct ecp_pace *p, u64 now_ns, u32 len)
{
	u64 len_ns, late;

	if (!p->rate)
		return;
	len_ns = div64_u64((u64)len * NSEC_PER_SEC, p->rate);
	/*
	 * After a pause the budget restarts now: no burst for the idle
	 * time.  But a timer that fired late is made up for, up to half
	 * the segment's time, as Linux takes OS jitter into account
	 * (tcp_update_skb_after_send()): else each late wake-up is time
	 * lost, and a flow paced at a rate cap ran 4% under it in a VM.
	 */
	late = now_ns > p->next_ns ? now_ns - p->next_ns : 0;
	p->next_ns = max(p->next_ns, now_ns) + len_ns -
		     min(len_ns / 2, late);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_pace_sent);
