// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8) engine: picks an implementation at init, dispatches region
 * operations to it, and keeps SIMD use safe in any context.
 *
 * Module parameters:
 *   gf_impl=auto|scalar|ssse3|avx2|avx512|gfni|gfni512 (default auto;
 *     writable at runtime).  Forcing an implementation the CPU or kernel
 *     cannot run fails the module load (or the write) with -ENODEV rather
 *     than silently falling back, so a test or benchmark never measures
 *     something other than what it asked for.
 *   gf_bench_ms=N: time spent benchmarking each implementation at load
 *     (default 1, 0 = none: pick by static preference, max 10000).
 *   gf_bench (read only): "name:MB/s ..." for mul_acc from the last
 *     benchmark, 0 for implementations that are unusable or not run.
 *
 * The benchmark measures what the data path does: multiply-accumulate of
 * MSS-sized (1448 bytes) and GSO-sized (64 KiB) pieces between 64-byte
 * aligned buffers, scored for equal bytes of each, each rate the best of
 * many short batches.  Timing 4 KiB pieces as a whole let whatever else
 * ran decide: on a busy Zen 5 it picked gfni over gfni512, which is
 * faster there on MSS-sized pieces and as fast on 64 KiB ones.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": gf: " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#ifdef CONFIG_X86_64
#include <asm/fpu/api.h>
#endif
#include <linux/export.h>
#include <kunit/visibility.h>

#include "gf_impl.h"

/*
 * Longest stretch of vector work inside one kernel_fpu_begin() section,
 * which disables preemption: 4 KiB is about a microsecond.  Softirqs that
 * arrive meanwhile see !irq_fpu_usable() and take the scalar path.
 */
#define ECP_GF_FPU_CHUNK	4096
/* Below this, saving FPU state costs more than the vector code saves. */
#define ECP_GF_SIMD_MIN		64
#define ECP_GF_BENCH_MAX_MS	10000
/* The data path's piece sizes: one MSS, one GSO segment. */
#define ECP_GF_BENCH_SMALL	1448
#define ECP_GF_BENCH_LARGE	65536
/*
 * Source after destination at a distance that is a whole number of cache
 * lines but not of 4 KiB pages: the data path's buffers have no fixed
 * relation, and a page multiple makes loads falsely alias the preceding
 * stores (4K aliasing), which costs some CPUs more than others.
 */
#define ECP_GF_BENCH_SKEW	(ECP_GF_BENCH_LARGE + 17 * 64)
/* Bytes per timed batch: microseconds for vector code, enough for scalar. */
#define ECP_GF_BENCH_BATCH	(256 * 1024)

const struct ecp_gf_impl *const ecp_gf_impls[] = {
	&ecp_gf_scalar,
#ifdef CONFIG_X86_64
	&ecp_gf_ssse3,
	&ecp_gf_avx2,
#ifdef CONFIG_AS_AVX512
	&ecp_gf_avx512,
#endif
	&ecp_gf_gfni,
#ifdef CONFIG_AS_AVX512
	&ecp_gf_gfni512,
#endif
#endif
	NULL,
};
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_impls);

#define ECP_GF_NR_IMPLS	(ARRAY_SIZE(ecp_gf_impls) - 1)

static const struct ecp_gf_impl *ecp_gf_active = &ecp_gf_scalar;
/* Set once ecp_gf_init() is done; before that gf_impl writes just store. */
static bool ecp_gf_ready;
static char ecp_gf_impl_param[16] = "auto";
static unsigned int ecp_gf_bench_ms = 1;
static unsigned int ecp_gf_bench_mbps[ECP_GF_NR_IMPLS];

bool ecp_gf_impl_usable(const struct ecp_gf_impl *impl)
{
	return !impl->usable || impl->usable();
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_impl_usable);

static bool ecp_gf_fpu_usable(void)
{
#ifdef CONFIG_X86_64
	return irq_fpu_usable();
#else
	return false;
#endif
}

#ifdef CONFIG_X86_64
/*
 * mul_acc_multi in FPU sections of as much memory traffic as one
 * ECP_GF_FPU_CHUNK section of mul_acc (read source and dst, write dst), so
 * that they stay as short whatever n; whole cache lines of dst each.
 */
