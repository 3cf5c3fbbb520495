// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace baseline for the kernel GF(2^8) benchmark: ISA-L's multiply-add
 * (gf_vect_mad, one source into one destination, the same operation as
 * ecp_gf_mul_acc) and ec_encode_data, on buffers of the size the kernel
 * benchmark uses. ISA-L dispatches to the best code for the CPU itself.
 *
 * usage: isal_bench [-l LEN] [-t MS] [-k K]
 * Prints CSV lines: test,len,MB/s where MB/s counts source bytes (10^6).
 */
#define _POSIX_C_SOURCE 200809L
#include <isa-l/erasure_code.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned char *alloc_buf(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, len)) {
		perror("posix_memalign");
		exit(1);
	}
	for (size_t i = 0; i < len; i++)
		((unsigned char *)p)[i] = (unsigned char)(i * 131 + 7);
	return p;
}

/* Keeps the compiler from proving the results unused. */
static volatile unsigned char sink;

static double bench_mad(int len, double secs)
{
	unsigned char coef = 0x8e, tbl[32];
	unsigned char *src = alloc_buf(len), *dst = alloc_buf(len);
	double start, el;
	uint64_t bytes = 0;

	ec_init_tables(1, 1, &coef, tbl);
	gf_vect_mad(len, 1, 0, tbl, src, dst);
	start = now_s();
	do {
		for (int i = 0; i < 64; i++)
			gf_vect_mad(len, 1, 0, tbl, src, dst);
		bytes += 64ULL * len;
		el = now_s() - start;
	} while (el < secs);
	sink = dst[0];
	free(src);
	free(dst);
	return bytes / el / 1e6;
}

static double bench_encode(int len, int k, double secs)
{
	unsigned char *a = malloc(k), *tbl = malloc(32 * k);
	unsigned char **data = calloc(k, sizeof(*data)), *out;
	double start, el;
	uint64_t bytes = 0;

	if (!a || !tbl || !data) {
		perror("malloc");
		exit(1);
	}
	for (int j = 0; j < k; j++) {
		a[j] = (unsigned char)(0x8e + j * 29) | 2;
		data[j] = alloc_buf(len);
	}
	out = alloc_buf(len);
	ec_init_tables(k, 1, a, tbl);
	ec_encode_data(len, k, 1, tbl, data, &out);
	start = now_s();
	do {
		for (int i = 0; i < 64; i++)
			ec_encode_data(len, k, 1, tbl, data, &out);
		bytes += 64ULL * len * k;
		el = now_s() - start;
	} while (el < secs);
	sink = out[0];
	for (int j = 0; j < k; j++)
		free(data[j]);
	free(data);
	free(out);
	free(a);
	free(tbl);
	return bytes / el / 1e6;
}

int main(int argc, char **argv)
{
	int len = 4096, ms = 200, k = 6, opt;

	while ((opt = getopt(argc, argv, "l:t:k:")) != -1) {
		switch (opt) {
		case 'l':
			len = atoi(optarg);
			break;
		case 't':
			ms = atoi(optarg);
			break;
		case 'k':
			k = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-l LEN] [-t MS] [-k K]\n",
				argv[0]);
			return 2;
		}
	}
	if (len <= 0 || ms <= 0 || k <= 0 || k > 255) {
		fprintf(stderr, "isal_bench: bad argument\n");
		return 2;
	}
	printf("gf_vect_mad,%d,%.0f\n", len, bench_mad(len, ms / 1e3));
	printf("ec_encode_data_k%d,%d,%.0f\n", k, len,
	       bench_encode(len, k, ms / 1e3));
	return 0;
}
