// SPDX-License-Identifier: GPL-2.0
/*
 * ecput: the writer's client.  Writes a file as one erasure-coded block
 * group in HDFS's striped layout, two ways: through ecproxy's VIP:PORT of
 * a write task ("encode"), which sends the block once and has the router
 * make the parity; or natively, encoding on this host with libecp and
 * sending each of the k+m fragments to its target.  A proxied write that
 * is refused, reset or stalls falls back to the native one.
 *
 * A write is stored when its receiver closes: S closes towards the writer
 * only once every target has acknowledged its fragment, and a target (a
 * storage node) once it has stored its fragment.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ecp.h"
#include "fetch.h"
#include "fragfile.h"
#include "size.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_FALLBACK = 3 };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ecput [ -j ] [ -q ] proxy ADDR:PORT [ CODE ] [ nofallback ] [ timeout MS ] FILE\n"
		"       ecput [ -j ] [ -q ] native CODE [ timeout MS ] FILE\n"
		"       ecput [ -j ] [ -q ] copy ADDR:PORT [ timeout MS ] FILE\n"
		"CODE := encode PROFILE k K m M [ matrix SPEC ] cell SIZE\n"
		"        dest ADDR:PORT:FRAG ...   (k+m of them, FRAG 0..k+m-1)\n"
		"\n"
		"Writes FILE as one striped block group (see ecctl code help): byte X is\n"
		"in data fragment (X / SIZE) mod K; parity fragments are as long as data\n"
		"fragment 0.\n"
		"proxy   sends FILE once to ecproxy's write task on ADDR:PORT (ecctl task\n"
		"        add ... encode), which stripes it to the targets and makes the\n"
		"        parity.  If that is refused, reset or stalls and CODE is given, it\n"
		"        falls back to native and says so (exit status 3).  nofallback\n"
		"        disables that.\n"
		"native  encodes FILE on this host (libecp) and sends each fragment to its\n"
		"        dest target, trying a refused target again for the timeout.\n"
		"copy    sends FILE as it is to one node (a replica; no code).\n"
		"timeout connect and idle timeout, ms (default 10000).\n"
		"-j prints a JSON summary on stdout, -q drops the summary line on stderr.\n"
		"Exit: 0 stored, 3 stored by the fallback, 1 failed, 2 usage error.\n");
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "ecput: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see ecput -h)\n");
	return EXIT_USAGE;
}

struct args {
	const char *mode, *file;
	struct sockaddr_in addr;
	int have_code, fallback, timeout_ms;
	struct ecp_code code;
	uint32_t cell;
	int ndest;
	struct sockaddr_in dest[ECP_MAX_N];	/* by fragment */
	int has_dest[ECP_MAX_N];
};

struct put_result {
	enum ecf_fail fail;
	int err;
	int target;		/* fragment whose target failed, -1 if none */
	char msg[640];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait until fd is ready for @ev, at most the timeout: 0, or -1 (ETIMEDOUT). */
static int wait_fd(int fd, short ev, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int n;

	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

static void put_fail(struct put_result *r, enum ecf_fail f, int err, const char *what)
{
	r->fail = f;
	r->err = err;
	snprintf(r->msg, sizeof(r->msg), "%s: %s", what, strerror(err));
}

/*
 * Send buf[0..len) to addr, shut the sending side down and wait for the
 * receiver to close: 0 once it closed with a FIN, -1 with r filled if the
 * connection is refused, reset or stalls for the timeout.
 */
/*
 * A connected non-blocking socket to addr, or -1 with r filled.  With
 * @retry, a refused connection is tried again every 100 ms for the
 * timeout: a storage node that restarts.
 */
static int connect_to(const struct sockaddr_in *addr, int timeout_ms, int retry,
		      struct put_result *r)
{
	double end = now_s() + timeout_ms / 1000.0;

	for (;;) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		socklen_t sl = sizeof(int);
		int err = 0;

		if (fd < 0) {
			put_fail(r, ECF_SYS, errno, "socket");
			return -1;
		}
		if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) &&
		    errno != EINPROGRESS)
			err = errno;
		else if (wait_fd(fd, POLLOUT, timeout_ms))
			err = errno;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl))
			err = errno;
		if (!err) {
			/*
			 * If this writer dies before the receiver closed, the
			 * kernel resets the stream instead of closing it with
			 * a FIN: a block cut short must not look written.
			 */
			struct linger l = { .l_onoff = 1, .l_linger = 0 };

			if (!setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l)))
				return fd;
			err = errno;
		}
		close(fd);
		if (!retry || err != ECONNREFUSED || now_s() > end) {
			put_fail(r, ECF_CONNECT, err, "connect");
			return -1;
		}
		usleep(100000);
	}
}

