// SPDX-License-Identifier: GPL-2.0
/*
 * Host shim: module parameters, set and read by name through their ops,
 * as insmod and sysfs would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sysfs.h>

static struct kernel_param *ecp_shim_params;

void ecp_shim_param_register(struct kernel_param *kp)
{
	kp->shim_next = ecp_shim_params;
	ecp_shim_params = kp;
}

static struct kernel_param *ecp_shim_param_find(const char *name)
{
	struct kernel_param *kp;

	for (kp = ecp_shim_params; kp; kp = kp->shim_next)
		if (!strcmp(kp->name, name))
			return kp;
	return NULL;
}

int ecp_shim_param_set(const char *name, const char *val)
{
	struct kernel_param *kp = ecp_shim_param_find(name);

	if (!kp)
		return -ENOENT;
	return kp->ops->set(val, kp);
}

int ecp_shim_param_get(const char *name, char *buf)
{
	struct kernel_param *kp = ecp_shim_param_find(name);
	int n;

	if (!kp)
		return -ENOENT;
	n = kp->ops->get(buf, kp);
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return n;
}

static int ecp_shim_parse_ul(const char *val, unsigned long max,
			     unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(val, &end, 0);
	if (errno || end == val || (*end && *end != '\n') || *out > max ||
	    *val == '-')
		return -EINVAL;
	return 0;
}

static int ecp_shim_set_uint(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int ret = ecp_shim_parse_ul(val, UINT_MAX, &v);

	if (!ret)
		*(unsigned int *)kp->arg = v;
	return ret;
}

static int ecp_shim_get_uint(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", *(unsigned int *)kp->arg);
}

const struct kernel_param_ops param_ops_uint = {
	.set = ecp_shim_set_uint,
	.get = ecp_shim_get_uint,
};

static int ecp_shim_set_int(const char *val, const struct kernel_param *kp)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 0);
	if (errno || end == val || (*end && *end != '\n') || v > INT_MAX ||
	    v < INT_MIN)
		return -EINVAL;
	*(int *)kp->arg = v;
	return 0;
}

static int ecp_shim_get_int(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", *(int *)kp->arg);
}

const struct kernel_param_ops param_ops_int = {
	.set = ecp_shim_set_int,
	.get = ecp_shim_get_int,
};

static int ecp_shim_set_bool(const char *val, const struct kernel_param *kp)
{
	bool v;

	if (sysfs_streq(val, "1") || sysfs_streq(val, "y") ||
	    sysfs_streq(val, "Y"))
		v = true;
	else if (sysfs_streq(val, "0") || sysfs_streq(val, "n") ||
		 sysfs_streq(val, "N"))
		v = false;
	else
		return -EINVAL;
	*(bool *)kp->arg = v;
	return 0;
}

static int ecp_shim_get_bool(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%c\n", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = {
	.set = ecp_shim_set_bool,
	.get = ecp_shim_get_bool,
};