static void ecp_gf_multi_sections(const struct ecp_gf_impl *impl,
				  const struct ecp_gf_coef *const k[], u8 *dst,
				  const u8 *const src[], unsigned int n,
				  size_t len)
{
	size_t chunk = (3 * ECP_GF_FPU_CHUNK / (n + 2)) & ~63UL;
	size_t off, step;

	chunk = max_t(size_t, chunk, 64);
	for (off = 0; off < len; off += step) {
		step = min(len - off, chunk);
		kernel_fpu_begin();
		impl->mul_acc_multi(k, dst, src, n, off, step);
		kernel_fpu_end();
	}
}
#endif

void ecp_gf_impl_run(const struct ecp_gf_impl *impl, enum ecp_gf_op op,
		     const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		     size_t len)
{
	if (!impl->simd || !ecp_gf_fpu_usable()) {
		ecp_gf_scalar.fn[op](k, dst, src, len);
		return;
	}
#ifdef CONFIG_X86_64
	while (len) {
		size_t n = min_t(size_t, len, ECP_GF_FPU_CHUNK);

		kernel_fpu_begin();
		impl->fn[op](k, dst, src, n);
		kernel_fpu_end();
		dst += n;
		src += n;
		len -= n;
	}
#endif
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_impl_run);

void ecp_gf_impl_run_multi(const struct ecp_gf_impl *impl,
			   const struct ecp_gf_coef *const k[], u8 *dst,
			   const u8 *const src[], unsigned int n, size_t len)
{
	if (!n)
		return;
	if (!impl->simd || !ecp_gf_fpu_usable()) {
		ecp_gf_scalar_mul_acc_multi(k, dst, src, n, 0, len);
		return;
	}
#ifdef CONFIG_X86_64
	ecp_gf_multi_sections(impl, k, dst, src, n, len);
#endif
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_impl_run_multi);

const char *ecp_gf_impl_name(void)
{
	return READ_ONCE(ecp_gf_active)->name;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_impl_name);

