// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl main: global options, object table, shared argument helpers.
 */
#define _GNU_SOURCE	/* setns() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ecctl.h"
#include "size.h"

#ifndef ECP_VERSION
#define ECP_VERSION "0.1"
#endif

struct ecctl_opts ecctl_opts;

static int do_help(int argc, char **argv);

static const struct ecctl_cmd objects[] = {
	{ "code", do_code, "erasure-code profiles, decode coefficients, file encode/decode" },
	{ "task", do_task, "reconstruction tasks in the kernel (add, change, del, show, flush)" },
	{ "stats", do_stats, "network namespace totals of the kernel module, and reset" },
	{ "monitor", do_monitor, "follow task and connection events" },
	{ "gf", do_gf, "the GF(2^8) implementation the kernel uses" },
	{ "help", do_help, "this text" },
	{ NULL, NULL, NULL }
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ecctl [OPTIONS] OBJECT { COMMAND | help }\n"
		"       ecctl -V\n"
		"       ecctl [OPTIONS] -b[atch] FILE [-force]\n"
		"OPTIONS := { -j[son] | -p[retty] | -s[tatistics] | -n[etns] NAME |\n"
		"             -V[ersion] | -h[elp] }\n"
		"OBJECT := {");
	for (const struct ecctl_cmd *o = objects; o->name; o++)
		fprintf(f, " %s%s", o->name, o[1].name ? " |" : "");
	fprintf(f, " }\n\nObjects:\n");
	for (const struct ecctl_cmd *o = objects; o->name; o++)
		fprintf(f, "  %-8s %s\n", o->name, o->summary);
	fprintf(f,
		"\n-j prints JSON, -p pretty-printed JSON (implies -j), -s adds statistics.\n"
		"-n NAME runs in the network namespace NAME (as \"ip netns exec\").\n"
		"-batch FILE (- for stdin) runs one command per line and stops at the\n"
		"first failing line, which it names, unless -force is given.\n"
		"Objects, commands and keywords may be abbreviated to a unique prefix.\n"
		"Exit status: 0 success, 1 runtime error, 2 usage error.\n");
}

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return ECCTL_OK;
}

int ecctl_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static void list_names(char *buf, size_t size, const struct ecctl_cmd *tab)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; tab->name && off < size; tab++)
		off += snprintf(buf + off, size - off, "%s%s", off ? ", " : "", tab->name);
}

int ecctl_dispatch(const char *what, const struct ecctl_cmd *tab,
		   const char *def, int argc, char **argv)
{
	const struct ecctl_cmd *hit = NULL;
	char names[512];
	size_t len;

	if (argc < 1) {
		if (!def) {
			list_names(names, sizeof(names), tab);
			return ecctl_error(ECCTL_USAGE, "missing %s; one of: %s", what, names);
		}
		for (const struct ecctl_cmd *c = tab; c->name; c++)
			if (!strcmp(c->name, def))
				return c->fn(1, (char *[]){ (char *)def, NULL });
		return ECCTL_USAGE;
	}
	/*
	 * As in ip(8), a prefix of several commands means the first one the
	 * table lists: "task s" stays "task show" now that "start" exists.
	 */
	len = strlen(argv[0]);
	for (const struct ecctl_cmd *c = tab; c->name; c++) {
		if (!strcmp(c->name, argv[0]))
			return c->fn(argc, argv);
		if (len && !hit && !strncmp(c->name, argv[0], len))
			hit = c;
	}
	if (hit)
		return hit->fn(argc, argv);
	list_names(names, sizeof(names), tab);
	return ecctl_error(ECCTL_USAGE, "unknown %s \"%s\"; valid: %s", what, argv[0], names);
}

int ecctl_parse_kw(struct ecctl_kw *kws, int argc, char **argv)
{
	for (int i = 0; i < argc; i += 2) {
		struct ecctl_kw *hit = NULL;
		size_t len = strlen(argv[i]);
		int nhits = 0;

		for (struct ecctl_kw *k = kws; k->name; k++) {
			if (!strcmp(k->name, argv[i])) {
				hit = k;
				nhits = 1;
				break;
			}
			if (len && !strncmp(k->name, argv[i], len)) {
				hit = k;
				nhits++;
			}
		}
		if (nhits != 1) {
			char names[512];
			size_t off = 0;

			/* Ambiguous: the candidates; unknown: every keyword. */
			names[0] = '\0';
			for (struct ecctl_kw *k = kws; k->name; k++)
				if (!nhits || !strncmp(k->name, argv[i], len))
					off += snprintf(names + off, sizeof(names) - off, "%s%s",
							off ? ", " : "", k->name);
			if (nhits)
				return ecctl_error(ECCTL_USAGE, "ambiguous keyword \"%s\": could be %s",
						   argv[i], names);
			return ecctl_error(ECCTL_USAGE, "unknown keyword \"%s\"; valid: %s",
					   argv[i], names);
		}
		if (i + 1 >= argc)
			return ecctl_error(ECCTL_USAGE, "\"%s\": missing value %s",
					   argv[i], hit->metavar);
		if (hit->val)
			return ecctl_error(ECCTL_USAGE, "\"%s %s\": %s given twice",
					   argv[i], argv[i + 1], hit->name);
		hit->val = argv[i + 1];
	}
	for (struct ecctl_kw *k = kws; k->name; k++)
		if (k->required && !k->val)
			return ecctl_error(ECCTL_USAGE, "missing \"%s %s\"", k->name, k->metavar);
	return 0;
}

