// SPDX-License-Identifier: GPL-2.0
/*
 * A target node for the selftests: an ordinary TCP server that stores
 * what it receives, as a storage node does with a rebuilt fragment.  It
 * serves one connection at a time, each into FILE from its start, and
 * appends how each ended to LOG:
 *
 *   fin BYTES      the sender closed with a FIN after BYTES bytes
 *   reset BYTES    the sender reset the connection after BYTES bytes
 *   killed BYTES   -x: this target died after BYTES bytes
 *
 *   ecp-tgt [-x BYTES] [-L LOG] [-4 ADDR] [-K] [-C] PORT FILE
 *
 * -x makes the target die mid-stream: once it has BYTES bytes it resets
 * the connection (SO_LINGER 0), closes its listening socket and exits, so
 * that the sender sees a reset and then nobody on the port.  FILE then
 * holds what it stored up to there.  -K sends keepalives after 1 s idle
 * (set_fast_keepalive()).  -C closes its half of each connection as soon
 * as it is accepted (shutdown(SHUT_WR)), and goes on reading: its FIN
 * comes first, so that it, not the sender, keeps the TIME-WAIT.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common.h"

static void log_end(const char *log, const char *how, size_t bytes)
{
	char line[64];
	int fd, n;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	n = snprintf(line, sizeof(line), "%s %zu\n", how, bytes);
	if (fd < 0 || write_all(fd, line, n))
		perror(log);
	if (fd >= 0)
		close(fd);
}

/* Store one connection; returns 1 if -x killed it. */
static int store(int s, const char *file, const char *log, size_t kill_at)
{
	static char buf[1 << 16];
	size_t got = 0;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		perror(file);
		exit(1);
	}
	for (;;) {
		size_t want = sizeof(buf);
		ssize_t n;

		if (kill_at && kill_at - got < want)
			want = kill_at - got;
		n = read(s, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			log_end(log, errno == ECONNRESET ? "reset" : "error", got);
			break;
		}
		if (!n) {
			log_end(log, "fin", got);
			break;
		}
		if (write_all(fd, buf, n)) {
			perror(file);
			exit(1);
		}
		got += n;
		if (kill_at && got >= kill_at) {
			struct linger lg = { .l_onoff = 1, .l_linger = 0 };

			setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
			close(fd);
			close(s);
			log_end(log, "killed", got);
			return 1;
		}
	}
	close(fd);
	close(s);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ecp-tgt [-x BYTES] [-L LOG] [-4 ADDR] [-K] [-C] PORT FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	const char *log = NULL;
	size_t kill_at = 0;
	int ls, opt, one = 1, keepalive = 0, close_first = 0;

	while ((opt = getopt(argc, argv, "x:L:4:KC")) != -1) {
		switch (opt) {
		case 'x':
			if (parse_size(optarg, &kill_at) || !kill_at)
				usage();
			break;
		case 'L':
			log = optarg;
			break;
		case 'K':
			keepalive = 1;
			break;
		case 'C':
			close_first = 1;
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
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 ||
	    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(ls, (struct sockaddr *)&sin, sizeof(sin)) || listen(ls, 8) ||
	    (keepalive && set_fast_keepalive(ls))) {
		perror("ecp-tgt: listen");
		return 1;
	}
	for (;;) {
		int s = accept(ls, NULL, NULL);

		if (s < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("ecp-tgt: accept");
			return 1;
		}
		if (close_first && shutdown(s, SHUT_WR)) {
			perror("ecp-tgt: shutdown");
			return 1;
		}
		if (store(s, argv[optind + 1], log, kill_at)) {
			close(ls);
			return 0;
		}
	}
}
