/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: module metadata compiles to nothing; the units are linked in. */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H

#include <linux/export.h>
#include <linux/moduleparam.h>

struct module;

#define THIS_MODULE			((struct module *)0)
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_VERSION(x)
#define MODULE_ALIAS(x)
#define MODULE_IMPORT_NS(x)

#endif
