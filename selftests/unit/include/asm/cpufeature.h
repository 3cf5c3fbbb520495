/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: CPU features from CPUID and XGETBV (shim/cpu.c).  A test can
 * hide a feature (ecp_shim_cpu_hide()) to see how code behaves on a CPU
 * without it; the answers then say no exactly as the kernel's would.
 */
#ifndef _SHIM_ASM_CPUFEATURE_H
#define _SHIM_ASM_CPUFEATURE_H

#include <linux/types.h>

enum ecp_shim_feature {
	X86_FEATURE_SSSE3,
	X86_FEATURE_AVX,
	X86_FEATURE_AVX2,
	X86_FEATURE_AVX512F,
	X86_FEATURE_AVX512BW,
	X86_FEATURE_AVX512VL,
	X86_FEATURE_GFNI,
	X86_FEATURE_OSXSAVE,
	ECP_SHIM_NR_FEATURES,
};

#define XFEATURE_MASK_FP		(1ULL << 0)
#define XFEATURE_MASK_SSE		(1ULL << 1)
#define XFEATURE_MASK_YMM		(1ULL << 2)
#define XFEATURE_MASK_OPMASK		(1ULL << 5)
#define XFEATURE_MASK_ZMM_Hi256		(1ULL << 6)
#define XFEATURE_MASK_Hi16_ZMM		(1ULL << 7)
#define XFEATURE_MASK_AVX512 \
	(XFEATURE_MASK_OPMASK | XFEATURE_MASK_ZMM_Hi256 | XFEATURE_MASK_Hi16_ZMM)

bool boot_cpu_has(enum ecp_shim_feature f);
#define static_cpu_has(f)	boot_cpu_has(f)
int cpu_has_xfeatures(u64 xfeatures_needed, const char **feature_name);

/* The feature's name in /proc/cpuinfo. */
const char *ecp_shim_feature_name(enum ecp_shim_feature f);
/* Make boot_cpu_has(f) false, or true again if the CPU has it. */
void ecp_shim_cpu_hide(enum ecp_shim_feature f, bool hide);
/* Make cpu_has_xfeatures() refuse these state components. */
void ecp_shim_xfeatures_hide(u64 mask);
/* Hide the feature named as in /proc/cpuinfo for the whole run; -1 if
 * the shim does not know it. */
int ecp_shim_cpu_hide_for_run(const char *name);
/* Back to the CPU as the run started (features hidden for it stay so). */
void ecp_shim_cpu_reset(void);
/*
 * The name of the last feature or state component asked about and not
 * present, or NULL; reset by ecp_shim_cpu_reset_missing().  Tells the
 * runner why an implementation is not usable.
 */
const char *ecp_shim_cpu_missing(void);
void ecp_shim_cpu_reset_missing(void);

#endif
