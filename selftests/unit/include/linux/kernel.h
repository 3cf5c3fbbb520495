/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: what kernel code gets from <linux/kernel.h>. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)		((((x) - 1) | ((typeof(x))(y) - 1)) + 1)
#define round_down(x, y)	((x) & ~((typeof(x))(y) - 1))
#define ALIGN(x, a)		(((x) + ((typeof(x))(a) - 1)) & ~((typeof(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define BITS_PER_BYTE		8
#define BITS_PER_LONG		64

/* x86-64 is little-endian: the CPU order is the little-endian order. */
#define cpu_to_le16(x)		((__le16)(u16)(x))
#define cpu_to_le32(x)		((__le32)(u32)(x))
#define cpu_to_le64(x)		((__le64)(u64)(x))
#define le16_to_cpu(x)		((u16)(__le16)(x))
#define le32_to_cpu(x)		((u32)(__le32)(x))
#define le64_to_cpu(x)		((u64)(__le64)(x))
#define cpu_to_be16(x)		((__be16)__builtin_bswap16(x))
#define cpu_to_be32(x)		((__be32)__builtin_bswap32(x))
#define cpu_to_be64(x)		((__be64)__builtin_bswap64(x))
#define be16_to_cpu(x)		__builtin_bswap16((u16)(x))
#define be32_to_cpu(x)		__builtin_bswap32((u32)(x))
#define be64_to_cpu(x)		__builtin_bswap64((u64)(x))

#endif
