/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel replies to JSON objects, and JSON objects to text, so that text
 * and -j output always show the same data.
 */
#ifndef ECCTL_NLFMT_H
#define ECCTL_NLFMT_H

#include <json-c/json.h>
#include <libmnl/libmnl.h>

/* A TASK_GET reply as a JSON object (NULL on a malformed message). */
json_object *ecctl_fmt_task(const struct nlmsghdr *nlh);
/* Remove the "stats" members of tasks and their sources. */
void ecctl_fmt_strip_stats(json_object *tasks);
void ecctl_fmt_task_text(json_object *task, int stats);

/*
 * ecctl_nl_describe_t for requests of ECPROXY_A_TASK_* attributes: names
 * the attribute a policy error points at as the user typed it ("buffer").
 */
int ecctl_describe_task_attr(const struct nlmsghdr *req, uint32_t off, char *buf, size_t len);

/* An address attribute (4 or 16 bytes) as a JSON string. */
json_object *ecctl_fmt_addr(const struct nlattr *a);

/* The name of an enum ecproxy_conn_error ("source-refused"). */
const char *ecctl_fmt_conn_error(unsigned int err);

/* An ECPROXY_A_STATS_* nest as a JSON object. */
json_object *ecctl_fmt_stats(const struct nlattr *nest);
/* Print the counters of a stats object, indented. */
void ecctl_fmt_stats_text(json_object *stats, const char *indent);

#endif