int ecctl_parse_int(const char *kw, const char *val, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 0);
	if (errno || end == val || *end)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": not an integer", kw, val);
	if (v < min || v > max)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": must be in %ld..%ld", kw, val, min, max);
	*out = v;
	return 0;
}

int ecctl_parse_size(const char *kw, const char *val, uint64_t max, uint64_t *out)
{
	switch (ecp_parse_size(val, max, out)) {
	case 0:
		return 0;
	case ECP_SIZE_BIG:
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": larger than %llu", kw, val,
				   (unsigned long long)max);
	default:
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": not a size (suffixes k, m, g)",
				   kw, val);
	}
}

/* tc(8)'s units: a bare number is bit/s, "bps" units are bytes/s. */
static const struct {
	const char *name;
	double bits;
} rate_units[] = {
	{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 }, { "tbit", 1e12 },
	{ "kibit", 1024. }, { "mibit", 1048576. }, { "gibit", 1073741824. },
	{ "tibit", 1099511627776. },
	{ "bps", 8 }, { "kbps", 8e3 }, { "mbps", 8e6 }, { "gbps", 8e9 }, { "tbps", 8e12 },
	{ "kibps", 8 * 1024. }, { "mibps", 8 * 1048576. }, { "gibps", 8 * 1073741824. },
	{ "tibps", 8 * 1099511627776. },
};

int ecctl_parse_rate(const char *kw, const char *val, uint64_t *out)
{
	double v, bytes;
	char *end;

	if (!strcmp(val, "none")) {
		*out = 0;
		return 0;
	}
	errno = 0;
	v = strtod(val, &end);
	if (errno || end == val || v < 0 || v != v)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": not a rate", kw, val);
	bytes = v / 8;
	if (*end) {
		size_t i;

		for (i = 0; i < sizeof(rate_units) / sizeof(rate_units[0]); i++)
			if (!strcasecmp(end, rate_units[i].name))
				break;
		if (i == sizeof(rate_units) / sizeof(rate_units[0]))
			return ecctl_error(ECCTL_USAGE,
					   "\"%s %s\": unknown unit \"%s\" (bit, kbit, mbit, gbit, bps, kbps, mbps, gbps, ...)",
					   kw, val, end);
		bytes = v * rate_units[i].bits / 8;
	}
	if (bytes >= 18446744073709551615.0)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": too large", kw, val);
	if (v > 0 && bytes < 1)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": below 1 byte/s (8bit); 0 or none lifts the cap",
				   kw, val);
	*out = (uint64_t)(bytes + 0.5);
	return 0;
}

const char *ecctl_fmt_rate(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "bit", "Kbit", "Mbit", "Gbit", "Tbit" };
	double bits = (double)bytes * 8;
	int u = 0;

	while (u < 4 && bits >= 1000) {
		bits /= 1000;
		u++;
	}
	snprintf(buf, len, "%.4g%s", bits, unit[u]);
	return buf;
}

int ecctl_parse_list(const char *kw, const char *val, int max, int *out, int maxn)
{
	const char *s = val;
	int n = 0;

	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || (*end && *end != ','))
			return ecctl_error(ECCTL_USAGE,
					   "\"%s %s\": expected comma-separated fragment indices", kw, val),
			       -ECCTL_USAGE;
		if (v < 0 || v >= max)
			return ecctl_error(ECCTL_USAGE,
					   "\"%s %s\": fragment index must be < k+m (%d)", kw, val, max),
			       -ECCTL_USAGE;
		for (int i = 0; i < n; i++)
			if (out[i] == v)
				return ecctl_error(ECCTL_USAGE, "\"%s %s\": fragment %ld listed twice",
						   kw, val, v), -ECCTL_USAGE;
		if (n >= maxn)
			return ecctl_error(ECCTL_USAGE, "\"%s %s\": too many entries", kw, val),
			       -ECCTL_USAGE;
		out[n++] = (int)v;
		if (!*end)
			return n;
		s = end + 1;
	}
}

