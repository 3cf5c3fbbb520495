// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the GF(2^8) engine. References are computed here from a
 * bitwise multiply, independent of the module's tables; golden vectors come
 * from ISA-L so the field and matrices match what storage systems use.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/slab.h>
#ifdef CONFIG_X86_64
#include <asm/fpu/api.h>
#endif

#include "gf_impl.h"
#include "gf_ref_test.h"

#define MAXLEN		4096
#define GUARD		64
#define BUFSZ		(GUARD + 64 + MAXLEN + 64 + GUARD)

/* Deterministic so that a failure reproduces. */
static u32 test_rand(u32 *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void fill_rand(u8 *p, size_t n, u32 *s)
{
	while (n--)
		*p++ = test_rand(s);
}

static long first_diff(const u8 *a, const u8 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

static void gf_field_test(struct kunit *test)
{
	static const u8 spot[] = { 0, 1, 2, 3, 0x1d, 0x53, 0x80, 0x8e, 0xff };
	unsigned int a, b, i;

	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			u8 ab = ecp_gf_mul1(a, b);

			if (ab != ecp_gf_ref_mul(a, b) || ab != ecp_gf_mul1(b, a))
				KUNIT_FAIL(test, "mul(%#x, %#x) = %#x, want %#x",
					   a, b, ab, ecp_gf_ref_mul(a, b));
			for (i = 0; i < ARRAY_SIZE(spot); i++) {
				u8 c = spot[i];

				if (ecp_gf_mul1(a, b ^ c) !=
				    (ab ^ ecp_gf_mul1(a, c)))
					KUNIT_FAIL(test, "distributivity %#x %#x %#x",
						   a, b, c);
				if (ecp_gf_mul1(ab, c) !=
				    ecp_gf_mul1(a, ecp_gf_mul1(b, c)))
					KUNIT_FAIL(test, "associativity %#x %#x %#x",
						   a, b, c);
			}
			if (test->status == KUNIT_FAILURE)
				return;
		}
		KUNIT_EXPECT_EQ(test, ecp_gf_mul1(a, 0), 0);
		KUNIT_EXPECT_EQ(test, ecp_gf_mul1(a, 1), a);
		if (a) {
			KUNIT_EXPECT_EQ(test, ecp_gf_mul1(a, ecp_gf_inv(a)), 1);
			KUNIT_EXPECT_EQ(test, ecp_gf_inv(ecp_gf_inv(a)), a);
		}
	}
	KUNIT_EXPECT_EQ(test, ecp_gf_inv(0), 0);
}

/*
 * Produced on Debian 12 with libisal 2.30 (isa-l/erasure_code.h): gf_mul(),
 * gf_inv() and gf_gen_cauchy1_matrix(a, 9, 6) rows 6..8.
 */
static const u8 isal_mul[][3] = {
	{ 0x02, 0x80, 0x1d }, { 0x53, 0xca, 0x8f }, { 0xff, 0xff, 0xe2 },
	{ 0x03, 0x07, 0x09 }, { 0x8e, 0x02, 0x01 },
};

static const u8 isal_inv[][2] = {
	{ 0x01, 0x01 }, { 0x03, 0xf4 }, { 0x09, 0x9d }, { 0x1b, 0x80 },
	{ 0x51, 0x23 }, { 0xf3, 0xea }, { 0xff, 0xfd },
};

/*
 * ecp_gf_mat_inv(): random matrices of every size it takes, each inverse
 * multiplied back to the identity, and what is singular refused (a random
 * matrix with a row repeated, and one with a zero column).
 */
