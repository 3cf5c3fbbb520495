// SPDX-License-Identifier: GPL-2.0
/*
 * A fragment server for the selftests, playing a survivor B with nothing
 * but the socket API: listen on PORT, and for each connection (in a child
 * process) read a request of exactly REQLEN bytes if asked to, stream FILE
 * and close.
 *
 *   ecp-srv [-r REQLEN] [-R REQFILE] [-L LOG] [-4 ADDR] [-K] [-T] [-P N]
 *           [-W] PORT FILE
 *
 * -L appends "served BYTES" (or "failed BYTES") to LOG for every
 * connection, so that a test can count how often a survivor was read;
 * with -T, followed by what the connection negotiated and how often it
 * retransmitted (tcp_info_line()), once everything it sent was acked.
 * -R writes the request received to REQFILE, so that a test can check that
 * every source got A's request.  -K sends keepalives after 1 s idle
 * (set_fast_keepalive()).  -P sends the file's first N * 1000 bytes in
 * writes of 1000, each followed by 300 ms of silence, longer than Linux's
 * least RTO, then the rest: a sender that comes back from a silence with
 * one small segment.  -W, after the file, shuts down only the sending side
 * and reads until the peer ends the connection, then logs "end eof", "end
 * reset" or "end timeout" (60 s): whether S reset a source it no longer
 * needs while its socket was open.  A connection whose request is short (EOF
 * or reset first) gets nothing and is closed, which the test sees as a
 * failed reconstruction.  Runs until killed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/sockios.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "common.h"

static int read_request(int s, size_t len, const char *path)
{
	char *req = malloc(len ? len : 1);
	size_t got = 0;
	int ret = -1;

	if (!req)
		return -1;
	while (got < len) {
		ssize_t n = read(s, req + got, len - got);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			fprintf(stderr, "ecp-srv: request: %zu of %zu bytes\n",
				got, len);
			goto out;
		}
		got += n;
	}
	if (path) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || write_all(fd, req, len) || close(fd)) {
			perror(path);
			goto out;
		}
	}
	ret = 0;
out:
	free(req);
	return ret;
}

/*
 * The connection's TCP_INFO once the peer acked everything (SIOCOUTQ at
 * 0, or 60 s), so that its retransmissions are all counted.
 */
static void sent_info(int s, char *info, size_t size)
{
	int i, queued = 0;

	for (i = 0; i < 6000; i++) {
		if (ioctl(s, SIOCOUTQ, &queued) || !queued)
			break;
		usleep(10000);
	}
	if (tcp_info_line(s, info, size))
		snprintf(info, size, "tcp info: %s", strerror(errno));
}

/*
 * -W: what ended the connection after the file was sent, once the peer
 * closed (eof), reset it, or said nothing for END_WAIT_S.
 */
#define END_WAIT_S	60

static const char *wait_end(int s)
{
	struct timeval tv = { .tv_sec = END_WAIT_S };
	char buf[512];

	/* Reset already (ENOTCONN): the read says so. */
	if ((shutdown(s, SHUT_WR) && errno != ENOTCONN) ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return strerror(errno);
	for (;;) {
		ssize_t n = read(s, buf, sizeof(buf));

		if (n > 0 || (n < 0 && errno == EINTR))
			continue;
		if (!n)
			return "eof";
		if (errno == ECONNRESET)
			return "reset";
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return "timeout";
		return strerror(errno);
	}
}

/* -P: the size of each of the first writes, and the silence after it. */
#define PAUSE_WRITE	1000
#define PAUSE_US	300000

static int serve(int s, const char *file, size_t reqlen, const char *reqfile,
		 size_t pauses, size_t *sent, char *info, size_t infolen,
		 const char **end)
{
	static char buf[1 << 16];
	int fd;

	if (reqlen && read_request(s, reqlen, reqfile))
		return 1;
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, pauses ? PAUSE_WRITE : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror(file);
			return 1;
		}
		if (!n)
			break;
		if (write_all(s, buf, n)) {
			perror("ecp-srv: send");
			return 1;
		}
		*sent += n;
		if (pauses) {
			usleep(PAUSE_US);
			pauses--;
		}
	}
	close(fd);
	if (info)
		sent_info(s, info, infolen);
	if (end)
		*end = wait_end(s);
	return close(s) ? 1 : 0;
}

/* One line per connection; O_APPEND keeps the children's lines whole. */
static void log_conn(const char *log, int ret, size_t sent, const char *info,
		     const char *end)
{
	char line[256];
	int fd, n;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	n = snprintf(line, sizeof(line), "%s %zu%s%s%s%s\n",
		     ret ? "failed" : "served", sent, *info ? " " : "", info,
		     end ? " end " : "", end ? end : "");
	if (fd < 0 || write_all(fd, line, n))
		perror(log);
	if (fd >= 0)
		close(fd);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ecp-srv [-r REQLEN] [-R REQFILE] [-L LOG] [-4 ADDR] [-K] [-T] [-P N] [-W] PORT FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	const char *reqfile = NULL, *log = NULL;
	size_t reqlen = 0, pauses = 0;
	int ls, opt, one = 1, keepalive = 0, info = 0, end = 0;

	while ((opt = getopt(argc, argv, "r:R:L:4:KTP:W")) != -1) {
		switch (opt) {
		case 'r':
			if (parse_size(optarg, &reqlen))
				usage();
			break;
		case 'R':
			reqfile = optarg;
			break;
		case 'L':
			log = optarg;
			break;
		case 'K':
			keepalive = 1;
			break;
		case 'T':
			info = 1;
			break;
		case 'W':
			end = 1;
			break;
		case 'P':
			if (parse_size(optarg, &pauses))
				usage();
			break;
		case '4':
			if (inet_pton(AF_INET, optarg, &sin.sin_addr) != 1)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || parse_port(argv[optind], &sin.sin_port))
		usage();
	/* Children are not waited for. */
	signal(SIGCHLD, SIG_IGN);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 ||
	    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(ls, (struct sockaddr *)&sin, sizeof(sin)) || listen(ls, 64) ||
	    (keepalive && set_fast_keepalive(ls))) {
		perror("ecp-srv: listen");
		return 1;
	}
	for (;;) {
		int s = accept(ls, NULL, NULL);

		if (s < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("ecp-srv: accept");
			return 1;
		}
		switch (fork()) {
		case -1:
			perror("ecp-srv: fork");
			close(s);
			break;
		case 0: {
			const char *how = NULL;
			char line[128] = "";
			size_t sent = 0;
			int ret;

			close(ls);
			ret = serve(s, argv[optind + 1], reqlen, reqfile, pauses,
				    &sent, info ? line : NULL, sizeof(line),
				    end ? &how : NULL);
			log_conn(log, ret, sent, line, how);
			_exit(ret);
		}
		default:
			close(s);
		}
	}
}
