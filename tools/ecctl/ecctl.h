/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ecctl: iproute2-style control tool for ecproxy.
 *
 *   ecctl [OPTIONS] OBJECT COMMAND [ARGS]
 *
 * Objects and commands are dispatched from tables (struct ecctl_cmd) by
 * prefix, the first entry winning as in ip(8); keywords need an
 * unambiguous prefix.  To add an object: write OBJECT.c with an
 * "int do_OBJECT(int argc, char **argv)" that dispatches its own command
 * table with ecctl_dispatch(), and add a line to the object table in
 * ecctl.c.  Commands parse "keyword value" pairs with ecctl_parse_kw().
 *
 * Exit codes: 0 ok, 1 runtime error, 2 usage error.
 */
#ifndef ECCTL_H
#define ECCTL_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#define ECCTL_OK	0
#define ECCTL_ERR	1
#define ECCTL_USAGE	2

struct ecctl_opts {
	int json;	/* -j */
	int pretty;	/* -p */
	int stats;	/* -s */
};
extern struct ecctl_opts ecctl_opts;

struct ecctl_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the command word */
	const char *summary;
};

/*
 * Find argv[0] in tab (exact name, else the first entry it is a prefix of) and call it with
 * argc/argv starting at the command word.  what names the level for
 * messages ("object", "code command").  argc == 0 runs def (may be NULL:
 * then it is a usage error).
 */
int ecctl_dispatch(const char *what, const struct ecctl_cmd *tab,
		   const char *def, int argc, char **argv);

/* Print "Error: <msg>" to stderr; returns code. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int ecctl_error(int code, const char *fmt, ...);

/* Keyword/value argument parsing. */
struct ecctl_kw {
	const char *name;	/* keyword */
	const char *metavar;	/* for messages, e.g. "K" */
	int required;
	const char *val;	/* out: value, NULL if absent */
};

/*
 * Parse "kw value kw value ..." from argv[0..argc).  Keywords match
 * exactly or by unambiguous prefix.  Errors (unknown keyword: lists the
 * valid ones; missing value; repeated; missing required) are printed and
 * ECCTL_USAGE is returned.  kws is terminated by a NULL name.
 */
int ecctl_parse_kw(struct ecctl_kw *kws, int argc, char **argv);

/* Parse an integer in [min, max]; on error print
 * Error: "KW VAL": MSG and return ECCTL_USAGE. */
int ecctl_parse_int(const char *kw, const char *val, long min, long max, long *out);

/* Parse a comma-separated list of integers in [0, max); returns count or
 * -ECCTL_USAGE after printing an error quoting "KW VAL". */
int ecctl_parse_list(const char *kw, const char *val, int max, int *out, int maxn);

/* Parse a size with an optional binary suffix k, m or g, at most max. */
int ecctl_parse_size(const char *kw, const char *val, uint64_t max, uint64_t *out);

/*
 * Parse a rate in tc(8)'s units ("500mbit", "1gbit", "10mbps"; a bare
 * number is bit/s) into bytes/s; "none" and 0 give 0 (no cap).
 */
int ecctl_parse_rate(const char *kw, const char *val, uint64_t *out);
/* bytes/s as tc prints a rate ("500Mbit"). */
const char *ecctl_fmt_rate(uint64_t bytes, char *buf, size_t len);

/* Print a JSON object to stdout honouring -p; takes ownership. */
void ecctl_json_print(json_object *obj);

/* Objects. */
int do_code(int argc, char **argv);
int do_task(int argc, char **argv);
int do_gf(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_monitor(int argc, char **argv);

#endif
