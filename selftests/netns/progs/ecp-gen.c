// SPDX-License-Identifier: GPL-2.0
/*
 * A stream of pseudo-random bytes for transfers too large to keep in a
 * file (the selftests' VM holds its files in memory):
 *
 *   ecp-gen SEED LEN
 *
 * writes LEN bytes to stdout, the same for the same SEED, at memory speed
 * (xorshift64*, not for anything but tests).  A source serves it through
 * socat, and the expected output's digest comes from running it again.
 */
#include <stdint.h>
#include <string.h>

#include "common.h"

static uint64_t next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

int main(int argc, char **argv)
{
	static uint64_t buf[1 << 13];
	size_t seed, len, i;
	uint64_t x;

	if (argc != 3 || parse_size(argv[1], &seed) || parse_size(argv[2], &len)) {
		fprintf(stderr, "usage: ecp-gen SEED LEN\n");
		return 2;
	}
	x = 0x9e3779b97f4a7c15ULL ^ seed;
	if (!x)
		x = 1;
	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		for (i = 0; i < sizeof(buf) / sizeof(buf[0]); i++)
			buf[i] = next(&x);
		if (write_all(1, buf, n))
			return 1;
		len -= n;
	}
	return 0;
}
