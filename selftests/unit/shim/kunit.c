// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: the KUnit runner.  Runs every registered suite, one TAP line
 * per case (per parameter for parameterised cases, "# SKIP reason" for a
 * skipped one), with the failed checks as diagnostics before it.  A case
 * also fails if it WARNs, leaves a kernel FPU section or softirq masking
 * unbalanced, or (when it passed otherwise) leaks kmalloc/page memory.
 */
#include <fnmatch.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <kunit/test.h>

#include "shim.h"

#define ECP_KUNIT_MAX_SUITES	64

static struct kunit_suite *ecp_kunit_suites[ECP_KUNIT_MAX_SUITES];
static int ecp_kunit_nr_suites;
static int ecp_kunit_tap_nr;
static sigjmp_buf ecp_kunit_abort;
static struct kunit *ecp_kunit_current;

struct ecp_kunit_res {
	struct ecp_kunit_res *next;
	void *ptr;
};

void ecp_kunit_register(struct kunit_suite *suite)
{
	if (ecp_kunit_nr_suites == ECP_KUNIT_MAX_SUITES) {
		fprintf(stderr, "kunit shim: too many suites\n");
		exit(2);
	}
	ecp_kunit_suites[ecp_kunit_nr_suites++] = suite;
}

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	struct ecp_kunit_res *r = malloc(sizeof(*r));

	if (!r)
		return NULL;
	r->ptr = kmalloc_array(n, size, gfp);
	if (!r->ptr) {
		free(r);
		return NULL;
	}
	r->next = test->shim_res;
	test->shim_res = r;
	return r->ptr;
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct ecp_kunit_res **pp, *r;

	for (pp = (struct ecp_kunit_res **)&test->shim_res; (r = *pp); pp = &r->next) {
		if (r->ptr == ptr) {
			*pp = r->next;
			kfree(r->ptr);
			free(r);
			return;
		}
	}
	KUNIT_FAIL(test, "kunit_kfree(%p): not a managed allocation", ptr);
}

static void ecp_kunit_free_all(struct kunit *test)
{
	struct ecp_kunit_res *r, *next;

	for (r = test->shim_res; r; r = next) {
		next = r->next;
		kfree(r->ptr);
		free(r);
	}
	test->shim_res = NULL;
}

void kunit_shim_log(struct kunit *test, const char *fmt, ...)
{
	va_list ap;
	int n;

	printf("# %s: ", test->name);
	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	if (n > 0 && fmt[strlen(fmt) - 1] != '\n')
		putchar('\n');
}

static void ecp_kunit_vcomment(struct kunit *test, const char *fmt, va_list ap)
{
	vsnprintf(test->status_comment, sizeof(test->status_comment), fmt, ap);
	strim(test->status_comment);
}

void kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	if (test->status == KUNIT_FAILURE)
		return;
	test->status = KUNIT_SKIPPED;
	va_start(ap, fmt);
	ecp_kunit_vcomment(test, fmt, ap);
	va_end(ap);
}

void kunit_skip(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	if (test->status != KUNIT_FAILURE) {
		test->status = KUNIT_SKIPPED;
		va_start(ap, fmt);
		ecp_kunit_vcomment(test, fmt, ap);
		va_end(ap);
	}
	siglongjmp(ecp_kunit_abort, 1);
}

static void ecp_kunit_failed(struct kunit *test, bool assert)
{
	test->status = KUNIT_FAILURE;
	fflush(stdout);
	if (assert)
		siglongjmp(ecp_kunit_abort, 1);
}

void ecp_kunit_fail(struct kunit *test, const char *file, int line,
		    bool assert, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("# %s: %s failed at %s:%d\n# %s\n", test->name,
	       assert ? "ASSERTION" : "EXPECTATION", file, line, msg);
	ecp_kunit_failed(test, assert);
}

void ecp_kunit_fail_binary(struct kunit *test, const char *file, int line,
			   bool assert, const char *l, const char *op,
			   const char *r, long long lv, long long rv,
			   const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("# %s: %s failed at %s:%d\n", test->name,
	       assert ? "ASSERTION" : "EXPECTATION", file, line);
	printf("# expected %s %s %s, but\n#   %s == %lld (%#llx)\n#   %s == %lld (%#llx)\n",
	       l, op, r, l, lv, (unsigned long long)lv, r, rv,
	       (unsigned long long)rv);
	if (msg[0])
		printf("# %s\n", msg);
	ecp_kunit_failed(test, assert);
}

/* A fault in a case is that case's oops: fail it, go on with the next. */
static void ecp_kunit_fault(int sig, siginfo_t *si, void *uc __maybe_unused)
{
	static const char msg[] = "# oops: bad memory access in a test case\n";

	if (!ecp_kunit_current) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	printf("# %s: signal %d at address %p\n", ecp_kunit_current->name, sig,
	       si->si_addr);
	ecp_kunit_failed(ecp_kunit_current, true);
}

