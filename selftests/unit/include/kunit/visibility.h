/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: everything is linked into one program, as with KUnit on. */
#ifndef _SHIM_KUNIT_VISIBILITY_H
#define _SHIM_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
