// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 7323's rules for one leg, as Linux applies them (tcp_paws_check(),
 * tcp_store_ts_recent(), tcp_ack_update_rtt()).
 */
#include <linux/export.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "ts.h"

/* Echoes older than this give no sample: S never waits that long. */
#define ECP_TS_RTT_MAX_MS	60000

void ecp_ts_open(struct ecp_ts *ts, bool offered, bool seen, u32 tsval,
		 u32 now_s)
{
	ts->ok = offered && seen;
	ts->recent = ts->ok ? tsval : 0;
	ts->recent_s = now_s;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ts_open);

bool ecp_ts_paws_reject(const struct ecp_ts *ts, u32 tsval, u32 slack,
			u32 now_s)
{
	if (!ts->ok || (s32)(ts->recent - tsval) <= (s32)slack)
		return false;
	if ((s32)(now_s - ts->recent_s) >= ECP_TS_STALE_S)
		return false;
	return ts->recent != 0;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ts_paws_reject);

void ecp_ts_update(struct ecp_ts *ts, u32 tsval, u32 now_s)
{
	if (!ts->ok)
		return;
	if ((s32)(tsval - ts->recent) >= 0 ||
	    (s32)(now_s - ts->recent_s) >= ECP_TS_STALE_S) {
		ts->recent = tsval;
		ts->recent_s = now_s;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ts_update);

u32 ecp_ts_rtt_us(const struct ecp_ts *ts, u32 tsecr, u32 now_ms)
{
	s32 ms;

	if (!ts->ok || !tsecr)
		return 0;
	ms = (s32)(ecp_ts_val(ts, now_ms) - tsecr);
	if (ms < 0 || ms > ECP_TS_RTT_MAX_MS)
		return 0;
	/*
	 * Within the tick counts as one, as Linux counts it
	 * (tcp_rtt_tsopt_us()): the round trip is anywhere below 1 ms, and
	 * 0 would be no sample.
	 */
	return max_t(s32, ms, 1) * 1000U;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ts_rtt_us);
