/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for the C tests: tap_plan(N) first, then one
 * tap_ok() per case; tap_done() returns the exit status (non-zero if any
 * case failed or the count does not match the plan).  tap_diag() prints
 * "# ..." diagnostics.
 */
#ifndef ECP_TAP_H
#define ECP_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_planned, tap_run, tap_failed;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

static inline int tap_done(void)
{
	if (tap_run != tap_planned) {
		tap_diag("planned %d tests but ran %d", tap_planned, tap_run);
		return 1;
	}
	return tap_failed ? 1 : 0;
}

#endif
