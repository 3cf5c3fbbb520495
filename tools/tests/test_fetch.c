// SPDX-License-Identifier: GPL-2.0
/*
 * ecfetch's fetch engine against real TCP servers on the loopback (forked
 * children): plain copy, native decoding of every lost fragment of an
 * RS(4,2) set, and each failure it must classify: refused, reset mid-stream,
 * stalled, uneven sources, short and long streams.  The striped degraded
 * read of a whole block: 1 and m lost data fragments, parity survivors in
 * any order, 4 KiB and 1 MiB cells, blocks ending mid-cell and mid-stripe
 * or shorter than a cell; a survivor that ends early or sends too much.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "ecp.h"
#include "fetch.h"
#include "tap.h"

enum serve_how { SERVE_ALL, SERVE_RESET, SERVE_STALL };

static pid_t kids[32];
static int nkids;

/*
 * A child serving len bytes of buf to every connection (how: all then
 * close; half then RST; nothing, holding the connection).  Returns its
 * address.
 */
static struct sockaddr_in server(const uint8_t *buf, size_t len, enum serve_how how)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int one = 1, ls = socket(AF_INET, SOCK_STREAM, 0);
	pid_t pid;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 16) ||
	    getsockname(ls, (struct sockaddr *)&sa, &sl)) {
		perror("server");
		exit(1);
	}
	pid = fork();
	if (pid == 0) {
		for (;;) {
			int c = accept(ls, NULL, NULL);
			size_t n = how == SERVE_RESET ? len / 2 : len, off = 0;

			if (c < 0)
				_exit(1);
			if (how == SERVE_STALL) {
				sleep(30);
				_exit(0);
			}
			while (off < n) {
				ssize_t w = write(c, buf + off, n - off);

				if (w <= 0)
					break;
				off += (size_t)w;
			}
			if (how == SERVE_RESET) {
				struct linger lg = { 1, 0 };

				/* Let the bytes go out first: the reset must
				 * come after data, not instead of it. */
				usleep(100000);
				setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
			}
			close(c);
		}
	}
	close(ls);
	kids[nkids++] = pid;
	return sa;
}