static void gf_mat_inv_test(struct kunit *test)
{
	u8 a[ECP_GF_MAT_MAX * ECP_GF_MAT_MAX], b[sizeof(a)];
	unsigned int n, i, j, x, round, inverted = 0;
	u32 seed = 7;

	for (n = 1; n <= ECP_GF_MAT_MAX; n++) {
		for (round = 0; round < 200; round++) {
			fill_rand(a, n * n, &seed);
			memcpy(b, a, n * n);
			if (!ecp_gf_mat_inv(b, n))
				continue;
			inverted++;
			for (i = 0; i < n; i++) {
				for (j = 0; j < n; j++) {
					u8 s = 0;

					for (x = 0; x < n; x++)
						s ^= ecp_gf_mul1(a[i * n + x],
								 b[x * n + j]);
					KUNIT_ASSERT_EQ_MSG(test, s, i == j,
							    "n %u round %u", n,
							    round);
				}
			}
		}
		if (n < 2)
			continue;
		fill_rand(a, n * n, &seed);
		memcpy(a + n, a, n);
		KUNIT_EXPECT_FALSE(test, ecp_gf_mat_inv(a, n));
		fill_rand(a, n * n, &seed);
		for (i = 0; i < n; i++)
			a[i * n + n - 1] = 0;
		KUNIT_EXPECT_FALSE(test, ecp_gf_mat_inv(a, n));
	}
	/* Most random matrices over GF(2^8) are invertible. */
	KUNIT_EXPECT_GT(test, inverted, 700U);
}

#define K	6
#define M	3
static const u8 isal_cauchy_k6[M][K] = {
	{ 0x7a, 0xba, 0x47, 0xa7, 0x8e, 0xf4 },
	{ 0xba, 0x7a, 0xa7, 0x47, 0xf4, 0x8e },
	{ 0xad, 0x9d, 0xdd, 0x98, 0x3d, 0xaa },
};

static void gf_golden_test(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(isal_mul); i++)
		KUNIT_EXPECT_EQ(test, ecp_gf_mul1(isal_mul[i][0], isal_mul[i][1]),
				isal_mul[i][2]);
	for (i = 0; i < ARRAY_SIZE(isal_inv); i++)
		KUNIT_EXPECT_EQ(test, ecp_gf_inv(isal_inv[i][0]), isal_inv[i][1]);
	/* gf_gen_cauchy1_matrix: a[i][j] = inv(i ^ j) for rows i >= k */
	for (i = 0; i < M; i++)
		for (j = 0; j < K; j++)
			KUNIT_EXPECT_EQ(test, ecp_gf_inv((K + i) ^ j),
					isal_cauchy_k6[i][j]);
}

/*
 * Model of gf2p8affineqb from the Intel SDM: output bit i is the parity of
 * x AND matrix byte (7 - i). Runs everywhere, so the matrix construction is
 * tested even where no CPU has GFNI.
 */
static u8 gf2p8affine_model(u64 matrix, u8 x)
{
	u8 r = 0;
	int i;

	for (i = 0; i < 8; i++)
		r |= (hweight8((matrix >> ((7 - i) * 8)) & x) & 1) << i;
	return r;
}

static void gf_coef_test(struct kunit *test)
{
	struct ecp_gf_coef k;
	unsigned int c, x;

	for (c = 0; c < 256; c++) {
		ecp_gf_coef_init(&k, c);
		KUNIT_ASSERT_EQ(test, k.c, c);
		for (x = 0; x < 256; x++) {
			u8 want = ecp_gf_ref_mul(c, x);

			if (k.row[x] != want ||
			    (k.lo[x & 15] ^ k.hi[x >> 4]) != want ||
			    gf2p8affine_model(k.gfni_matrix, x) != want) {
				KUNIT_FAIL(test, "coef %#x x %#x: row %#x nibbles %#x affine %#x want %#x",
					   c, x, k.row[x],
					   k.lo[x & 15] ^ k.hi[x >> 4],
					   gf2p8affine_model(k.gfni_matrix, x),
					   want);
				return;
			}
		}
	}
}

struct region_ctx {
	u8 *src, *dst, *want, *init, row[256];
	struct ecp_gf_coef k;
	u32 seed;
};

