// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 6298 §2 in microseconds: SRTT and RTTVAR with gains 1/8 and 1/4,
 * and Linux's RTO = SRTT + max(4 * RTTVAR, 200 ms) (tcp_set_rto(): its
 * RTTVAR never drops below tcp_rto_min).  RFC 6298's SRTT + max(G, 4 *
 * RTTVAR) falls to a round trip and a jiffy on a steady path, and the
 * first queue that builds (a recovery's re-sent bytes wait behind a full
 * shaper) fires it for nothing: a spurious RTO goes back N with a window
 * of one segment.
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

u32 ecp_rtt_acked(struct ecp_rtt *r, u64 acked, u64 now_us)
{
	u32 m;

	if (!r->timing || acked < r->end)
		return 0;
	r->timing = false;
	m = max_t(u64, min_t(u64, now_us - r->start_us, U32_MAX), 1);
	ecp_rtt_sample(r, m);
	return m;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_rtt_acked);

unsigned long ecp_rtt_rto(const struct ecp_rtt *r)
{
	u64 us;

	if (!r->srtt_us)
		return ECP_RTO_FALLBACK;
	us = r->srtt_us + max_t(u64, jiffies_to_usecs(ECP_RTO_MIN),
				4 * (u64)r->rttvar_us);
	return clamp_t(unsigned long, usecs_to_jiffies(min_t(u64, us, U32_MAX)),
		       ECP_RTO_MIN, ECP_RTO_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_rtt_rto);
