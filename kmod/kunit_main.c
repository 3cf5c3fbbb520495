// SPDX-License-Identifier: GPL-2.0
/*
 * ecproxy_kunit.ko: every KUnit suite of ecproxy, run on load.  It tests the
 * functions ecproxy.ko exports in the ECPROXY_KUNIT namespace when built
 * with ECP_KUNIT=y (see kunit_export.h).
 */
#include <linux/module.h>

#include "kunit_export.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ecproxy");
MODULE_IMPORT_NS(ECP_KUNIT_NS);
