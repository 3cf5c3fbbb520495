// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) kernels of the module on this machine's CPU, against ISA-L, in
 * userspace: the module's own code (kmod/gf*.c, built unmodified for the
 * host by selftests/unit) called as its dispatcher calls it, one core.
 *
 *   gf_bench [-o TEST] [-t MS] [-r RUNS] [-s SIZE,...]   CSV on stdout
 *   gf_bench -i                                  key=value facts
 *
 * CSV columns: test,method,impl,size,align,k,gbps
 *   mul_acc  one source into dst (dst ^= c * src): each implementation
 *            (method "kernel") and ISA-L's gf_vect_mad (method "isal");
 *            GB/s of source bytes.  Method "xor" is the module's dst ^=
 *            src (widest implementation): the same memory traffic
 *            without the multiply, the ceiling of any mul_acc
 *   decode   one lost fragment from k survivors, output GB/s: the module
 *            with k separate passes (method "kpass", what the data path
 *            does per arriving segment), with the multi-source kernel
 *            (method "multi"), and ISA-L's ec_encode_data with one output
 *            row (method "isal")
 * Each figure is the best batch of calls (about 0.2 ms) in RUNS runs of
 * MS milliseconds (see job_time()).  Buffers are
 * 64-byte aligned ("aligned", as the decode buffer and page fragments
 * are) or at odd offsets ("unaligned"), and never a whole number of pages
 * apart, which would add false store-to-load dependencies (4K aliasing)
 * that the data path's buffers, with no fixed relation, do not have.
 * GB is 10^9 bytes.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <isa-l/erasure_code.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <asm/processor.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "gf_impl.h"

#define MAX_K		16
#define SKEW		(17 * 64)

static int runs = 5;
static double secs = 0.02;

