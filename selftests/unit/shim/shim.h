/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: what the runner needs from the shim beyond the kernel API. */
#ifndef _ECP_SHIM_H
#define _ECP_SHIM_H

#include <linux/types.h>

struct kunit;

/* Reset per-case state; true if the case left it unbalanced. */
bool ecp_shim_fpu_reset(void);
bool ecp_shim_bh_reset(void);

/*
 * Called by WARN (fatal false) and BUG (true) while set; the KUnit runner
 * sets it during a case to fail the case, and for BUG to end it.
 */
extern void (*ecp_shim_on_bug)(bool fatal);

/* Print pr_info() and pr_err() too (ECP_UNIT_VERBOSE=1). */
extern bool ecp_shim_verbose;

/* Run every registered suite whose name matches @filter (NULL: all),
 * print TAP; returns the number of failed cases. */
int ecp_kunit_run_all(const char *filter, int *passed, int *skipped);

#endif
