// SPDX-License-Identifier: GPL-2.0
/*
 * Host-only suite: every GF(2^8) implementation this CPU runs, called the
 * way the dispatcher calls it (ecp_gf_impl_run*), against an independent
 * log/antilog reference and against ISA-L: every coefficient, lengths
 * 0..300 and 1 MiB, unaligned, in place, the multi-source form, and
 * buffers flush against unmapped memory.  An
 * implementation the CPU lacks is skipped with the feature it lacks.
 */
#include <isa-l/erasure_code.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <kunit/test.h>
#include <linux/mm.h>

#include "gf_impl.h"

#define GUARD		64
#define SHORT_MAX	300
#define MIB		(1 << 20)
#define MULTI_MAX	16

static u8 ref_exp[512], ref_log[256];

/* Log/antilog tables of generator 2 modulo 0x11d, built here. */
static void ref_init(void)
{
	unsigned int i, x = 1;

	for (i = 0; i < 255; i++) {
		ref_exp[i] = ref_exp[i + 255] = x;
		ref_log[x] = i;
		x = (x << 1) ^ (x & 0x80 ? 0x11d : 0);
	}
}

static u8 ref_mul(u8 a, u8 b)
{
	return a && b ? ref_exp[ref_log[a] + ref_log[b]] : 0;
}

