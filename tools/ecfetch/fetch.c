// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <openssl/evp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fetch.h"
#include "gf.h"
#include "layout.h"

const char *ecf_fail_name(enum ecf_fail f)
{
	static const char *const names[] = {
		[ECF_OK] = "ok",
		[ECF_CONNECT] = "connect-failed",
		[ECF_RESET] = "reset",
		[ECF_TIMEOUT] = "timeout",
		[ECF_SHORT] = "short",
		[ECF_LONG] = "long",
		[ECF_UNEVEN] = "uneven-sources",
		[ECF_MISMATCH] = "sha256-mismatch",
		[ECF_OUTPUT] = "output-error",
		[ECF_SYS] = "system-error",
	};

	return (unsigned int)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

int ecf_sink_init(struct ecf_sink *s, int fd)
{
	struct stat st;

	s->fd = fd;
	s->deferred = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode);
	s->bytes = 0;
	s->md = EVP_MD_CTX_new();
	if (!s->md || !EVP_DigestInit_ex(s->md, EVP_sha256(), NULL))
		return -1;
	return 0;
}

int ecf_sink_reset(struct ecf_sink *s)
{
	if (s->fd >= 0 && s->bytes) {
		/* A pipe cannot take back what it was given. */
		if (lseek(s->fd, 0, SEEK_SET) < 0 || ftruncate(s->fd, 0) < 0)
			return -1;
	}
	s->bytes = 0;
	return EVP_DigestInit_ex(s->md, EVP_sha256(), NULL) ? 0 : -1;
}

