// SPDX-License-Identifier: GPL-2.0
/*
 * Formatting of task and statistics replies.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "nl.h"
#include "nlfmt.h"

#define NAME(tab, v) ((v) < sizeof(tab) / sizeof((tab)[0]) && (tab)[v] ? (tab)[v] : "unknown")

static const char *const conn_states[] = {
	[ECPROXY_CONN_NONE] = "none",
	[ECPROXY_CONN_HANDSHAKE] = "handshake",
	[ECPROXY_CONN_ESTABLISHED] = "established",
	[ECPROXY_CONN_CLOSING] = "closing",
	[ECPROXY_CONN_LINGER] = "linger",
};

static const char *const source_states[] = {
	[ECPROXY_SOURCE_IDLE] = "idle",
	[ECPROXY_SOURCE_SYN_SENT] = "syn-sent",
	[ECPROXY_SOURCE_ESTABLISHED] = "established",
	[ECPROXY_SOURCE_FIN_RECEIVED] = "fin-received",
	[ECPROXY_SOURCE_CLOSED] = "closed",
	[ECPROXY_SOURCE_RESET] = "reset",
	[ECPROXY_SOURCE_SILENT] = "silent",
	[ECPROXY_SOURCE_SHORT] = "short",
};

static const char *const conn_errors[] = {
	[ECPROXY_ERR_NONE] = "none",
	[ECPROXY_ERR_SOURCE_REFUSED] = "source-refused",
	[ECPROXY_ERR_HANDSHAKE_TIMEOUT] = "handshake-timeout",
	[ECPROXY_ERR_LENGTH_MISMATCH] = "length-mismatch",
	[ECPROXY_ERR_CLIENT_RESET] = "client-reset",
	[ECPROXY_ERR_SOURCE_RESET] = "source-reset",
	[ECPROXY_ERR_IDLE_TIMEOUT] = "idle-timeout",
	[ECPROXY_ERR_NO_MEMORY] = "no-memory",
	[ECPROXY_ERR_TASK_DELETED] = "task-deleted",
	[ECPROXY_ERR_SOURCE_TIMEOUT] = "source-timeout",
	[ECPROXY_ERR_CLIENT_TIMEOUT] = "client-timeout",
	[ECPROXY_ERR_TARGET_REFUSED] = "target-refused",
	[ECPROXY_ERR_TARGET_RESET] = "target-reset",
	[ECPROXY_ERR_TARGET_TIMEOUT] = "target-timeout",
};

static const char *const row_states[] = {
	[ECPROXY_ROW_IDLE] = "idle",
	[ECPROXY_ROW_SYN_SENT] = "syn-sent",
	[ECPROXY_ROW_SENDING] = "sending",
	[ECPROXY_ROW_DONE] = "done",
	[ECPROXY_ROW_RESET] = "reset",
};

static const char *const modes[] = {
	[ECPROXY_MODE_PULL] = "pull",
	[ECPROXY_MODE_READ] = "read",
	[ECPROXY_MODE_DEST] = "dest",
	[ECPROXY_MODE_WRITE] = "write",
};

const char *ecctl_fmt_conn_error(unsigned int err)
{
	return NAME(conn_errors, err);
}

static const char *const drop_names[] = {
	[ECPROXY_DROP_OUT_OF_WINDOW] = "out_of_window",
	[ECPROXY_DROP_BAD_FLAGS] = "bad_flags",
	[ECPROXY_DROP_TRUNCATED] = "truncated",
	[ECPROXY_DROP_BAD_OPTIONS] = "bad_options",
	[ECPROXY_DROP_BAD_CSUM] = "bad_csum",
	[ECPROXY_DROP_CLIENT_DENIED] = "client_denied",
	[ECPROXY_DROP_BUSY] = "busy",
	[ECPROXY_DROP_NO_MEMORY] = "no_memory",
	[ECPROXY_DROP_NO_ROUTE] = "no_route",
	[ECPROXY_DROP_PAWS] = "paws",
};

/* Counters in kernel attribute order, with their JSON names. */
static const struct {
	int type;
	const char *name;
} counters[] = {
	{ ECPROXY_A_STATS_BYTES_IN, "bytes_in" },
	{ ECPROXY_A_STATS_BYTES_OUT, "bytes_out" },
	{ ECPROXY_A_STATS_SEGS_OUT, "segs_out" },
	{ ECPROXY_A_STATS_SEGS_APPLIED, "segs_applied" },
	{ ECPROXY_A_STATS_DUPS_SKIPPED, "dups_skipped" },
	{ ECPROXY_A_STATS_RESENT, "resent" },
	{ ECPROXY_A_STATS_WINDOW_CLAMPS, "window_clamps" },
	{ ECPROXY_A_STATS_PEAK_BUFFER, "peak_buffer" },
	{ ECPROXY_A_STATS_OVERFLOW, "overflow" },
	{ ECPROXY_A_STATS_CONNS, "conns" },
	{ ECPROXY_A_STATS_CONNS_DONE, "conns_done" },
	{ ECPROXY_A_STATS_CONNS_FAILED, "conns_failed" },
	{ ECPROXY_A_STATS_PROMPTS, "prompts" },
	{ ECPROXY_A_STATS_PMTU_UPDATES, "pmtu_updates" },
	{ ECPROXY_A_STATS_TIME_WAIT_RESETS, "time_wait_resets" },
	{ ECPROXY_A_STATS_WINDOW_PROBES, "window_probes" },
	{ ECPROXY_A_STATS_RECOVERIES, "recoveries" },
	{ ECPROXY_A_STATS_TIMEOUTS, "timeouts" },
	{ ECPROXY_A_STATS_SACKS, "sacks" },
	{ ECPROXY_A_STATS_TAIL_PROBES, "tail_probes" },
	{ ECPROXY_A_STATS_REO_TIMEOUTS, "reo_timeouts" },
	{ ECPROXY_A_STATS_ECN_REDUCTIONS, "ecn_reductions" },
	{ ECPROXY_A_STATS_SYNS_RESENT, "syns_resent" },
	{ ECPROXY_A_STATS_PACE_WAITS, "pace_waits" },
	{ ECPROXY_A_STATS_HYSTART_EXITS, "hystart_exits" },
	{ ECPROXY_A_STATS_OFF_HOME, "off_home" },
	{ ECPROXY_A_STATS_SPARE_BYTES, "spare_bytes" },
	{ ECPROXY_A_STATS_SOURCES_LOST, "sources_lost" },
};