static u32 lcg(u32 *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void fill(u8 *p, size_t n, u32 *s)
{
	while (n--)
		*p++ = lcg(s);
}

static long diff_at(const u8 *a, const u8 *b, size_t n)
{
	size_t i;

	if (!memcmp(a, b, n))
		return -1;
	for (i = 0; a[i] == b[i]; i++)
		;
	return i;
}

static const void *impl_gen(const void *prev, char *desc)
{
	const struct ecp_gf_impl *const *p = prev;

	p = p ? (p[1] ? p + 1 : NULL) : ecp_gf_impls;
	if (p)
		strscpy(desc, (*p)->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

static const struct ecp_gf_impl *impl_or_skip(struct kunit *test)
{
	const struct ecp_gf_impl *impl =
		*(const struct ecp_gf_impl *const *)test->param_value;

	ecp_shim_cpu_reset_missing();
	if (!ecp_gf_impl_usable(impl))
		kunit_skip(test, "%s: CPU lacks %s", impl->name,
			   ecp_shim_cpu_missing() ?: "a feature");
	return impl;
}

static u8 *alloc_rand(struct kunit *test, size_t n, u32 *seed)
{
	u8 *p = kunit_kmalloc(test, n, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, n, seed);
	return p;
}

static void gf_isal_field_test(struct kunit *test)
{
	unsigned int a, b;

	ref_init();
	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			u8 r = ref_mul(a, b);

			if (gf_mul(a, b) != r || ecp_gf_mul1(a, b) != r) {
				KUNIT_FAIL(test, "%#x * %#x: log/antilog %#x, ISA-L %#x, ecp %#x",
					   a, b, r, gf_mul(a, b), ecp_gf_mul1(a, b));
				return;
			}
		}
		if (a)
			KUNIT_EXPECT_EQ(test, ecp_gf_inv(a), gf_inv(a));
	}
}

/*
 * One operation at dst + doff from src + soff, or in place (src is the
 * destination), with GUARD bytes either side of dst checked untouched.
 * The expected bytes come from the log/antilog tables; for mul_acc at
 * lengths ISA-L's gf_vect_mad takes (>= 64), ISA-L must agree too.
 */
struct short_ctx {
	u8 *src, *init, *dst, *want, *isal;
	u8 tbl[32];
	struct ecp_gf_coef k;
};

static bool short_check(struct kunit *test, struct short_ctx *x,
			const struct ecp_gf_impl *impl, enum ecp_gf_op op,
			size_t len, size_t soff, size_t doff, bool in_place)
{
	size_t win = GUARD + doff + len + GUARD, i;
	u8 *d = x->dst + GUARD + doff, *w = x->want + GUARD + doff;
	const u8 *s = in_place ? x->init + GUARD + doff : x->src + soff;
	u8 c = x->k.c;
	long bad;

	memcpy(x->dst, x->init, win);
	memcpy(x->want, x->init, win);
	for (i = 0; i < len; i++)
		w[i] = op == ECP_GF_MUL ? ref_mul(c, s[i]) :
		       op == ECP_GF_XOR ? w[i] ^ s[i] : w[i] ^ ref_mul(c, s[i]);
	if (op == ECP_GF_MUL_ACC && len >= 64 && !in_place) {
		memcpy(x->isal, x->init, win);
		gf_vect_mad(len, 1, 0, x->tbl, (u8 *)s, x->isal + GUARD + doff);
		bad = diff_at(x->isal, x->want, win);
		if (bad >= 0) {
			KUNIT_FAIL(test, "ISA-L gf_vect_mad c %#x len %zu differs from log/antilog at %ld",
				   c, len, bad);
			return false;
		}
	}
	ecp_gf_impl_run(impl, op, &x->k, d, in_place ? d : s, len);
	bad = diff_at(x->dst, x->want, win);
	if (bad < 0)
		return true;
	KUNIT_FAIL(test, "%s op %d c %#x len %zu soff %zu doff %zu%s: byte %ld (dst%+ld) is %#x, want %#x",
		   impl->name, op, c, len, soff, doff, in_place ? " in place" : "",
		   bad, bad - (long)(GUARD + doff), x->dst[bad], x->want[bad]);
	return false;
}

static void gf_isal_short_test(struct kunit *test)
{
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	size_t win = GUARD + 64 + SHORT_MAX + GUARD, len;
	struct short_ctx x;
	unsigned int c;
	u32 seed = 0x15a1;
	int op;

	ref_init();
	x.src = alloc_rand(test, 64 + SHORT_MAX, &seed);
	x.init = alloc_rand(test, win, &seed);
	x.dst = alloc_rand(test, win, &seed);
	x.want = alloc_rand(test, win, &seed);
	x.isal = alloc_rand(test, win, &seed);
	for (c = 0; c < 256; c++) {
		ecp_gf_coef_init(&x.k, c);
		gf_vect_mul_init(c, x.tbl);
		for (len = 0; len <= SHORT_MAX; len++) {
			size_t soff = (c + len) % 64, doff = (c * 7 + len * 3) % 64;

			for (op = 0; op < ECP_GF_NR_OPS; op++) {
				/* XOR ignores c: once per length is enough. */
				if (op == ECP_GF_XOR && c != len % 256)
					continue;
				if (!short_check(test, &x, impl, op, len, soff, doff,
						 false) ||
				    !short_check(test, &x, impl, op, len, soff, doff,
						 true))
					return;
			}
		}
	}
}

/* 1 MiB at unaligned offsets, every coefficient, against ISA-L. */
static void gf_isal_mib_test(struct kunit *test)
{
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	u8 *src, *dst, *isal, *init, tbl[32];
	struct ecp_gf_coef k;
	unsigned int c;
	u32 seed = 0x1b1b;

	src = alloc_rand(test, MIB + 64, &seed);
	init = alloc_rand(test, MIB + 64, &seed);
	dst = kunit_kmalloc(test, MIB + 64, GFP_KERNEL);
	isal = kunit_kmalloc(test, MIB + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_NOT_NULL(test, isal);
	for (c = 0; c < 256; c++) {
		size_t soff = c % 64, doff = (c * 11) % 64;
		long bad;

		ecp_gf_coef_init(&k, c);
		gf_vect_mul_init(c, tbl);
		memcpy(dst, init, MIB + 64);
		memcpy(isal, init, MIB + 64);
		gf_vect_mad(MIB, 1, 0, tbl, src + soff, isal + doff);
		ecp_gf_impl_run(impl, ECP_GF_MUL_ACC, &k, dst + doff,
				src + soff, MIB);
		bad = diff_at(dst, isal, MIB + 64);
		if (bad >= 0) {
			KUNIT_FAIL(test, "%s mul_acc c %#x 1 MiB soff %zu doff %zu: byte %ld differs from ISA-L",
				   impl->name, c, soff, doff, bad);
			return;
		}
		/* gf_vect_mul wants 32-byte alignment: compare with a copy. */
		memcpy(isal, src + soff, MIB);
		KUNIT_ASSERT_EQ(test, gf_vect_mul(MIB, tbl, isal, isal), 0);
		ecp_gf_impl_run(impl, ECP_GF_MUL, &k, dst + doff, src + soff, MIB);
		bad = diff_at(dst + doff, isal, MIB);
		if (bad >= 0) {
			KUNIT_FAIL(test, "%s mul c %#x 1 MiB: byte %ld differs from ISA-L",
				   impl->name, c, bad);
			return;
		}
	}
}

/*
 * mul_acc_multi against ISA-L's decode (ec_encode_data with one output
 * row, ec_encode_data_base below its 64-byte minimum) and the log/antilog
 * sum: dst must end as its old value XOR ISA-L's output.
 */
struct multi_ctx {
	u8 *src, *init, *dst, *want, *out;
	u8 coef[MULTI_MAX], tbls[32 * MULTI_MAX];
	struct ecp_gf_coef k[MULTI_MAX];
	const struct ecp_gf_coef *kp[MULTI_MAX];
	u8 *s[MULTI_MAX];
	u32 seed;
};

static bool multi_check(struct kunit *test, struct multi_ctx *m,
			const struct ecp_gf_impl *impl, unsigned int n,
			size_t len, size_t doff, bool in_place)
{
	size_t win = GUARD + doff + len + GUARD, i;
	u8 *d = m->dst + GUARD + doff;
	unsigned int j;
	long bad;

	for (j = 0; j < n; j++) {
		m->coef[j] = lcg(&m->seed) % 5 == 0 ? j % 2 : lcg(&m->seed);
		ecp_gf_coef_init(&m->k[j], m->coef[j]);
		m->kp[j] = &m->k[j];
		m->s[j] = m->src + (lcg(&m->seed) % (MULTI_MAX * 64));
	}
	if (in_place)
		m->s[0] = m->init + GUARD + doff;
	ec_init_tables(n, 1, m->coef, m->tbls);
	if (len >= 64)
		ec_encode_data(len, n, 1, m->tbls, m->s, &m->out);
	else
		ec_encode_data_base(len, n, 1, m->tbls, m->s, &m->out);
	memcpy(m->want, m->init, win);
	memcpy(m->dst, m->init, win);
	for (i = 0; i < len; i++) {
		u8 sum = 0;

		m->want[GUARD + doff + i] ^= m->out[i];
		if (len > SHORT_MAX)
			continue;
		for (j = 0; j < n; j++)
			sum ^= ref_mul(m->coef[j], m->s[j][i]);
		if (sum != m->out[i]) {
			KUNIT_FAIL(test, "ISA-L n %u len %zu differs from log/antilog at %zu",
				   n, len, i);
			return false;
		}
	}
	if (in_place)
		m->s[0] = d;
	ecp_gf_impl_run_multi(impl, m->kp, d, (const u8 *const *)m->s, n, len);
	bad = diff_at(m->dst, m->want, win);
	if (bad < 0)
		return true;
	KUNIT_FAIL(test, "%s multi n %u len %zu doff %zu%s: byte %ld (dst%+ld) is %#x, want %#x",
		   impl->name, n, len, doff, in_place ? " in place" : "", bad,
		   bad - (long)(GUARD + doff), m->dst[bad], m->want[bad]);
	return false;
}

static void gf_isal_multi_test(struct kunit *test)
{
	static const unsigned int nsrc[] = { 2, 3, 4, 5, 6, 10, 12, 16 };
	static const size_t longer[] = { 1447, 1448, 4096, 65536 + 7, MIB };
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	size_t win = GUARD + 64 + MIB + GUARD, len, i, l;
	struct multi_ctx *m;

	ref_init();
	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->seed = 0x6d;
	m->src = alloc_rand(test, MULTI_MAX * 64 + MIB, &m->seed);
	m->init = alloc_rand(test, win, &m->seed);
	m->dst = alloc_rand(test, win, &m->seed);
	m->want = alloc_rand(test, win, &m->seed);
	m->out = alloc_rand(test, MIB, &m->seed);
	for (i = 0; i < ARRAY_SIZE(nsrc); i++) {
		for (len = 0; len <= SHORT_MAX; len++)
			if (!multi_check(test, m, impl, nsrc[i], len,
					 (len + i) % 64, len % 5 == 1))
				return;
		for (l = 0; l < ARRAY_SIZE(longer); l++)
			if ((longer[l] < MIB || nsrc[i] == 6 || nsrc[i] == 12) &&
			    !multi_check(test, m, impl, nsrc[i], longer[l],
					 (l * 17 + i) % 64, l == 2))
				return;
	}
}

/*
 * The FPU rules: vector code only inside kernel_fpu_begin() sections of
 * bounded length, none at all where the FPU is not usable (the scalar
 * code then gives the same bytes).
 */
static void gf_isal_fpu_test(struct kunit *test)
{
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	const size_t len = 65536 + 5;
	struct multi_ctx *m;
	unsigned long before;
	unsigned int n;

	ref_init();
	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->seed = 0xf9;
	m->src = alloc_rand(test, MULTI_MAX * 64 + len, &m->seed);
	m->init = alloc_rand(test, 2 * GUARD + 64 + len, &m->seed);
	m->dst = alloc_rand(test, 2 * GUARD + 64 + len, &m->seed);
	m->want = alloc_rand(test, 2 * GUARD + 64 + len, &m->seed);
	m->out = alloc_rand(test, len, &m->seed);

	before = ecp_shim_fpu_sections();
	ecp_gf_coef_init(&m->k[0], 0x8e);
	ecp_gf_impl_run(impl, ECP_GF_MUL_ACC, &m->k[0], m->dst, m->src, len);
	/* One section per 4 KiB: 17 for 64 KiB + 5. */
	KUNIT_EXPECT_EQ(test, ecp_shim_fpu_sections() - before,
			impl->simd ? DIV_ROUND_UP(len, 4096) : 0);

	for (n = 2; n <= MULTI_MAX; n += 5) {
		before = ecp_shim_fpu_sections();
		KUNIT_ASSERT_TRUE(test, multi_check(test, m, impl, n, len, 3, false));
		/* No more traffic per section than 4 KiB of mul_acc moves. */
		if (impl->simd)
			KUNIT_EXPECT_GE_MSG(test, ecp_shim_fpu_sections() - before,
					    DIV_ROUND_UP(len * (n + 2), 3 * 4096),
					    "n %u", n);
		else
			KUNIT_EXPECT_EQ(test, ecp_shim_fpu_sections(), before);

		ecp_shim_fpu_deny(true);
		before = ecp_shim_fpu_sections();
		KUNIT_EXPECT_TRUE(test, multi_check(test, m, impl, n, 1448, 9, false));
		KUNIT_EXPECT_EQ(test, ecp_shim_fpu_sections(), before);
		ecp_shim_fpu_deny(false);
	}
}

/*
 * A page of memory between two inaccessible pages: code that reads or
 * writes a byte outside [buf, buf + len) faults (the runner reports the
 * fault as a failed case), which guard bytes cannot show for reads.
 */
static u8 *guarded_page(struct kunit *test)
{
	u8 *p = mmap(NULL, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	KUNIT_ASSERT_TRUE(test, p != MAP_FAILED);
	KUNIT_ASSERT_EQ(test, mprotect(p, PAGE_SIZE, PROT_NONE), 0);
	KUNIT_ASSERT_EQ(test, mprotect(p + 2 * PAGE_SIZE, PAGE_SIZE, PROT_NONE), 0);
	return p + PAGE_SIZE;
}

/* Every operation with its buffers flush against a page that faults. */
static void gf_isal_edge_test(struct kunit *test)
{
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	u8 *sp = guarded_page(test), *dp = guarded_page(test);
	u8 want[PAGE_SIZE], init[PAGE_SIZE];
	const struct ecp_gf_coef *kp[3];
	struct ecp_gf_coef k[3];
	const u8 *srcs[3];
	size_t len, i;
	u32 seed = 0xed9e;
	int op, end;

	ref_init();
	fill(sp, PAGE_SIZE, &seed);
	fill(init, PAGE_SIZE, &seed);
	for (i = 0; i < 3; i++) {
		ecp_gf_coef_init(&k[i], 0x53 + 40 * i);
		kp[i] = &k[i];
	}
	for (len = 0; len <= PAGE_SIZE; len += len < 320 ? 1 : 1448 - 320 + 1) {
		for (end = 0; end < 2; end++) {
			u8 *s = sp + (end ? PAGE_SIZE - len : 0);
			u8 *d = dp + (end ? PAGE_SIZE - len : 0);

			for (op = 0; op <= ECP_GF_NR_OPS; op++) {
				memcpy(d, init, len);
				memcpy(want, init, len);
				for (i = 0; i < len; i++) {
					if (op == ECP_GF_MUL)
						want[i] = ref_mul(k[0].c, s[i]);
					else if (op == ECP_GF_XOR)
						want[i] ^= s[i];
					else if (op == ECP_GF_MUL_ACC)
						want[i] ^= ref_mul(k[0].c, s[i]);
					else
						want[i] ^= ref_mul(k[0].c ^ k[1].c ^ k[2].c,
								   s[i]);
				}
				/* op == ECP_GF_NR_OPS: three sources, all s. */
				srcs[0] = srcs[1] = srcs[2] = s;
				if (op < ECP_GF_NR_OPS)
					ecp_gf_impl_run(impl, op, &k[0], d, s, len);
				else
					ecp_gf_impl_run_multi(impl, kp, d, srcs, 3, len);
				if (memcmp(d, want, len)) {
					KUNIT_FAIL(test, "%s op %d len %zu at the page %s: wrong bytes",
						   impl->name, op, len,
						   end ? "end" : "start");
					goto out;
				}
			}
		}
	}
out:
	munmap(sp - PAGE_SIZE, 3 * PAGE_SIZE);
	munmap(dp - PAGE_SIZE, 3 * PAGE_SIZE);
}

static struct kunit_case ecp_gf_isal_test_cases[] = {
	KUNIT_CASE(gf_isal_field_test),
	KUNIT_CASE_PARAM(gf_isal_short_test, impl_gen),
	KUNIT_CASE_PARAM(gf_isal_mib_test, impl_gen),
	KUNIT_CASE_PARAM(gf_isal_multi_test, impl_gen),
	KUNIT_CASE_PARAM(gf_isal_fpu_test, impl_gen),
	KUNIT_CASE_PARAM(gf_isal_edge_test, impl_gen),
	{}
};

static struct kunit_suite ecp_gf_isal_test_suite = {
	.name = "ecproxy_gf_isal",
	.test_cases = ecp_gf_isal_test_cases,
};
kunit_test_suite(ecp_gf_isal_test_suite);
