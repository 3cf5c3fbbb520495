/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: a thread never has to yield to anyone here. */
#ifndef _SHIM_LINUX_SCHED_H
#define _SHIM_LINUX_SCHED_H

static inline int cond_resched(void)
{
	return 0;
}

static inline void might_sleep(void)
{
}

#endif
