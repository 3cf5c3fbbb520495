// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family: command table, per-command policies and the
 * commands that are not about tasks.  The protocol is documented in
 * uapi/linux/ecproxy.h.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include <linux/ecproxy.h>
#include "ecproxy.h"
#include "event.h"
#include "gf.h"
#include "netlink.h"
#include "netns.h"
#include "task.h"

static int ecp_nl_put_gf(struct sk_buff *msg)
{
	struct nlattr *avail;
	const char *name;
	unsigned int pos;

	if (nla_put_string(msg, ECPROXY_A_INFO_GF_IMPL, ecp_gf_impl_name()))
		return -EMSGSIZE;
	avail = nla_nest_start(msg, ECPROXY_A_INFO_GF_AVAIL);
	if (!avail)
		return -EMSGSIZE;
	ecp_gf_for_each_impl(name, pos)
		if (nla_put_string(msg, ECPROXY_A_INFO_GF_IMPL, name))
			return -EMSGSIZE;
	nla_nest_end(msg, avail);
	return 0;
}

static int ecp_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ecp_genl_family, 0,
				ECPROXY_CMD_GET_INFO);
	if (!hdr)
		goto nospace;
	if (nla_put_string(msg, ECPROXY_A_INFO_VERSION, ECP_VERSION) ||
	    ecp_nl_put_gf(msg))
		goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	NL_SET_ERR_MSG(info->extack, "reply does not fit in a message");
	return -EMSGSIZE;
}

int ecp_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ecp_net *en = ecp_net(genl_info_net(info));
	struct ecp_stats *sum;
	struct nlattr *nest;
	struct sk_buff *msg;
	struct ecp_task *t;
	unsigned long id;
	unsigned int ntasks;
	u64 bytes_in, mem, dropped;
	void *hdr;
	int ret = -EMSGSIZE;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!sum || !msg) {
		ret = -ENOMEM;
		goto out;
	}
	ecp_stats_init(sum);
	mutex_lock(&en->conf_lock);
	ecp_stats_fold(sum, &en->retired);
	bytes_in = atomic64_read(&en->retired_bytes_in);
	xa_for_each(&en->tasks, id, t) {
		ecp_stats_fold(sum, &t->stats);
		bytes_in += ecp_task_bytes_in(t);
	}
	ntasks = en->ntasks;
	mem = en->mem_used;
	dropped = atomic64_read(&en->events_dropped);
	mutex_unlock(&en->conf_lock);

	hdr = genlmsg_put_reply(msg, info, &ecp_genl_family, 0,
				ECPROXY_CMD_STATS_GET);
	if (!hdr)
		goto nospace;
	if (nla_put_u32(msg, ECPROXY_A_NETNS_TASKS, ntasks) ||
	    nla_put_u64_64bit(msg, ECPROXY_A_NETNS_MEM_USED, mem,
			      ECPROXY_A_NETNS_PAD) ||
	    nla_put_u64_64bit(msg, ECPROXY_A_NETNS_MEM_MAX,
			      ecp_netns_mem_max(), ECPROXY_A_NETNS_PAD) ||
	    nla_put_u64_64bit(msg, ECPROXY_A_NETNS_EVENTS_DROPPED, dropped,
			      ECPROXY_A_NETNS_PAD))
		goto nospace;
	nest = nla_nest_start(msg, ECPROXY_A_NETNS_STATS);
	if (!nest || ecp_stats_put(msg, sum, bytes_in))
		goto nospace;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	kfree(sum);
	return genlmsg_reply(msg, info);

nospace:
	NL_SET_ERR_MSG(info->extack, "reply does not fit in a message");
out:
	nlmsg_free(msg);
	kfree(sum);
	return ret;
}

/*
 * Every command needs CAP_NET_ADMIN over the namespace, reads included.
 * Commands without a policy accept no attributes: with resv_start_op 0
 * the core gives them a reject-all policy and validates strictly.
 */
static const struct genl_ops ecp_genl_ops[] = {
	{
		.cmd = ECPROXY_CMD_GET_INFO,
		.doit = ecp_nl_get_info,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_TASK_ADD,
		.doit = ecp_nl_task_add,
		.policy = ecp_task_add_policy,
		.maxattr = ECPROXY_A_TASK_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_TASK_DEL,
		.doit = ecp_nl_task_del,
		.policy = ecp_task_id_policy,
		.maxattr = ECPROXY_A_TASK_ID,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_TASK_GET,
		.doit = ecp_nl_task_get,
		.dumpit = ecp_nl_task_dump,
		.policy = ecp_task_id_policy,
		.maxattr = ECPROXY_A_TASK_ID,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_TASK_FLUSH,
		.doit = ecp_nl_task_flush,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_STATS_GET,
		.doit = ecp_nl_stats_get,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_TASK_SET,
		.doit = ecp_nl_task_set,
		.policy = ecp_task_add_policy,
		.maxattr = ECPROXY_A_TASK_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_STATS_RESET,
		.doit = ecp_nl_stats_reset,
		.policy = ecp_task_id_policy,
		.maxattr = ECPROXY_A_TASK_ID,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = ECPROXY_CMD_TASK_START,
		.doit = ecp_nl_task_start,
		.policy = ecp_task_id_policy,
		.maxattr = ECPROXY_A_TASK_ID,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

/* Subscribing needs CAP_NET_ADMIN over the netns, like the commands. */
static const struct genl_multicast_group ecp_genl_mcgrps[] = {
	[ECP_MCGRP_EVENTS] = {
		.name = ECPROXY_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

struct genl_family ecp_genl_family __ro_after_init = {
	.name = ECPROXY_GENL_NAME,
	.version = ECPROXY_GENL_VERSION,
	.module = THIS_MODULE,
	.ops = ecp_genl_ops,
	.n_ops = ARRAY_SIZE(ecp_genl_ops),
	.mcgrps = ecp_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ecp_genl_mcgrps),
	.resv_start_op = 0,
	.netnsok = true,
	.parallel_ops = true,
};

int __init ecp_netlink_init(void)
{
	return genl_register_family(&ecp_genl_family);
}

void ecp_netlink_exit(void)
{
	genl_unregister_family(&ecp_genl_family);
}
