/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte counts on command lines ("buffer 256k", "cell 1m"), one parser for
 * every tool so that they all take the same spellings.
 */
#ifndef ECP_SIZE_H
#define ECP_SIZE_H

#include <stdint.h>

#define ECP_SIZE_BAD	(-1)	/* not a size */
#define ECP_SIZE_BIG	(-2)	/* a size, but above the maximum */

/*
 * Parse s as a byte count: an unsigned integer as strtoull reads it with
 * base 0 (decimal, 0x hex, 0 octal), optionally followed by one binary
 * suffix k, m or g (KiB, MiB, GiB, either case) and nothing else.
 * Returns 0 with *out set, ECP_SIZE_BAD (empty, a sign, junk, overflow)
 * or ECP_SIZE_BIG (more than max).
 */
int ecp_parse_size(const char *s, uint64_t max, uint64_t *out);

#endif
