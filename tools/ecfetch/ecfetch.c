// SPDX-License-Identifier: GPL-2.0
/*
 * ecfetch: the reconstructing node's client.  Fetches a lost fragment
 * three ways: a plain copy of a replica, "native" erasure decoding on the
 * host from k fragment servers, or through ecproxy's VIP:port, falling
 * back to native decoding when the proxied connection fails.  The same
 * for a degraded read of a striped block (some data fragments lost):
 * natively, or from the VIP:port with the native read as the fallback.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ecp.h"
#include "fetch.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_FALLBACK = 3 };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ecfetch [ -j ] [ -q ] [ -o FILE ] copy ADDR:PORT [ COMMON ]\n"
		"       ecfetch [ -j ] [ -q ] [ -o FILE ] native CODE [ COMMON ]\n"
		"       ecfetch [ -j ] [ -q ] [ -o FILE ] proxy ADDR:PORT [ CODE ] [ nofallback ]\n"
		"                                         [ COMMON ]\n"
		"       ecfetch [ -j ] [ -q ] [ -o FILE ] native CODE block BYTES cell SIZE [ COMMON ]\n"
		"       ecfetch [ -j ] [ -q ] [ -o FILE ] read ADDR:PORT CODE block BYTES cell SIZE\n"
		"                                         [ nofallback ] [ COMMON ]\n"
		"CODE   := code PROFILE k K m M lost I [ matrix SPEC ]\n"
		"          source ADDR:PORT:FRAG [ source ADDR:PORT:FRAG ... ]   (K sources)\n"
		"          With block and cell: lost I[,I...], the lost data fragments\n"
		"          (each < K, at most M), and the sources any K others.\n"
		"COMMON := [ sha256 HEX ] [ size BYTES ] [ timeout MS ] [ buffer BYTES ]\n"
		"          [ start EPOCH ]\n"
		"BYTES, SIZE: byte counts, with an optional binary suffix k, m or g.\n"
		"\n"
		"copy    reads ADDR:PORT as it is (a replica of the fragment).\n"
		"native  reads the K fragment servers at once and decodes fragment I on\n"
		"        this host (libecp).\n"
		"proxy   reads the rebuilt fragment from ecproxy's VIP:PORT.  If the\n"
		"        connection is refused, reset or stalls, or delivers the wrong\n"
		"        size or hash, and CODE is given, it falls back to native and\n"
		"        says so (exit status 3).  nofallback disables that.\n"
		"block, cell: a degraded read of a whole HDFS-style striped block of\n"
		"        BYTES in cells of SIZE (see ecctl code help): native reads the K\n"
		"        sources (each exactly its fragment's length, else short or long\n"
		"        naming it) and writes the block in logical order, decoding the\n"
		"        cells of the data fragments that are not sources a row at a time.\n"
		"read    reads the block from ecproxy's VIP:PORT, BYTES in logical order,\n"
		"        falling back to the native degraded read as proxy does.\n"
		"sha256  expected hash of the fragment (block); size its expected length.\n"
		"timeout connect and idle timeout, ms (default 10000).  buffer: receive\n"
		"        buffer per stream (default 256k).  start: begin at this\n"
		"        CLOCK_REALTIME second (fractions allowed), to line up several\n"
		"        clients; the JSON has t_start and t_end on the same clock.\n"
		"-o FILE writes the bytes (a regular file, rewound for a fallback, is\n"
		"        hashed after the clock stops); default: hash and discard.  -j prints a JSON summary on stdout,\n"
		"        -q drops the summary line on stderr.\n"
		"Times and CPU (getrusage) cover the fetch and decoding, all attempts.\n"
		"Exit: 0 fetched, 3 fetched by the fallback, 1 failed, 2 usage error.\n");
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "ecfetch: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see ecfetch -h)\n");
	return EXIT_USAGE;
}

struct args {
	const char *mode;
	struct sockaddr_in addr;
	int have_code;
	struct ecp_code code;
	const char *lost_arg;
	int nlost;
	int lost[ECP_MAX_M];
	int striped;		/* block and cell given */
	uint64_t block, cell;
	struct ecf_stripe plan;
	int nsrc;
	struct sockaddr_in src[ECP_MAX_K];
	int frag[ECP_MAX_K];
	uint8_t coef[ECP_MAX_K];
	int fallback;
	const char *sha;
	double start;		/* CLOCK_REALTIME seconds to begin at, 0: now */
	struct ecf_opts o;
};

