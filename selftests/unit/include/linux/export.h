/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: everything is linked into one program; exports are no-ops. */
#ifndef _SHIM_LINUX_EXPORT_H
#define _SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

#endif
