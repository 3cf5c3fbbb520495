// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl stats: the network namespace's totals (ECPROXY_CMD_STATS_GET) and
 * resetting counters (ECPROXY_CMD_STATS_RESET).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "nl.h"
#include "nlfmt.h"

static void stats_usage(FILE *f)
{
	fprintf(f,
		"Usage: ecctl stats [ show ]\n"
		"       ecctl stats reset [ id ID ]\n"
		"       ecctl stats help\n"
		"show   totals of the network namespace: tasks, reserved memory and its\n"
		"       cap, events the kernel could not deliver to \"ecctl monitor\", and\n"
		"       the task counters summed over every task it has had.\n"
		"reset  sets the counters of task ID to zero; without id, those of every\n"
		"       task, of the deleted ones and events-dropped, so that every total\n"
		"       starts again from 0.  Connection state and last-error are kept.\n");
}

static int stats_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	stats_usage(stdout);
	return ECCTL_OK;
}

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
	if (tb[ECPROXY_A_NETNS_EVENTS_DROPPED])
		json_object_object_add(o, "events_dropped", json_object_new_int64(
			(int64_t)mnl_attr_get_u64(tb[ECPROXY_A_NETNS_EVENTS_DROPPED])));
	if (tb[ECPROXY_A_NETNS_STATS])
		json_object_object_add(o, "stats", ecctl_fmt_stats(tb[ECPROXY_A_NETNS_STATS]));
	return MNL_CB_OK;
}

static int64_t num(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

static int stats_show(int argc, char **argv)
{
	struct ecctl_nl *nl;
	json_object *o, *v;
	int ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "help"))
			return stats_help(argc, argv);
		return ecctl_error(ECCTL_USAGE, "\"%s\": stats show takes no arguments", argv[1]);
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
	printf("tasks %" PRId64 " memory %" PRId64 " of %" PRId64 " events-dropped %" PRId64 "\n",
	       num(o, "tasks"), num(o, "mem_used"), num(o, "mem_max"), num(o, "events_dropped"));
	if (json_object_object_get_ex(o, "stats", &v))
		ecctl_fmt_stats_text(v, "    ");
	json_object_put(o);
	return ECCTL_OK;
}

static int stats_reset(int argc, char **argv)
{
	struct ecctl_kw kw[] = { { "id", "ID", 0, NULL }, { NULL, NULL, 0, NULL } };
	struct nlmsghdr *nlh;
	struct ecctl_nl *nl;
	long id = 0;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "help"))
		return stats_help(argc, argv);
	if (ecctl_parse_kw(kw, argc - 1, argv + 1))
		return ECCTL_USAGE;
	if (kw[0].val && ecctl_parse_int("id", kw[0].val, 0, UINT32_MAX, &id))
		return ECCTL_USAGE;
	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	nlh = ecctl_nl_req(nl, ECPROXY_CMD_STATS_RESET, 0);
	if (kw[0].val)
		mnl_attr_put_u32(nlh, ECPROXY_A_TASK_ID, (uint32_t)id);
	ret = ecctl_nl_talk(nl, nlh, NULL, NULL, ecctl_describe_task_attr);
	ecctl_nl_free(nl);
	return ret;
}

static const struct ecctl_cmd stats_cmds[] = {
	{ "show", stats_show, "namespace totals" },
	{ "reset", stats_reset, "zero counters" },
	{ "help", stats_help, "usage" },
	{ NULL, NULL, NULL }
};

int do_stats(int argc, char **argv)
{
	return ecctl_dispatch("stats command", stats_cmds, "show", argc - 1, argv + 1);
}
