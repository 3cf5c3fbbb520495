// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state: the accessor and the memory cap.  The
 * namespace's start-up and teardown, which register hooks and flush
 * tasks, live with the module's lifetime in main.c, as WireGuard keeps
 * them apart.
 *
 * Module parameter:
 *   netns_mem_max=BYTES: cap on the task buffers of each namespace
 *     (default 256 MiB; writable at runtime, applies to new tasks).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/netns/generic.h>

#include "netns.h"

unsigned int ecp_net_id __read_mostly;

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
