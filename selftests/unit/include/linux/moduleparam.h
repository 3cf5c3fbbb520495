/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: module parameters become entries in a table the test runner
 * and the benchmark set by name (ecp_shim_param_set()), going through the
 * parameter's own set() the way insmod or a sysfs write would.
 */
#ifndef _SHIM_LINUX_MODULEPARAM_H
#define _SHIM_LINUX_MODULEPARAM_H

#include <linux/types.h>

struct module;
struct kernel_param;

struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};

struct kernel_param {
	const char *name;
	const struct kernel_param_ops *ops;
	u16 perm;
	void *arg;
	struct kernel_param *shim_next;
};

extern const struct kernel_param_ops param_ops_uint;
extern const struct kernel_param_ops param_ops_int;
extern const struct kernel_param_ops param_ops_bool;

void ecp_shim_param_register(struct kernel_param *kp);
/* 0 or the set() error; -ENOENT for an unknown name. */
int ecp_shim_param_set(const char *name, const char *val);
/* The value as sysfs would show it (trailing newline dropped). */
int ecp_shim_param_get(const char *name, char *buf);

#define module_param_cb(name, ops, arg, perm)				\
	static struct kernel_param __param_##name = {			\
		#name, ops, perm, arg, NULL };				\
	__attribute__((constructor)) static void __param_reg_##name(void) \
	{ ecp_shim_param_register(&__param_##name); }

#define module_param_named(name, value, type, perm)			\
	module_param_cb(name, &param_ops_##type, &(value), perm)
#define module_param(name, type, perm) module_param_named(name, name, type, perm)
#define MODULE_PARM_DESC(name, desc)

static inline void kernel_param_lock(struct module *mod __maybe_unused)
{
}

static inline void kernel_param_unlock(struct module *mod __maybe_unused)
{
}

#endif
