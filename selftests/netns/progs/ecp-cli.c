// SPDX-License-Identifier: GPL-2.0
/*
 * A client for the selftests, playing A with nothing but the socket API:
 * connect to ADDR:PORT, send a request if given, read everything until the
 * server closes, and report how much arrived and how long it took.
 *
 *   ecp-cli [-W GATE] [-P GATE] [-b BYTES] [-R RATE] [-q REQFILE] [-S]
 *           [-o OUT] ADDR PORT
 *
 * -W waits, once connected, until the file GATE exists (a barrier: with
 * sources that answer a request, many connections can be held open and
 * then released together).  -q sends the contents of REQFILE; -S then
 * shuts down the sending side (A's FIN goes out before the reply).  -P
 * stops reading once the first bytes are in, until the file GATE exists:
 * a client that stops reading, whose window closes.  -b sets the receive
 * buffer (SO_RCVBUF) before connecting, so that it closes sooner.  -R
 * reads at most RATE bytes a second, 2 KiB at a time: a slow reader, whose
 * window narrows and widens with every read.  What
 * arrives goes to OUT or to stdout.  At the server's FIN, stderr gets what
 * the connection negotiated, from TCP_INFO (tcp_info_line()): "tcp sack
 * 0|1 ts 0|1 wscale SND,RCV ecn 0|1 retrans N"; the last line on stderr is "bytes N seconds S", S
 * measured from before connect() to the server's FIN.  Exits 1 if the
 * connection fails (saying after how long) or is reset.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static int send_file(int s, const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		perror(path);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write_all(s, buf, n)) {
			perror("ecp-cli: request");
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/* What the connection negotiated (see above). */
static void print_tcp_info(int s)
{
	char line[128];

	if (tcp_info_line(s, line, sizeof(line)))
		perror("ecp-cli: TCP_INFO");
	else
		fprintf(stderr, "%s\n", line);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ecp-cli [-W GATE] [-P GATE] [-b BYTES] [-R RATE] [-q REQFILE] [-S] [-o OUT] ADDR PORT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	static char buf[1 << 16];
	const char *req = NULL, *out = NULL, *gate = NULL, *pause = NULL;
	unsigned long long total = 0;
	int s, fd = STDOUT_FILENO, opt, shut = 0, rcvbuf = 0;
	size_t chunk = sizeof(buf);
	double t0, rate = 0;

	while ((opt = getopt(argc, argv, "W:P:b:R:q:So:")) != -1) {
		switch (opt) {
		case 'W':
			gate = optarg;
			break;
		case 'P':
			pause = optarg;
			break;
		case 'b':
			rcvbuf = atoi(optarg);
			break;
		case 'R':
			rate = atof(optarg);
			if (rate <= 0)
				usage();
			chunk = 2048;
			break;
		case 'q':
			req = optarg;
			break;
		case 'S':
			shut = 1;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 ||
	    inet_pton(AF_INET, argv[optind], &sin.sin_addr) != 1 ||
	    parse_port(argv[optind + 1], &sin.sin_port))
		usage();
	if (out) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			perror(out);
			return 1;
		}
	}
	t0 = now();
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s >= 0 && rcvbuf &&
	    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf))) {
		perror("ecp-cli: SO_RCVBUF");
		return 1;
	}
	if (s < 0 || connect(s, (struct sockaddr *)&sin, sizeof(sin))) {
		int err = errno;

		/* How long a refusal took, without process start-up. */
		fprintf(stderr, "ecp-cli: connect: %s after %.6f seconds\n",
			strerror(err), now() - t0);
		return 1;
	}
	while (gate && access(gate, F_OK))
		usleep(10000);
	if (req && send_file(s, req))
		return 1;
	if (shut && shutdown(s, SHUT_WR)) {
		perror("ecp-cli: shutdown");
		return 1;
	}
	for (;;) {
		ssize_t n = read(s, buf, chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("ecp-cli: receive");
			fprintf(stderr, "bytes %llu (incomplete)\n", total);
			return 1;
		}
		if (!n)
			break;
		if (write_all(fd, buf, n)) {
			perror("ecp-cli: output");
			return 1;
		}
		total += n;
		/*
		 * Held to RATE on average since it connected.  The lead is
		 * read once: tested on one clock reading and computed on a
		 * later one, a lead of a microsecond turned negative, and
		 * usleep() took it as 71 minutes.
		 */
		if (rate) {
			double lead = total / rate - (now() - t0);

			if (lead > 0)
				usleep(lead * 1e6);
		}
		while (pause && access(pause, F_OK))
			usleep(10000);
		pause = NULL;
	}
	print_tcp_info(s);
	fprintf(stderr, "bytes %llu seconds %.6f\n", total, now() - t0);
	close(s);
	return close(fd) ? 1 : 0;
}