static struct region_ctx *region_ctx_alloc(struct kunit *test, size_t bufsz)
{
	struct region_ctx *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->src = kunit_kmalloc(test, bufsz, GFP_KERNEL);
	r->dst = kunit_kmalloc(test, bufsz, GFP_KERNEL);
	r->want = kunit_kmalloc(test, bufsz, GFP_KERNEL);
	r->init = kunit_kmalloc(test, bufsz, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->src);
	KUNIT_ASSERT_NOT_NULL(test, r->dst);
	KUNIT_ASSERT_NOT_NULL(test, r->want);
	KUNIT_ASSERT_NOT_NULL(test, r->init);
	r->seed = 0x5eed;
	fill_rand(r->src, bufsz, &r->seed);
	fill_rand(r->init, bufsz, &r->seed);
	return r;
}

static void region_set_coef(struct region_ctx *r, u8 c)
{
	unsigned int x;

	ecp_gf_coef_init(&r->k, c);
	for (x = 0; x < 256; x++)
		r->row[x] = ecp_gf_ref_mul(c, x);
}

/*
 * Operate on dst + GUARD + doff from src + soff and check a window with
 * GUARD bytes either side, so writes outside [dst, dst + len) are caught.
 * impl NULL means the public dispatching API. Split in three so the middle
 * can run in atomic context.
 */
static void region_prep(struct region_ctx *r, enum ecp_gf_op op, size_t len,
			size_t soff, size_t doff)
{
	size_t win = GUARD + doff + len + GUARD, i;
	u8 *w = r->want + GUARD + doff;
	const u8 *s = r->src + soff;

	memcpy(r->dst, r->init, win);
	memcpy(r->want, r->init, win);
	for (i = 0; i < len; i++) {
		if (op == ECP_GF_MUL_ACC)
			w[i] ^= r->row[s[i]];
		else if (op == ECP_GF_MUL)
			w[i] = r->row[s[i]];
		else
			w[i] ^= s[i];
	}
}

static void region_run(struct region_ctx *r, const struct ecp_gf_impl *impl,
		       enum ecp_gf_op op, size_t len, size_t soff, size_t doff)
{
	u8 *d = r->dst + GUARD + doff;
	const u8 *s = r->src + soff;

	if (impl)
		ecp_gf_impl_run(impl, op, &r->k, d, s, len);
	else if (op == ECP_GF_MUL_ACC)
		ecp_gf_mul_acc(&r->k, d, s, len);
	else if (op == ECP_GF_MUL)
		ecp_gf_mul(&r->k, d, s, len);
	else
		ecp_gf_xor(d, s, len);
}

static bool region_verify(struct kunit *test, struct region_ctx *r,
			  const struct ecp_gf_impl *impl, enum ecp_gf_op op,
			  size_t len, size_t soff, size_t doff)
{
	long bad = first_diff(r->dst, r->want, GUARD + doff + len + GUARD);

	if (bad < 0)
		return true;
	KUNIT_FAIL(test, "%s op %d c %#x len %zu soff %zu doff %zu: byte %ld (dst%+ld) is %#x, want %#x",
		   impl ? impl->name : "api", op, r->k.c, len, soff, doff,
		   bad, bad - (long)(GUARD + doff), r->dst[bad], r->want[bad]);
	return false;
}

static bool region_check(struct kunit *test, struct region_ctx *r,
			 const struct ecp_gf_impl *impl, enum ecp_gf_op op,
			 size_t len, size_t soff, size_t doff)
{
	region_prep(r, op, len, soff, doff);
	region_run(r, impl, op, len, soff, doff);
	return region_verify(test, r, impl, op, len, soff, doff);
}

static const struct ecp_gf_impl *const *impl_params(const void *prev)
{
	const struct ecp_gf_impl *const *p = prev;

	return p ? (p[1] ? p + 1 : NULL) : ecp_gf_impls;
}

