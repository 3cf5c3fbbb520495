/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: the kernel's Tausworthe generator (lib/random32.c), the same
 * sequence for the same seed as in the kernel.
 */
#ifndef _SHIM_LINUX_PRANDOM_H
#define _SHIM_LINUX_PRANDOM_H

#include <linux/random.h>
#include <linux/types.h>

struct rnd_state {
	__u32 s1, s2, s3, s4;
};

u32 prandom_u32_state(struct rnd_state *state);
void prandom_bytes_state(struct rnd_state *state, void *buf, size_t nbytes);

static inline u32 __seed(u32 x, u32 m)
{
	return (x < m) ? x + m : x;
}

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	u32 i = ((seed >> 32) ^ (seed << 10) ^ seed) & 0xffffffffUL;

	state->s1 = __seed(i,   2U);
	state->s2 = __seed(i,   8U);
	state->s3 = __seed(i,  16U);
	state->s4 = __seed(i, 128U);
}

#endif