static json_object *u64_json(const struct nlattr *a)
{
	return json_object_new_int64((int64_t)mnl_attr_get_u64(a));
}

json_object *ecctl_fmt_addr(const struct nlattr *a)
{
	char buf[INET6_ADDRSTRLEN];
	int af = mnl_attr_get_payload_len(a) == 16 ? AF_INET6 : AF_INET;

	if (!inet_ntop(af, mnl_attr_get_payload(a), buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "?");
	return json_object_new_string(buf);
}

json_object *ecctl_fmt_stats(const struct nlattr *nest)
{
	const struct nlattr *tb[ECPROXY_A_STATS_MAX + 1];
	json_object *o = json_object_new_object();
	const struct nlattr *d;

	ecctl_nl_parse_nested(nest, tb, ECPROXY_A_STATS_MAX);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		if (tb[counters[i].type])
			json_object_object_add(o, counters[i].name,
					       u64_json(tb[counters[i].type]));
	if (tb[ECPROXY_A_STATS_DROPS]) {
		json_object *drops = json_object_new_object();

		mnl_attr_for_each_nested(d, tb[ECPROXY_A_STATS_DROPS]) {
			unsigned int t = mnl_attr_get_type(d);

			if (t < ECPROXY_DROP_OUT_OF_WINDOW)
				continue;
			json_object_object_add(drops, NAME(drop_names, t), u64_json(d));
		}
		json_object_object_add(o, "drops", drops);
	}
	if (tb[ECPROXY_A_STATS_CONN_STATE])
		json_object_object_add(o, "conn_state", json_object_new_string(
			NAME(conn_states, mnl_attr_get_u8(tb[ECPROXY_A_STATS_CONN_STATE]))));
	if (tb[ECPROXY_A_STATS_LAST_ERROR])
		json_object_object_add(o, "last_error", json_object_new_string(
			NAME(conn_errors, mnl_attr_get_u8(tb[ECPROXY_A_STATS_LAST_ERROR]))));
	if (tb[ECPROXY_A_STATS_LAST_ERROR_SOURCE])
		json_object_object_add(o, "last_error_source", json_object_new_int(
			mnl_attr_get_u8(tb[ECPROXY_A_STATS_LAST_ERROR_SOURCE])));
	if (tb[ECPROXY_A_STATS_LAST_ERROR_TARGET])
		json_object_object_add(o, "last_error_target", json_object_new_int(
			mnl_attr_get_u8(tb[ECPROXY_A_STATS_LAST_ERROR_TARGET])));
	if (tb[ECPROXY_A_STATS_RATE])
		json_object_object_add(o, "rate", u64_json(tb[ECPROXY_A_STATS_RATE]));
	if (tb[ECPROXY_A_STATS_RTT])
		json_object_object_add(o, "rtt_us", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_STATS_RTT])));
	return o;
}

