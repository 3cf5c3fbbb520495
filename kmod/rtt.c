// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 6298 §2 in microseconds: SRTT and RTTVAR with gains 1/8 and 1/4,
 * RTO = SRTT + max(G, 4 * RTTVAR) with G one jiffy, the granularity of
 * the timer that fires it.
 */
#include <linux/export.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "rtt.h"

void ecp_rtt_sample(struct ecp_rtt *r, u32 m)
{
	u32 delta;

	m = min_t(u32, m, jiffies_to_usecs(2 * ECP_RTO_MAX));
	/* Within a microsecond still counts as one: 0 means no sample. */
	m = max_t(u32, m, 1);
	if (!r->srtt_us) {
		r->srtt_us = m;
		r->rttvar_us = m / 2;
		return;
	}
	delta = r->srtt_us > m ? r->srtt_us - m : m - r->srtt_us;
	r->rttvar_us = (3 * (u64)r->rttvar_us + delta) / 4;
	r->srtt_us = (7 * (u64)r->srtt_us + m) / 8;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_rtt_sample);

bool ecp_rtt_acked(struct ecp_rtt *r, u64 acked, u64 now_us)
{
	if (!r->timing || acked < r->end)
		return false;
	r->timing = false;
	ecp_rtt_sample(r, min_t(u64, now_us - r->start_us, U32_MAX));
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_rtt_acked);

unsigned long ecp_rtt_rto(const struct ecp_rtt *r)
{
	u64 us;

	if (!r->srtt_us)
		return ECP_RTO_MIN;
	us = r->srtt_us + max_t(u64, jiffies_to_usecs(1),
				4 * (u64)r->rttvar_us);
	return clamp_t(unsigned long, usecs_to_jiffies(min_t(u64, us, U32_MAX)),
		       ECP_RTO_MIN, ECP_RTO_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_rtt_rto);

unsigned long ecp_rtt_idle(const struct ecp_rtt *r)
{
	return max(ecp_rtt_rto(r),
		   usecs_to_jiffies(r->srtt_us) + ECP_RTO_MIN);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_rtt_idle);
