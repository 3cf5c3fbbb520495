/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: single bits, bit counts and the find_*_bit() searches. */
#ifndef _SHIM_LINUX_BITOPS_H
#define _SHIM_LINUX_BITOPS_H

#include <linux/kernel.h>

#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define BITS_PER_TYPE(t)	(sizeof(t) * BITS_PER_BYTE)
#define BITS_TO_LONGS(n)	DIV_ROUND_UP(n, BITS_PER_LONG)
#define BIT_WORD(n)		((n) / BITS_PER_LONG)
#define BIT_MASK(n)		(1UL << ((n) % BITS_PER_LONG))
#define GENMASK(h, l)		(((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	(((~0ULL) << (l)) & (~0ULL >> (63 - (h))))

#define hweight8(w)		__builtin_popcount((u8)(w))
#define hweight16(w)		__builtin_popcount((u16)(w))
#define hweight32(w)		__builtin_popcount((u32)(w))
#define hweight64(w)		__builtin_popcountll((u64)(w))
#define hweight_long(w)		__builtin_popcountl((unsigned long)(w))

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[BIT_WORD(nr)] & BIT_MASK(nr);
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

#define set_bit		__set_bit
#define clear_bit	__clear_bit

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr,
				 unsigned long size, unsigned long offset);

static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

static inline unsigned long find_first_zero_bit(const unsigned long *addr,
						unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}

#endif
