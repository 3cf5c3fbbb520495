/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the KUnit API the suites in kmod/ use, run by shim/kunit.c.
 * Same semantics as KUnit in 6.1: an EXPECT failure marks the case failed
 * and goes on, an ASSERT failure or kunit_skip() ends the case at once,
 * parameterised cases run once per parameter, kunit_kmalloc() memory is
 * freed when the case ends.
 */
#ifndef _SHIM_KUNIT_TEST_H
#define _SHIM_KUNIT_TEST_H

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#define KUNIT_PARAM_DESC_SIZE		128
#define KUNIT_STATUS_COMMENT_SIZE	256

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit {
	void *priv;
	/* private: internal use only. */
	const char *name;
	const void *param_value;
	int param_index;
	enum kunit_status status;
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
	void *shim_res;		/* kunit_kmalloc() allocations */
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	/* private: internal use only. */
	enum kunit_status status;
	char *log;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
	/* private: internal use only */
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
	char *log;
	int suite_init_err;
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)			\
		{ .run_case = test_name, .name = #test_name,	\
		  .generate_params = gen_params }

#define KUNIT_ARRAY_PARAM(name, array, get_desc)					\
	static const void *name##_gen_params(const void *prev, char *desc)		\
	{										\
		typeof((array)[0]) *__next = prev ? ((typeof(__next))prev) + 1 : (array); \
		if (__next - (array) < (long)ARRAY_SIZE((array))) {			\
			void (*__get_desc)(typeof(__next), char *) = get_desc;		\
			if (__get_desc)							\
				__get_desc(__next, desc);				\
			return __next;							\
		}									\
		return NULL;								\
	}

void ecp_kunit_register(struct kunit_suite *suite);

#define __KUNIT_SHIM_CAT2(a, b)	a##b
#define __KUNIT_SHIM_CAT(a, b)	__KUNIT_SHIM_CAT2(a, b)
#define __kunit_test_suites(id, ...)					\
	static struct kunit_suite *__KUNIT_SHIM_CAT(__kunit_suites_, id)[] = \
		{ __VA_ARGS__ };					\
	__attribute__((constructor)) static void			\
	__KUNIT_SHIM_CAT(__kunit_reg_, id)(void)			\
	{								\
		for (size_t __i = 0;					\
		     __i < ARRAY_SIZE(__KUNIT_SHIM_CAT(__kunit_suites_, id)); \
		     __i++)						\
			ecp_kunit_register(				\
				__KUNIT_SHIM_CAT(__kunit_suites_, id)[__i]); \
	}
#define kunit_test_suites(...)	__kunit_test_suites(__COUNTER__, __VA_ARGS__)
#define kunit_test_suite(suite)	kunit_test_suites(&suite)
#define kunit_test_init_section_suites kunit_test_suites

/* Managed memory, freed when the case ends. */
void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp);
void kunit_kfree(struct kunit *test, const void *ptr);

static inline void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc_array(test, 1, size, gfp);
}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size,
				  gfp_t gfp)
{
	return kunit_kmalloc_array(test, n, size, gfp | __GFP_ZERO);
}

__printf(2, 3) void kunit_shim_log(struct kunit *test, const char *fmt, ...);
#define kunit_info(test, fmt, ...)	kunit_shim_log(test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kunit_shim_log(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_shim_log(test, fmt, ##__VA_ARGS__)
#define kunit_log(lvl, test, fmt, ...)	kunit_shim_log(test, fmt, ##__VA_ARGS__)

__printf(2, 3) void kunit_mark_skipped(struct kunit *test, const char *fmt, ...);
/* Marks the case skipped and ends it. */
__printf(2, 3) __noreturn void kunit_skip(struct kunit *test, const char *fmt, ...);

/*
 * A failed check: prints where and what, marks the case failed and, for
 * an assertion, ends it (longjmp to the runner).
 */
__printf(5, 6) void ecp_kunit_fail(struct kunit *test, const char *file,
				   int line, bool assert, const char *fmt, ...);
__printf(10, 11) void ecp_kunit_fail_binary(struct kunit *test,
					     const char *file, int line,
					     bool assert, const char *l,
					     const char *op, const char *r,
					     long long lv, long long rv,
					     const char *fmt, ...);

