/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * ecproxy: in-network erasure-code reconstruction, generic netlink ABI.
 *
 * The family is "ecproxy" (ECPROXY_GENL_NAME), version ECPROXY_GENL_VERSION.
 * Opening it autoloads the module.  Every command is per network namespace:
 * it acts on the namespace of the socket that sends it, and needs
 * CAP_NET_ADMIN in the user namespace owning that network namespace.
 *
 * ECPROXY_CMD_GET_INFO
 * --------------------
 *
 * Takes no attributes.  Answers with one message holding:
 *
 *    ECPROXY_A_INFO_VERSION: NLA_NUL_STRING, the module version
 *    ECPROXY_A_INFO_GF_IMPL: NLA_NUL_STRING, the name of the GF(2^8)
 *                            implementation the data path uses
 *    ECPROXY_A_INFO_GF_AVAIL: NLA_NESTED, one ECPROXY_A_INFO_GF_IMPL
 *                            string per implementation this CPU can run
 *
 * Errors carry an extended-ack message; tools should print it.
 */
#ifndef _UAPI_LINUX_ECPROXY_H
#define _UAPI_LINUX_ECPROXY_H

#define ECPROXY_GENL_NAME "ecproxy"
#define ECPROXY_GENL_VERSION 1

enum ecproxy_cmd {
	ECPROXY_CMD_UNSPEC,
	ECPROXY_CMD_GET_INFO,
	__ECPROXY_CMD_MAX
};
#define ECPROXY_CMD_MAX (__ECPROXY_CMD_MAX - 1)

enum ecproxy_info_attr {
	ECPROXY_A_INFO_UNSPEC,
	ECPROXY_A_INFO_VERSION,
	ECPROXY_A_INFO_GF_IMPL,
	ECPROXY_A_INFO_GF_AVAIL,
	__ECPROXY_A_INFO_MAX
};
#define ECPROXY_A_INFO_MAX (__ECPROXY_A_INFO_MAX - 1)

#endif /* _UAPI_LINUX_ECPROXY_H */