/* A binary attribute of coefficients, one per byte, as a JSON array. */
static json_object *bytes_json(const struct nlattr *a)
{
	const uint8_t *c = mnl_attr_get_payload(a);
	json_object *arr = json_object_new_array();

	for (uint16_t i = 0; i < mnl_attr_get_payload_len(a); i++)
		json_object_array_add(arr, json_object_new_int(c[i]));
	return arr;
}

static json_object *source_json(const struct nlattr *nest)
{
	const struct nlattr *tb[ECPROXY_A_SOURCE_MAX + 1];
	json_object *o = json_object_new_object(), *st;

	ecctl_nl_parse_nested(nest, tb, ECPROXY_A_SOURCE_MAX);
	if (tb[ECPROXY_A_SOURCE_ADDR])
		json_object_object_add(o, "addr", ecctl_fmt_addr(tb[ECPROXY_A_SOURCE_ADDR]));
	if (tb[ECPROXY_A_SOURCE_PORT])
		json_object_object_add(o, "port",
				       json_object_new_int(mnl_attr_get_u16(tb[ECPROXY_A_SOURCE_PORT])));
	if (tb[ECPROXY_A_SOURCE_COEF])
		json_object_object_add(o, "coef",
				       json_object_new_int(mnl_attr_get_u8(tb[ECPROXY_A_SOURCE_COEF])));
	if (tb[ECPROXY_A_SOURCE_FRAG])
		json_object_object_add(o, "frag",
				       json_object_new_int(mnl_attr_get_u8(tb[ECPROXY_A_SOURCE_FRAG])));
	if (tb[ECPROXY_A_SOURCE_SPARE])
		json_object_object_add(o, "spare", json_object_new_boolean(1));
	if (tb[ECPROXY_A_SOURCE_CHECK])
		json_object_object_add(o, "check", bytes_json(tb[ECPROXY_A_SOURCE_CHECK]));
	if (tb[ECPROXY_A_SOURCE_LENGTH])
		json_object_object_add(o, "length", u64_json(tb[ECPROXY_A_SOURCE_LENGTH]));
	st = json_object_new_object();
	if (tb[ECPROXY_A_SOURCE_STATE])
		json_object_object_add(st, "state", json_object_new_string(
			NAME(source_states, mnl_attr_get_u8(tb[ECPROXY_A_SOURCE_STATE]))));
	if (tb[ECPROXY_A_SOURCE_BYTES_IN])
		json_object_object_add(st, "bytes_in", u64_json(tb[ECPROXY_A_SOURCE_BYTES_IN]));
	if (tb[ECPROXY_A_SOURCE_SEGS_IN])
		json_object_object_add(st, "segs_in", u64_json(tb[ECPROXY_A_SOURCE_SEGS_IN]));
	if (tb[ECPROXY_A_SOURCE_DUP_BYTES])
		json_object_object_add(st, "dup_bytes", u64_json(tb[ECPROXY_A_SOURCE_DUP_BYTES]));
	if (tb[ECPROXY_A_SOURCE_LOST])
		json_object_object_add(st, "lost", u64_json(tb[ECPROXY_A_SOURCE_LOST]));
	json_object_object_add(o, "stats", st);
	return o;
}

