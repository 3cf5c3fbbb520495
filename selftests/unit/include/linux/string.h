/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: libc's string functions plus the kernel's own. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H

#include <string.h>
#include <linux/types.h>

ssize_t strscpy(char *dest, const char *src, size_t count);
char *strim(char *s);
bool sysfs_streq(const char *s1, const char *s2);
void *memchr_inv(const void *s, int c, size_t n);

#endif
