// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl monitor: follow the "events" multicast group of the network
 * namespace and print one line (or one JSON object) per event, flushed at
 * once so that pipes and files see each event as it happens.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "nl.h"
#include "nlfmt.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const char *const event_names[] = {
	[ECPROXY_EVENT_TASK_ADDED] = "added",
	[ECPROXY_EVENT_TASK_DELETED] = "deleted",
	[ECPROXY_EVENT_TASK_CHANGED] = "changed",
	[ECPROXY_EVENT_CONN_ESTABLISHED] = "established",
	[ECPROXY_EVENT_CONN_DONE] = "completed",
	[ECPROXY_EVENT_CONN_FAILED] = "failed",
	[ECPROXY_EVENT_TASK_STARTED] = "started",
	[ECPROXY_EVENT_TASK_COMPLETED] = "completed",
	[ECPROXY_EVENT_TASK_FAILED] = "failed",
};

/* An event message as JSON; NULL if it is not an event. */
static json_object *event_json(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[ECPROXY_A_EVENT_MAX + 1];
	json_object *o;
	unsigned int type;

	if (g->cmd != ECPROXY_CMD_EVENT ||
	    ecctl_nl_parse(nlh, tb, ECPROXY_A_EVENT_MAX) < 0 ||
	    !tb[ECPROXY_A_EVENT_TYPE] || !tb[ECPROXY_A_EVENT_TASK_ID])
		return NULL;
	type = mnl_attr_get_u8(tb[ECPROXY_A_EVENT_TYPE]);
	o = json_object_new_object();
	json_object_object_add(o, "event", json_object_new_string(
		type < sizeof(event_names) / sizeof(event_names[0]) && event_names[type] ?
		event_names[type] : "unknown"));
	json_object_object_add(o, "task", json_object_new_int64(
		mnl_attr_get_u32(tb[ECPROXY_A_EVENT_TASK_ID])));
	if (tb[ECPROXY_A_EVENT_VIP])
		json_object_object_add(o, "vip", ecctl_fmt_addr(tb[ECPROXY_A_EVENT_VIP]));
	if (tb[ECPROXY_A_EVENT_PORT])
		json_object_object_add(o, "port", json_object_new_int(
			mnl_attr_get_u16(tb[ECPROXY_A_EVENT_PORT])));
	if (tb[ECPROXY_A_EVENT_K])
		json_object_object_add(o, "sources", json_object_new_int(
			mnl_attr_get_u8(tb[ECPROXY_A_EVENT_K])));
	if (tb[ECPROXY_A_EVENT_CLIENT])
		json_object_object_add(o, "client", ecctl_fmt_addr(tb[ECPROXY_A_EVENT_CLIENT]));
	if (tb[ECPROXY_A_EVENT_CLIENT_PORT])
		json_object_object_add(o, "client_port", json_object_new_int(
			mnl_attr_get_u16(tb[ECPROXY_A_EVENT_CLIENT_PORT])));
	if (tb[ECPROXY_A_EVENT_CPU])
		json_object_object_add(o, "cpu", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_EVENT_CPU])));
	if (tb[ECPROXY_A_EVENT_ERROR])
		json_object_object_add(o, "error", json_object_new_string(
			ecctl_fmt_conn_error(mnl_attr_get_u8(tb[ECPROXY_A_EVENT_ERROR]))));
	if (tb[ECPROXY_A_EVENT_ERROR_SOURCE]) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "index", json_object_new_int(
			mnl_attr_get_u8(tb[ECPROXY_A_EVENT_ERROR_SOURCE])));
		if (tb[ECPROXY_A_EVENT_SOURCE_ADDR])
			json_object_object_add(s, "addr",
					       ecctl_fmt_addr(tb[ECPROXY_A_EVENT_SOURCE_ADDR]));
		if (tb[ECPROXY_A_EVENT_SOURCE_PORT])
			json_object_object_add(s, "port", json_object_new_int(
				mnl_attr_get_u16(tb[ECPROXY_A_EVENT_SOURCE_PORT])));
		json_object_object_add(o, "source", s);
	}
	if (tb[ECPROXY_A_EVENT_ERROR_TARGET]) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "index", json_object_new_int(
			mnl_attr_get_u8(tb[ECPROXY_A_EVENT_ERROR_TARGET])));
		if (tb[ECPROXY_A_EVENT_TARGET_ADDR])
			json_object_object_add(s, "addr",
					       ecctl_fmt_addr(tb[ECPROXY_A_EVENT_TARGET_ADDR]));
		if (tb[ECPROXY_A_EVENT_TARGET_PORT])
			json_object_object_add(s, "port", json_object_new_int(
				mnl_attr_get_u16(tb[ECPROXY_A_EVENT_TARGET_PORT])));
		json_object_object_add(o, "target", s);
	}
	if (tb[ECPROXY_A_EVENT_BYTES])
		json_object_object_add(o, "bytes", json_object_new_int64(
			(int64_t)mnl_attr_get_u64(tb[ECPROXY_A_EVENT_BYTES])));
	if (tb[ECPROXY_A_EVENT_DURATION])
		json_object_object_add(o, "duration_ms", json_object_new_int64(
			(int64_t)mnl_attr_get_u64(tb[ECPROXY_A_EVENT_DURATION])));
	return o;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