static int send_stream(const struct sockaddr_in *addr, const uint8_t *buf, size_t len,
		       int timeout_ms, int retry, struct put_result *r)
{
	int fd = connect_to(addr, timeout_ms, retry, r);
	size_t off = 0;
	char sink[4096];

	if (fd < 0)
		return -1;
	while (off < len) {
		ssize_t n = send(fd, buf + off, len - off, MSG_NOSIGNAL);

		if (n > 0) {
			off += (size_t)n;
		} else if (n < 0 && errno == EAGAIN) {
			if (wait_fd(fd, POLLOUT, timeout_ms))
				goto broken;
		} else if (n < 0 && errno != EINTR) {
			goto broken;
		}
	}
	if (shutdown(fd, SHUT_WR))
		goto broken;
	/* The receiver says nothing: its close is the acknowledgement. */
	for (;;) {
		ssize_t n = recv(fd, sink, sizeof(sink), 0);

		if (n == 0)
			break;
		if (n > 0 || errno == EINTR)
			continue;
		if (errno != EAGAIN || wait_fd(fd, POLLIN, timeout_ms))
			goto broken;
	}
	close(fd);
	return 0;
broken:
	put_fail(r, errno == ETIMEDOUT ? ECF_TIMEOUT : ECF_RESET, errno, "send");
	close(fd);
	return -1;
}

/* The whole file in memory (a block group of up to a few hundred MB). */
static uint8_t *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *buf = NULL;
	size_t off = 0;

	if (fd < 0 || fstat(fd, &st))
		goto out;
	*len = (size_t)st.st_size;
	buf = malloc(*len ? *len : 1);
	while (buf && off < *len) {
		ssize_t n = read(fd, buf + off, *len - off);

		if (n <= 0) {
			free(buf);
			buf = NULL;
			break;
		}
		off += (size_t)n;
	}
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

