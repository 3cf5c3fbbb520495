/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reporting for libecp: functions that can fail take a
 * struct ecp_err * (may be NULL) and fill it with a one-line, human-readable
 * message (no trailing newline, no "Error:" prefix) before returning < 0.
 */
#ifndef ECP_ERR_H
#define ECP_ERR_H

#define ECP_ERR_MAX 512

struct ecp_err {
	char msg[ECP_ERR_MAX];
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int ecp_err_set(struct ecp_err *e, const char *fmt, ...);

#endif
