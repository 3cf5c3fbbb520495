/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: userspace owns its vector registers, so a kernel FPU section
 * needs no state saving.  It is still tracked: irq_fpu_usable() is false
 * inside one (as in 6.1), nesting is a WARN, and sections are counted so
 * tests can check the chunking that keeps them short.
 */
#ifndef _SHIM_ASM_FPU_API_H
#define _SHIM_ASM_FPU_API_H

#include <linux/types.h>

void kernel_fpu_begin(void);
void kernel_fpu_end(void);
bool irq_fpu_usable(void);

/* kernel_fpu_begin() calls so far. */
unsigned long ecp_shim_fpu_sections(void);
/* Make irq_fpu_usable() false everywhere, as in a softirq that interrupted
 * another kernel FPU user. */
void ecp_shim_fpu_deny(bool deny);

#endif
