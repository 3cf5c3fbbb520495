/* SPDX-License-Identifier: GPL-2.0 */
/* Generic netlink handlers, one file per group of commands. */
#ifndef _ECP_NETLINK_H
#define _ECP_NETLINK_H

#include <net/genetlink.h>
#include <linux/ecproxy.h>

extern struct genl_family ecp_genl_family;

int ecp_netlink_init(void);
void ecp_netlink_exit(void);

struct ecp_task;

/* task_parse.c: requests turned into tasks, with messages for refusals. */
extern const struct nla_policy ecp_task_add_policy[ECPROXY_A_TASK_MAX + 1];
extern const struct nla_policy ecp_task_id_policy[ECPROXY_A_TASK_ID + 1];
int ecp_parse_task(struct ecp_task **out, struct genl_info *info);
int ecp_parse_client(struct ecp_task *t, struct nlattr **attrs,
		     struct netlink_ext_ack *extack);
u32 ecp_parse_u32(struct nlattr **attrs, int type, u32 def);

int ecp_nl_task_add(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_task_set(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_stats_reset(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_task_del(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_task_get(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_task_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ecp_nl_task_flush(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_task_start(struct sk_buff *skb, struct genl_info *info);
int ecp_nl_stats_get(struct sk_buff *skb, struct genl_info *info);

#endif
