/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: sysfs_emit() into a PAGE_SIZE buffer, as for a parameter. */
#ifndef _SHIM_LINUX_SYSFS_H
#define _SHIM_LINUX_SYSFS_H

#include <linux/compiler.h>

__printf(2, 3) int sysfs_emit(char *buf, const char *fmt, ...);
__printf(3, 4) int sysfs_emit_at(char *buf, int at, const char *fmt, ...);

#endif
