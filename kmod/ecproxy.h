/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_ECPROXY_H
#define _ECP_ECPROXY_H

#define ECP_VERSION "0.1.0"

int ecp_netlink_init(void);
void ecp_netlink_exit(void);
int ecp_netns_init(void);
void ecp_netns_exit(void);

#endif
