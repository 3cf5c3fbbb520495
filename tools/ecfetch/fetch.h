/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client side of a reconstruction (the node A): read one stream (a
 * replica, or the rebuilt fragment from the proxy's VIP:port), or read k
 * fragment streams at once and decode them on the host ("native EC").
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
	ECF_SHORT,	/* fewer bytes than expected */
	ECF_LONG,	/* more bytes than expected */
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

/* Parse "A.B.C.D:PORT" or, with frag != NULL, "A.B.C.D:PORT:INDEX". */
int ecf_parse_addr(const char *s, struct sockaddr_in *sa, int *frag);

#endif
