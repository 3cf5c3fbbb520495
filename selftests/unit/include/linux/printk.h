/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: printk and pr_*() print to stdout as TAP diagnostics
 * ("# ..."), so a test run's log stays valid TAP.
 */
#ifndef _SHIM_LINUX_PRINTK_H
#define _SHIM_LINUX_PRINTK_H

#include <linux/compiler.h>

#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"
#define KERN_CONT	"<c>"

__printf(1, 2) int printk(const char *fmt, ...);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
/* Like the kernel without DEBUG or dynamic debug: compiled, not printed. */
#define pr_debug(fmt, ...) \
	do { if (0) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_info_once	pr_info
#define pr_warn_once	pr_warn
#define pr_err_once	pr_err
#define pr_info_ratelimited pr_info
#define pr_warn_ratelimited pr_warn
#define net_dbg_ratelimited pr_debug

#endif