static int sink_put(struct ecf_sink *s, const uint8_t *p, size_t len)
{
	if (!s->deferred && !EVP_DigestUpdate(s->md, p, len))
		return -1;
	s->bytes += len;
	while (s->fd >= 0 && len) {
		ssize_t w = write(s->fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int ecf_sink_final(struct ecf_sink *s, char hex[65])
{
	unsigned char d[EVP_MAX_MD_SIZE], buf[65536];
	unsigned int n = 0;
	uint64_t off = 0;
	int ret = 0;

	while (s->deferred && off < s->bytes) {
		size_t want = s->bytes - off < sizeof(buf) ? (size_t)(s->bytes - off) : sizeof(buf);
		ssize_t got = pread(s->fd, buf, want, (off_t)off);

		if (got <= 0) {
			ret = -1;
			break;
		}
		EVP_DigestUpdate(s->md, buf, (size_t)got);
		off += (uint64_t)got;
	}
	EVP_DigestFinal_ex(s->md, d, &n);
	for (unsigned int i = 0; i < n && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	hex[64] = '\0';
	return ret;
}

void ecf_sink_free(struct ecf_sink *s)
{
	EVP_MD_CTX_free(s->md);
	s->md = NULL;
}

int ecf_parse_addr(const char *s, struct sockaddr_in *sa, int *frag)
{
	char host[64], *end;
	const char *c1 = strchr(s, ':'), *c2;
	long port, idx;

	if (!c1 || (size_t)(c1 - s) >= sizeof(host))
		return -1;
	memcpy(host, s, (size_t)(c1 - s));
	host[c1 - s] = '\0';
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		return -1;
	errno = 0;
	port = strtol(c1 + 1, &end, 10);
	if (errno || end == c1 + 1 || port < 1 || port > 65535)
		return -1;
	sa->sin_port = htons((uint16_t)port);
	c2 = end;
	if (!frag)
		return *c2 ? -1 : 0;
	if (*c2 != ':')
		return -1;
	idx = strtol(c2 + 1, &end, 10);
	if (end == c2 + 1 || *end || idx < 0 || idx >= ECP_MAX_N)
		return -1;
	*frag = (int)idx;
	return 0;
}

struct stream {
	int fd;
	int connected;
	int eof;
	uint8_t *buf;
	size_t off, fill;	/* unconsumed bytes are buf[off..fill) */
	uint64_t got;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int fail(struct ecf_result *r, enum ecf_fail f, int err, int src,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail(struct ecf_result *r, enum ecf_fail f, int err, int src,
		const char *fmt, ...)
{
	va_list ap;

	r->fail = f;
	r->err = err;
	r->source = src;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static const char *addr_str(const struct sockaddr_in *sa, char *buf, size_t size)
{
	char ip[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof(ip));
	snprintf(buf, size, "%s:%u", ip, ntohs(sa->sin_port));
	return buf;
}

/*
 * What a fetch does with the bytes the streams have buffered, after every
 * poll round: deliver what it can to the sink, consume it from the
 * streams, and fail (r filled, -1) on a stream that cannot be right.
 */
typedef int (*drain_fn)(struct stream *st, const struct sockaddr_in *addr, int n, void *ctx,
			struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r);

static void consume(struct stream *st, size_t len)
{
	st->off += len;
	if (st->off == st->fill)
		st->off = st->fill = 0;
}

/* A plain fetch: one stream as it is, or n of one length combined. */
struct plain {
	const uint8_t *coef;	/* NULL: one stream */
	uint8_t *out;		/* the combination */
};

/* Deliver the bytes every stream has. */
static int deliver_plain(struct plain *pl, struct stream *st, int n, struct ecf_sink *s,
			 const struct ecf_opts *o, struct ecf_result *r)
{
	const uint8_t *src[ECP_MAX_K];
	size_t len = (size_t)-1;

	for (int j = 0; j < n; j++)
		if (st[j].fill - st[j].off < len)
			len = st[j].fill - st[j].off;
	if (!len)
		return 0;
	if (o->expect_size >= 0 && s->bytes + len > (uint64_t)o->expect_size)
		return fail(r, ECF_LONG, 0, -1, "more than the expected %lld bytes",
			    (long long)o->expect_size);
	for (int j = 0; j < n; j++)
		src[j] = st[j].buf + st[j].off;
	if (pl->coef) {
		ecp_combine(pl->coef, src, n, pl->out, len);
		if (sink_put(s, pl->out, len))
			return fail(r, ECF_OUTPUT, errno, -1, "write: %s", strerror(errno));
	} else if (sink_put(s, src[0], len)) {
		return fail(r, ECF_OUTPUT, errno, -1, "write: %s", strerror(errno));
	}
	for (int j = 0; j < n; j++)
		consume(&st[j], len);
	return 0;
}

static int drain_plain(struct stream *st, const struct sockaddr_in *addr, int n, void *ctx,
		       struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r)
{
	int ended = -1, pending = 0;
	char as[32];

	if (deliver_plain(ctx, st, n, s, o, r))
		return -1;
	/* The streams are to be of one length: one that ended early cannot
	 * be made up for. */
	for (int j = 0; j < n; j++) {
		if (st[j].eof && st[j].fill == st[j].off)
			ended = j;
		if (st[j].fill > st[j].off)
			pending = 1;
	}
	if (ended >= 0 && pending)
		return fail(r, ECF_UNEVEN, 0, ended, "%s ended after %llu bytes, others have more",
			    addr_str(&addr[ended], as, sizeof(as)),
			    (unsigned long long)st[ended].got);
	return 0;
}

/* A striped degraded read in progress (ecf_fetch_striped). */
struct striped {
	const struct ecf_stripe *p;
	uint64_t row, rows;
	uint64_t len[ECP_MAX_K];	/* each source's layout length */
	uint8_t *out;			/* staging for the sink */
	size_t outcap, outfill;
};

static int striped_flush(struct striped *sd, struct ecf_sink *s, struct ecf_result *r)
{
	if (sd->outfill && sink_put(s, sd->out, sd->outfill))
		return fail(r, ECF_OUTPUT, errno, -1, "write: %s", strerror(errno));
	sd->outfill = 0;
	return 0;
}

/* Emit row sd->row of the block: every source has its cells of it. */
static int striped_row(struct striped *sd, struct stream *st, const size_t *need,
		       struct ecf_sink *s, struct ecf_result *r)
{
	const struct ecf_stripe *p = sd->p;
	const uint8_t *src[ECP_MAX_K];

	for (int j = 0; j < p->k; j++)
		src[j] = st[j].buf + st[j].off;
	for (int i = 0; i < p->k; i++) {
		uint32_t clen = ecp_layout_cell_len(p->block, p->cell, p->k, i, sd->row);
		uint8_t *dst;

		/* Cells shrink along a row: after an empty one, all are. */
		if (!clen)
			break;
		if (sd->outfill + clen > sd->outcap && striped_flush(sd, s, r))
			return -1;
		dst = sd->out + sd->outfill;
		if (p->src[i] >= 0)
			memcpy(dst, src[p->src[i]], clen);
		else
			ecp_combine_ext(p->coef[i], src, need, p->k, dst, clen);
		sd->outfill += clen;
	}
	for (int j = 0; j < p->k; j++)
		consume(&st[j], need[j]);
	sd->row++;
	return sd->row == sd->rows ? striped_flush(sd, s, r) : 0;
}

static int drain_striped(struct stream *st, const struct sockaddr_in *addr, int n, void *ctx,
			 struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r)
{
	struct striped *sd = ctx;
	const struct ecf_stripe *p = sd->p;
	char as[32];

	(void)o;
	for (int j = 0; j < n; j++) {
		if (st[j].got > sd->len[j])
			return fail(r, ECF_LONG, 0, j, "%s (fragment %d) sent more than its %llu bytes",
				    addr_str(&addr[j], as, sizeof(as)), p->frag[j],
				    (unsigned long long)sd->len[j]);
		if (st[j].eof && st[j].got < sd->len[j])
			return fail(r, ECF_SHORT, 0, j, "%s (fragment %d) ended after %llu of its %llu bytes",
				    addr_str(&addr[j], as, sizeof(as)), p->frag[j],
				    (unsigned long long)st[j].got, (unsigned long long)sd->len[j]);
	}
	while (sd->row < sd->rows) {
		size_t need[ECP_MAX_K];

		for (int j = 0; j < n; j++) {
			need[j] = ecp_layout_cell_len(p->block, p->cell, p->k, p->frag[j], sd->row);
			if (st[j].fill - st[j].off < need[j])
				return 0;
		}
		if (striped_row(sd, st, need, s, r))
			return -1;
	}
	return 0;
}

static int start_connect(struct stream *st, const struct sockaddr_in *sa)
{
	st->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (st->fd < 0)
		return -1;
	if (connect(st->fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0) {
		st->connected = 1;
		return 0;
	}
	return errno == EINPROGRESS ? 0 : -1;
}

/* One poll round's work on stream j; returns -1 with r filled on failure. */
static int service(struct stream *st, int j, short revents, const struct sockaddr_in *sa,
		   size_t cap, struct ecf_result *r)
{
	char as[32];
	int err = 0;
	socklen_t el = sizeof(err);
	ssize_t got;

	if (!st->connected) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return 0;
		if (getsockopt(st->fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
			err = errno;
		if (err)
			return fail(r, ECF_CONNECT, err, j, "connect to %s: %s",
				    addr_str(sa, as, sizeof(as)), strerror(err));
		st->connected = 1;
		return 0;
	}
	if (!(revents & (POLLIN | POLLERR | POLLHUP)))
		return 0;
	if (st->fill == cap) {
		memmove(st->buf, st->buf + st->off, st->fill - st->off);
		st->fill -= st->off;
		st->off = 0;
	}
	got = read(st->fd, st->buf + st->fill, cap - st->fill);
	if (got > 0) {
		st->fill += (size_t)got;
		st->got += (uint64_t)got;
		return 0;
	}
	if (got == 0) {
		st->eof = 1;
		return 0;
	}
	if (errno == EAGAIN || errno == EINTR)
		return 0;
	err = errno;
	if (err == ECONNRESET || err == EPIPE)
		return fail(r, ECF_RESET, err, j, "%s reset the connection after %llu bytes",
			    addr_str(sa, as, sizeof(as)), (unsigned long long)st->got);
	return fail(r, ECF_SYS, err, j, "read from %s: %s", addr_str(sa, as, sizeof(as)),
		    strerror(err));
}

/*
 * Read streams addr[0..n) concurrently, each into a buffer of cap bytes,
 * handing what they have to drain after every round, until all end.
 */
static int run(const struct sockaddr_in *addr, int n, size_t cap, drain_fn drain, void *ctx,
	       struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r)
{
	struct stream st[ECP_MAX_K];
	struct pollfd pfd[ECP_MAX_K];
	int64_t last = now_ms();
	int ret = -1, idx[ECP_MAX_K];
	char as[32];

	memset(st, 0, sizeof(st));
	for (int j = 0; j < ECP_MAX_K; j++)
		st[j].fd = -1;
	for (int j = 0; j < n; j++) {
		st[j].buf = malloc(cap);
		if (!st[j].buf) {
			fail(r, ECF_SYS, ENOMEM, -1, "out of memory");
			goto out;
		}
		if (start_connect(&st[j], &addr[j])) {
			fail(r, ECF_CONNECT, errno, j, "connect to %s: %s",
			     addr_str(&addr[j], as, sizeof(as)), strerror(errno));
			goto out;
		}
	}
	for (;;) {
		int np = 0, all_eof = 1, rc;

		for (int j = 0; j < n; j++) {
			if (st[j].eof)
				continue;
			all_eof = 0;
			/* A full buffer waits for the slowest stream (TCP
			 * pushes back on its source). */
			if (st[j].connected && st[j].fill - st[j].off == cap)
				continue;
			pfd[np].fd = st[j].fd;
			pfd[np].events = st[j].connected ? POLLIN : POLLOUT;
			idx[np++] = j;
		}
		if (all_eof)
			break;
		if (!np) {
			fail(r, ECF_SYS, EDEADLK, -1, "internal: nothing to wait for");
			goto out;
		}
		rc = poll(pfd, (nfds_t)np, (int)(o->timeout_ms - (now_ms() - last)) > 0 ?
			  (int)(o->timeout_ms - (now_ms() - last)) : 0);
		if (rc < 0 && errno != EINTR) {
			fail(r, ECF_SYS, errno, -1, "poll: %s", strerror(errno));
			goto out;
		}
		if (rc == 0) {
			int j = idx[0];

			for (int i = 0; i < np; i++)
				if (!st[idx[i]].connected) {
					j = idx[i];
					break;
				}
			if (!st[j].connected)
				fail(r, ECF_CONNECT, ETIMEDOUT, j, "connect to %s: timed out",
				     addr_str(&addr[j], as, sizeof(as)));
			else
				fail(r, ECF_TIMEOUT, ETIMEDOUT, j,
				     "no data for %d ms (%s at %llu bytes)", o->timeout_ms,
				     addr_str(&addr[j], as, sizeof(as)),
				     (unsigned long long)st[j].got);
			goto out;
		}
		for (int i = 0; i < np && rc > 0; i++) {
			int j = idx[i];
			uint64_t before = st[j].got;
			int was = st[j].connected;

			if (service(&st[j], j, pfd[i].revents, &addr[j], cap, r))
				goto out;
			if (st[j].got != before || st[j].connected != was || st[j].eof)
				last = now_ms();
		}
		if (drain(st, addr, n, ctx, s, o, r))
			goto out;
	}
	if (o->expect_size >= 0 && s->bytes < (uint64_t)o->expect_size) {
		fail(r, ECF_SHORT, 0, -1, "%llu bytes, expected %lld",
		     (unsigned long long)s->bytes, (long long)o->expect_size);
		goto out;
	}
	ret = 0;
out:
	for (int j = 0; j < n; j++) {
		if (st[j].fd >= 0)
			close(st[j].fd);
		free(st[j].buf);
	}
	return ret;
}

static void result_init(struct ecf_result *r)
{
	memset(r, 0, sizeof(*r));
	r->source = -1;
}

int ecf_fetch(const struct sockaddr_in *addr, int n, const uint8_t *coef,
	      struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r)
{
	struct plain pl = { .coef = coef };
	int ret;

	result_init(r);
	if (n < 1 || n > ECP_MAX_K || (!coef && n != 1) || o->bufsize < 4096)
		return fail(r, ECF_SYS, EINVAL, -1, "bad arguments");
	if (coef) {
		pl.out = malloc(o->bufsize);
		if (!pl.out)
			return fail(r, ECF_SYS, ENOMEM, -1, "out of memory");
	}
	ret = run(addr, n, o->bufsize, drain_plain, &pl, s, o, r);
	free(pl.out);
	return ret;
}

int ecf_stripe_plan(struct ecf_stripe *p, const struct ecp_code *c, const int *frag,
		    uint64_t block, uint32_t cell, struct ecp_err *e)
{
	struct ecp_coef co;

	memset(p, 0, sizeof(*p));
	if (cell < 1)
		return ecp_err_set(e, "cell must be at least 1 byte"), -ECP_E_INVAL;
	p->block = block;
	p->cell = cell;
	p->k = c->k;
	memcpy(p->frag, frag, sizeof(int) * (size_t)c->k);
	for (int i = 0; i < c->k; i++) {
		p->src[i] = -1;
		for (int j = 0; j < c->k; j++)
			if (frag[j] == i)
				p->src[i] = j;
		if (p->src[i] >= 0)
			continue;
		/* Exactly k survivors are used as given: coef[j] is source j's. */
		if (ecp_code_coef(c, i, frag, c->k, &co, e))
			return -1;
		memcpy(p->coef[i], co.coef, (size_t)c->k);
	}
	return 0;
}

int ecf_fetch_striped(const struct sockaddr_in *addr, const struct ecf_stripe *p,
		      struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r)
{
	struct striped sd = { .p = p };
	int ret;

	result_init(r);
	if (p->k < 1 || p->k > ECP_MAX_K || p->cell < 1 || o->bufsize < 4096)
		return fail(r, ECF_SYS, EINVAL, -1, "bad arguments");
	sd.rows = ecp_layout_rows(p->block, p->cell, p->k);
	for (int j = 0; j < p->k; j++)
		sd.len[j] = ecp_layout_len(p->block, p->cell, p->k, p->frag[j]);
	/* Output goes to the sink in pieces of bufsize, or a cell if larger. */
	sd.outcap = o->bufsize > p->cell ? o->bufsize : p->cell;
	sd.out = malloc(sd.outcap);
	if (!sd.out)
		return fail(r, ECF_SYS, ENOMEM, -1, "out of memory");
	/* Each stream holds its cell of a row, and reads ahead by bufsize while
	 * the others catch up. */
	ret = run(addr, p->k, (size_t)p->cell + o->bufsize, drain_striped, &sd, s, o, r);
	free(sd.out);
	return ret;
}
