/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_HOOK_H
#define _ECP_HOOK_H

struct net;

/*
 * Register and unregister the data path's netfilter hook, with IPv4
 * defragmentation, in @net.  The namespace's tasks do it (task_conf.c): the
 * hook is there only while it has tasks, so that a router with the module
 * loaded and no task pays nothing per packet.  Process context.
 */
int ecp_hook_register(struct net *net);
void ecp_hook_unregister(struct net *net);

#endif
