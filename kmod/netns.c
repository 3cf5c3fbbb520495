// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state.
 *
 * Module parameter:
 *   netns_mem_max=BYTES: cap on the task buffers of each namespace
 *     (default 256 MiB; writable at runtime, applies to new tasks).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/netns/generic.h>

#include "ecproxy.h"
#include "hook.h"
#include "netns.h"
#include "task.h"

static unsigned int ecp_net_id __read_mostly;

static unsigned long ecp_mem_max = 256UL << 20;
module_param_named(netns_mem_max, ecp_mem_max, ulong, 0644);
MODULE_PARM_DESC(netns_mem_max,
		 "Bytes of task buffers each network namespace may reserve");

u64 ecp_netns_mem_max(void)
{
	return READ_ONCE(ecp_mem_max);
}

struct ecp_net *ecp_net(const struct net *net)
{
	return net_generic(net, ecp_net_id);
}

static int __net_init ecp_net_init(struct net *net)
{
	struct ecp_net *en = ecp_net(net);
	int i;

	en->net = net;
	mutex_init(&en->conf_lock);
	xa_init(&en->tasks);
	for (i = 0; i < ARRAY_SIZE(en->vip_hash); i++)
		INIT_HLIST_HEAD(&en->vip_hash[i]);
	ecp_stats_init(&en->retired);
	atomic64_set(&en->retired_bytes_in, 0);
	atomic64_set(&en->events_dropped, 0);
	return ecp_hook_net_init(net);
}

static void __net_exit ecp_net_exit(struct net *net)
{
	struct ecp_net *en = ecp_net(net);

	/* No new segments first; then reset live connections. */
	ecp_hook_net_exit(net);
	/*
	 * Tasks are freed after a grace period and never touch en once
	 * unpublished, so they may outlive it.
	 */
	ecp_task_flush(en);
	WARN_ON_ONCE(en->ntasks || en->mem_used);
	xa_destroy(&en->tasks);
}

static struct pernet_operations ecp_net_ops = {
	.init = ecp_net_init,
	.exit = ecp_net_exit,
	.id = &ecp_net_id,
	.size = sizeof(struct ecp_net),
};

int ecp_netns_init(void)
{
	return register_pernet_subsys(&ecp_net_ops);
}

void ecp_netns_exit(void)
{
	unregister_pernet_subsys(&ecp_net_ops);
	/*
	 * Connection timers that freed their connection may still be
	 * returning (softirq is an RCU read-side section).
	 */
	synchronize_rcu();
	/* Task frees are RCU callbacks into this module: let them run. */
	rcu_barrier();
}