static json_object *row_json(const struct nlattr *nest)
{
	const struct nlattr *tb[ECPROXY_A_ROW_MAX + 1];
	json_object *o = json_object_new_object(), *st;

	ecctl_nl_parse_nested(nest, tb, ECPROXY_A_ROW_MAX);
	if (tb[ECPROXY_A_ROW_FRAG])
		json_object_object_add(o, "frag",
				       json_object_new_int(mnl_attr_get_u8(tb[ECPROXY_A_ROW_FRAG])));
	if (tb[ECPROXY_A_ROW_COEFS])
		json_object_object_add(o, "coefs", bytes_json(tb[ECPROXY_A_ROW_COEFS]));
	if (tb[ECPROXY_A_ROW_ADDR])
		json_object_object_add(o, "addr", ecctl_fmt_addr(tb[ECPROXY_A_ROW_ADDR]));
	if (tb[ECPROXY_A_ROW_PORT])
		json_object_object_add(o, "port",
				       json_object_new_int(mnl_attr_get_u16(tb[ECPROXY_A_ROW_PORT])));
	if (tb[ECPROXY_A_ROW_LENGTH])
		json_object_object_add(o, "length", u64_json(tb[ECPROXY_A_ROW_LENGTH]));
	st = json_object_new_object();
	if (tb[ECPROXY_A_ROW_STATE])
		json_object_object_add(st, "state", json_object_new_string(
			NAME(row_states, mnl_attr_get_u8(tb[ECPROXY_A_ROW_STATE]))));
	if (tb[ECPROXY_A_ROW_BYTES_OUT])
		json_object_object_add(st, "bytes_out", u64_json(tb[ECPROXY_A_ROW_BYTES_OUT]));
	json_object_object_add(o, "stats", st);
	return o;
}

json_object *ecctl_fmt_task(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ECPROXY_A_TASK_MAX + 1];
	json_object *o, *srcs, *to;
	const struct nlattr *s;

	if (ecctl_nl_parse(nlh, tb, ECPROXY_A_TASK_MAX) < 0 || !tb[ECPROXY_A_TASK_ID])
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(mnl_attr_get_u32(tb[ECPROXY_A_TASK_ID])));
	if (tb[ECPROXY_A_TASK_VIP])
		json_object_object_add(o, "vip", ecctl_fmt_addr(tb[ECPROXY_A_TASK_VIP]));
	/* A task with targets serves no port: 0 means none. */
	if (tb[ECPROXY_A_TASK_PORT] && mnl_attr_get_u16(tb[ECPROXY_A_TASK_PORT]))
		json_object_object_add(o, "port",
				       json_object_new_int(mnl_attr_get_u16(tb[ECPROXY_A_TASK_PORT])));
	if (tb[ECPROXY_A_TASK_MODE])
		json_object_object_add(o, "mode", json_object_new_string(
			NAME(modes, mnl_attr_get_u8(tb[ECPROXY_A_TASK_MODE]))));
	if (tb[ECPROXY_A_TASK_BLOCK])
		json_object_object_add(o, "block", u64_json(tb[ECPROXY_A_TASK_BLOCK]));
	if (tb[ECPROXY_A_TASK_CELL])
		json_object_object_add(o, "cell", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_TASK_CELL])));
	/* bytes/s as tc -j prints rates; 0 is no cap. */
	if (tb[ECPROXY_A_TASK_RATE])
		json_object_object_add(o, "rate", u64_json(tb[ECPROXY_A_TASK_RATE]));
	if (tb[ECPROXY_A_TASK_CLIENT]) {
		json_object *c = ecctl_fmt_addr(tb[ECPROXY_A_TASK_CLIENT]);
		char buf[80];

		snprintf(buf, sizeof(buf), "%s/%u", json_object_get_string(c),
			 tb[ECPROXY_A_TASK_CLIENT_PREFIX] ?
			 mnl_attr_get_u8(tb[ECPROXY_A_TASK_CLIENT_PREFIX]) : 32);
		json_object_put(c);
		json_object_object_add(o, "client", json_object_new_string(buf));
	}
	if (tb[ECPROXY_A_TASK_STATE])
		json_object_object_add(o, "state", json_object_new_string(
			mnl_attr_get_u8(tb[ECPROXY_A_TASK_STATE]) == ECPROXY_TASK_BUSY ?
			"busy" : "idle"));
	if (tb[ECPROXY_A_TASK_BUFFER_SIZE])
		json_object_object_add(o, "buffer",
				       json_object_new_int64(mnl_attr_get_u32(tb[ECPROXY_A_TASK_BUFFER_SIZE])));
	if (tb[ECPROXY_A_TASK_MEM])
		json_object_object_add(o, "memory", u64_json(tb[ECPROXY_A_TASK_MEM]));
	to = json_object_new_object();
	if (tb[ECPROXY_A_TASK_HANDSHAKE_TIMEOUT])
		json_object_object_add(to, "handshake", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_TASK_HANDSHAKE_TIMEOUT])));
	if (tb[ECPROXY_A_TASK_IDLE_TIMEOUT])
		json_object_object_add(to, "idle", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_TASK_IDLE_TIMEOUT])));
	if (tb[ECPROXY_A_TASK_LINGER_TIMEOUT])
		json_object_object_add(to, "linger", json_object_new_int64(
			mnl_attr_get_u32(tb[ECPROXY_A_TASK_LINGER_TIMEOUT])));
	json_object_object_add(o, "timeouts", to);
	srcs = json_object_new_array();
	if (tb[ECPROXY_A_TASK_SOURCES])
		mnl_attr_for_each_nested(s, tb[ECPROXY_A_TASK_SOURCES])
			json_object_array_add(srcs, source_json(s));
	json_object_object_add(o, "sources", srcs);
	if (tb[ECPROXY_A_TASK_ROWS]) {
		json_object *rows = json_object_new_array();

		mnl_attr_for_each_nested(s, tb[ECPROXY_A_TASK_ROWS])
			json_object_array_add(rows, row_json(s));
		json_object_object_add(o, "rows", rows);
	}
	if (tb[ECPROXY_A_TASK_STATS])
		json_object_object_add(o, "stats", ecctl_fmt_stats(tb[ECPROXY_A_TASK_STATS]));
	return o;
}

