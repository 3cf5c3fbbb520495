/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the bitmap helpers the tests' models use. */
#ifndef _SHIM_LINUX_BITMAP_H
#define _SHIM_LINUX_BITMAP_H

#include <linux/bitops.h>
#include <linux/string.h>

#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_set(unsigned long *map, unsigned int start,
			      unsigned int nbits)
{
	while (nbits--)
		__set_bit(start++, map);
}

static inline void bitmap_clear(unsigned long *map, unsigned int start,
				unsigned int nbits)
{
	while (nbits--)
		__clear_bit(start++, map);
}

#endif
