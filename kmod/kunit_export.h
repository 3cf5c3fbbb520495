/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit suites live in their own module (ecproxy_kunit.ko) and test the
 * very ecproxy.ko that the netns tests load, so internal functions under
 * test are exported, in a namespace, only from the test build.
 */
#ifndef _ECP_KUNIT_EXPORT_H
#define _ECP_KUNIT_EXPORT_H

#include <linux/export.h>

/* Kbuild defines ECP_NS_STRING where namespaces are strings (6.13+). */
#ifdef ECP_NS_STRING
#define ECP_KUNIT_NS "ECPROXY_KUNIT"
#else
#define ECP_KUNIT_NS ECPROXY_KUNIT
#endif

#ifdef ECP_KUNIT
#define ECP_EXPORT_FOR_TESTS(sym) EXPORT_SYMBOL_NS_GPL(sym, ECP_KUNIT_NS)
#else
#define ECP_EXPORT_FOR_TESTS(sym)
#endif

#endif
