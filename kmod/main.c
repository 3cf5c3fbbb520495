// SPDX-License-Identifier: GPL-2.0
/*
 * ecproxy: erasure coding inside the network.  The module's and each
 * network namespace's lifetime: what starts and stops the GF engine, the
 * per-namespace data path and the netlink family.  See docs/design.md for
 * the data path and uapi/linux/ecproxy.h for the netlink protocol.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include <linux/ecproxy.h>
#include "ecproxy.h"
#include "conn.h"
#include "gf.h"
#include "netlink.h"
#include "netns.h"
#include "task.h"

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
	/* The hook comes with the namespace's first task (task_conf.c). */
	return 0;
}

static void __net_exit ecp_net_exit(struct net *net)
{
	struct ecp_net *en = ecp_net(net);

	/*
	 * Reset live connections; the last task takes the hook with it.
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

static int __init ecp_mod_init(void)
{
	int ret;

	/* The data path needs its GF tables before any task can exist. */
	ret = ecp_gf_init();
	if (ret)
		return ret;
	ret = ecp_conn_init();
	if (ret)
		goto err_gf;
	ret = register_pernet_subsys(&ecp_net_ops);
	if (ret)
		goto err_conn;
	/* Netlink last: once registered, requests may arrive at once. */
	ret = ecp_netlink_init();
	if (ret)
		goto err_netns;
	pr_info("ecproxy " ECP_VERSION " loaded\n");
	return 0;

err_netns:
	unregister_pernet_subsys(&ecp_net_ops);
err_conn:
	ecp_conn_exit();
err_gf:
	ecp_gf_exit();
	return ret;
}

static void __exit ecp_mod_exit(void)
{
	ecp_netlink_exit();
	unregister_pernet_subsys(&ecp_net_ops);
	/*
	 * Connection timers that freed their connection may still be
	 * returning (softirq is an RCU read-side section).
	 */
	synchronize_rcu();
	/* Buffer clears hold tasks; they end before the tasks can go. */
	ecp_conn_exit();
	/* Task frees are RCU callbacks into this module: let them run. */
	rcu_barrier();
	ecp_gf_exit();
}

module_init(ecp_mod_init);
module_exit(ecp_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("In-network erasure-code reconstruction proxy");
MODULE_AUTHOR("The ecproxy developers");
MODULE_VERSION(ECP_VERSION);
MODULE_ALIAS_GENL_FAMILY(ECPROXY_GENL_NAME);
