// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: what WARN and BUG do.  The debug VM boots with panic_on_warn,
 * so a WARN is as fatal as a BUG there; here it fails the running test
 * case (the KUnit runner's hook), and outside a case it ends the program.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/bug.h>

#include "shim.h"

void (*ecp_shim_on_bug)(bool fatal);

void ecp_shim_warn(const char *file, int line, const char *cond)
{
	printf("# WARNING at %s:%d: %s\n", file, line, cond);
	fflush(stdout);
	if (!ecp_shim_on_bug) {
		fprintf(stderr, "WARN outside a test case: %s:%d: %s\n", file,
			line, cond);
		exit(1);
	}
	ecp_shim_on_bug(false);
}

void ecp_shim_bug(const char *file, int line, const char *cond)
{
	printf("# kernel BUG at %s:%d: %s\n", file, line, cond);
	fflush(stdout);
	if (ecp_shim_on_bug)
		ecp_shim_on_bug(true);
	abort();
}
