// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl stats: the network namespace's totals (ECPROXY_CMD_STATS_GET).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "nl.h"
#include "nlfmt.h"

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ECPROXY_A_NETNS_MAX + 1];
	json_object *o = data;

	if (ecctl_nl_parse(nlh, tb, ECPROXY_A_NETNS_MAX) < 0)
		return MNL_CB_ERROR;
	if (tb[ECPROXY_A_NETNS_TASKS])
		json_object_object_add(o, "tasks", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_NETNS_TASKS])));
	if (tb[ECPROXY_A_NETNS_MEM_USED])
		json_object_object_add(o, "mem_used", json_object_new_int64(
			(int64_t)mnl_attr_get_u64(tb[ECPROXY_A_NETNS_MEM_USED])));
	if (tb[ECPROXY_A_NETNS_MEM_MAX])
		json_object_object_add(o, "mem_max", json_object_new_int64(
			(int64_t)mnl_attr_get_u64(tb[ECPROXY_A_NETNS_MEM_MAX])));
	if (tb[ECPROXY_A_NETNS_STATS])
		json_object_object_add(o, "stats", ecctl_fmt_stats(tb[ECPROXY_A_NETNS_STATS]));
	return MNL_CB_OK;
}

int do_stats(int argc, char **argv)
{
	struct ecctl_nl *nl;
	json_object *o, *v;
	int ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "help") || !strcmp(argv[1], "show")) {
			if (argv[1][0] == 'h') {
				printf("Usage: ecctl stats [ show ]\n"
				       "Totals of the network namespace: tasks, reserved memory and its cap,\n"
				       "and the task counters summed over every task it has had.\n");
				return ECCTL_OK;
			}
		} else {
			return ecctl_error(ECCTL_USAGE, "\"%s\": stats takes no arguments", argv[1]);
		}
	}
	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	o = json_object_new_object();
	ret = ecctl_nl_talk(nl, ecctl_nl_req(nl, ECPROXY_CMD_STATS_GET, 0), stats_cb, o, NULL);
	ecctl_nl_free(nl);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	if (ecctl_opts.json) {
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	printf("tasks %" PRId64, json_object_object_get_ex(o, "tasks", &v) ? json_object_get_int64(v) : 0);
	printf(" memory %" PRId64, json_object_object_get_ex(o, "mem_used", &v) ? json_object_get_int64(v) : 0);
	printf(" of %" PRId64 "\n", json_object_object_get_ex(o, "mem_max", &v) ? json_object_get_int64(v) : 0);
	if (json_object_object_get_ex(o, "stats", &v))
		ecctl_fmt_stats_text(v, "    ");
	json_object_put(o);
	return ECCTL_OK;
}
