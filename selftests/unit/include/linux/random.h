/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: "random" bytes from a fixed-seed generator, reproducibly. */
#ifndef _SHIM_LINUX_RANDOM_H
#define _SHIM_LINUX_RANDOM_H

#include <linux/types.h>

void get_random_bytes(void *buf, size_t len);
u32 get_random_u32(void);

#endif
