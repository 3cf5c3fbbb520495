/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_HOOK_H
#define _ECP_HOOK_H

struct net;

/* Register and unregister the data path's netfilter hooks in @net. */
int ecp_hook_net_init(struct net *net);
void ecp_hook_net_exit(struct net *net);

#endif
