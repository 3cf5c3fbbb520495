/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events for the "events" multicast group (ecctl monitor); see
 * uapi/linux/ecproxy.h.  Any context; never sleeps in the data path.
 */
#ifndef _ECP_EVENT_H
#define _ECP_EVENT_H

#include <linux/types.h>

struct ecp_task;
struct net;

/* Index of the group in the family's mcgrps. */
#define ECP_MCGRP_EVENTS	0

/* TASK_ADDED, TASK_DELETED, TASK_CHANGED, TASK_STARTED.  Process context. */
void ecp_event_task(struct net *net, const struct ecp_task *t, u8 type);

/*
 * CONN_ESTABLISHED, CONN_DONE, CONN_FAILED of the client at
 * client:cport, connected since @start (jiffies), @bytes sent to it;
 * @cpu, the connection's home CPU, for CONN_ESTABLISHED (-1: none);
 * @err, @err_src and @err_tgt (a source or target index or -1) for
 * CONN_FAILED.  A task with targets has no client: CONN_DONE and
 * CONN_FAILED become TASK_COMPLETED and TASK_FAILED.  Any context.
 */
void ecp_event_conn(struct net *net, const struct ecp_task *t, u8 type,
		    __be32 client, __be16 cport, u64 bytes,
		    unsigned long start, int cpu, u8 err, int err_src,
		    int err_tgt);

#endif
