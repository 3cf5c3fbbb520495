/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the selftest programs. */
#ifndef ECP_PROGS_COMMON_H
#define ECP_PROGS_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

static inline int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		c += n;
		len -= n;
	}
	return 0;
}

/* A decimal size; no sign, no suffix, no trailing junk. */
static inline int parse_size(const char *s, size_t *v)
{
	char *end;
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end || n > (size_t)-1)
		return -1;
	*v = n;
	return 0;
}

/* A port 1..65535, in network byte order. */
static inline int parse_port(const char *s, in_port_t *port)
{
	size_t n;

	if (parse_size(s, &n) || !n || n > 65535)
		return -1;
	*port = htons(n);
	return 0;
}

/*
 * -K: keepalives after 1 s idle, every second, and the connection given
 * up after two unanswered, so that a test sees within seconds whether the
 * other end answers them.  Set on the listening socket, which accepted
 * ones inherit.
 */
static inline int set_fast_keepalive(int fd)
{
	int on = 1, idle = 1, intvl = 1, cnt = 2;

	return setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on)) ||
	       setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)) ||
	       setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
			  sizeof(intvl)) ||
	       setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

/*
 * What socket @s negotiated and how often it retransmitted, from
 * TCP_INFO (what ss -ti reads; Debian 12's ss does not print the SACK
 * and timestamp flags): "tcp sack 0|1 ts 0|1 wscale SND,RCV ecn 0|1
 * retrans N" into @buf.  Returns 0 or -1 with errno set.
 */
static inline int tcp_info_line(int s, char *buf, size_t size)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return -1;
	snprintf(buf, size, "tcp sack %d ts %d wscale %d,%d ecn %d retrans %u",
		 !!(ti.tcpi_options & TCPI_OPT_SACK),
		 !!(ti.tcpi_options & TCPI_OPT_TIMESTAMPS),
		 ti.tcpi_snd_wscale, ti.tcpi_rcv_wscale,
		 !!(ti.tcpi_options & TCPI_OPT_ECN),
		 ti.tcpi_total_retrans);
	return 0;
}

#endif
