// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: CPU features from CPUID, OS-enabled state from XGETBV, and the
 * kernel FPU section bookkeeping.  Features can be hidden so that tests see
 * the kernel's answers for a CPU without them.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/processor.h>
#include <linux/bug.h>

struct cpuinfo_x86 boot_cpu_data;

static const struct {
	const char *name;
	unsigned int leaf, subleaf, reg, bit;	/* reg: 0 eax .. 3 edx */
} ecp_shim_features[ECP_SHIM_NR_FEATURES] = {
	[X86_FEATURE_SSSE3]	= { "ssse3", 1, 0, 2, 9 },
	[X86_FEATURE_AVX]	= { "avx", 1, 0, 2, 28 },
	[X86_FEATURE_OSXSAVE]	= { "osxsave", 1, 0, 2, 27 },
	[X86_FEATURE_AVX2]	= { "avx2", 7, 0, 1, 5 },
	[X86_FEATURE_AVX512F]	= { "avx512f", 7, 0, 1, 16 },
	[X86_FEATURE_AVX512BW]	= { "avx512bw", 7, 0, 1, 30 },
	[X86_FEATURE_AVX512VL]	= { "avx512vl", 7, 0, 1, 31 },
	[X86_FEATURE_GFNI]	= { "gfni", 7, 0, 2, 8 },
};

static bool ecp_shim_probed;
static bool ecp_shim_has[ECP_SHIM_NR_FEATURES];
static bool ecp_shim_hidden[ECP_SHIM_NR_FEATURES];
static bool ecp_shim_hidden_base[ECP_SHIM_NR_FEATURES];
static u64 ecp_shim_xcr0, ecp_shim_xcr0_hidden;
static const char *ecp_shim_missing;

static u64 ecp_shim_xgetbv(void)
{
	u32 lo, hi;

	__asm__ volatile("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	return (u64)hi << 32 | lo;
}

static void ecp_shim_cpu_probe(void)
{
	unsigned int r[4], max, i;
	char vendor[13];

	if (ecp_shim_probed)
		return;
	ecp_shim_probed = true;
	__cpuid(0, max, r[1], r[2], r[3]);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	vendor[12] = 0;
	boot_cpu_data.x86_vendor = !strcmp(vendor, "GenuineIntel") ? X86_VENDOR_INTEL :
				   !strcmp(vendor, "AuthenticAMD") ? X86_VENDOR_AMD :
				   X86_VENDOR_UNKNOWN;
	__cpuid(1, r[0], r[1], r[2], r[3]);
	boot_cpu_data.x86 = (r[0] >> 8) & 0xf;
	boot_cpu_data.x86_model = (r[0] >> 4) & 0xf;
	if (boot_cpu_data.x86 == 0xf)
		boot_cpu_data.x86 += (r[0] >> 20) & 0xff;
	if (boot_cpu_data.x86 >= 6)
		boot_cpu_data.x86_model |= ((r[0] >> 16) & 0xf) << 4;

	for (i = 0; i < ECP_SHIM_NR_FEATURES; i++) {
		unsigned int leaf = ecp_shim_features[i].leaf;

		if (leaf > max ||
		    !__get_cpuid_count(leaf, ecp_shim_features[i].subleaf,
				       &r[0], &r[1], &r[2], &r[3]))
			continue;
		ecp_shim_has[i] = r[ecp_shim_features[i].reg] >>
				  ecp_shim_features[i].bit & 1;
	}
	if (ecp_shim_has[X86_FEATURE_OSXSAVE])
		ecp_shim_xcr0 = ecp_shim_xgetbv();

	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000004) {
		for (i = 0; i < 3; i++) {
			__cpuid(0x80000002 + i, r[0], r[1], r[2], r[3]);
			memcpy(boot_cpu_data.x86_model_id + 16 * i, r, 16);
		}
		boot_cpu_data.x86_model_id[48] = 0;
	}
}

__attribute__((constructor)) static void ecp_shim_cpu_init(void)
{
	ecp_shim_cpu_probe();
}

bool boot_cpu_has(enum ecp_shim_feature f)
{
	if (ecp_shim_has[f] && !ecp_shim_hidden[f])
		return true;
	ecp_shim_missing = ecp_shim_features[f].name;
	return false;
}

int cpu_has_xfeatures(u64 xfeatures_needed, const char **feature_name)
{
	u64 have = ecp_shim_xcr0 & ~ecp_shim_xcr0_hidden;

	if ((have & xfeatures_needed) == xfeatures_needed)
		return 1;
	ecp_shim_missing = xfeatures_needed & ~have & XFEATURE_MASK_AVX512 ?
			   "OS-enabled AVX-512 state" :
			   "OS-enabled SSE/AVX state";
	if (feature_name)
		*feature_name = ecp_shim_missing;
	return 0;
}

const char *ecp_shim_feature_name(enum ecp_shim_feature f)
{
	return ecp_shim_features[f].name;
}

void ecp_shim_cpu_hide(enum ecp_shim_feature f, bool hide)
{
	ecp_shim_hidden[f] = hide;
}

void ecp_shim_xfeatures_hide(u64 mask)
{
	ecp_shim_xcr0_hidden = mask;
}

void ecp_shim_cpu_reset(void)
{
	memcpy(ecp_shim_hidden, ecp_shim_hidden_base, sizeof(ecp_shim_hidden));
	ecp_shim_xcr0_hidden = 0;
}

int ecp_shim_cpu_hide_for_run(const char *name)
{
	int f;

	for (f = 0; f < ECP_SHIM_NR_FEATURES; f++) {
		if (!strcmp(name, ecp_shim_features[f].name)) {
			ecp_shim_hidden[f] = ecp_shim_hidden_base[f] = true;
			return 0;
		}
	}
	return -1;
}

const char *ecp_shim_cpu_missing(void)
{
	return ecp_shim_missing;
}

void ecp_shim_cpu_reset_missing(void)
{
	ecp_shim_missing = NULL;
}

static bool ecp_shim_in_fpu, ecp_shim_fpu_denied;
static unsigned long ecp_shim_nr_sections;

/* Like 6.1: false inside a kernel FPU section (or where it is denied). */
bool irq_fpu_usable(void)
{
	return !ecp_shim_in_fpu && !ecp_shim_fpu_denied;
}

void kernel_fpu_begin(void)
{
	/* The kernel WARNs here too (WARN_ON_FPU(!irq_fpu_usable())). */
	WARN_ON(!irq_fpu_usable());
	ecp_shim_in_fpu = true;
	ecp_shim_nr_sections++;
}

void kernel_fpu_end(void)
{
	WARN_ON(!ecp_shim_in_fpu);
	ecp_shim_in_fpu = false;
}

unsigned long ecp_shim_fpu_sections(void)
{
	return ecp_shim_nr_sections;
}

void ecp_shim_fpu_deny(bool deny)
{
	ecp_shim_fpu_denied = deny;
}

/* For the runner: a case must not leave a section open. */
bool ecp_shim_fpu_reset(void)
{
	bool was_open = ecp_shim_in_fpu;

	ecp_shim_in_fpu = false;
	ecp_shim_fpu_denied = false;
	return was_open;
}
