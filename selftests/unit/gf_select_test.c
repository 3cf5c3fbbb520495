// SPDX-License-Identifier: GPL-2.0
/*
 * Host-only suite: the GF engine's choice of implementation, through the
 * module parameters as insmod and sysfs set them, on this CPU and on
 * simulated CPUs that lack features (the shim's CPUID answers with some
 * features hidden).  Every case ends with the engine as the runner left
 * it: gf_impl=auto, gf_bench_ms=1, every feature present.
 */
#include <stdio.h>
#include <stdlib.h>

#include <asm/cpufeature.h>
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include "gf_impl.h"

/* Unload, set the parameters, load: ecp_gf_init()'s result. */
static int reload(const char *impl, const char *bench_ms)
{
	ecp_gf_exit();
	if (ecp_shim_param_set("gf_impl", impl) ||
	    ecp_shim_param_set("gf_bench_ms", bench_ms))
		return -EINVAL;
	return ecp_gf_init();
}

static const char *active(void)
{
	static char buf[PAGE_SIZE];

	return ecp_shim_param_get("gf_impl", buf) > 0 ? buf : "?";
}

/* MB/s the load-time benchmark reported for @name, or -1. */
static long bench_of(const char *name)
{
	static char buf[PAGE_SIZE];
	size_t n = strlen(name);
	const char *p;

	if (ecp_shim_param_get("gf_bench", buf) <= 0)
		return -1;
	for (p = buf; (p = strstr(p, name)); p += n)
		if ((p == buf || p[-1] == ' ') && p[n] == ':')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

static void select_restore(struct kunit *test)
{
	ecp_shim_cpu_reset();
	KUNIT_EXPECT_EQ(test, reload("auto", "1"), 0);
}

/*
 * The features whose absence makes @impl unusable, found by hiding each
 * in turn: what the CPU must have for it, by the engine's own checks.
 */
static int needed_features(const struct ecp_gf_impl *impl,
			   enum ecp_shim_feature *out)
{
	int f, n = 0;

	for (f = 0; f < ECP_SHIM_NR_FEATURES; f++) {
		ecp_shim_cpu_hide(f, true);
		if (!ecp_gf_impl_usable(impl))
			out[n++] = f;
		ecp_shim_cpu_reset();
	}
	return n;
}

/*
 * Forcing an implementation the CPU lacks fails the load and a run-time
 * switch with -ENODEV (the active one stays), for every SIMD
 * implementation and every feature it needs; auto never picks it.
 */
static void gf_select_refuse_test(struct kunit *test)
{
	enum ecp_shim_feature need[ECP_SHIM_NR_FEATURES];
	int i, j, n;

	for (i = 0; ecp_gf_impls[i]; i++) {
		const struct ecp_gf_impl *impl = ecp_gf_impls[i];

		if (!impl->simd || !ecp_gf_impl_usable(impl))
			continue;
		n = needed_features(impl, need);
		KUNIT_EXPECT_GT_MSG(test, n, 0, "%s needs no CPU feature?", impl->name);
		for (j = 0; j < n; j++) {
			const char *f = ecp_shim_feature_name(need[j]);

			ecp_shim_cpu_hide(need[j], true);
			KUNIT_EXPECT_EQ_MSG(test, reload(impl->name, "1"), -ENODEV,
					    "%s without %s", impl->name, f);
			KUNIT_EXPECT_EQ(test, reload("auto", "1"), 0);
			KUNIT_EXPECT_STRNEQ(test, active(), impl->name);
			KUNIT_EXPECT_EQ(test, bench_of(impl->name), 0);
			KUNIT_EXPECT_EQ_MSG(test, ecp_shim_param_set("gf_impl", impl->name),
					    -ENODEV, "run-time switch to %s without %s",
					    impl->name, f);
			KUNIT_EXPECT_STRNEQ(test, active(), impl->name);
			ecp_shim_cpu_reset();
		}
		/* With the features back it loads and switches. */
		KUNIT_EXPECT_EQ(test, reload(impl->name, "0"), 0);
		KUNIT_EXPECT_STREQ(test, active(), impl->name);
		KUNIT_EXPECT_EQ(test, ecp_shim_param_set("gf_impl", "scalar"), 0);
		KUNIT_EXPECT_STREQ(test, active(), "scalar");
		KUNIT_EXPECT_EQ(test, ecp_shim_param_set("gf_impl", impl->name), 0);
		KUNIT_EXPECT_STREQ(test, active(), impl->name);
	}
}

/* AVX-512 code needs the OS to save zmm state, not only the CPU flag. */
static void gf_select_xstate_test(struct kunit *test)
{
	unsigned int pos;
	const char *name;

	ecp_shim_xfeatures_hide(XFEATURE_MASK_AVX512);
	KUNIT_EXPECT_EQ(test, reload("auto", "1"), 0);
	ecp_gf_for_each_impl(name, pos)
		KUNIT_EXPECT_TRUE_MSG(test, !strstr(name, "512"),
				      "%s usable without zmm state", name);
	KUNIT_EXPECT_EQ(test, reload("avx512", "0"), -ENODEV);
	KUNIT_EXPECT_EQ(test, reload("gfni512", "0"), -ENODEV);
	ecp_shim_xfeatures_hide(XFEATURE_MASK_YMM | XFEATURE_MASK_AVX512);
	KUNIT_EXPECT_EQ(test, reload("avx2", "0"), -ENODEV);
	KUNIT_EXPECT_EQ(test, reload("gfni", "0"), -ENODEV);
}

/* Unknown names fail at load and at run time with -EINVAL. */
static void gf_select_unknown_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, reload("bogus", "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, reload("auto", "0"), 0);
	KUNIT_EXPECT_EQ(test, ecp_shim_param_set("gf_impl", "avx3"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ecp_shim_param_set("gf_impl", " scalar\n"), 0);
	KUNIT_EXPECT_STREQ(test, active(), "scalar");
}

/*
 * auto: the fastest usable one by the load-time benchmark, the newest
 * usable one without a benchmark, scalar on a CPU with no SIMD at all.
 */
static void gf_select_auto_test(struct kunit *test)
{
	const struct ecp_gf_impl *last = NULL;
	long best = -1, mbps;
	const char *name;
	unsigned int pos;
	int f;

	KUNIT_ASSERT_EQ(test, reload("auto", "2"), 0);
	ecp_gf_for_each_impl(name, pos) {
		mbps = bench_of(name);
		KUNIT_EXPECT_GT_MSG(test, mbps, 0, "%s", name);
		kunit_info(test, "%-7s %ld MB/s\n", name, mbps);
		if (mbps > best)
			best = mbps;
	}
	/* On an Intel Skylake-SP avx512 is never picked; it is not one. */
	KUNIT_EXPECT_EQ_MSG(test, bench_of(active()), best, "auto chose %s",
			    active());

	KUNIT_ASSERT_EQ(test, reload("auto", "0"), 0);
	for (pos = 0; ecp_gf_impls[pos]; pos++)
		if (ecp_gf_impl_usable(ecp_gf_impls[pos]) &&
		    (!ecp_gf_impls[pos]->preferred || ecp_gf_impls[pos]->preferred()))
			last = ecp_gf_impls[pos];
	KUNIT_ASSERT_NOT_NULL(test, last);
	KUNIT_EXPECT_STREQ(test, active(), last->name);

	for (f = 0; f < ECP_SHIM_NR_FEATURES; f++)
		ecp_shim_cpu_hide(f, true);
	KUNIT_ASSERT_EQ(test, reload("auto", "1"), 0);
	KUNIT_EXPECT_STREQ(test, active(), "scalar");
	pos = 0;
	KUNIT_EXPECT_STREQ(test, ecp_gf_impl_next(&pos), "scalar");
	KUNIT_EXPECT_NULL(test, ecp_gf_impl_next(&pos));
}

static struct kunit_case ecp_gf_select_test_cases[] = {
	KUNIT_CASE(gf_select_refuse_test),
	KUNIT_CASE(gf_select_xstate_test),
	KUNIT_CASE(gf_select_unknown_test),
	KUNIT_CASE(gf_select_auto_test),
	{}
};

static struct kunit_suite ecp_gf_select_test_suite = {
	.name = "ecproxy_gf_select",
	.exit = select_restore,
	.test_cases = ecp_gf_select_test_cases,
};
kunit_test_suite(ecp_gf_select_test_suite);
