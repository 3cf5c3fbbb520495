/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the compiler helpers kernel code takes for granted (the
 * kernel's compiler_types.h is force-included; here every shim header
 * that needs them includes this one).
 */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

/* glibc defines it the same way. */
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __packed		__attribute__((__packed__))
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __noreturn		__attribute__((__noreturn__))
#define __percpu
#define __user
#define __iomem
#define __force
#define __bitwise
#define __rcu

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")

#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile typeof(x) *)&(x) = (val); } while (0)

#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))

#endif
