// SPDX-License-Identifier: GPL-2.0
/*
 * ecproxy: reconstructs erasure-coded data inside the network.  See
 * docs/design.md for the data path and uapi/linux/ecproxy.h for the
 * netlink protocol.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include <linux/ecproxy.h>
#include "ecproxy.h"
#include "gf.h"

static int __init ecp_mod_init(void)
{
	int ret;

	/* The data path needs its GF tables before any task can exist. */
	ret = ecp_gf_init();
	if (ret)
		return ret;
	ret = ecp_netns_init();
	if (ret)
		goto err_gf;
	/* Netlink last: once registered, requests may arrive at once. */
	ret = ecp_netlink_init();
	if (ret)
		goto err_netns;
	pr_info("ecproxy " ECP_VERSION " loaded\n");
	return 0;

err_netns:
	ecp_netns_exit();
err_gf:
	ecp_gf_exit();
	return ret;
}

static void __exit ecp_mod_exit(void)
{
	ecp_netlink_exit();
	ecp_netns_exit();
	ecp_gf_exit();
}

module_init(ecp_mod_init);
module_exit(ecp_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("In-network erasure-code reconstruction proxy");
MODULE_AUTHOR("The ecproxy developers");
MODULE_VERSION(ECP_VERSION);
MODULE_ALIAS_GENL_FAMILY(ECPROXY_GENL_NAME);
