/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the boot CPU's vendor, family and model, from CPUID. */
#ifndef _SHIM_ASM_PROCESSOR_H
#define _SHIM_ASM_PROCESSOR_H

#include <linux/types.h>

#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
#define X86_VENDOR_UNKNOWN	0xff

struct cpuinfo_x86 {
	u8 x86;			/* family */
	u8 x86_vendor;
	u8 x86_model;
	char x86_model_id[64];
};

extern struct cpuinfo_x86 boot_cpu_data;

#endif
