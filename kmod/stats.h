/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task statistics.  The data path bumps them with the inline helpers
 * below; netlink reads them with ecp_stats_put().
 *
 * Counters are atomic64_t rather than per-CPU: one task serves one
 * connection at a time, so its counters are written, under the task's
 * lock, from whichever CPU handles that connection's packets (its home,
 * with RFS: steer.h), where the lock's cache line travels anyway.  Per-CPU
 * copies would cost NR_CPUS times the memory per task.
 */
#ifndef _ECP_STATS_H
#define _ECP_STATS_H

#include <linux/atomic.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/ecproxy.h>

enum ecp_stat {
	ECP_STAT_BYTES_OUT,
	ECP_STAT_SEGS_OUT,
	ECP_STAT_SEGS_APPLIED,
	ECP_STAT_DUPS_SKIPPED,
	ECP_STAT_RESENT,
	ECP_STAT_WINDOW_CLAMPS,
	ECP_STAT_OVERFLOW,
	ECP_STAT_CONNS,
	ECP_STAT_CONNS_DONE,
	ECP_STAT_CONNS_FAILED,
	ECP_STAT_PROMPTS,
	ECP_STAT_PMTU_UPDATES,
	ECP_STAT_TIME_WAIT_RESETS,
	ECP_STAT_WINDOW_PROBES,
	ECP_STAT_RECOVERIES,
	ECP_STAT_TIMEOUTS,
	ECP_STAT_SACKS,
	ECP_STAT_TAIL_PROBES,
	ECP_STAT_ECN_REDUCTIONS,
	ECP_STAT_SYNS_RESENT,
	ECP_STAT_PACE_WAITS,
	ECP_STAT_HYSTART_EXITS,
	ECP_STAT_OFF_HOME,
	ECP_STAT_REO_TIMEOUTS,
	ECP_STAT_SPARE_BYTES,
	ECP_STAT_SOURCES_LOST,
	ECP_STAT_NR,
};

/* Drop reasons are the uapi attribute types, counted from the first. */
#define ECP_DROP_FIRST	ECPROXY_DROP_OUT_OF_WINDOW
#define ECP_DROP_NR	(ECPROXY_DROP_MAX - ECP_DROP_FIRST + 1)

struct ecp_stats {
	atomic64_t ctr[ECP_STAT_NR];
	atomic64_t drops[ECP_DROP_NR];
	atomic64_t peak_buffer;
};

/* Per source; BYTES_IN of the task is their sum. */
struct ecp_source_stats {
	atomic64_t bytes_in;
	atomic64_t segs_in;
	atomic64_t dup_bytes;
	atomic64_t lost;	/* connections a spare stood in for it */
};

static inline void ecp_stats_add(struct ecp_stats *s, enum ecp_stat i, u64 n)
{
	atomic64_add(n, &s->ctr[i]);
}

static inline void ecp_stats_inc(struct ecp_stats *s, enum ecp_stat i)
{
	atomic64_inc(&s->ctr[i]);
}

static inline void ecp_stats_drop(struct ecp_stats *s,
				  enum ecproxy_drop_reason reason)
{
	atomic64_inc(&s->drops[reason - ECP_DROP_FIRST]);
}

/* Record an occupancy; keeps the maximum without a lock. */
static inline void ecp_stats_buffer(struct ecp_stats *s, u64 used)
{
	s64 old = atomic64_read(&s->peak_buffer);

	while ((u64)old < used &&
	       !atomic64_try_cmpxchg(&s->peak_buffer, &old, used))
		;
}

void ecp_stats_init(struct ecp_stats *s);
/* dst += src, peak = max; keeps a deleted task's totals. */
void ecp_stats_fold(struct ecp_stats *dst, const struct ecp_stats *src);
/*
 * Put ECPROXY_A_STATS_* (without the per-connection ones) into skb, in
 * the nest the caller opened.  bytes_in is summed by the caller.
 */
int ecp_stats_put(struct sk_buff *skb, const struct ecp_stats *s,
		  u64 bytes_in);
/* Room ecp_stats_put() needs, nest header excluded. */
size_t ecp_stats_size(void);

#endif
