// SPDX-License-Identifier: GPL-2.0
/*
 * ecproxy_kunit.ko: every KUnit suite of ecproxy, run on load.  It tests the
 * internal functions ecproxy.ko exports with EXPORT_SYMBOL_IF_KUNIT() when
 * the kernel has KUnit (the debug VM), so the suites test the very module
 * the netns tests load.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ecproxy");
/* Kbuild defines ECP_NS_STRING where namespaces are strings (6.13+). */
#ifdef ECP_NS_STRING
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
#else
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#endif
