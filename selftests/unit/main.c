// SPDX-License-Identifier: GPL-2.0
/*
 * make unit: the pure units of kmod/ with their KUnit suites, and the
 * host-only suites next to this file, in one userspace program.
 *
 *   ecp-unit [SUITE-GLOB]     e.g. ecp-unit 'ecproxy_gf*'
 *
 * Like loading ecproxy.ko, it first runs ecp_gf_init() (field tables and
 * the load-time choice of implementation), then the suites.  TAP on
 * stdout, then "N passed, N failed"; exit status 1 on any failure.
 * ECP_UNIT_VERBOSE=1 shows the module's pr_info() lines.
 * ECP_UNIT_HIDE="gfni avx512bw" runs as on a CPU without those features
 * (names as in /proc/cpuinfo), to see what such a CPU would run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <asm/cpufeature.h>
#include <asm/processor.h>

#include "gf_impl.h"
#include "shim/shim.h"

/* Which implementations this CPU runs, and why the others cannot. */
static void ecp_unit_report_impls(void)
{
	char ran[128] = "", skipped[256] = "";
	int i;

	for (i = 0; ecp_gf_impls[i]; i++) {
		const struct ecp_gf_impl *impl = ecp_gf_impls[i];
		size_t n;

		ecp_shim_cpu_reset_missing();
		if (ecp_gf_impl_usable(impl)) {
			n = strlen(ran);
			snprintf(ran + n, sizeof(ran) - n, " %s", impl->name);
		} else {
			n = strlen(skipped);
			snprintf(skipped + n, sizeof(skipped) - n,
				 " %s (CPU lacks %s)", impl->name,
				 ecp_shim_cpu_missing() ?: "?");
		}
	}
	printf("# GF implementations this CPU runs:%s\n", ran);
	printf("# GF implementations skipped:%s\n", skipped[0] ? skipped : " none");
}

/* ECP_UNIT_HIDE: features to hide for the whole run. */
static int ecp_unit_hide(void)
{
	const char *env = getenv("ECP_UNIT_HIDE");
	char buf[256], *name, *save;

	if (!env)
		return 0;
	snprintf(buf, sizeof(buf), "%s", env);
	for (name = strtok_r(buf, " ,", &save); name;
	     name = strtok_r(NULL, " ,", &save)) {
		if (ecp_shim_cpu_hide_for_run(name)) {
			fprintf(stderr, "ECP_UNIT_HIDE: unknown feature %s\n", name);
			return -1;
		}
		printf("# hiding CPU feature %s\n", name);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *v = getenv("ECP_UNIT_VERBOSE");
	int passed, failed, skipped, ret;

	ecp_shim_verbose = v && *v && *v != '0';
	if (ecp_unit_hide())
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	printf("# host CPU: %s (family %d model %d)\n",
	       boot_cpu_data.x86_model_id, boot_cpu_data.x86,
	       boot_cpu_data.x86_model);
	ret = ecp_gf_init();
	if (ret) {
		printf("not ok 1 - ecp_gf_init() returned %d\n1..1\n0 passed, 1 failed\n",
		       ret);
		return 1;
	}
	printf("# gf_impl=auto chose %s\n", ecp_gf_impl_name());
	ecp_unit_report_impls();

	failed = ecp_kunit_run_all(argc > 1 ? argv[1] : NULL, &passed, &skipped);
	ecp_gf_exit();
	ecp_unit_report_impls();
	if (skipped)
		printf("# %d skipped\n", skipped);
	printf("%d passed, %d failed\n", passed, failed);
	return failed || !passed;
}