/*
 * task 1 added vip 10.99.0.1 port 7001 sources 3
 * task 1 failed client 10.0.1.2:40000 error source-refused source 0
 *     10.0.11.2:8001 bytes 0 duration 3 ms      (one line)
 */
static void event_text(json_object *o)
{
	json_object *v, *s;

	printf("task %s %s", str(o, "task"), str(o, "event"));
	if (str(o, "vip")) {
		printf(" vip %s", str(o, "vip"));
		if (str(o, "port"))
			printf(" port %s", str(o, "port"));
		printf(" sources %s", str(o, "sources"));
	}
	if (str(o, "client"))
		printf(" client %s:%s", str(o, "client"), str(o, "client_port"));
	if (str(o, "cpu"))
		printf(" cpu %s", str(o, "cpu"));
	if (str(o, "error"))
		printf(" error %s", str(o, "error"));
	if (json_object_object_get_ex(o, "source", &s))
		printf(" source %s %s:%s", str(s, "index"), str(s, "addr"), str(s, "port"));
	if (json_object_object_get_ex(o, "target", &s))
		printf(" target %s %s:%s", str(s, "index"), str(s, "addr"), str(s, "port"));
	if (json_object_object_get_ex(o, "bytes", &v))
		printf(" bytes %" PRId64, json_object_get_int64(v));
	if (json_object_object_get_ex(o, "duration_ms", &v))
		printf(" duration %" PRId64 " ms", json_object_get_int64(v));
	printf("\n");
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	uint16_t family = *(const uint16_t *)data;
	json_object *o;

	if (nlh->nlmsg_type != family)
		return MNL_CB_OK;
	o = event_json(nlh);
	if (!o)
		return MNL_CB_OK;
	if (ecctl_opts.json) {
		/* JSON lines: one compact object per event, whatever -p says. */
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	} else {
		event_text(o);
	}
	fflush(stdout);
	json_object_put(o);
	return MNL_CB_OK;
}

static void monitor_usage(FILE *f)
{
	fprintf(f,
		"Usage: ecctl [ -j ] monitor\n"
		"       ecctl monitor help\n"
		"Prints the events of the network namespace as they happen, one per\n"
		"line, until interrupted:\n"
		"  task ID added vip ADDR [ port PORT ] sources K\n"
		"  task ID changed | task ID deleted | task ID started\n"
		"  task ID established client ADDR:PORT cpu CPU\n"
		"  task ID completed [ client ADDR:PORT ] bytes N duration MS ms\n"
		"  task ID failed [ client ADDR:PORT ] error REASON [ source I ADDR:PORT ]\n"
		"                 [ target I ADDR:PORT ] bytes N duration MS ms\n"
		"REASON := { source-refused | handshake-timeout | length-mismatch |\n"
		"            client-reset | source-reset | idle-timeout | no-memory |\n"
		"            task-deleted | source-timeout | client-timeout |\n"
		"            target-refused | target-reset | target-timeout }\n"
		"A task with targets has no client: \"started\" opens its run, which\n"
		"ends \"completed\" or \"failed\".\n"
		"With -j, one JSON object per line.  Needs CAP_NET_ADMIN; events the\n"
		"kernel could not deliver are counted (\"ecctl stats\", events-dropped).\n");
}

int do_monitor(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct ecctl_nl *nl;
	int ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "help")) {
			monitor_usage(stdout);
			return ECCTL_OK;
		}
		return ecctl_error(ECCTL_USAGE, "\"%s\": monitor takes no arguments; see \"ecctl monitor help\"",
				   argv[1]);
	}
	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	ret = ecctl_nl_subscribe_events(nl);
	if (ret)
		goto out;
	/* No SA_RESTART: a signal ends the blocking receive. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop) {
		ssize_t n = mnl_socket_recvfrom(nl->sk, nl->rx, sizeof(nl->rx));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* Our socket overflowed; the kernel counts them too. */
				fprintf(stderr, "Warning: events were lost (receive buffer full)\n");
				continue;
			}
			ret = ecctl_error(ECCTL_ERR, "receiving events: %s", strerror(errno));
			break;
		}
		if (mnl_cb_run(nl->rx, (size_t)n, 0, 0, event_cb, &nl->family) < 0) {
			ret = ecctl_error(ECCTL_ERR, "bad event message: %s", strerror(errno));
			break;
		}
	}
out:
	ecctl_nl_free(nl);
	return ret;
}