struct layout {
	u8 *arena;
	u8 *dst;
	u8 *src[MAX_K];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* dst, then k sources, each SKEW bytes past a whole number of pages. */
static void layout_init(struct layout *l, size_t len, int k, bool aligned)
{
	size_t slot = ((len + 4095) & ~(size_t)4095) + SKEW + 64, i;

	if (posix_memalign((void **)&l->arena, 4096, slot * (k + 1))) {
		perror("posix_memalign");
		exit(1);
	}
	for (i = 0; i < slot * (k + 1); i++)
		l->arena[i] = i * 131 + (i >> 12) * 7 + 1;
	l->dst = l->arena + (aligned ? 0 : 3);
	for (i = 0; i < (size_t)k; i++)
		l->src[i] = l->arena + slot * (i + 1) + (aligned ? 0 : 5 + 2 * i);
}

enum method { KERNEL, XOR, KPASS, MULTI, ISAL };

struct job {
	enum method m;
	const struct ecp_gf_impl *impl;
	struct layout *l;
	size_t len;
	int k;
	struct ecp_gf_coef coef[MAX_K];
	const struct ecp_gf_coef *kp[MAX_K];
	u8 c[MAX_K], tbls[32 * MAX_K];
};

static void job_run(struct job *j)
{
	int i;

	switch (j->m) {
	case KERNEL:
		ecp_gf_impl_run(j->impl, ECP_GF_MUL_ACC, &j->coef[0], j->l->dst,
				j->l->src[0], j->len);
		break;
	case XOR:
		ecp_gf_impl_run(j->impl, ECP_GF_XOR, NULL, j->l->dst,
				j->l->src[0], j->len);
		break;
	case KPASS:
		for (i = 0; i < j->k; i++)
			ecp_gf_impl_run(j->impl, ECP_GF_MUL_ACC, &j->coef[i],
					j->l->dst, j->l->src[i], j->len);
		break;
	case MULTI:
		ecp_gf_impl_run_multi(j->impl, j->kp, j->l->dst,
				      (const u8 *const *)j->l->src, j->k, j->len);
		break;
	case ISAL:
		if (j->k == 1 && j->impl == NULL)
			gf_vect_mad(j->len, 1, 0, j->tbls, j->l->src[0], j->l->dst);
		else
			ec_encode_data(j->len, j->k, 1, j->tbls, j->l->src, &j->l->dst);
		break;
	}
}

/*
 * GB/s of len bytes per call: the best batch of about BATCH seconds over
 * RUNS runs of SECS.  On a machine shared with other work most runs are
 * interrupted somewhere; the best batch is the speed of one core left
 * alone, which is what the figures compare.
 */
#define BATCH	200e-6

static double job_time(struct job *j)
{
	unsigned long calls = 1, i;
	double best = 0, t0, el;
	int r;

	/* Warm up, and size a batch. */
	t0 = now();
	job_run(j);
	el = now() - t0;
	if (el < BATCH)
		calls = BATCH / (el > 1e-9 ? el : 1e-9);
	for (r = 0; r < runs; r++) {
		double start = now();

		do {
			t0 = now();
			for (i = 0; i < calls; i++)
				job_run(j);
			el = now() - t0;
			if (calls * j->len / el / 1e9 > best)
				best = calls * j->len / el / 1e9;
		} while (t0 + el - start < secs);
	}
	return best;
}

static void job_init(struct job *j, enum method m,
		     const struct ecp_gf_impl *impl, struct layout *l,
		     size_t len, int k)
{
	int i;

	memset(j, 0, sizeof(*j));
	j->m = m;
	j->impl = impl;
	j->l = l;
	j->len = len;
	j->k = k;
	for (i = 0; i < k; i++) {
		/* Decode coefficients are arbitrary field elements. */
		j->c[i] = 0x8e + 29 * i;
		if (j->c[i] < 2)
			j->c[i] += 2;
		ecp_gf_coef_init(&j->coef[i], j->c[i]);
		j->kp[i] = &j->coef[i];
	}
	ec_init_tables(k, 1, j->c, j->tbls);
}

static void emit(const char *test, const char *method, const char *impl,
		 size_t len, bool aligned, int k, double gbps)
{
	printf("%s,%s,%s,%zu,%s,%d,%.2f\n", test, method, impl, len,
	       aligned ? "aligned" : "unaligned", k, gbps);
	fflush(stdout);
}

static const char *only;

/*
 * The first tens of milliseconds of vector work run faster than the rest
 * on this project's machine (clock boost); without this the first figure
 * measured would be flattered.
 */
static void warm_up(void)
{
	struct layout l;
	struct job j;
	double t0 = now();

	layout_init(&l, 65536, 1, true);
	job_init(&j, KERNEL, &ecp_gf_scalar, &l, 65536, 1);
	while (now() - t0 < 0.2)
		job_run(&j);
	free(l.arena);
}

static void bench_size(size_t len, bool aligned)
{
	static const int codes[] = { 6, 10, 12 };	/* RS(6,3), (10,4), (12,4) */
	const struct ecp_gf_impl *xor;
	struct layout l;
	struct job j;
	size_t c;
	int i;

	layout_init(&l, len, MAX_K, aligned);
	for (i = 0; (!only || !strcmp(only, "mul_acc")) && ecp_gf_impls[i]; i++) {
		if (!ecp_gf_impl_usable(ecp_gf_impls[i]))
			continue;
		job_init(&j, KERNEL, ecp_gf_impls[i], &l, len, 1);
		emit("mul_acc", "kernel", ecp_gf_impls[i]->name, len, aligned, 1,
		     job_time(&j));
	}
	if (!only || !strcmp(only, "mul_acc")) {
		job_init(&j, ISAL, NULL, &l, len, 1);
		emit("mul_acc", "isal", "gf_vect_mad", len, aligned, 1,
		     job_time(&j));
		/* The same memory traffic with no multiply: the ceiling. */
		xor = ecp_gf_impl_usable(&ecp_gf_avx512) ? &ecp_gf_avx512 :
		      ecp_gf_impl_usable(&ecp_gf_avx2) ? &ecp_gf_avx2 :
		      &ecp_gf_scalar;
		job_init(&j, XOR, xor, &l, len, 1);
		emit("mul_acc", "xor", xor->name, len, aligned, 1, job_time(&j));
	}
	for (c = 0; (!only || !strcmp(only, "decode")) && c < ARRAY_SIZE(codes); c++) {
		int k = codes[c];

		for (i = 0; ecp_gf_impls[i]; i++) {
			const struct ecp_gf_impl *impl = ecp_gf_impls[i];

			if (!ecp_gf_impl_usable(impl) || !impl->simd)
				continue;
			job_init(&j, KPASS, impl, &l, len, k);
			emit("decode", "kpass", impl->name, len, aligned, k,
			     job_time(&j));
			job_init(&j, MULTI, impl, &l, len, k);
			emit("decode", "multi", impl->name, len, aligned, k,
			     job_time(&j));
		}
		job_init(&j, ISAL, (void *)1, &l, len, k);
		emit("decode", "isal", "ec_encode_data", len, aligned, k,
		     job_time(&j));
	}
	free(l.arena);
}

int main(int argc, char **argv)
{
	size_t sizes[8] = { 4096, 65536, 1 << 20 };
	int nsizes = 3, opt, s, a, ret;
	bool info = false;
	char *p;

	while ((opt = getopt(argc, argv, "io:t:r:s:")) != -1) {
		switch (opt) {
		case 'o':
			only = optarg;
			break;
		case 'i':
			info = true;
			break;
		case 't':
			secs = atoi(optarg) / 1e3;
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		case 's':
			for (nsizes = 0, p = strtok(optarg, ","); p && nsizes < 8;
			     p = strtok(NULL, ","))
				sizes[nsizes++] = strtoul(p, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-i] [-o mul_acc|decode] [-t MS] [-r RUNS] [-s SIZE,...]\n",
				argv[0]);
			return 2;
		}
	}
	if (secs <= 0 || runs <= 0 || !nsizes) {
		fprintf(stderr, "gf_bench: bad argument\n");
		return 2;
	}
	/* As at module load: field tables and the load-time choice. */
	ret = ecp_gf_init();
	if (ret) {
		fprintf(stderr, "gf_bench: ecp_gf_init: %d\n", ret);
		return 1;
	}
	if (info) {
		unsigned int pos;
		const char *name;

		printf("cpu=%s (family %d, model %d)\n",
		       strim(boot_cpu_data.x86_model_id), boot_cpu_data.x86,
		       boot_cpu_data.x86_model);
		printf("selected=%s\n", ecp_gf_impl_name());
		printf("usable=");
		ecp_gf_for_each_impl(name, pos)
			printf("%s%s", pos > 1 ? " " : "", name);
		printf("\n");
		return 0;
	}
	warm_up();
	printf("test,method,impl,size,align,k,gbps\n");
	for (s = 0; s < nsizes; s++)
		for (a = 1; a >= 0; a--)
			bench_size(sizes[s], a);
	ecp_gf_exit();
	return 0;
}
