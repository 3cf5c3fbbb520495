/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_EXTACK_H
#define _ECP_EXTACK_H

#include <linux/netlink.h>

/*
 * Set a formatted extended-ack message, and the offending attribute if
 * attr is not NULL.  Works on 6.1, which lacks NL_SET_ERR_MSG_FMT; see
 * extack.c for the message's lifetime.
 */
__printf(3, 4)
void ecp_extack_fmt(struct netlink_ext_ack *extack, const struct nlattr *attr,
		    const char *fmt, ...);

/* Report that a required attribute is missing, naming it. */
void ecp_extack_missing(struct netlink_ext_ack *extack,
			const struct nlattr *nest, int type, const char *name);

#endif
