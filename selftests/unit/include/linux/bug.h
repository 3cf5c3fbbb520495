/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: WARN and BUG.  The debug VM boots with panic_on_warn, so a
 * WARN is a failure there; here it fails the running test case, and BUG
 * also ends it (see shim/kunit.c).
 */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <linux/compiler.h>

void ecp_shim_warn(const char *file, int line, const char *cond);
__noreturn void ecp_shim_bug(const char *file, int line, const char *cond);

#define WARN_ON(cond) ({ \
	int __c = !!(cond); \
	if (unlikely(__c)) \
		ecp_shim_warn(__FILE__, __LINE__, #cond); \
	unlikely(__c); \
})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define WARN(cond, fmt, ...)	WARN_ON(cond)
#define WARN_ONCE(cond, fmt, ...) WARN_ON(cond)
#define BUG()			ecp_shim_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond) \
	do { if (unlikely(cond)) ecp_shim_bug(__FILE__, __LINE__, #cond); } while (0)
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)

#endif