/* A count, with an optional suffix k, m or g, in min..max. */
static int parse_count(const char *kw, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	int ret = ecp_parse_size(v, max, out);

	if (ret == ECP_SIZE_BAD) {
		usage_err("\"%s\": not a number", v);
		return -1;
	}
	if (ret == ECP_SIZE_BIG || *out < min) {
		fprintf(stderr, "ecfetch: \"%s %s\": must be in %llu..%llu\n", kw, v,
			(unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	return 0;
}

static int parse_long(const char *kw, const char *v, long min, long max, long *out)
{
	uint64_t u;

	if (parse_count(kw, v, (uint64_t)min, (uint64_t)max, &u))
		return -1;
	*out = (long)u;
	return 0;
}

/* "lost I[,I...]": one fragment, or with a layout the lost data fragments. */
static int parse_lost(struct args *a, int max)
{
	const char *s = a->lost_arg;
	char buf[16];
	long v;

	for (a->nlost = 0; *s; a->nlost++) {
		size_t len = strcspn(s, ",");

		if (a->nlost == max)
			return usage_err("\"lost %s\": too many fragments", a->lost_arg);
		if (len >= sizeof(buf))
			return usage_err("\"lost %s\": not a fragment list", a->lost_arg);
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (parse_long("lost", buf, 0, ECP_MAX_N - 1, &v))
			return EXIT_USAGE;
		for (int i = 0; i < a->nlost; i++)
			if (a->lost[i] == v)
				return usage_err("\"lost %s\": a fragment listed twice", a->lost_arg);
		a->lost[a->nlost] = (int)v;
		s += len;
		if (*s && !*++s)
			return usage_err("\"lost %s\": not a fragment list", a->lost_arg);
	}
	if (!a->nlost)
		return usage_err("\"lost %s\": not a fragment list", a->lost_arg);
	return 0;
}

/* The lost data fragments of a striped read, and the plan for the sources. */
static int setup_stripe(struct args *a)
{
	int k = a->code.k, m = a->code.m, ret;
	struct ecp_err err;

	ret = parse_lost(a, m);
	if (ret)
		return ret;
	for (int i = 0; i < a->nlost; i++) {
		if (a->lost[i] >= k)
			return usage_err("\"lost %s\": lists a parity fragment; a read loses data fragments (< k)",
					 a->lost_arg);
		for (int j = 0; j < a->nsrc; j++)
			if (a->frag[j] == a->lost[i])
				return usage_err("\"lost %s\": a lost fragment is a source", a->lost_arg);
	}
	if (a->o.expect_size >= 0 && (uint64_t)a->o.expect_size != a->block)
		return usage_err("%s", "\"size\": differs from the block");
	a->o.expect_size = (int64_t)a->block;
	if (ecf_stripe_plan(&a->plan, &a->code, a->frag, a->block, (uint32_t)a->cell, &err))
		return usage_err("%s", err.msg);
	return 0;
}

/* The coefficients for the given sources, from the code. */
static int setup_code(struct args *a, const char *profile, long k, long m, const char *matrix)
{
	const struct ecp_profile *p = ecp_profile_by_name(profile);
	uint8_t parity[ECP_MAX_M * ECP_MAX_K];
	struct ecp_coef co;
	struct ecp_err err;
	int ret;

	if (!p)
		return usage_err("unknown profile \"%s\"", profile);
	if (p->id == ECP_PROFILE_MATRIX) {
		if (!matrix)
			return usage_err("%s needs \"matrix SPEC\"", profile);
		if (ecp_matrix_parse(matrix, (int)k, (int)m, parity, &err))
			return usage_err("bad matrix: %s", err.msg);
	}
	if (ecp_code_init(&a->code, p, (int)k, (int)m,
			  p->id == ECP_PROFILE_MATRIX ? parity : NULL, &err))
		return usage_err("%s", err.msg);
	if (!a->lost_arg)
		return usage_err("%s", "\"lost I\": missing");
	if (a->nsrc != k) {
		fprintf(stderr, "ecfetch: need exactly k=%ld sources, got %d\n", k, a->nsrc);
		return EXIT_USAGE;
	}
	if (a->striped) {
		ret = setup_stripe(a);
		if (ret)
			return ret;
		a->have_code = 1;
		return 0;
	}
	ret = parse_lost(a, 1);
	if (ret)
		return ret;
	if (a->lost[0] >= k + m)
		return usage_err("%s", "\"lost I\": not < k+m");
	if (ecp_code_coef(&a->code, a->lost[0], a->frag, a->nsrc, &co, &err))
		return usage_err("%s", err.msg);
	memcpy(a->coef, co.coef, (size_t)k);
	a->have_code = 1;
	return 0;
}

static int parse(struct args *a, int argc, char **argv)
{
	const char *profile = NULL, *matrix = NULL;
	long k = 0, m = 0, v;
	int has_block = 0, has_cell = 0, i = 1;

	memset(a, 0, sizeof(*a));
	a->fallback = 1;
	a->o.timeout_ms = 10000;
	a->o.expect_size = -1;
	a->o.bufsize = 256 << 10;
	if (argc < 1)
		return usage_err("%s", "missing mode: copy, native, proxy or read");
	a->mode = argv[0];
	if (!strcmp(a->mode, "copy") || !strcmp(a->mode, "proxy") || !strcmp(a->mode, "read")) {
		if (argc < 2 || ecf_parse_addr(argv[1], &a->addr, NULL))
			return usage_err("%s: expected ADDR:PORT", a->mode);
		i = 2;
	} else if (strcmp(a->mode, "native")) {
		return usage_err("unknown mode \"%s\"", a->mode);
	}
	for (; i < argc; i += 2) {
		const char *kw = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(kw, "nofallback")) {
			a->fallback = 0;
			i--;
			continue;
		}
		if (!val)
			return usage_err("\"%s\": missing value", kw);
		if (!strcmp(kw, "code")) {
			profile = val;
		} else if (!strcmp(kw, "k")) {
			if (parse_long(kw, val, 1, ECP_MAX_K, &k))
				return EXIT_USAGE;
		} else if (!strcmp(kw, "m")) {
			if (parse_long(kw, val, 1, ECP_MAX_M, &m))
				return EXIT_USAGE;
		} else if (!strcmp(kw, "lost")) {
			a->lost_arg = val;
		} else if (!strcmp(kw, "block")) {
			if (parse_count(kw, val, 0, INT64_MAX, &a->block))
				return EXIT_USAGE;
			has_block = 1;
		} else if (!strcmp(kw, "cell")) {
			/* Each stream buffers a cell: keep that reasonable. */
			if (parse_count(kw, val, 1, 256 << 20, &a->cell))
				return EXIT_USAGE;
			has_cell = 1;
		} else if (!strcmp(kw, "matrix")) {
			matrix = val;
		} else if (!strcmp(kw, "source")) {
			if (a->nsrc == ECP_MAX_K)
				return usage_err("\"source %s\": too many sources", val);
			if (ecf_parse_addr(val, &a->src[a->nsrc], &a->frag[a->nsrc]))
				return usage_err("\"source %s\": expected ADDR:PORT:FRAG", val);
			a->nsrc++;
		} else if (!strcmp(kw, "sha256")) {
			if (strlen(val) != 64 || strspn(val, "0123456789abcdefABCDEF") != 64)
				return usage_err("\"sha256 %s\": expected 64 hex digits", val);
			a->sha = val;
		} else if (!strcmp(kw, "size")) {
			if (parse_long(kw, val, 0, LONG_MAX >> 20, &v))
				return EXIT_USAGE;
			a->o.expect_size = v;
		} else if (!strcmp(kw, "timeout")) {
			if (parse_long(kw, val, 1, 3600000, &v))
				return EXIT_USAGE;
			a->o.timeout_ms = (int)v;
		} else if (!strcmp(kw, "start")) {
			char *end;

			a->start = strtod(val, &end);
			if (end == val || *end || a->start < 0)
				return usage_err("\"start %s\": expected seconds since the epoch", val);
		} else if (!strcmp(kw, "buffer")) {
			if (parse_long(kw, val, 4096, 64 << 20, &v))
				return EXIT_USAGE;
			a->o.bufsize = (size_t)v;
		} else {
			return usage_err("unknown keyword \"%s\"", kw);
		}
	}
	if (has_block != has_cell)
		return usage_err("%s", "\"block BYTES\" and \"cell SIZE\" go together");
	a->striped = has_block;
	if (a->striped && strcmp(a->mode, "native") && strcmp(a->mode, "read"))
		return usage_err("%s: takes no block and cell (see read)", a->mode);
	if (!a->striped && !strcmp(a->mode, "read"))
		return usage_err("%s", "read: needs \"block BYTES cell SIZE\"");
	if (profile || a->nsrc || k || m || a->lost_arg) {
		if (!strcmp(a->mode, "copy"))
			return usage_err("%s: takes no code or sources", a->mode);
		if (!profile || !k || !m)
			return usage_err("%s", "\"code PROFILE k K m M\" incomplete");
		return setup_code(a, profile, k, m, matrix);
	}
	if (!strcmp(a->mode, "native") || !strcmp(a->mode, "read"))
		return usage_err("%s: needs CODE and sources", a->mode);
	return 0;
}

static double elapsed(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static double realtime(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Sleep until the CLOCK_REALTIME second at. */
static void wait_until(double at)
{
	struct timespec ts;

	if (at <= 0)
		return;
	ts.tv_sec = (time_t)at;
	ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static double tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static int attempt(const struct args *a, int native, struct ecf_sink *s, struct ecf_result *r)
{
	if (native && a->striped)
		return ecf_fetch_striped(a->src, &a->plan, s, &a->o, r);
	if (native)
		return ecf_fetch(a->src, a->nsrc, a->coef, s, &a->o, r);
	return ecf_fetch(&a->addr, 1, NULL, s, &a->o, r);
}

/* A wrong hash counts as a failure like any other. */
static int check_sha(const struct args *a, struct ecf_sink *s, char hex[65], struct ecf_result *r)
{
	if (ecf_sink_final(s, hex)) {
		r->fail = ECF_OUTPUT;
		snprintf(r->msg, sizeof(r->msg), "cannot read the output back: %s", strerror(errno));
		return -1;
	}
	if (!a->sha || !strcasecmp(hex, a->sha))
		return 0;
	r->fail = ECF_MISMATCH;
	snprintf(r->msg, sizeof(r->msg), "sha256 %s, expected %s", hex, a->sha);
	return -1;
}

int main(int argc, char **argv)
{
	struct rusage ru0, ru1;
	struct timespec t0;
	struct ecf_result r, first = { 0 };
	struct ecf_sink sink;
	struct args a;
	const char *outpath = NULL;
	int json = 0, quiet = 0, opt, ret, fd = -1, native, fell_back = 0;
	double proxy_s = 0, wall, user, sys, t_start;
	char hex[65] = "";
	int sha_ok = -1;

	while ((opt = getopt(argc, argv, "+jqo:h")) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'q': quiet = 1; break;
		case 'o': outpath = optarg; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	ret = parse(&a, argc - optind, argv + optind);
	if (ret)
		return ret;
	if (outpath && strcmp(outpath, "-")) {
		fd = open(outpath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			fprintf(stderr, "ecfetch: %s: %s\n", outpath, strerror(errno));
			return EXIT_FAIL;
		}
	} else if (outpath) {
		fd = STDOUT_FILENO;
	}
	if (ecf_sink_init(&sink, fd)) {
		fprintf(stderr, "ecfetch: cannot set up SHA-256\n");
		return EXIT_FAIL;
	}

	wait_until(a.start);
	getrusage(RUSAGE_SELF, &ru0);
	t_start = realtime();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	native = !strcmp(a.mode, "native");
	ret = attempt(&a, native, &sink, &r);
	wall = elapsed(&t0);
	getrusage(RUSAGE_SELF, &ru1);
	if (!ret)
		ret = check_sha(&a, &sink, hex, &r);
	if (ret && !native && strcmp(a.mode, "copy") && a.have_code && a.fallback) {
		first = r;
		proxy_s = elapsed(&t0);
		fprintf(stderr, "ecfetch: %s %s failed: %s (%s); falling back to native "
			"decoding from %d sources\n", a.mode, argv[optind + 1], r.msg,
			ecf_fail_name(r.fail), a.nsrc);
		if (r.fail == ECF_MISMATCH)
			fprintf(stderr, "ecfetch: the proxy delivered wrong bytes\n");
		fell_back = 1;
		native = 1;
		if (ecf_sink_reset(&sink)) {
			r.fail = ECF_OUTPUT;
			snprintf(r.msg, sizeof(r.msg), "cannot rewind the output for the fallback");
		} else {
			ret = attempt(&a, 1, &sink, &r);
			wall = elapsed(&t0);
			getrusage(RUSAGE_SELF, &ru1);
			if (!ret)
				ret = check_sha(&a, &sink, hex, &r);
		}
	}
	user = tv(&ru1.ru_utime) - tv(&ru0.ru_utime);
	sys = tv(&ru1.ru_stime) - tv(&ru0.ru_stime);
	if (a.sha)
		sha_ok = !ret;

	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "mode", json_object_new_string(a.mode));
		json_object_object_add(o, "path", json_object_new_string(
			native ? "native" : a.mode));
		json_object_object_add(o, "ok", json_object_new_boolean(!ret));
		json_object_object_add(o, "fallback", json_object_new_boolean(fell_back));
		if (fell_back) {
			json_object_object_add(o, "fallback_reason",
					       json_object_new_string(ecf_fail_name(first.fail)));
			json_object_object_add(o, "fallback_message",
					       json_object_new_string(first.msg));
			json_object_object_add(o, "proxy_s", json_object_new_double(proxy_s));
		}
		if (ret) {
			json_object_object_add(o, "error", json_object_new_string(ecf_fail_name(r.fail)));
			json_object_object_add(o, "message", json_object_new_string(r.msg));
		}
		json_object_object_add(o, "bytes", json_object_new_int64((int64_t)sink.bytes));
		json_object_object_add(o, "wall_s", json_object_new_double(wall));
		json_object_object_add(o, "t_start", json_object_new_double(t_start));
		json_object_object_add(o, "t_end", json_object_new_double(t_start + wall));
		json_object_object_add(o, "cpu_user_s", json_object_new_double(user));
		json_object_object_add(o, "cpu_sys_s", json_object_new_double(sys));
		json_object_object_add(o, "cpu_s", json_object_new_double(user + sys));
		json_object_object_add(o, "mbit_s", json_object_new_double(
			wall > 0 ? (double)sink.bytes * 8 / wall / 1e6 : 0));
		if (!ret)
			json_object_object_add(o, "sha256", json_object_new_string(hex));
		json_object_object_add(o, "sha256_ok", sha_ok < 0 ? NULL :
				       json_object_new_boolean(sha_ok));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
	if (!quiet) {
		if (ret)
			fprintf(stderr, "ecfetch: %s failed: %s (%s)\n",
				native ? "native" : a.mode, r.msg, ecf_fail_name(r.fail));
		else
			fprintf(stderr, "ecfetch: %s%s: %llu bytes in %.3f s (%.1f Mbit/s), "
				"cpu %.3f s, sha256 %s%s\n",
				native ? "native" : a.mode, fell_back ? " (fallback)" : "",
				(unsigned long long)sink.bytes, wall,
				wall > 0 ? (double)sink.bytes * 8 / wall / 1e6 : 0, user + sys,
				hex, sha_ok > 0 ? " OK" : "");
	}
	ecf_sink_free(&sink);
	if (fd > STDOUT_FILENO && close(fd)) {
		fprintf(stderr, "ecfetch: %s: %s\n", outpath, strerror(errno));
		return EXIT_FAIL;
	}
	if (ret)
		return EXIT_FAIL;
	return fell_back ? EXIT_FALLBACK : EXIT_OK;
}