const char *ecp_gf_impl_next(unsigned int *pos)
{
	const struct ecp_gf_impl *impl;

	while (*pos < ECP_GF_NR_IMPLS) {
		impl = ecp_gf_impls[(*pos)++];
		if (ecp_gf_impl_usable(impl))
			return impl->name;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_impl_next);

void ecp_gf_xor(u8 *dst, const u8 *src, size_t len)
{
	if (len < ECP_GF_SIMD_MIN)
		ecp_gf_scalar_xor(NULL, dst, src, len);
	else
		ecp_gf_impl_run(READ_ONCE(ecp_gf_active), ECP_GF_XOR, NULL,
				dst, src, len);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_xor);

void ecp_gf_mul_acc(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		    size_t len)
{
	if (k->c <= 1) {
		if (k->c)
			ecp_gf_xor(dst, src, len);
	} else if (len < ECP_GF_SIMD_MIN) {
		ecp_gf_scalar_mul_acc(k, dst, src, len);
	} else {
		ecp_gf_impl_run(READ_ONCE(ecp_gf_active), ECP_GF_MUL_ACC, k,
				dst, src, len);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mul_acc);

void ecp_gf_mul(const struct ecp_gf_coef *k, u8 *dst, const u8 *src,
		size_t len)
{
	if (k->c == 0)
		memset(dst, 0, len);
	else if (k->c == 1)
		memmove(dst, src, len);
	else if (len < ECP_GF_SIMD_MIN)
		ecp_gf_scalar_mul(k, dst, src, len);
	else
		ecp_gf_impl_run(READ_ONCE(ecp_gf_active), ECP_GF_MUL, k,
				dst, src, len);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mul);

void ecp_gf_mul_acc_multi(const struct ecp_gf_coef *const k[], u8 *dst,
			  const u8 *const src[], unsigned int n, size_t len)
{
	if (n == 1)
		ecp_gf_mul_acc(k[0], dst, src[0], len);
	else if (len < ECP_GF_SIMD_MIN)
		ecp_gf_scalar_mul_acc_multi(k, dst, src, n, 0, len);
	else
		ecp_gf_impl_run_multi(READ_ONCE(ecp_gf_active), k, dst, src,
				      n, len);
}
EXPORT_SYMBOL_IF_KUNIT(ecp_gf_mul_acc_multi);

static const struct ecp_gf_impl *ecp_gf_lookup(const char *name)
{
	int i;

	for (i = 0; ecp_gf_impls[i]; i++)
		if (sysfs_streq(name, ecp_gf_impls[i]->name))
			return ecp_gf_impls[i];
	return NULL;
}

/*
 * MB/s of mul_acc on @len-byte pieces: the best batch of about
 * ECP_GF_BENCH_BATCH bytes within @ns.  A batch that an interrupt or
 * another task's work slowed down does not count against an
 * implementation, so the choice does not hang on what else runs.
 */
static u64 ecp_gf_bench_rate(const struct ecp_gf_impl *impl,
			     const struct ecp_gf_coef *k, u8 *dst,
			     const u8 *src, size_t len, u64 ns)
{
	unsigned int calls = max_t(unsigned int, ECP_GF_BENCH_BATCH / len, 1);
	u64 best = 0, start, t0, t;
	unsigned int i;

	/* Warm caches and the FPU state outside the timed loop. */
	ecp_gf_impl_run(impl, ECP_GF_MUL_ACC, k, dst, src, len);
	start = ktime_get_ns();
	do {
		t0 = ktime_get_ns();
		for (i = 0; i < calls; i++)
			ecp_gf_impl_run(impl, ECP_GF_MUL_ACC, k, dst, src, len);
		t = ktime_get_ns();
		/* bytes per ns * 1000 = MB/s */
		best = max(best, div64_u64((u64)calls * len * 1000,
					   max_t(u64, t - t0, 1)));
		cond_resched();
	} while (t - start < ns);
	return best;
}

/*
 * MB/s for equal bytes in MSS-sized and in GSO-sized pieces: the harmonic
 * mean of the two rates, half of the time budget on each.
 */
static unsigned int ecp_gf_bench_one(const struct ecp_gf_impl *impl,
				     const struct ecp_gf_coef *k,
				     u8 *dst, const u8 *src)
{
	u64 half = (u64)ecp_gf_bench_ms * NSEC_PER_MSEC / 2;
	u64 small, large;

	small = ecp_gf_bench_rate(impl, k, dst, src, ECP_GF_BENCH_SMALL, half);
	large = ecp_gf_bench_rate(impl, k, dst, src, ECP_GF_BENCH_LARGE, half);
	return div64_u64(2 * small * large, max_t(u64, small + large, 1));
}

static int ecp_gf_bench(void)
{
	struct ecp_gf_coef k;
	u8 *buf;
	int i;

	memset(ecp_gf_bench_mbps, 0, sizeof(ecp_gf_bench_mbps));
	if (!ecp_gf_bench_ms)
		return 0;
	/* Page aligned, so both pieces start on a cache line. */
	buf = kvmalloc(ECP_GF_BENCH_SKEW + ECP_GF_BENCH_LARGE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	get_random_bytes(buf, ECP_GF_BENCH_SKEW + ECP_GF_BENCH_LARGE);
	ecp_gf_coef_init(&k, 0x8e);
	for (i = 0; ecp_gf_impls[i]; i++) {
		const struct ecp_gf_impl *impl = ecp_gf_impls[i];

		if (!ecp_gf_impl_usable(impl)) {
			pr_info("%-6s unavailable on this CPU\n", impl->name);
			continue;
		}
		ecp_gf_bench_mbps[i] = ecp_gf_bench_one(impl, &k, buf,
							buf + ECP_GF_BENCH_SKEW);
		pr_info("%-6s mul_acc %u MB/s\n", impl->name,
			ecp_gf_bench_mbps[i]);
	}
	kvfree(buf);
	return 0;
}

/* Fastest measured, or without a benchmark the last (newest) usable one. */
static const struct ecp_gf_impl *ecp_gf_pick_auto(void)
{
	const struct ecp_gf_impl *best = &ecp_gf_scalar;
	unsigned int best_mbps = 0;
	int i;

	for (i = 0; ecp_gf_impls[i]; i++) {
		const struct ecp_gf_impl *impl = ecp_gf_impls[i];

		if (!ecp_gf_impl_usable(impl) ||
		    (impl->preferred && !impl->preferred()))
			continue;
		if (!ecp_gf_bench_ms || ecp_gf_bench_mbps[i] > best_mbps) {
			best = impl;
			best_mbps = ecp_gf_bench_mbps[i];
		}
	}
	return best;
}

/* NULL for "auto", else the usable implementation named, or an ERR_PTR. */
static const struct ecp_gf_impl *ecp_gf_resolve(const char *name)
{
	const struct ecp_gf_impl *impl;

	if (sysfs_streq(name, "auto"))
		return NULL;
	impl = ecp_gf_lookup(name);
	if (!impl) {
		pr_err("gf_impl: unknown implementation '%s'\n", name);
		return ERR_PTR(-EINVAL);
	}
	if (!ecp_gf_impl_usable(impl)) {
		pr_err("gf_impl: '%s' is not supported by this CPU or kernel\n",
		       impl->name);
		return ERR_PTR(-ENODEV);
	}
	return impl;
}

/* Called with the module's kernel_param_lock held. */
static int ecp_gf_select(const char *name)
{
	const struct ecp_gf_impl *impl = ecp_gf_resolve(name);

	if (IS_ERR(impl))
		return PTR_ERR(impl);
	if (!impl)
		impl = ecp_gf_pick_auto();
	WRITE_ONCE(ecp_gf_active, impl);
	pr_info("using %s (gf_impl=%s)\n", impl->name, name);
	return 0;
}

static int ecp_gf_impl_set(const char *val, const struct kernel_param *kp)
{
	char buf[sizeof(ecp_gf_impl_param)], *name;
	int ret;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	name = strim(buf);
	if (ecp_gf_ready) {
		ret = ecp_gf_select(name);
		if (ret)
			return ret;
	}
	strscpy(ecp_gf_impl_param, name, sizeof(ecp_gf_impl_param));
	return 0;
}

static int ecp_gf_impl_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", ecp_gf_impl_name());
}

static const struct kernel_param_ops ecp_gf_impl_ops = {
	.set = ecp_gf_impl_set,
	.get = ecp_gf_impl_get,
};
module_param_cb(gf_impl, &ecp_gf_impl_ops, NULL, 0644);
MODULE_PARM_DESC(gf_impl,
		 "GF(2^8) implementation: auto, scalar, ssse3, avx2, avx512, gfni, gfni512");

module_param_named(gf_bench_ms, ecp_gf_bench_ms, uint, 0444);
MODULE_PARM_DESC(gf_bench_ms, "Benchmark time per implementation at load (ms)");

static int ecp_gf_bench_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int ecp_gf_bench_get(char *buf, const struct kernel_param *kp)
{
	int i, n = 0;

	for (i = 0; ecp_gf_impls[i]; i++)
		n += sysfs_emit_at(buf, n, "%s%s:%u", i ? " " : "",
				   ecp_gf_impls[i]->name,
				   ecp_gf_bench_mbps[i]);
	return n + sysfs_emit_at(buf, n, "\n");
}

static const struct kernel_param_ops ecp_gf_bench_ops = {
	.set = ecp_gf_bench_set,
	.get = ecp_gf_bench_get,
};
module_param_cb(gf_bench, &ecp_gf_bench_ops, NULL, 0444);
MODULE_PARM_DESC(gf_bench, "Measured mul_acc MB/s per implementation");

int ecp_gf_init(void)
{
	const struct ecp_gf_impl *impl;
	int ret;

	ecp_gf_field_init();
	ecp_gf_bench_ms = min(ecp_gf_bench_ms, ECP_GF_BENCH_MAX_MS);

	/* Fail a bad gf_impl= before spending time on the benchmark. */
	kernel_param_lock(THIS_MODULE);
	impl = ecp_gf_resolve(ecp_gf_impl_param);
	kernel_param_unlock(THIS_MODULE);
	if (IS_ERR(impl))
		return PTR_ERR(impl);

	ret = ecp_gf_bench();
	if (ret)
		return ret;

	/* gf_impl may be written through sysfs while the module loads. */
	kernel_param_lock(THIS_MODULE);
	ret = ecp_gf_select(ecp_gf_impl_param);
	if (!ret)
		ecp_gf_ready = true;
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

void ecp_gf_exit(void)
{
	ecp_gf_ready = false;
}