void ecctl_fmt_strip_stats(json_object *tasks)
{
	for (size_t i = 0; i < json_object_array_length(tasks); i++) {
		json_object *t = json_object_array_get_idx(tasks, i), *arr;

		json_object_object_del(t, "stats");
		if (json_object_object_get_ex(t, "sources", &arr))
			for (size_t j = 0; j < json_object_array_length(arr); j++)
				json_object_object_del(json_object_array_get_idx(arr, j), "stats");
		if (json_object_object_get_ex(t, "rows", &arr))
			for (size_t j = 0; j < json_object_array_length(arr); j++)
				json_object_object_del(json_object_array_get_idx(arr, j), "stats");
	}
}

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "?";
}

static int64_t num(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

void ecctl_fmt_stats_text(json_object *st, const char *in)
{
	json_object *drops, *v;
	char rate[32];

	printf("%sconnections %" PRId64 " done %" PRId64 " failed %" PRId64,
	       in, num(st, "conns"), num(st, "conns_done"), num(st, "conns_failed"));
	if (json_object_object_get_ex(st, "conn_state", &v))
		printf(" state %s", json_object_get_string(v));
	if (json_object_object_get_ex(st, "last_error", &v))
		printf(" last-error %s", json_object_get_string(v));
	if (json_object_object_get_ex(st, "last_error_source", &v))
		printf(" (source %d)", json_object_get_int(v));
	if (json_object_object_get_ex(st, "last_error_target", &v))
		printf(" (target %d)", json_object_get_int(v));
	printf("\n%sbytes in %" PRId64 " out %" PRId64 " segments out %" PRId64
	       " applied %" PRId64 " duplicates %" PRId64 " resent %" PRId64
	       " recoveries %" PRId64 " timeouts %" PRId64 "\n",
	       in, num(st, "bytes_in"), num(st, "bytes_out"), num(st, "segs_out"),
	       num(st, "segs_applied"), num(st, "dups_skipped"), num(st, "resent"),
	       num(st, "recoveries"), num(st, "timeouts"));
	printf("%swindow-clamps %" PRId64 " peak-buffer %" PRId64 " overflow %" PRId64
	       " prompts %" PRId64 " sacks %" PRId64 " ecn-reductions %" PRId64
	       " pace-waits %" PRId64 " hystart-exits %" PRId64 "\n",
	       in, num(st, "window_clamps"), num(st, "peak_buffer"), num(st, "overflow"),
	       num(st, "prompts"), num(st, "sacks"), num(st, "ecn_reductions"),
	       num(st, "pace_waits"), num(st, "hystart_exits"));
	printf("%spmtu-updates %" PRId64 " syns-resent %" PRId64
	       " time-wait-resets %" PRId64 " window-probes %" PRId64
	       " tail-probes %" PRId64 " reo-timeouts %" PRId64
	       " off-home %" PRId64 " spare-bytes %" PRId64
	       " sources-lost %" PRId64,
	       in, num(st, "pmtu_updates"), num(st, "syns_resent"),
	       num(st, "time_wait_resets"), num(st, "window_probes"),
	       num(st, "tail_probes"), num(st, "reo_timeouts"),
	       num(st, "off_home"), num(st, "spare_bytes"),
	       num(st, "sources_lost"));
	/* A task's: what its last run sent per second. */
	if (json_object_object_get_ex(st, "rate", &v))
		printf(" measured-rate %s",
		       ecctl_fmt_rate((uint64_t)json_object_get_int64(v), rate, sizeof(rate)));
	/* And the round trip it measured to its output, once it has one. */
	if (json_object_object_get_ex(st, "rtt_us", &v) && json_object_get_int64(v))
		printf(" rtt %.3fms", json_object_get_int64(v) / 1000.0);
	printf("\n");
	if (json_object_object_get_ex(st, "drops", &drops)) {
		printf("%sdrops", in);
		json_object_object_foreach(drops, key, val) {
			char name[32];

			snprintf(name, sizeof(name), "%s", key);
			for (char *p = name; *p; p++)
				if (*p == '_')
					*p = '-';
			printf(" %s %" PRId64, name, json_object_get_int64(val));
		}
		printf("\n");
	}
}

/* "    row 0 frag 6 target 10.0.3.2:9000 coefs 0x1d,0x02,..." */
static void row_text(json_object *r, size_t i, int stats)
{
	json_object *v, *st;

	printf("    row %zu", i);
	if (json_object_object_get_ex(r, "frag", &v))
		printf(" frag %d", json_object_get_int(v));
	if (json_object_object_get_ex(r, "addr", &v))
		printf(" target %s:%" PRId64, json_object_get_string(v), num(r, "port"));
	if (json_object_object_get_ex(r, "length", &v))
		printf(" length %" PRId64, json_object_get_int64(v));
	if (json_object_object_get_ex(r, "coefs", &v)) {
		printf(" coefs ");
		for (size_t j = 0; j < json_object_array_length(v); j++)
			printf("%s0x%02x", j ? "," : "",
			       (unsigned int)json_object_get_int(json_object_array_get_idx(v, j)));
	}
	printf("\n");
	if (stats && json_object_object_get_ex(r, "stats", &st))
		printf("        state %s bytes-out %" PRId64 "\n", str(st, "state"),
		       num(st, "bytes_out"));
}

void ecctl_fmt_task_text(json_object *t, int stats)
{
	json_object *v, *srcs, *rows, *to;
	const char *mode = "pull";
	char rate[32];

	if (json_object_object_get_ex(t, "mode", &v))
		mode = json_object_get_string(v);
	printf("task %" PRId64 " vip %s", num(t, "id"), str(t, "vip"));
	if (json_object_object_get_ex(t, "port", &v))
		printf(" port %d", json_object_get_int(v));
	if (json_object_object_get_ex(t, "client", &v))
		printf(" client %s", json_object_get_string(v));
	printf(" state %s\n", str(t, "state"));
	/* Only what differs from a plain pull task, whose text stays as it was. */
	if (strcmp(mode, "pull") || num(t, "cell") || num(t, "rate")) {
		printf("    mode %s", mode);
		if (json_object_object_get_ex(t, "block", &v))
			printf(" block %" PRId64 " cell %" PRId64, json_object_get_int64(v),
			       num(t, "cell"));
		else if (num(t, "cell"))
			/* A write: the writer's stream is the block. */
			printf(" cell %" PRId64, num(t, "cell"));
		if (num(t, "rate"))
			printf(" rate %s", ecctl_fmt_rate((uint64_t)num(t, "rate"), rate,
							  sizeof(rate)));
		printf("\n");
	}
	printf("    buffer %" PRId64 " memory %" PRId64, num(t, "buffer"), num(t, "memory"));
	if (json_object_object_get_ex(t, "timeouts", &to))
		printf(" timeout handshake %" PRId64 " idle %" PRId64 " linger %" PRId64,
		       num(to, "handshake"), num(to, "idle"), num(to, "linger"));
	printf("\n");
	if (stats && json_object_object_get_ex(t, "stats", &v))
		ecctl_fmt_stats_text(v, "    ");
	if (json_object_object_get_ex(t, "sources", &srcs)) {
		for (size_t i = 0; i < json_object_array_length(srcs); i++) {
			json_object *s = json_object_array_get_idx(srcs, i), *st;

			printf("    source %zu %s:%" PRId64, i, str(s, "addr"), num(s, "port"));
			if (json_object_object_get_ex(s, "frag", &v))
				printf(" frag %d", json_object_get_int(v));
			if (json_object_object_get_ex(s, "length", &v))
				printf(" length %" PRId64, json_object_get_int64(v));
			if (json_object_object_get_ex(s, "coef", &v))
				printf(" coef 0x%02x", (unsigned int)json_object_get_int(v));
			if (json_object_object_get_ex(s, "check", &v))
				for (size_t c = 0; c < json_object_array_length(v); c++)
					printf("%s0x%02x", c ? "," : " check ",
					       (unsigned int)json_object_get_int(
						       json_object_array_get_idx(v, c)));
			if (json_object_object_get_ex(s, "spare", &v))
				printf(" spare");
			printf("\n");
			if (stats && json_object_object_get_ex(s, "stats", &st)) {
				printf("        state %s bytes-in %" PRId64 " segments-in %" PRId64
				       " dup-bytes %" PRId64, str(st, "state"),
				       num(st, "bytes_in"), num(st, "segs_in"), num(st, "dup_bytes"));
				if (json_object_object_get_ex(st, "lost", &v))
					printf(" lost %" PRId64, json_object_get_int64(v));
				printf("\n");
			}
		}
	}
	/* A pull task's one row is its sources' coefficients, shown above. */
	if (strcmp(mode, "pull") && json_object_object_get_ex(t, "rows", &rows))
		for (size_t i = 0; i < json_object_array_length(rows); i++)
			row_text(json_object_array_get_idx(rows, i), i, stats);
}

/* Policy errors point at an attribute: name it the way the user typed it. */
int ecctl_describe_task_attr(const struct nlmsghdr *req, uint32_t off, char *buf, size_t len)
{
	static const char *const names[ECPROXY_A_TASK_MAX + 1] = {
		[ECPROXY_A_TASK_ID] = "id",
		[ECPROXY_A_TASK_VIP] = "vip",
		[ECPROXY_A_TASK_PORT] = "port",
		[ECPROXY_A_TASK_CLIENT] = "client",
		[ECPROXY_A_TASK_CLIENT_PREFIX] = "client prefix length",
		[ECPROXY_A_TASK_SOURCES] = "sources",
		[ECPROXY_A_TASK_BUFFER_SIZE] = "buffer",
		[ECPROXY_A_TASK_HANDSHAKE_TIMEOUT] = "timeout handshake",
		[ECPROXY_A_TASK_IDLE_TIMEOUT] = "timeout idle",
		[ECPROXY_A_TASK_LINGER_TIMEOUT] = "timeout linger",
		[ECPROXY_A_TASK_MODE] = "mode",
		[ECPROXY_A_TASK_ROWS] = "dest",
		[ECPROXY_A_TASK_BLOCK] = "block",
		[ECPROXY_A_TASK_CELL] = "cell",
		[ECPROXY_A_TASK_RATE] = "rate",
	};
	const struct nlattr *a;

	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr)) {
		unsigned int type = mnl_attr_get_type(a);

		if ((uint32_t)((const char *)a - (const char *)req) != off)
			continue;
		if (type <= ECPROXY_A_TASK_MAX && names[type])
			snprintf(buf, len, "%s", names[type]);
		else
			snprintf(buf, len, "attribute %u", type);
		return 1;
	}
	return 0;
}