static void ecp_kunit_catch_faults(void)
{
	struct sigaction sa = { .sa_sigaction = ecp_kunit_fault,
				.sa_flags = SA_SIGINFO | SA_NODEFER };

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* WARN and BUG during a case (shim/bug.c). */
static void ecp_kunit_on_bug(bool fatal)
{
	ecp_kunit_failed(ecp_kunit_current, fatal);
}

static void ecp_kunit_tap(const char *suite, const char *name,
			  const char *param, const struct kunit *t)
{
	ecp_kunit_tap_nr++;
	printf("%s %d - %s.%s%s%s", t->status == KUNIT_FAILURE ? "not ok" : "ok",
	       ecp_kunit_tap_nr, suite, name, param ? "." : "", param ? param : "");
	if (t->status == KUNIT_SKIPPED)
		printf(" # SKIP %s", t->status_comment);
	putchar('\n');
	fflush(stdout);
}

static enum kunit_status ecp_kunit_run_case(struct kunit_suite *suite,
					    struct kunit_case *c,
					    const void *param,
					    const char *desc, int index)
{
	/* Static: longjmp() leaves automatic variables indeterminate. */
	static struct kunit t;
	static long allocs;

	memset(&t, 0, sizeof(t));
	t.name = c->name;
	t.param_value = param;
	t.param_index = index;
	allocs = ecp_shim_allocs();
	ecp_kunit_current = &t;
	ecp_shim_on_bug = ecp_kunit_on_bug;
	if (!sigsetjmp(ecp_kunit_abort, 1)) {
		if (!suite->init || !suite->init(&t))
			c->run_case(&t);
		else
			KUNIT_FAIL(&t, "suite init failed");
	}
	if (suite->exit && !sigsetjmp(ecp_kunit_abort, 1))
		suite->exit(&t);
	ecp_kunit_free_all(&t);
	/* A failed check here must not jump back into a finished case. */
	if (!sigsetjmp(ecp_kunit_abort, 1)) {
		if (ecp_shim_fpu_reset())
			KUNIT_FAIL(&t, "left a kernel FPU section open");
		if (ecp_shim_bh_reset())
			KUNIT_FAIL(&t, "left softirqs masked (or unmasked them twice)");
		if (t.status == KUNIT_SUCCESS && ecp_shim_allocs() != allocs)
			KUNIT_FAIL(&t, "leaked %ld allocations",
				   ecp_shim_allocs() - allocs);
	}
	ecp_shim_on_bug = NULL;
	ecp_kunit_current = NULL;
	ecp_kunit_tap(suite->name, c->name, desc, &t);
	return t.status;
}

static void ecp_kunit_count(enum kunit_status s, int *passed, int *failed,
			    int *skipped)
{
	if (s == KUNIT_FAILURE)
		(*failed)++;
	else if (s == KUNIT_SKIPPED)
		(*skipped)++;
	else
		(*passed)++;
}

int ecp_kunit_run_all(const char *filter, int *passed, int *skipped)
{
	int i, failed = 0;

	*passed = *skipped = 0;
	ecp_kunit_catch_faults();
	for (i = 0; i < ecp_kunit_nr_suites; i++) {
		struct kunit_suite *s = ecp_kunit_suites[i];
		struct kunit_case *c;

		if (filter && fnmatch(filter, s->name, 0))
			continue;
		printf("# Subtest: %s\n", s->name);
		if (s->suite_init && s->suite_init(s)) {
			ecp_kunit_tap_nr++;
			printf("not ok %d - %s: suite_init failed\n",
			       ecp_kunit_tap_nr, s->name);
			failed++;
			continue;
		}
		for (c = s->test_cases; c->run_case; c++) {
			char desc[KUNIT_PARAM_DESC_SIZE];
			const void *p;
			int idx = 0;

			if (!c->generate_params) {
				ecp_kunit_count(ecp_kunit_run_case(s, c, NULL, NULL, 0),
						passed, &failed, skipped);
				continue;
			}
			desc[0] = 0;
			for (p = c->generate_params(NULL, desc); p;
			     p = c->generate_params(p, desc)) {
				if (!desc[0])
					snprintf(desc, sizeof(desc), "param-%d", idx);
				ecp_kunit_count(ecp_kunit_run_case(s, c, p, desc, idx),
						passed, &failed, skipped);
				desc[0] = 0;
				idx++;
			}
		}
		if (s->suite_exit)
			s->suite_exit(s);
	}
	printf("1..%d\n", ecp_kunit_tap_nr);
	return failed;
}
