// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: small library functions of the kernel (lib/string.c,
 * lib/random32.c, lib/find_bit.c, fs/sysfs), printk, the clock, softirq
 * masking.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "shim.h"

bool ecp_shim_verbose;
unsigned long jiffies = 4294937296UL;	/* INITIAL_JIFFIES on 32 bits */

int printk(const char *fmt, ...)
{
	bool quiet = !ecp_shim_verbose;
	va_list ap;
	int n;

	/*
	 * Emergency to critical always show; the engine's own pr_err()s are
	 * expected in the selection tests and would only be noise there.
	 */
	if (fmt[0] == '<' && fmt[1] && fmt[2] == '>') {
		quiet = quiet && fmt[1] > '2';
		fmt += 3;
	}
	if (quiet)
		return 0;
	printf("# ");
	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	if (n > 0 && fmt[strlen(fmt) - 1] != '\n')
		putchar('\n');
	return n;
}

ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (!count)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = 0;
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}

static bool ecp_shim_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

char *strim(char *s)
{
	size_t size = strlen(s);
	char *end;

	if (!size)
		return s;
	end = s + size - 1;
	while (end >= s && ecp_shim_isspace(*end))
		end--;
	*(end + 1) = '\0';
	while (ecp_shim_isspace(*s))
		s++;
	return s;
}

bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	if (*s1 == '\n' && !s1[1] && !*s2)
		return true;
	return false;
}

void *memchr_inv(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (; n; n--, p++)
		if (*p != (u8)c)
			return (void *)p;
	return NULL;
}

int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (WARN_ON(at < 0 || at >= (int)PAGE_SIZE))
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, PAGE_SIZE - at, fmt, ap);
	va_end(ap);
	return min(n, (int)PAGE_SIZE - at - 1);
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PAGE_SIZE, fmt, ap);
	va_end(ap);
	return min(n, (int)PAGE_SIZE - 1);
}

#define TAUSWORTHE(s, a, b, c, d) ((s & c) << d) ^ (((s << a) ^ s) >> b)

u32 prandom_u32_state(struct rnd_state *state)
{
	state->s1 = TAUSWORTHE(state->s1,  6U, 13U, 4294967294U, 18U);
	state->s2 = TAUSWORTHE(state->s2,  2U, 27U, 4294967288U,  2U);
	state->s3 = TAUSWORTHE(state->s3, 13U, 21U, 4294967280U,  7U);
	state->s4 = TAUSWORTHE(state->s4,  3U, 12U, 4294967168U, 13U);
	return (state->s1 ^ state->s2 ^ state->s3 ^ state->s4);
}

void prandom_bytes_state(struct rnd_state *state, void *buf, size_t bytes)
{
	u8 *ptr = buf;

	while (bytes >= sizeof(u32)) {
		u32 r = prandom_u32_state(state);

		memcpy(ptr, &r, sizeof(r));
		ptr += sizeof(u32);
		bytes -= sizeof(u32);
	}
	if (bytes > 0) {
		u32 rem = prandom_u32_state(state);

		do {
			*ptr++ = (u8)rem;
			bytes--;
			rem >>= BITS_PER_BYTE;
		} while (bytes > 0);
	}
}

/* Reproducible: a failure seen once is seen again. */
static struct rnd_state ecp_shim_rnd = { 0x1234567, 0x89abcdef, 0x2468ace, 0x13579bd };

u32 get_random_u32(void)
{
	return prandom_u32_state(&ecp_shim_rnd);
}

void get_random_bytes(void *buf, size_t len)
{
	prandom_bytes_state(&ecp_shim_rnd, buf, len);
}

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static unsigned long ecp_shim_find(const unsigned long *addr,
				   unsigned long size, unsigned long offset,
				   unsigned long invert)
{
	unsigned long word;

	if (offset >= size)
		return size;
	word = (addr[BIT_WORD(offset)] ^ invert) & (~0UL << (offset % BITS_PER_LONG));
	offset = round_down(offset, BITS_PER_LONG);
	while (!word) {
		offset += BITS_PER_LONG;
		if (offset >= size)
			return size;
		word = addr[BIT_WORD(offset)] ^ invert;
	}
	return min(offset + __builtin_ctzl(word), size);
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	return ecp_shim_find(addr, size, offset, 0);
}

unsigned long find_next_zero_bit(const unsigned long *addr,
				 unsigned long size, unsigned long offset)
{
	return ecp_shim_find(addr, size, offset, ~0UL);
}

static int ecp_shim_bh_depth;

void local_bh_disable(void)
{
	ecp_shim_bh_depth++;
}

void local_bh_enable(void)
{
	WARN_ON(ecp_shim_bh_depth <= 0);
	ecp_shim_bh_depth--;
}

bool in_softirq(void)
{
	return ecp_shim_bh_depth > 0;
}

bool ecp_shim_bh_reset(void)
{
	bool unbalanced = ecp_shim_bh_depth != 0;

	ecp_shim_bh_depth = 0;
	return unbalanced;
}
