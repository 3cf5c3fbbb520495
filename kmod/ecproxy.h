/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ECP_ECPROXY_H
#define _ECP_ECPROXY_H

#define ECP_VERSION "0.1.0"

#endif
