/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keeping a connection's flows on one CPU.  A connection's segments come
 * in on k + 1 or more TCP flows, which a NIC's RSS (or RPS) spreads over
 * the CPUs by their hashes; every segment then takes the task's lock and
 * its rings, so on several CPUs they take them in turns and the cache
 * lines travel.  Each connection has a home CPU instead (steer.c: the
 * least loaded with RFS on and steer_by_load, else the one that accepted
 * it), and ecproxy tells Receive Flow Steering (RFS) that every one of
 * its flows belongs there, as a socket's recvmsg() tells it where its
 * reader runs (rps_record_sock_flow()).  RFS then moves each flow's
 * packets to that CPU after GRO (or a NIC that can steer, with
 * accelerated RFS, moves them itself), once the flow's earlier packets
 * have left the old CPU's backlog, so that none is reordered.
 *
 * RFS is the administrator's to enable (net.core.rps_sock_flow_entries
 * and each receive queue's rps_flow_cnt): without it this costs one
 * static branch, and the flows stay where RSS puts them.
 *
 * Every segment that matches a live connection's ports records its flow,
 * before the window and PAWS checks: a forged one can only record the
 * same flow for the same home.
 */
#ifndef _ECP_STEER_H
#define _ECP_STEER_H

#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#ifdef ECP_RPS_HOTDATA
#include <net/hotdata.h>
#include <net/rps.h>
#define ecp_rps_sock_flow_table	net_hotdata.rps_sock_flow_table
#define ecp_rps_cpu_mask	net_hotdata.rps_cpu_mask
#else
#define ecp_rps_sock_flow_table	rps_sock_flow_table
#define ecp_rps_cpu_mask	rps_cpu_mask
#endif

/*
 * A new connection's home CPU: with RFS on (and the module parameter
 * steer_by_load, the default), the online, not isolated CPU with the
 * fewest connections homed on it (this one on a tie); else this one.
 * Each home is given back with ecp_steer_leave() when its connection
 * goes.  Any context.
 */
unsigned int ecp_steer_home(void);
void ecp_steer_leave(unsigned int cpu);

/*
 * Steer @skb's flow to @cpu.  Caller holds rcu_read_lock() (the hook's).
 * The hash is the one RPS picked the CPU by: the skb keeps it.
 */
static inline void ecp_steer_flow(struct sk_buff *skb, unsigned int cpu)
{
#ifdef CONFIG_RPS
	struct rps_sock_flow_table *table;
	unsigned int i;
	u32 hash, val;

	if (!static_branch_unlikely(&rfs_needed))
		return;
	table = rcu_dereference(ecp_rps_sock_flow_table);
	hash = skb_get_hash(skb);
	if (!table || !hash)
		return;
	i = hash & table->mask;
	val = (hash & ~ecp_rps_cpu_mask) | cpu;
	/* Paired with get_rps_cpu()'s READ_ONCE(); no write if unchanged. */
	if (READ_ONCE(table->ents[i]) != val)
		WRITE_ONCE(table->ents[i], val);
#endif
}

#endif