static const void *impl_gen(const void *prev, char *desc)
{
	const struct ecp_gf_impl *const *p = impl_params(prev);

	if (p)
		strscpy(desc, (*p)->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

static const struct ecp_gf_impl *impl_or_skip(struct kunit *test)
{
	const struct ecp_gf_impl *impl =
		*(const struct ecp_gf_impl *const *)test->param_value;

	if (!ecp_gf_impl_usable(impl))
		kunit_skip(test, "%s not supported by this CPU", impl->name);
	return impl;
}

/* Coefficients 0 and 1 included: the vector code must handle them too. */
static u8 pick_coef(size_t i, u32 *seed)
{
	return i % 97 == 0 ? 0 : i % 89 == 0 ? 1 : test_rand(seed) | 2;
}

static void gf_impl_lengths_test(struct kunit *test)
{
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	struct region_ctx *r = region_ctx_alloc(test, BUFSZ);
	int op;
	size_t len;

	/* Every length; the offsets cycle through all 64 values as len grows. */
	for (op = 0; op < ECP_GF_NR_OPS; op++) {
		for (len = 0; len <= MAXLEN; len++) {
			if (len % 64 == 0)
				region_set_coef(r, pick_coef(len / 64, &r->seed));
			if (!region_check(test, r, impl, op, len,
					  (len * 7 + op) % 64, (len * 13) % 64))
				return;
		}
	}
}

static void gf_impl_offsets_test(struct kunit *test)
{
	static const size_t lens[] = {
		1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 1448,
	};
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	struct region_ctx *r = region_ctx_alloc(test, BUFSZ);
	size_t i, off;
	int op;

	region_set_coef(r, 0x8e);
	for (op = 0; op < ECP_GF_NR_OPS; op++)
		for (i = 0; i < ARRAY_SIZE(lens); i++)
			for (off = 0; off < 64; off++)
				if (!region_check(test, r, impl, op, lens[i],
						  off, (off * 5 + i) % 64) ||
				    !region_check(test, r, impl, op, lens[i],
						  (off * 3 + i) % 64, off))
					return;
}

/* Beyond one FPU chunk, so the chunking in ecp_gf_impl_run() is covered. */
static void gf_impl_long_test(struct kunit *test)
{
	static const size_t lens[] = { 4097, 8191, 12288 + 5, 65536 + 3 };
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	struct region_ctx *r = region_ctx_alloc(test, 65536 + 256 + 2 * GUARD);
	size_t i;
	int op;

	region_set_coef(r, 0xa7);
	for (op = 0; op < ECP_GF_NR_OPS; op++)
		for (i = 0; i < ARRAY_SIZE(lens); i++)
			if (!region_check(test, r, impl, op, lens[i], i + 1, 2 * i))
				return;
}

static void gf_api_test(struct kunit *test)
{
	static const u8 coefs[] = { 0, 1, 2, 0x8e, 0xff };
	struct region_ctx *r = region_ctx_alloc(test, BUFSZ);
	size_t i, len;
	int op;

	kunit_info(test, "active implementation: %s\n", ecp_gf_impl_name());
	for (i = 0; i < ARRAY_SIZE(coefs); i++) {
		region_set_coef(r, coefs[i]);
		for (op = 0; op < ECP_GF_NR_OPS; op++)
			for (len = 0; len <= 300; len += 1 + len / 8)
				if (!region_check(test, r, NULL, op, len,
						  (len + i) % 64, (len * 3) % 64))
					return;
	}

	/* In place multiply, as used to scale a buffer. */
	region_set_coef(r, 0x53);
	memcpy(r->dst, r->src, 1000);
	ecp_gf_mul(&r->k, r->dst, r->dst, 1000);
	for (i = 0; i < 1000; i++)
		if (r->dst[i] != r->row[r->src[i]]) {
			KUNIT_FAIL(test, "in-place mul differs at %zu", i);
			return;
		}
}

/*
 * Vector code must not run where the FPU is unusable; the dispatcher has to
 * fall back to scalar there and give the same bytes.
 */
static void gf_context_test(struct kunit *test)
{
	struct region_ctx *r = region_ctx_alloc(test, BUFSZ);
	int op;

	region_set_coef(r, 0x1d);
	for (op = 0; op < ECP_GF_NR_OPS; op++) {
		bool usable = true;

		region_prep(r, op, 1500, 3, 5);
		local_bh_disable();
		region_run(r, NULL, op, 1500, 3, 5);
		local_bh_enable();
		region_verify(test, r, NULL, op, 1500, 3, 5);

		region_prep(r, op, 1500, 7, 1);
#ifdef CONFIG_X86_64
		kernel_fpu_begin();
		usable = irq_fpu_usable();
#endif
		region_run(r, NULL, op, 1500, 7, 1);
#ifdef CONFIG_X86_64
		kernel_fpu_end();
#endif
		region_verify(test, r, NULL, op, 1500, 7, 1);
		if (IS_ENABLED(CONFIG_X86_64))
			KUNIT_EXPECT_FALSE(test, usable);
	}
}

/*
 * A k=6 Cauchy stripe: encode parity with mul_acc, then rebuild lost data
 * fragments from survivors. Golden values from the same program that made
 * the tables above: data from this LCG seeded with 0xec0 (top byte of each
 * step), parity from ec_encode_data(), decode rows from gf_invert_matrix()
 * of generator rows {0, 1, 3, 5, 6, 7}; fnv is FNV-1a 64 of each fragment.
 */
#define FRAG	1000

static const u64 isal_frag_fnv[K + M] = {
	0x8984d6a2114f716aULL, 0x04bb193fe66e1749ULL, 0xc4202eadbb4136bdULL,
	0xa4b1bb53cb83e2beULL, 0x59f562514c72d9afULL, 0xfce4ffec62922d86ULL,
	0x3bd431eec9b29f2cULL, 0xa22d4484563a17d9ULL, 0x30e07b415609234eULL,
};

static const int survivors[K] = { 0, 1, 3, 5, 6, 7 };
static const struct {
	int lost;
	u8 row[K];
} isal_decode[] = {
	{ 2, { 0xd2, 0x68, 0x7b, 0x01, 0x0c, 0x0a } },
	{ 4, { 0x9d, 0x5d, 0xe0, 0x7b, 0x04, 0x05 } },
};

static u64 fnv1a64(const u8 *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void gf_stripe_test(struct kunit *test)
{
	struct ecp_gf_coef coef;
	u8 *frag[K + M], *out;
	u32 lcg = 0xec0;
	int i, j, l;

	for (i = 0; i < K + M; i++) {
		frag[i] = kunit_kzalloc(test, FRAG, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, frag[i]);
	}
	out = kunit_kmalloc(test, FRAG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < K; i++)
		for (j = 0; j < FRAG; j++) {
			lcg = lcg * 1664525u + 1013904223u;
			frag[i][j] = lcg >> 24;
		}

	for (i = 0; i < M; i++)
		for (j = 0; j < K; j++) {
			ecp_gf_coef_init(&coef, ecp_gf_inv((K + i) ^ j));
			ecp_gf_mul_acc(&coef, frag[K + i], frag[j], FRAG);
		}
	for (i = 0; i < K + M; i++)
		KUNIT_EXPECT_EQ_MSG(test, fnv1a64(frag[i], FRAG),
				    isal_frag_fnv[i], "fragment %d", i);

	for (l = 0; l < ARRAY_SIZE(isal_decode); l++) {
		memset(out, 0, FRAG);
		for (j = 0; j < K; j++) {
			ecp_gf_coef_init(&coef, isal_decode[l].row[j]);
			ecp_gf_mul_acc(&coef, out, frag[survivors[j]], FRAG);
		}
		KUNIT_EXPECT_EQ_MSG(test, first_diff(out, frag[isal_decode[l].lost],
						     FRAG), -1L,
				    "rebuilt fragment %d", isal_decode[l].lost);
		KUNIT_EXPECT_EQ(test, fnv1a64(out, FRAG),
				isal_frag_fnv[isal_decode[l].lost]);
	}
}

/*
 * mul_acc_multi: n sources, each with its own coefficient and alignment,
 * into one dst.  The sources are windows of one buffer; overlapping each
 * other is allowed, only dst must be identical to a source or apart.
 */
#define MULTI_MAX	16
#define MULTI_LEN	1600
#define MULTI_SRC	(64 + MULTI_MAX * 67 + 65536 + 16)

struct multi_ctx {
	u8 *src, *dst, *want, *init;
	struct ecp_gf_coef coef[MULTI_MAX];
	const struct ecp_gf_coef *k[MULTI_MAX];
	const u8 *s[MULTI_MAX];
	u8 row[MULTI_MAX][256];
	u32 seed;
};

static struct multi_ctx *multi_ctx_alloc(struct kunit *test, size_t maxlen)
{
	struct multi_ctx *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	size_t win = GUARD + 64 + maxlen + GUARD;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->src = kunit_kmalloc(test, MULTI_SRC, GFP_KERNEL);
	m->dst = kunit_kmalloc(test, win, GFP_KERNEL);
	m->want = kunit_kmalloc(test, win, GFP_KERNEL);
	m->init = kunit_kmalloc(test, win, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->src);
	KUNIT_ASSERT_NOT_NULL(test, m->dst);
	KUNIT_ASSERT_NOT_NULL(test, m->want);
	KUNIT_ASSERT_NOT_NULL(test, m->init);
	m->seed = 0x3c0de;
	fill_rand(m->src, MULTI_SRC, &m->seed);
	fill_rand(m->init, win, &m->seed);
	return m;
}

/* New coefficients (0 and 1 among them) and source alignments. */
static void multi_set(struct multi_ctx *m, unsigned int n, size_t salt)
{
	unsigned int j, x;

	for (j = 0; j < n; j++) {
		u8 c = pick_coef(salt * MULTI_MAX + j + 1, &m->seed);

		ecp_gf_coef_init(&m->coef[j], c);
		for (x = 0; x < 256; x++)
			m->row[j][x] = ecp_gf_ref_mul(c, x);
		m->k[j] = &m->coef[j];
		m->s[j] = m->src + (salt * 13 + j * 67) % (MULTI_MAX * 67);
	}
}

/*
 * dst + GUARD + doff ^= the sum, checked with GUARD bytes either side.
 * In place, source 0 is dst itself.  impl NULL: the public API.
 */
static bool multi_check(struct kunit *test, struct multi_ctx *m,
			const struct ecp_gf_impl *impl, unsigned int n,
			size_t len, size_t doff, bool in_place)
{
	size_t win = GUARD + doff + len + GUARD, i;
	u8 *d = m->dst + GUARD + doff, *w = m->want + GUARD + doff;
	const u8 *s0 = m->s[0];
	unsigned int j;
	long bad;

	memcpy(m->dst, m->init, win);
	memcpy(m->want, m->init, win);
	if (in_place)
		m->s[0] = m->init + GUARD + doff;
	for (i = 0; i < len; i++)
		for (j = 0; j < n; j++)
			w[i] ^= m->row[j][m->s[j][i]];
	if (in_place)
		m->s[0] = d;
	if (impl)
		ecp_gf_impl_run_multi(impl, m->k, d, m->s, n, len);
	else
		ecp_gf_mul_acc_multi(m->k, d, m->s, n, len);
	m->s[0] = s0;

	bad = first_diff(m->dst, m->want, win);
	if (bad < 0)
		return true;
	KUNIT_FAIL(test, "%s multi n %u len %zu doff %zu%s: byte %ld (dst%+ld) is %#x, want %#x",
		   impl ? impl->name : "api", n, len, doff,
		   in_place ? " in place" : "", bad, bad - (long)(GUARD + doff),
		   m->dst[bad], m->want[bad]);
	return false;
}

static void gf_impl_multi_test(struct kunit *test)
{
	static const unsigned int nsrc[] = { 1, 2, 3, 4, 5, 6, 8, 10, 12, 16 };
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	struct multi_ctx *m = multi_ctx_alloc(test, MULTI_LEN);
	size_t i, len;

	/* Every length to 300 (all block and tail shapes), then sparser. */
	for (i = 0; i < ARRAY_SIZE(nsrc); i++) {
		for (len = 0; len <= MULTI_LEN; len += len < 300 ? 1 : 61) {
			multi_set(m, nsrc[i], len);
			if (!multi_check(test, m, impl, nsrc[i], len,
					 (len * 5 + i) % 64, len % 7 == 3))
				return;
		}
	}
}

/* Beyond one FPU section, whose length depends on n. */
static void gf_impl_multi_long_test(struct kunit *test)
{
	static const struct {
		unsigned int n;
		size_t len;
	} runs[] = {
		{ 2, 65536 + 3 }, { 6, 9000 }, { 12, 4096 * 3 + 5 }, { 16, 1448 * 4 },
	};
	const struct ecp_gf_impl *impl = impl_or_skip(test);
	struct multi_ctx *m = multi_ctx_alloc(test, 65536 + 3);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		multi_set(m, runs[i].n, i);
		if (!multi_check(test, m, impl, runs[i].n, runs[i].len, i + 1,
				 i == 1))
			return;
	}
}

/*
 * The public entry: n = 0 changes nothing, n = 1 is mul_acc, short and
 * long lengths, in place; and inside a kernel FPU section, where only the
 * scalar fallback may run, the same bytes.
 */
static void gf_multi_api_test(struct kunit *test)
{
	struct multi_ctx *m = multi_ctx_alloc(test, MULTI_LEN);
	unsigned int n;
	size_t len;

	multi_set(m, 1, 0);
	KUNIT_EXPECT_TRUE(test, multi_check(test, m, NULL, 0, 100, 3, false));
	for (n = 1; n <= MULTI_MAX; n++)
		for (len = 0; len <= MULTI_LEN; len += 1 + len / 4) {
			multi_set(m, n, len + n);
			if (!multi_check(test, m, NULL, n, len, (len + n) % 64,
					 n % 3 == 0))
				return;
		}
#ifdef CONFIG_X86_64
	multi_set(m, 6, 1);
	kernel_fpu_begin();
	n = multi_check(test, m, NULL, 6, 1448, 5, false);
	kernel_fpu_end();
	KUNIT_EXPECT_TRUE(test, n);
#endif
}

/* The iterator lists exactly the usable implementations, scalar first. */
static void gf_impl_names_test(struct kunit *test)
{
	unsigned int pos, i = 0, nr = 0;
	bool active_seen = false;
	const char *name;

	ecp_gf_for_each_impl(name, pos) {
		while (ecp_gf_impls[i] && !ecp_gf_impl_usable(ecp_gf_impls[i]))
			i++;
		KUNIT_ASSERT_NOT_NULL(test, ecp_gf_impls[i]);
		KUNIT_EXPECT_STREQ(test, name, ecp_gf_impls[i]->name);
		active_seen |= !strcmp(name, ecp_gf_impl_name());
		i++;
		nr++;
	}
	while (ecp_gf_impls[i] && !ecp_gf_impl_usable(ecp_gf_impls[i]))
		i++;
	KUNIT_EXPECT_NULL(test, ecp_gf_impls[i]);
	KUNIT_EXPECT_GE(test, nr, 1);
	KUNIT_EXPECT_TRUE(test, active_seen);
	pos = 0;
	KUNIT_EXPECT_STREQ(test, ecp_gf_impl_next(&pos), "scalar");
}

static struct kunit_case ecp_gf_test_cases[] = {
	KUNIT_CASE(gf_field_test),
	KUNIT_CASE(gf_mat_inv_test),
	KUNIT_CASE(gf_golden_test),
	KUNIT_CASE(gf_coef_test),
	KUNIT_CASE_PARAM(gf_impl_lengths_test, impl_gen),
	KUNIT_CASE_PARAM(gf_impl_offsets_test, impl_gen),
	KUNIT_CASE_PARAM(gf_impl_long_test, impl_gen),
	KUNIT_CASE(gf_api_test),
	KUNIT_CASE(gf_context_test),
	KUNIT_CASE(gf_stripe_test),
	KUNIT_CASE_PARAM(gf_impl_multi_test, impl_gen),
	KUNIT_CASE_PARAM(gf_impl_multi_long_test, impl_gen),
	KUNIT_CASE(gf_multi_api_test),
	KUNIT_CASE(gf_impl_names_test),
	{}
};

static struct kunit_suite ecp_gf_test_suite = {
	.name = "ecproxy_gf",
	.test_cases = ecp_gf_test_cases,
};
kunit_test_suite(ecp_gf_test_suite);