void ecctl_json_print(json_object *obj)
{
	int flags = ecctl_opts.pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
				      : JSON_C_TO_STRING_PLAIN;

	puts(json_object_to_json_string_ext(obj, flags));
	json_object_put(obj);
}

/*
 * Split a batch line into words: blanks separate, '#' starts a comment,
 * single or double quotes group.  Returns the word count, or -1 when the
 * line has too many words or an open quote.
 */
static int split_line(char *line, char **words, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *w, quote = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == max)
			return -1;
		words[n++] = w = p;
		for (; *p; p++) {
			if (quote) {
				if (*p == quote) {
					quote = 0;
					continue;
				}
			} else if (*p == '"' || *p == '\'') {
				quote = *p;
				continue;
			} else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
				p++;
				break;
			}
			*w++ = *p;
		}
		if (quote)
			return -1;
		*w = 0;
	}
}

/*
 * "ecctl -batch FILE" runs one command per line, as "ip -batch" does, so
 * that thousands of tasks are configured by one process; it stops at the
 * first failing line unless -force is given, and says which line failed.
 */
static int run_batch(const char *name, int force)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "r") : stdin;
	char *line = NULL, *words[256];
	size_t cap = 0;
	int lineno = 0, ret = ECCTL_OK;

	if (!f) {
		fprintf(stderr, "Error: cannot open batch file \"%s\": %s\n", name,
			strerror(errno));
		return ECCTL_ERR;
	}
	while (getline(&line, &cap, f) > 0) {
		int n, rc;

		lineno++;
		n = split_line(line, words, 255);
		if (n == 0)
			continue;
		if (n < 0) {
			fprintf(stderr, "Error: %s:%d: unbalanced quote or too many words\n",
				name, lineno);
			rc = ECCTL_USAGE;
		} else {
			words[n] = NULL;
			rc = ecctl_dispatch("object", objects, NULL, n, words);
			fflush(stdout);
		}
		if (rc != ECCTL_OK) {
			fprintf(stderr, "Command failed %s:%d\n", name, lineno);
			ret = rc;
			if (!force)
				break;
		}
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

/* Like "ip -n NAME": the namespaces "ip netns add" creates. */
static int enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!*name || strchr(name, '/') ||
	    snprintf(path, sizeof(path), "/run/netns/%s", name) >= (int)sizeof(path)) {
		fprintf(stderr, "Error: \"-n %s\": invalid namespace name\n", name);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "Error: \"-n %s\": cannot open %s: %s\n", name, path,
			strerror(errno));
		return -1;
	}
	ret = setns(fd, CLONE_NEWNET);
	if (ret)
		fprintf(stderr, "Error: \"-n %s\": cannot enter the namespace: %s\n", name,
			strerror(errno));
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	const char *batch = NULL;
	int i, force = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *o = argv[i] + 1;

		if (*o == '-')
			o++;
		if (!strcmp(o, "j") || !strcmp(o, "json")) {
			ecctl_opts.json = 1;
		} else if (!strcmp(o, "p") || !strcmp(o, "pretty")) {
			ecctl_opts.json = 1;
			ecctl_opts.pretty = 1;
		} else if (!strcmp(o, "b") || !strcmp(o, "batch")) {
			if (++i >= argc) {
				fprintf(stderr, "Error: \"%s\" needs a file name (or -)\n",
					argv[i - 1]);
				return ECCTL_USAGE;
			}
			batch = argv[i];
		} else if (!strcmp(o, "force")) {
			force = 1;
		} else if (!strcmp(o, "s") || !strcmp(o, "stats") || !strcmp(o, "statistics")) {
			ecctl_opts.stats = 1;
		} else if (!strcmp(o, "n") || !strcmp(o, "netns")) {
			if (++i >= argc) {
				fprintf(stderr, "Error: \"%s\" needs a namespace name\n", argv[i - 1]);
				return ECCTL_USAGE;
			}
			if (enter_netns(argv[i]))
				return ECCTL_ERR;
		} else if (!strcmp(o, "V") || !strcmp(o, "Version") || !strcmp(o, "version")) {
			printf("ecctl ecproxy-%s\n", ECP_VERSION);
			return ECCTL_OK;
		} else if (!strcmp(o, "h") || !strcmp(o, "help")) {
			usage(stdout);
			return ECCTL_OK;
		} else {
			fprintf(stderr, "Error: unknown option \"%s\"\n", argv[i]);
			usage(stderr);
			return ECCTL_USAGE;
		}
	}
	if (batch) {
		if (i < argc) {
			fprintf(stderr, "Error: \"-batch\" takes no command line command\n");
			return ECCTL_USAGE;
		}
		return run_batch(batch, force);
	}
	if (i >= argc) {
		usage(stderr);
		return ECCTL_USAGE;
	}
	return ecctl_dispatch("object", objects, NULL, argc - i, argv + i);
}
