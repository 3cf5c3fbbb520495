/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the Intel model numbers the units look at. */
#ifndef _SHIM_ASM_INTEL_FAMILY_H
#define _SHIM_ASM_INTEL_FAMILY_H

#define INTEL_FAM6_SKYLAKE_X	0x55

#endif
