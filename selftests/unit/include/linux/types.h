/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: kernel integer types on top of <stdint.h>; x86-64 only. */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/compiler.h>
#include <linux/kconfig.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;	/* as in the kernel: %llu prints it */
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8 __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;
typedef u16 __sum16;
typedef u32 __wsum;
typedef unsigned int gfp_t;
typedef s64 ktime_t;
typedef struct { int counter; } atomic_t;
typedef struct { int locked; } spinlock_t;

struct list_head {
	struct list_head *next, *prev;
};

#endif
