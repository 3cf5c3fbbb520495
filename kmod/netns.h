/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_NETNS_H
#define _ECP_NETNS_H

#include <linux/mutex.h>
#include <linux/list.h>
#include <net/net_namespace.h>

/* Per network namespace state: tasks are configured per netns. */
struct ecp_net {
	struct net *net;
	/* Serialises configuration changes; the data path uses RCU. */
	struct mutex conf_lock;
	struct list_head tasks;
};

struct ecp_net *ecp_net(const struct net *net);

#endif
