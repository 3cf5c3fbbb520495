/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the monotonic clock. */
#ifndef _SHIM_LINUX_KTIME_H
#define _SHIM_LINUX_KTIME_H

#include <linux/jiffies.h>
#include <linux/types.h>

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L

u64 ktime_get_ns(void);

static inline ktime_t ktime_get(void)
{
	return ktime_get_ns();
}

#endif
