/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client side of a reconstruction (the node A): read one stream (a
 * replica, or the rebuilt fragment from the proxy's VIP:port), or read k
 * fragment streams at once and decode them on the host ("native EC"):
 * one lost fragment, or a whole striped block (layout.h) in logical order
 * with some of its data fragments lost (a degraded read).
 *
 * Every byte delivered goes through a sink that hashes it (SHA-256) and
 * optionally writes it to a file descriptor.  Failures are classified so
 * that the caller can decide to fall back and say why.
 */
#ifndef ECF_FETCH_H
#define ECF_FETCH_H

#include <netinet/in.h>
#include <stdint.h>
#include <stddef.h>

#include "codec.h"

/* Why a fetch failed. */
enum ecf_fail {
	ECF_OK,
	ECF_CONNECT,	/* connect refused, unreachable or timed out */
	ECF_RESET,	/* connection reset after connecting */
	ECF_TIMEOUT,	/* no byte for the idle timeout */
	ECF_SHORT,	/* fewer bytes than expected (striped: from a source) */
	ECF_LONG,	/* more bytes than expected (striped: from a source) */
	ECF_UNEVEN,	/* fragment streams of different lengths (native) */
	ECF_MISMATCH,	/* SHA-256 differs from the expected one */
	ECF_OUTPUT,	/* cannot write (or rewind) the output */
	ECF_SYS,	/* other system error */
};

const char *ecf_fail_name(enum ecf_fail f);

struct ecf_sink {
	int fd;			/* -1: discard after hashing */
	int deferred;		/* hash the file at the end, not on the way */
	uint64_t bytes;
	void *md;		/* EVP_MD_CTX * */
};

/*
 * With a regular file, the hash is computed by reading the file back in
 * ecf_sink_final(), so that a measured fetch does not pay for it.
 */
int ecf_sink_init(struct ecf_sink *s, int fd);
/* Start over (for a fallback): rewind and truncate the output, new hash. */
int ecf_sink_reset(struct ecf_sink *s);
/* Finish the hash into hex (65 bytes); returns -1 if the file cannot be read. */
int ecf_sink_final(struct ecf_sink *s, char hex[65]);
void ecf_sink_free(struct ecf_sink *s);

struct ecf_opts {
	int timeout_ms;		/* connect and idle timeout */
	int64_t expect_size;	/* -1: unknown */
	size_t bufsize;		/* per-stream receive buffer */
};

struct ecf_result {
	enum ecf_fail fail;
	int err;		/* errno for ECF_CONNECT/RESET/SYS/OUTPUT */
	int source;		/* which stream failed, -1 if none */
	char msg[256];		/* one line */
};

/*
 * Read streams addr[0..n) concurrently into s.  With coef == NULL, n must
 * be 1 and the stream is delivered as it is.  Otherwise the output is
 * sum_j coef[j] * stream_j over GF(2^8), produced as soon as every stream
 * has delivered the bytes at an offset; the streams must end at the same
 * length.  Returns 0 (r->fail == ECF_OK) or -1 with r filled.
 */
int ecf_fetch(const struct sockaddr_in *addr, int n, const uint8_t *coef,
	      struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r);

/*
 * A degraded read of a striped block from k sources: source j serves
 * fragment frag[j] (data or parity), exactly its layout length.  Data
 * fragment i is source src[i]'s, or, when src[i] is -1, decoded as
 * sum_j coef[i][j] * source j.
 */
struct ecf_stripe {
	uint64_t block;
	uint32_t cell;
	int k;
	int frag[ECP_MAX_K];
	int src[ECP_MAX_K];
	uint8_t coef[ECP_MAX_K][ECP_MAX_K];
};

/*
 * Plan the read of a block of code c from the k fragments frag[0..k)
 * (distinct, in range): returns 0, or < 0 with e filled (singular set...).
 */
int ecf_stripe_plan(struct ecf_stripe *p, const struct ecp_code *c, const int *frag,
		    uint64_t block, uint32_t cell, struct ecp_err *e);

/*
 * Read the block of p from addr[0..p->k) into s, in logical order, a row
 * of cells at a time as the streams deliver it: each stream's buffer holds
 * a cell and o->bufsize bytes more.  A source that ends before its layout
 * length fails with ECF_SHORT, one that sends more with ECF_LONG, r->source
 * naming it.  Returns 0 or -1 with r filled.
 */
int ecf_fetch_striped(const struct sockaddr_in *addr, const struct ecf_stripe *p,
		      struct ecf_sink *s, const struct ecf_opts *o, struct ecf_result *r);

/* Parse "A.B.C.D:PORT" or, with frag != NULL, "A.B.C.D:PORT:INDEX". */
int ecf_parse_addr(const char *s, struct sockaddr_in *sa, int *frag);

#endif
