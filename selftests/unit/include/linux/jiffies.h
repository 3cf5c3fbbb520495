/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: jiffies at Debian's HZ=250, with the conversions of
 * include/linux/jiffies.h for an HZ that divides 1000.
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H

#include <linux/limits.h>
#include <linux/types.h>

#ifndef HZ
#define HZ		250
#endif
#define MSEC_PER_SEC	1000L
#define USEC_PER_MSEC	1000L
#define USEC_PER_SEC	1000000L
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)

_Static_assert(MSEC_PER_SEC % HZ == 0, "HZ must divide 1000");

/* Advanced only by tests that want time to pass. */
extern unsigned long jiffies;

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (MSEC_PER_SEC / HZ) * j;
}

static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	return (USEC_PER_SEC / HZ) * j;
}

static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	return (m + (MSEC_PER_SEC / HZ) - 1) / (MSEC_PER_SEC / HZ);
}

static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	if (u > jiffies_to_usecs(MAX_JIFFY_OFFSET))
		return MAX_JIFFY_OFFSET;
	return (u + (USEC_PER_SEC / HZ) - 1) / (USEC_PER_SEC / HZ);
}

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#endif
