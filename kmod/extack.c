// SPDX-License-Identifier: GPL-2.0
/*
 * Formatted extack messages.
 *
 * extack->_msg must stay valid until the netlink core copies it into the
 * ack, after the handler has returned, so the text cannot live on the
 * handler's stack.  Kernels before 6.2 have no buffer in the extack
 * (NL_SET_ERR_MSG_FMT and its 80-byte _msg_buf came in 6.2, and that
 * length would truncate our longer messages anyway), so messages go to a
 * ring of static slots.  A slot is reused after ECP_EXTACK_SLOTS further
 * errors; the window between formatting and copying is a few microseconds
 * of the same syscall, so a reader would have to be overtaken by 64
 * concurrent failing requests to see another request's text.  Even then
 * the last byte of every slot is never written, so the string stays
 * terminated: the worst case is a garbled message, never a bad read.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/netlink.h>

#include "extack.h"

#define ECP_EXTACK_SLOTS	64
#define ECP_EXTACK_LEN		192

static char ecp_extack_ring[ECP_EXTACK_SLOTS][ECP_EXTACK_LEN];
static atomic_t ecp_extack_next = ATOMIC_INIT(0);

void ecp_extack_fmt(struct netlink_ext_ack *extack, const struct nlattr *attr,
		    const char *fmt, ...)
{
	unsigned int slot;
	va_list ap;
	char *buf;

	if (!extack)
		return;
	slot = (unsigned int)atomic_inc_return(&ecp_extack_next) %
	       ECP_EXTACK_SLOTS;
	buf = ecp_extack_ring[slot];
	va_start(ap, fmt);
	vsnprintf(buf, ECP_EXTACK_LEN - 1, fmt, ap);
	va_end(ap);
	do_trace_netlink_extack(buf);
	extack->_msg = buf;
	extack->bad_attr = attr;
	extack->policy = NULL;
}

void ecp_extack_missing(struct netlink_ext_ack *extack,
			const struct nlattr *nest, int type, const char *name)
{
	ecp_extack_fmt(extack, nest, "missing attribute %s", name);
	NL_SET_ERR_ATTR_MISS(extack, nest, type);
}