/* The striped encode on this host, each fragment sent to its target. */
static int put_native(const struct args *a, struct put_result *r)
{
	char dir[] = "/tmp/ecput.XXXXXX", path[64];
	int n = a->code.k + a->code.m, ret = 0;
	struct ecp_meta meta;
	struct ecp_err e;

	if (!mkdtemp(dir)) {
		put_fail(r, ECF_SYS, errno, "mkdtemp");
		return -1;
	}
	if (ecp_file_encode(&a->code, a->file, dir, a->cell, &meta, &e)) {
		r->fail = ECF_SYS;
		snprintf(r->msg, sizeof(r->msg), "encode: %s", e.msg);
		ret = -1;
	}
	for (int f = 0; f < n; f++) {
		uint8_t *buf;
		size_t len;

		snprintf(path, sizeof(path), "%s/" ECP_FRAG_PREFIX "%d", dir, f);
		if (!ret) {
			buf = read_file(path, &len);
			if (!buf) {
				put_fail(r, ECF_SYS, errno, path);
				ret = -1;
			} else if (send_stream(&a->dest[f], buf, len, a->timeout_ms, 1, r)) {
				r->target = f;
				ret = -1;
			}
			free(buf);
		}
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/" ECP_META_NAME, dir);
	unlink(path);
	rmdir(dir);
	return ret;
}

static int put_proxy(const struct args *a, struct put_result *r)
{
	size_t len;
	uint8_t *buf = read_file(a->file, &len);
	int ret;

	if (!buf) {
		put_fail(r, ECF_SYS, errno, a->file);
		return -1;
	}
	ret = send_stream(&a->addr, buf, len, a->timeout_ms, 0, r);
	free(buf);
	return ret;
}

static int parse(struct args *a, int argc, char **argv)
{
	const char *profile = NULL, *matrix = NULL;
	uint8_t parity[ECP_MAX_M * ECP_MAX_K];
	long k = 0, m = 0;
	struct ecp_err e;
	int i = 1;

	memset(a, 0, sizeof(*a));
	a->fallback = 1;
	a->timeout_ms = 10000;
	if (argc < 2)
		return usage_err("%s", "missing mode and FILE");
	a->mode = argv[0];
	if (!strcmp(a->mode, "proxy") || !strcmp(a->mode, "copy")) {
		if (ecf_parse_addr(argv[1], &a->addr, NULL))
			return usage_err("%s: expected ADDR:PORT", a->mode);
		i = 2;
	} else if (strcmp(a->mode, "native")) {
		return usage_err("unknown mode \"%s\"", a->mode);
	}
	a->file = argv[--argc];
	for (; i < argc; i += 2) {
		const char *kw = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t v;

		if (!strcmp(kw, "nofallback")) {
			a->fallback = 0;
			i--;
			continue;
		}
		if (!val)
			return usage_err("\"%s\": missing value", kw);
		if (!strcmp(kw, "encode")) {
			profile = val;
		} else if (!strcmp(kw, "matrix")) {
			matrix = val;
		} else if (!strcmp(kw, "k") || !strcmp(kw, "m")) {
			if (ecp_parse_size(val, kw[0] == 'k' ? ECP_MAX_K : ECP_MAX_M, &v) || !v)
				return usage_err("\"%s\": expected 1..32 (k) or 1..16 (m)", kw);
			*(kw[0] == 'k' ? &k : &m) = (long)v;
		} else if (!strcmp(kw, "cell")) {
			if (ecp_parse_size(val, 256 << 20, &v) || !v)
				return usage_err("\"cell %s\": expected 1..256m", val);
			a->cell = (uint32_t)v;
		} else if (!strcmp(kw, "timeout")) {
			if (ecp_parse_size(val, 3600000, &v) || !v)
				return usage_err("\"timeout %s\": expected 1..3600000 ms", val);
			a->timeout_ms = (int)v;
		} else if (!strcmp(kw, "dest")) {
			struct sockaddr_in sa;
			int f;

			if (ecf_parse_addr(val, &sa, &f))
				return usage_err("\"dest %s\": expected ADDR:PORT:FRAG", val);
			if (a->has_dest[f])
				return usage_err("\"dest %s\": that fragment has a target already", val);
			a->dest[f] = sa;
			a->has_dest[f] = 1;
			a->ndest++;
		} else {
			return usage_err("unknown keyword \"%s\"", kw);
		}
	}
	if (!strcmp(a->mode, "copy")) {
		if (profile || a->ndest)
			return usage_err("%s", "copy: takes no code or targets");
		a->fallback = 0;
		return 0;
	}
	if (!profile) {
		if (!strcmp(a->mode, "native"))
			return usage_err("%s", "native: needs CODE");
		if (a->fallback)
			return usage_err("%s", "proxy: the fallback needs CODE (or say nofallback)");
		return 0;
	}
	if (!k || !m || !a->cell)
		return usage_err("\"encode %s\": needs k K m M and cell SIZE", profile);
	{
		const struct ecp_profile *p = ecp_profile_by_name(profile);

		if (!p)
			return usage_err("unknown profile \"%s\"", profile);
		if (p->id == ECP_PROFILE_MATRIX &&
		    (!matrix || ecp_matrix_parse(matrix, (int)k, (int)m, parity, &e)))
			return usage_err("%s", "profile matrix needs a good \"matrix SPEC\"");
		if (ecp_code_init(&a->code, p, (int)k, (int)m,
				  p->id == ECP_PROFILE_MATRIX ? parity : NULL, &e))
			return usage_err("%s", e.msg);
	}
	for (int f = 0; f < k + m; f++)
		if (!a->has_dest[f])
			return usage_err("%s", "CODE needs a dest for every fragment 0..k+m-1");
	if (a->ndest != k + m)
		return usage_err("%s", "a dest's fragment is not < k+m");
	a->have_code = 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct put_result r = { .target = -1 }, first = { .target = -1 };
	int json = 0, quiet = 0, opt, ret, fell = 0;
	const char *path;
	struct rusage ru;
	struct args a;
	double t0, cpu;

	while ((opt = getopt(argc, argv, "+jqh")) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	ret = parse(&a, argc - optind, argv + optind);
	if (ret)
		return ret;
	t0 = now_s();
	path = a.mode;
	if (!strcmp(a.mode, "native")) {
		ret = put_native(&a, &r);
	} else {
		ret = put_proxy(&a, &r);
		if (ret && a.fallback) {
			first = r;
			memset(&r, 0, sizeof(r));
			r.target = -1;
			fell = 1;
			path = "native";
			ret = put_native(&a, &r);
		}
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "mode", json_object_new_string(a.mode));
		json_object_object_add(o, "path", json_object_new_string(path));
		json_object_object_add(o, "ok", json_object_new_boolean(!ret));
		json_object_object_add(o, "fallback", json_object_new_boolean(fell));
		if (fell)
			json_object_object_add(o, "fallback_reason",
					       json_object_new_string(first.msg));
		if (ret) {
			json_object_object_add(o, "error", json_object_new_string(r.msg));
			if (r.target >= 0)
				json_object_object_add(o, "target", json_object_new_int(r.target));
		}
		json_object_object_add(o, "seconds", json_object_new_double(now_s() - t0));
		json_object_object_add(o, "cpu_seconds", json_object_new_double(cpu));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
	if (fell && !quiet)
		fprintf(stderr, "ecput: proxy failed (%s), fell back to native\n", first.msg);
	if (ret) {
		if (r.target >= 0)
			fprintf(stderr, "ecput: %s: fragment %d's target: %s\n", path, r.target,
				r.msg);
		else
			fprintf(stderr, "ecput: %s: %s\n", path, r.msg);
		return EXIT_FAIL;
	}
	if (!quiet)
		fprintf(stderr, "ecput: stored by %s in %.3f s, cpu %.3f s\n", path,
			now_s() - t0, cpu);
	return fell ? EXIT_FALLBACK : EXIT_OK;
}
