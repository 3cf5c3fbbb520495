// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <net/netns/generic.h>

#include "ecproxy.h"
#include "netns.h"

static unsigned int ecp_net_id __read_mostly;

struct ecp_net *ecp_net(const struct net *net)
{
	return net_generic(net, ecp_net_id);
}

static int __net_init ecp_net_init(struct net *net)
{
	struct ecp_net *en = ecp_net(net);

	en->net = net;
	mutex_init(&en->conf_lock);
	INIT_LIST_HEAD(&en->tasks);
	return 0;
}

static void __net_exit ecp_net_exit(struct net *net)
{
	struct ecp_net *en = ecp_net(net);

	/* Tasks hold references into this struct; none may outlive it. */
	WARN_ON_ONCE(!list_empty(&en->tasks));
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
}
