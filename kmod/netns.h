/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_NETNS_H
#define _ECP_NETNS_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include "stats.h"

#define ECP_VIP_HASH_BITS	8

/* Per network namespace state: tasks are configured per netns. */
struct ecp_net {
	struct net *net;
	/*
	 * Serialises configuration changes and everything below that is
	 * not marked RCU; the data path only reads, under RCU.
	 */
	struct mutex conf_lock;
	struct xarray tasks;		/* by id, RCU readers */
	struct hlist_head vip_hash[1 << ECP_VIP_HASH_BITS]; /* RCU readers */
	unsigned int ntasks;
	/* Bumped on every add/delete, so that dumps notice changes. */
	unsigned int gen;
	/* Bytes of task buffers charged; READ_ONCE outside conf_lock. */
	u64 mem_used;
	/*
	 * Counters of deleted tasks, so that namespace totals only go down
	 * on STATS_RESET.
	 */
	struct ecp_stats retired;
	atomic64_t retired_bytes_in;
	/* Events that could not be sent (event.c); any context. */
	atomic64_t events_dropped;
};

/* The pernet id (main.c registers the pernet operations). */
extern unsigned int ecp_net_id;

struct ecp_net *ecp_net(const struct net *net);
/* The netns_mem_max module parameter. */
u64 ecp_netns_mem_max(void);

#endif
