// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <net/genetlink.h>

#include <linux/ecproxy.h>
#include "ecproxy.h"

static struct genl_family ecp_genl_family;

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
	if (nla_put_string(msg, ECPROXY_A_INFO_VERSION, ECP_VERSION))
		goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	NL_SET_ERR_MSG(info->extack, "reply does not fit in a message");
	return -EMSGSIZE;
}

static const struct genl_small_ops ecp_genl_ops[] = {
	{
		.cmd = ECPROXY_CMD_GET_INFO,
		.doit = ecp_nl_get_info,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family ecp_genl_family __ro_after_init = {
	.name = ECPROXY_GENL_NAME,
	.version = ECPROXY_GENL_VERSION,
	.module = THIS_MODULE,
	.small_ops = ecp_genl_ops,
	.n_small_ops = ARRAY_SIZE(ecp_genl_ops),
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
