/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the C tests: deterministic PRNG and erasure-pattern
 * enumeration (all patterns of 1..max_e erasures among n fragments,
 * sampled with a fixed stride when there are more than cap of them).
 */
#ifndef ECP_TEST_COMMON_H
#define ECP_TEST_COMMON_H

#include <stdint.h>
#include <stdlib.h>

static uint64_t test_rng_state = 0x9e3779b97f4a7c15ull;

static inline uint32_t test_rand(void)
{
	/* xorshift64* */
	test_rng_state ^= test_rng_state >> 12;
	test_rng_state ^= test_rng_state << 25;
	test_rng_state ^= test_rng_state >> 27;
	return (uint32_t)((test_rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static inline void test_fill(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)test_rand();
}

/*
 * Fill masks[] with erasure bitmasks over n fragments having 1..max_e bits
 * set, in increasing numeric order; if more than cap exist, keep every
 * ceil(total/cap)-th one.  Returns the number stored (n <= 30).
 */
static inline int test_patterns(int n, int max_e, uint32_t *masks, int cap, int *total)
{
	int count = 0, stride, stored = 0, idx = 0;

	for (uint32_t mk = 1; mk < (1u << n); mk++) {
		int pc = __builtin_popcount(mk);

		if (pc <= max_e)
			count++;
	}
	stride = (count + cap - 1) / cap;
	if (stride < 1)
		stride = 1;
	for (uint32_t mk = 1; mk < (1u << n); mk++) {
		int pc = __builtin_popcount(mk);

		if (pc > max_e)
			continue;
		if (idx++ % stride == 0)
			masks[stored++] = mk;
	}
	if (total)
		*total = count;
	return stored;
}

/* The first k fragment indices not in mask, ascending; returns how many. */
static inline int test_survivors(int n, int k, uint32_t mask, int *surv)
{
	int ns = 0;

	for (int i = 0; i < n && ns < k; i++)
		if (!(mask & (1u << i)))
			surv[ns++] = i;
	return ns;
}

#endif
