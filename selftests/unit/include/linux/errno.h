/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the kernel's errno values are the uapi ones (which glibc's
 * <errno.h> also includes under this name), plus the kernel-internal ones.
 */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS	512
#define ENOTSUPP	524

#endif
