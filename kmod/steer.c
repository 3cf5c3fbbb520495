// SPDX-License-Identifier: GPL-2.0
/*
 * Where a connection's home is (steer.h).  With RFS on, each new
 * connection goes to the online CPU with the fewest connections homed on
 * it, the CPU that accepted it on a tie, among the CPUs the scheduler
 * balances over (not those isolated with isolcpus=): a router's clients
 * often all come in on one link, whose receive interrupt is one CPU's,
 * and homed there every task would queue behind the others on it while
 * the other CPUs only hand packets over.  Without RFS nothing can move a
 * flow, so the home is where the connection was accepted, as before.
 *
 * The counts are per CPU and module-wide (all namespaces share the
 * CPUs); two connections accepted at once may pick the same CPU, which
 * the next ones even out.  RFS moves a flow only if the receive queue
 * it arrives on has a flow table (rps_flow_cnt): on a queue without one,
 * a home away from the interrupt's CPU leaves every segment off home.
 * The choice reads one counter per online CPU, once per connection,
 * never per packet.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/isolation.h>
#include <linux/smp.h>

#include "steer.h"

static DEFINE_PER_CPU(atomic_t, ecp_steer_homed);

/*
 * Off, the home is where the connection was accepted even with RFS: for
 * a router whose NIC already spreads its flows over the CPUs (RSS), and
 * for comparing the two choices side by side (make bench, routerscale).
 * Later connections only: a connection keeps the home it was given.
 */
static bool steer_by_load = true;
module_param(steer_by_load, bool, 0644);
MODULE_PARM_DESC(steer_by_load,
		 "With RFS on, home each new connection on the CPU with the fewest connections (default: Y; N homes it where it was accepted, as without RFS)");

unsigned int ecp_steer_home(void)
{
	unsigned int here = raw_smp_processor_id(), home = here;
#ifdef CONFIG_RPS
	if (static_branch_unlikely(&rfs_needed) && READ_ONCE(steer_by_load)) {
		int least = atomic_read(per_cpu_ptr(&ecp_steer_homed, here));
		unsigned int cpu;

		for_each_cpu_and(cpu, cpu_online_mask,
				 housekeeping_cpumask(HK_TYPE_DOMAIN)) {
			int n = atomic_read(per_cpu_ptr(&ecp_steer_homed, cpu));

			if (n < least) {
				least = n;
				home = cpu;
			}
		}
	}
#endif
	atomic_inc(per_cpu_ptr(&ecp_steer_homed, home));
	return home;
}

void ecp_steer_leave(unsigned int cpu)
{
	atomic_dec(per_cpu_ptr(&ecp_steer_homed, cpu));
}
