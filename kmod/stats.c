// SPDX-License-Identifier: GPL-2.0
#include <net/netlink.h>

#include "stats.h"

static const u16 ecp_stat_attr[ECP_STAT_NR] = {
	[ECP_STAT_BYTES_OUT] = ECPROXY_A_STATS_BYTES_OUT,
	[ECP_STAT_SEGS_OUT] = ECPROXY_A_STATS_SEGS_OUT,
	[ECP_STAT_SEGS_APPLIED] = ECPROXY_A_STATS_SEGS_APPLIED,
	[ECP_STAT_DUPS_SKIPPED] = ECPROXY_A_STATS_DUPS_SKIPPED,
	[ECP_STAT_RESENT] = ECPROXY_A_STATS_RESENT,
	[ECP_STAT_WINDOW_CLAMPS] = ECPROXY_A_STATS_WINDOW_CLAMPS,
	[ECP_STAT_PROMPTS] = ECPROXY_A_STATS_PROMPTS,
	[ECP_STAT_PMTU_UPDATES] = ECPROXY_A_STATS_PMTU_UPDATES,
	[ECP_STAT_TIME_WAIT_RESETS] = ECPROXY_A_STATS_TIME_WAIT_RESETS,
	[ECP_STAT_WINDOW_PROBES] = ECPROXY_A_STATS_WINDOW_PROBES,
	[ECP_STAT_RECOVERIES] = ECPROXY_A_STATS_RECOVERIES,
	[ECP_STAT_SACKS] = ECPROXY_A_STATS_SACKS,
	[ECP_STAT_TAIL_PROBES] = ECPROXY_A_STATS_TAIL_PROBES,
	[ECP_STAT_ECN_REDUCTIONS] = ECPROXY_A_STATS_ECN_REDUCTIONS,
	[ECP_STAT_SYNS_RESENT] = ECPROXY_A_STATS_SYNS_RESENT,
	[ECP_STAT_PACE_WAITS] = ECPROXY_A_STATS_PACE_WAITS,
	[ECP_STAT_HYSTART_EXITS] = ECPROXY_A_STATS_HYSTART_EXITS,
	[ECP_STAT_OFF_HOME] = ECPROXY_A_STATS_OFF_HOME,
	[ECP_STAT_REO_TIMEOUTS] = ECPROXY_A_STATS_REO_TIMEOUTS,
	[ECP_STAT_SPARE_BYTES] = ECPROXY_A_STATS_SPARE_BYTES,
	[ECP_STAT_SOURCES_LOST] = ECPROXY_A_STATS_SOURCES_LOST,
	[ECP_STAT_TIMEOUTS] = ECPROXY_A_STATS_TIMEOUTS,
	[ECP_STAT_OVERFLOW] = ECPROXY_A_STATS_OVERFLOW,
	[ECP_STAT_CONNS] = ECPROXY_A_STATS_CONNS,
	[ECP_STAT_CONNS_DONE] = ECPROXY_A_STATS_CONNS_DONE,
	[ECP_STAT_CONNS_FAILED] = ECPROXY_A_STATS_CONNS_FAILED,
};

void ecp_stats_init(struct ecp_stats *s)
{
	int i;

	for (i = 0; i < ECP_STAT_NR; i++)
		atomic64_set(&s->ctr[i], 0);
	for (i = 0; i < ECP_DROP_NR; i++)
		atomic64_set(&s->drops[i], 0);
	atomic64_set(&s->peak_buffer, 0);
}

void ecp_stats_fold(struct ecp_stats *dst, const struct ecp_stats *src)
{
	int i;

	for (i = 0; i < ECP_STAT_NR; i++)
		atomic64_add(atomic64_read(&src->ctr[i]), &dst->ctr[i]);
	for (i = 0; i < ECP_DROP_NR; i++)
		atomic64_add(atomic64_read(&src->drops[i]), &dst->drops[i]);
	ecp_stats_buffer(dst, atomic64_read(&src->peak_buffer));
}

static int ecp_put_u64(struct sk_buff *skb, int type, const atomic64_t *v)
{
	return nla_put_u64_64bit(skb, type, atomic64_read(v),
				 ECPROXY_A_STATS_PAD);
}

int ecp_stats_put(struct sk_buff *skb, const struct ecp_stats *s,
		  u64 bytes_in)
{
	struct nlattr *drops;
	int i;

	if (nla_put_u64_64bit(skb, ECPROXY_A_STATS_BYTES_IN, bytes_in,
			      ECPROXY_A_STATS_PAD))
		return -EMSGSIZE;
	for (i = 0; i < ECP_STAT_NR; i++)
		if (ecp_put_u64(skb, ecp_stat_attr[i], &s->ctr[i]))
			return -EMSGSIZE;
	if (ecp_put_u64(skb, ECPROXY_A_STATS_PEAK_BUFFER, &s->peak_buffer))
		return -EMSGSIZE;
	drops = nla_nest_start(skb, ECPROXY_A_STATS_DROPS);
	if (!drops)
		return -EMSGSIZE;
	for (i = 0; i < ECP_DROP_NR; i++)
		if (nla_put_u64_64bit(skb, ECP_DROP_FIRST + i,
				      atomic64_read(&s->drops[i]),
				      ECPROXY_DROP_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, drops);
	return 0;
}

size_t ecp_stats_size(void)
{
	return (ECP_STAT_NR + 2) * nla_total_size_64bit(sizeof(u64)) +
	       nla_total_size(0) +
	       ECP_DROP_NR * nla_total_size_64bit(sizeof(u64));
}