#define KUNIT_FAIL(test, fmt, ...) \
	ecp_kunit_fail(test, __FILE__, __LINE__, false, fmt, ##__VA_ARGS__)

#define __KUNIT_SHIM_CHECK(test, assert, cond, fmt, ...)			\
	do {									\
		if (!(cond))							\
			ecp_kunit_fail(test, __FILE__, __LINE__, assert,	\
				       "expected " #cond ". " fmt, ##__VA_ARGS__); \
	} while (0)

#define __KUNIT_SHIM_BINARY(test, assert, left, op, right, fmt, ...)		\
	do {									\
		const typeof(left) __left = (left);				\
		const typeof(right) __right = (right);				\
		if (!(__left op __right))					\
			ecp_kunit_fail_binary(test, __FILE__, __LINE__, assert,	\
					      #left, #op, #right,		\
					      (long long)__left,		\
					      (long long)__right,		\
					      fmt, ##__VA_ARGS__);		\
	} while (0)

#define __KUNIT_SHIM_STR(test, assert, left, op, right, fmt, ...)		\
	do {									\
		const char *__left = (left), *__right = (right);		\
		if (!(strcmp(__left, __right) op 0))				\
			ecp_kunit_fail(test, __FILE__, __LINE__, assert,	\
				       "expected " #left " " #op " " #right	\
				       " (\"%s\" vs \"%s\"). " fmt,		\
				       __left, __right, ##__VA_ARGS__);		\
	} while (0)

#define __KUNIT_SHIM_NONE	"%s", ""

#define KUNIT_EXPECT_TRUE(t, c)		__KUNIT_SHIM_CHECK(t, false, c, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_FALSE(t, c)	__KUNIT_SHIM_CHECK(t, false, !(c), __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_TRUE(t, c)		__KUNIT_SHIM_CHECK(t, true, c, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_FALSE(t, c)	__KUNIT_SHIM_CHECK(t, true, !(c), __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...)	__KUNIT_SHIM_CHECK(t, false, c, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...)	__KUNIT_SHIM_CHECK(t, false, !(c), __VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...)	__KUNIT_SHIM_CHECK(t, true, c, __VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, ...)	__KUNIT_SHIM_CHECK(t, true, !(c), __VA_ARGS__)

#define KUNIT_EXPECT_NULL(t, p)		__KUNIT_SHIM_CHECK(t, false, (p) == NULL, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_NOT_NULL(t, p)	__KUNIT_SHIM_CHECK(t, false, (p) != NULL, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_NULL(t, p)		__KUNIT_SHIM_CHECK(t, true, (p) == NULL, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_NOT_NULL(t, p)	__KUNIT_SHIM_CHECK(t, true, (p) != NULL, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(t, p) \
	__KUNIT_SHIM_CHECK(t, false, !IS_ERR_OR_NULL(p), __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p) \
	__KUNIT_SHIM_CHECK(t, true, !IS_ERR_OR_NULL(p), __KUNIT_SHIM_NONE)

#define KUNIT_EXPECT_PTR_EQ(t, l, r)	__KUNIT_SHIM_CHECK(t, false, (const void *)(l) == (const void *)(r), __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_PTR_NE(t, l, r)	__KUNIT_SHIM_CHECK(t, false, (const void *)(l) != (const void *)(r), __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_PTR_EQ(t, l, r)	__KUNIT_SHIM_CHECK(t, true, (const void *)(l) == (const void *)(r), __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_PTR_NE(t, l, r)	__KUNIT_SHIM_CHECK(t, true, (const void *)(l) != (const void *)(r), __KUNIT_SHIM_NONE)

#define KUNIT_EXPECT_STREQ(t, l, r)	__KUNIT_SHIM_STR(t, false, l, ==, r, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_STRNEQ(t, l, r)	__KUNIT_SHIM_STR(t, false, l, !=, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_STREQ(t, l, r)	__KUNIT_SHIM_STR(t, true, l, ==, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_STRNEQ(t, l, r)	__KUNIT_SHIM_STR(t, true, l, !=, r, __KUNIT_SHIM_NONE)

#define KUNIT_EXPECT_EQ(t, l, r)	__KUNIT_SHIM_BINARY(t, false, l, ==, r, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_NE(t, l, r)	__KUNIT_SHIM_BINARY(t, false, l, !=, r, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_LT(t, l, r)	__KUNIT_SHIM_BINARY(t, false, l, <, r, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_LE(t, l, r)	__KUNIT_SHIM_BINARY(t, false, l, <=, r, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_GT(t, l, r)	__KUNIT_SHIM_BINARY(t, false, l, >, r, __KUNIT_SHIM_NONE)
#define KUNIT_EXPECT_GE(t, l, r)	__KUNIT_SHIM_BINARY(t, false, l, >=, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_EQ(t, l, r)	__KUNIT_SHIM_BINARY(t, true, l, ==, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_NE(t, l, r)	__KUNIT_SHIM_BINARY(t, true, l, !=, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_LT(t, l, r)	__KUNIT_SHIM_BINARY(t, true, l, <, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_LE(t, l, r)	__KUNIT_SHIM_BINARY(t, true, l, <=, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_GT(t, l, r)	__KUNIT_SHIM_BINARY(t, true, l, >, r, __KUNIT_SHIM_NONE)
#define KUNIT_ASSERT_GE(t, l, r)	__KUNIT_SHIM_BINARY(t, true, l, >=, r, __KUNIT_SHIM_NONE)

#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, false, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, false, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, false, l, >, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, false, l, >=, r, __VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, true, l, !=, r, __VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, true, l, <, r, __VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, true, l, <=, r, __VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, true, l, >, r, __VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, ...)	__KUNIT_SHIM_BINARY(t, true, l, >=, r, __VA_ARGS__)

#endif