static void stop_servers(void)
{
	for (int i = 0; i < nkids; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	nkids = 0;
}

static struct ecf_opts opts(int64_t size)
{
	struct ecf_opts o = { .timeout_ms = 5000, .expect_size = size, .bufsize = 8192 };

	return o;
}

static void sha_empty(char hex[65])
{
	struct ecf_sink s;

	ecf_sink_init(&s, -1);
	ecf_sink_final(&s, hex);
	ecf_sink_free(&s);
}

#define FS 100003	/* fragment size: not a multiple of the buffer */
static uint8_t frags[6][FS];

static int fetch(const struct sockaddr_in *a, int n, const uint8_t *coef, int64_t size,
		 struct ecf_result *r, char hex[65], uint64_t *bytes)
{
	struct ecf_sink s;
	struct ecf_opts o = opts(size);
	int ret;

	ecf_sink_init(&s, -1);
	ret = ecf_fetch(a, n, coef, &s, &o, r);
	ecf_sink_final(&s, hex);
	*bytes = s.bytes;
	ecf_sink_free(&s);
	return ret;
}

/* The hash computed directly, not through the sink. */
static void want_hex(const uint8_t *b, size_t len, char hex[65])
{
	unsigned char d[32];

	EVP_Digest(b, len, d, NULL, EVP_sha256(), NULL);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* A striped block of RS(4,2) and its fragments, zero-extended (+1 byte). */
struct block {
	uint64_t len;
	uint32_t cell;
	uint8_t *data;
	uint8_t *frag[6];
	uint64_t flen[6];
};

static void make_block(const struct ecp_code *c, uint64_t len, uint32_t cell, struct block *b)
{
	uint64_t fs = ecp_layout_len(len, cell, c->k, 0);
	struct ecp_run run;

	b->len = len;
	b->cell = cell;
	b->data = malloc(len + 1);
	test_fill(b->data, len);
	for (int i = 0; i < c->k + c->m; i++) {
		b->frag[i] = calloc(fs + 1, 1);
		b->flen[i] = ecp_layout_len(len, cell, c->k, i);
	}
	for (ecp_run_first(&run, len, cell, c->k); run.len; ecp_run_next(&run))
		memcpy(b->frag[run.frag] + run.off, b->data + run.pos, run.len);
	ecp_encode(c, (const uint8_t *const *)b->frag, b->frag + c->k, fs);
}

static void free_block(struct block *b)
{
	free(b->data);
	for (int i = 0; i < 6; i++)
		free(b->frag[i]);
}

/*
 * Read b from servers of the fragments src[0..4); source bad (if >= 0)
 * serves its fragment with delta bytes more or less.  1 if the read
 * delivered the block exactly; r tells what happened.
 */
static int striped_read(const struct ecp_code *c, const struct block *b, const int *src,
			int bad, int delta, struct ecf_result *r)
{
	struct sockaddr_in a[4];
	struct ecf_opts o = opts(b->len);
	struct ecf_stripe p;
	struct ecf_sink s;
	struct ecp_err err;
	char hex[65], want[65];
	int ret;

	if (ecf_stripe_plan(&p, c, src, b->len, b->cell, &err)) {
		tap_diag("plan: %s", err.msg);
		return 0;
	}
	for (int j = 0; j < 4; j++)
		a[j] = server(b->frag[src[j]], b->flen[src[j]] + (j == bad ? delta : 0), SERVE_ALL);
	ecf_sink_init(&s, -1);
	ret = ecf_fetch_striped(a, &p, &s, &o, r);
	ecf_sink_final(&s, hex);
	stop_servers();
	want_hex(b->data, b->len, want);
	if (!ret && (s.bytes != b->len || strcmp(hex, want)))
		tap_diag("%llu bytes, sha256 %s, want %s", (unsigned long long)s.bytes, hex, want);
	ecf_sink_free(&s);
	return !ret && !strcmp(hex, want);
}

/* One striped case: a fresh block, read from src, the result printed. */
static void striped_case(const struct ecp_code *c, uint64_t len, uint32_t cell, const int *src,
			 const char *what)
{
	struct ecf_result r;
	struct block b;
	int ok;

	make_block(c, len, cell, &b);
	ok = striped_read(c, &b, src, -1, 0, &r);
	tap_ok(ok, "striped: %s (block %llu, cell %u, sources %d,%d,%d,%d)%s%s", what,
	       (unsigned long long)len, cell, src[0], src[1], src[2], src[3], ok ? "" : ": ",
	       ok ? "" : r.msg);
	free_block(&b);
}

int main(void)
{
	const uint8_t *data[4];
	uint8_t *par[2];
	struct ecp_code c;
	struct ecp_coef co;
	struct ecf_result r;
	struct sockaddr_in a[4];
	char hex[65], want[65], empty[65];
	uint64_t bytes;
	int ret, all = 1;

	signal(SIGPIPE, SIG_IGN);
	tap_plan(11 + 10);
	test_fill(&frags[0][0], sizeof(frags));
	ecp_code_init(&c, ecp_profile_by_name("isal-cauchy"), 4, 2, NULL, NULL);
	for (int j = 0; j < 4; j++)
		data[j] = frags[j];
	par[0] = frags[4];
	par[1] = frags[5];
	ecp_encode(&c, data, par, FS);

	/* The hash of nothing is SHA-256's well-known empty digest. */
	sha_empty(empty);
	tap_ok(!strcmp(empty, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
	       "sink: SHA-256 of nothing");

	a[0] = server(frags[2], FS, SERVE_ALL);
	ret = fetch(a, 1, NULL, FS, &r, hex, &bytes);
	stop_servers();
	want_hex(frags[2], FS, want);
	tap_ok(!ret && bytes == FS && !strcmp(hex, want), "copy: %d bytes, same SHA-256 (%s)",
	       FS, r.msg);

	/* Every lost fragment from the first 4 survivors, checked against the
	 * copy's hash of the encoded fragment. */
	for (int lost = 0; lost < 6; lost++) {
		int avail[4], n = 0;

		for (int i = 0; i < 6 && n < 4; i++)
			if (i != lost)
				avail[n++] = i;
		ecp_code_coef(&c, lost, avail, 4, &co, NULL);
		for (int j = 0; j < 4; j++)
			a[j] = server(frags[avail[j]], FS, SERVE_ALL);
		ret = fetch(a, 4, co.coef, FS, &r, hex, &bytes);
		stop_servers();
		want_hex(frags[lost], FS, want);
		if (ret || bytes != FS || strcmp(hex, want)) {
			tap_diag("lost %d: ret %d bytes %llu %s", lost, ret,
				 (unsigned long long)bytes, r.msg);
			all = 0;
		}
	}
	tap_ok(all, "native: every lost fragment of RS(4,2) exact");

	/* A refused connection: bind a port, close it, connect to it. */
	a[0] = server(frags[0], FS, SERVE_ALL);
	stop_servers();
	ret = fetch(a, 1, NULL, -1, &r, hex, &bytes);
	tap_ok(ret && r.fail == ECF_CONNECT && r.source == 0, "refused: %s (%s)",
	       ecf_fail_name(r.fail), r.msg);

	a[0] = server(frags[0], FS, SERVE_RESET);
	ret = fetch(a, 1, NULL, -1, &r, hex, &bytes);
	stop_servers();
	tap_ok(ret && r.fail == ECF_RESET && bytes > 0, "reset mid-stream after %llu bytes: %s",
	       (unsigned long long)bytes, r.msg);

	/* A reset from one source of a native fetch fails the whole fetch. */
	a[0] = server(frags[0], FS, SERVE_ALL);
	a[1] = server(frags[1], FS, SERVE_RESET);
	a[2] = server(frags[2], FS, SERVE_ALL);
	a[3] = server(frags[3], FS, SERVE_ALL);
	ret = fetch(a, 4, co.coef, -1, &r, hex, &bytes);
	stop_servers();
	tap_ok(ret && r.fail == ECF_RESET && r.source == 1, "native: source 1 reset: %s", r.msg);

	{
		struct ecf_sink s;
		struct ecf_opts o = opts(-1);

		o.timeout_ms = 300;
		a[0] = server(frags[0], FS, SERVE_STALL);
		ecf_sink_init(&s, -1);
		ret = ecf_fetch(a, 1, NULL, &s, &o, &r);
		ecf_sink_free(&s);
		stop_servers();
		tap_ok(ret && r.fail == ECF_TIMEOUT, "stalled stream: %s (%s)",
		       ecf_fail_name(r.fail), r.msg);
	}

	a[0] = server(frags[0], FS, SERVE_ALL);
	a[1] = server(frags[1], FS - 1000, SERVE_ALL);
	a[2] = server(frags[2], FS, SERVE_ALL);
	a[3] = server(frags[3], FS, SERVE_ALL);
	ret = fetch(a, 4, co.coef, -1, &r, hex, &bytes);
	stop_servers();
	tap_ok(ret && r.fail == ECF_UNEVEN && r.source == 1, "native: uneven sources: %s", r.msg);

	a[0] = server(frags[0], FS - 1, SERVE_ALL);
	ret = fetch(a, 1, NULL, FS, &r, hex, &bytes);
	stop_servers();
	tap_ok(ret && r.fail == ECF_SHORT, "short stream: %s", r.msg);

	a[0] = server(frags[0], FS, SERVE_ALL);
	ret = fetch(a, 1, NULL, FS - 1, &r, hex, &bytes);
	stop_servers();
	tap_ok(ret && r.fail == ECF_LONG && bytes <= FS - 1, "long stream: %s", r.msg);

	{
		struct sockaddr_in sa;
		int frag;

		tap_ok(!ecf_parse_addr("10.0.1.2:8000:7", &sa, &frag) && frag == 7 &&
		       ntohs(sa.sin_port) == 8000 && ecf_parse_addr("10.0.1.2:8000", &sa, &frag) &&
		       ecf_parse_addr("10.0.1.2:8000:1", &sa, NULL) &&
		       ecf_parse_addr("10.0.1:80", &sa, NULL) &&
		       ecf_parse_addr("10.0.1.2:0", &sa, NULL),
		       "address parsing");
	}

	/* RS(4,2): stripe 4 cells; 4k cells make a 16 KiB stripe. */
	striped_case(&c, 5 * 16384 + 4096 + 1000, 4096, (int[]){ 0, 2, 3, 4 },
		     "data fragment 1 lost, ends mid-cell");
	striped_case(&c, 3 * 16384 + 2 * 4096, 4096, (int[]){ 5, 1, 4, 3 },
		     "data fragments 0 and 2 lost, parity survivors out of order, ends mid-stripe");
	striped_case(&c, (8ull << 20) + (1 << 20) + (1 << 19), 1 << 20, (int[]){ 0, 2, 4, 5 },
		     "1 MiB cells, data fragments 1 and 3 lost, ends mid-cell");
	striped_case(&c, (4ull << 20) * 3 + (3ull << 20), 1 << 20, (int[]){ 0, 1, 2, 5 },
		     "1 MiB cells, data fragment 3 lost (empty last cell), ends mid-stripe");
	striped_case(&c, 1000, 4096, (int[]){ 1, 2, 3, 4 },
		     "shorter than a cell: fragment 0 from parity and three empty sources");
	striped_case(&c, 2 * 16384, 4096, (int[]){ 3, 2, 1, 0 },
		     "nothing lost: whole stripes passed through");
	{
		struct ecf_result r;
		struct block b;
		int ok;

		make_block(&c, 5 * 16384 + 4096 + 1000, 4096, &b);
		ok = !striped_read(&c, &b, (int[]){ 0, 2, 3, 4 }, 2, -1, &r) &&
		     r.fail == ECF_SHORT && r.source == 2 && strstr(r.msg, "(fragment 3) ended after");
		tap_ok(ok, "striped: a survivor one byte short fails, naming it: %s", r.msg);
		ok = !striped_read(&c, &b, (int[]){ 0, 2, 3, 4 }, 3, 1, &r) &&
		     r.fail == ECF_LONG && r.source == 3 && strstr(r.msg, "(fragment 4) sent more");
		tap_ok(ok, "striped: a survivor one byte long fails, naming it: %s", r.msg);
		ok = !striped_read(&c, &b, (int[]){ 0, 2, 3, 4 }, 1, -(int)b.flen[2], &r) &&
		     r.fail == ECF_SHORT && r.source == 1;
		tap_ok(ok, "striped: a survivor that closes at once fails, naming it: %s", r.msg);
		free_block(&b);
	}
	{
		struct ecf_stripe p;
		struct ecp_err err;

		tap_ok(ecf_stripe_plan(&p, &c, (int[]){ 0, 2, 2, 4 }, 1000, 4096, &err) < 0 &&
		       strstr(err.msg, "twice"), "striped: a source listed twice is refused: %s",
		       err.msg);
	}
	return tap_done();
}
