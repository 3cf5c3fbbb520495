// SPDX-License-Identifier: GPL-2.0
/*
 * Events for "ecctl monitor": one genetlink message per event, multicast
 * to the "events" group of the task's network namespace.
 *
 * Connection events happen in softirq under the task's lock, so messages
 * are allocated with GFP_ATOMIC and nothing here waits: with no listener
 * nothing is even allocated, and an event that cannot be allocated or
 * that a listener's full socket refuses is counted in the namespace's
 * events_dropped and forgotten.  A slow monitor loses events; it never
 * slows a reconstruction down.
 */
#include <linux/jiffies.h>
#include <net/genetlink.h>

#include <linux/ecproxy.h>
#include "event.h"
#include "netlink.h"
#include "netns.h"
#include "task.h"

static void ecp_event_dropped(struct net *net)
{
	atomic64_inc(&ecp_net(net)->events_dropped);
}

/* Room for the largest event: every attribute present. */
static size_t ecp_event_size(void)
{
	return nla_total_size(sizeof(u8)) +		/* TYPE */
	       nla_total_size(sizeof(u32)) +		/* TASK_ID */
	       2 * nla_total_size(sizeof(struct in6_addr)) + /* VIP, CLIENT */
	       2 * nla_total_size(sizeof(u16)) +	/* PORT, CLIENT_PORT */
	       nla_total_size(sizeof(u8)) +		/* K */
	       2 * nla_total_size_64bit(sizeof(u64)) +	/* BYTES, DURATION */
	       3 * nla_total_size(sizeof(u8)) +	/* ERROR, ERROR_SOURCE/TARGET */
	       2 * nla_total_size(sizeof(struct in6_addr)) + /* SOURCE/TARGET_ADDR */
	       2 * nla_total_size(sizeof(u16)) +	/* SOURCE/TARGET_PORT */
	       nla_total_size(sizeof(u32));		/* CPU */
}

/* A new event message, or NULL if nobody listens or memory is short. */
static struct sk_buff *ecp_event_new(struct net *net, u8 type, u32 id,
				     gfp_t gfp, void **hdr)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&ecp_genl_family, net, ECP_MCGRP_EVENTS))
		return NULL;
	skb = genlmsg_new(ecp_event_size(), gfp);
	if (!skb)
		goto drop;
	*hdr = genlmsg_put(skb, 0, 0, &ecp_genl_family, 0, ECPROXY_CMD_EVENT);
	if (!*hdr || nla_put_u8(skb, ECPROXY_A_EVENT_TYPE, type) ||
	    nla_put_u32(skb, ECPROXY_A_EVENT_TASK_ID, id)) {
		nlmsg_free(skb);
		goto drop;
	}
	return skb;
drop:
	ecp_event_dropped(net);
	return NULL;
}

static void ecp_event_send(struct net *net, struct sk_buff *skb, void *hdr,
			   gfp_t gfp)
{
	int ret;

	genlmsg_end(skb, hdr);
	ret = genlmsg_multicast_netns(&ecp_genl_family, net, skb, 0,
				      ECP_MCGRP_EVENTS, gfp);
	/* -ESRCH: the last listener left meanwhile, nothing was lost. */
	if (ret && ret != -ESRCH)
		ecp_event_dropped(net);
}

static void ecp_event_cancel(struct net *net, struct sk_buff *skb)
{
	nlmsg_free(skb);
	ecp_event_dropped(net);
}

void ecp_event_task(struct net *net, const struct ecp_task *t, u8 type)
{
	struct sk_buff *skb;
	void *hdr;

	skb = ecp_event_new(net, type, t->id, GFP_KERNEL, &hdr);
	if (!skb)
		return;
	if (type == ECPROXY_EVENT_TASK_ADDED &&
	    (nla_put_in_addr(skb, ECPROXY_A_EVENT_VIP, t->vip.ip) ||
	     (t->port &&
	      nla_put_u16(skb, ECPROXY_A_EVENT_PORT, ntohs(t->port))) ||
	     nla_put_u8(skb, ECPROXY_A_EVENT_K, t->k))) {
		ecp_event_cancel(net, skb);
		return;
	}
	ecp_event_send(net, skb, hdr, GFP_KERNEL);
}

static int ecp_event_put_source(struct sk_buff *skb, const struct ecp_task *t,
				int i)
{
	if (i < 0 || (unsigned int)i >= t->k)
		return 0;
	if (nla_put_u8(skb, ECPROXY_A_EVENT_ERROR_SOURCE, i) ||
	    nla_put_in_addr(skb, ECPROXY_A_EVENT_SOURCE_ADDR, t->src[i].addr.ip) ||
	    nla_put_u16(skb, ECPROXY_A_EVENT_SOURCE_PORT, ntohs(t->src[i].port)))
		return -EMSGSIZE;
	return 0;
}

static int ecp_event_put_target(struct sk_buff *skb, const struct ecp_task *t,
				int i)
{
	if (i < 0 || (unsigned int)i >= t->nrow ||
	    (t->mode != ECPROXY_MODE_DEST && t->mode != ECPROXY_MODE_WRITE))
		return 0;
	if (nla_put_u8(skb, ECPROXY_A_EVENT_ERROR_TARGET, i) ||
	    nla_put_in_addr(skb, ECPROXY_A_EVENT_TARGET_ADDR,
			    t->row[i].addr.ip) ||
	    nla_put_u16(skb, ECPROXY_A_EVENT_TARGET_PORT,
			ntohs(t->row[i].port)))
		return -EMSGSIZE;
	return 0;
}

void ecp_event_conn(struct net *net, const struct ecp_task *t, u8 type,
		    __be32 client, __be16 cport, u64 bytes,
		    unsigned long start, int cpu, u8 err, int err_src,
		    int err_tgt)
{
	u64 ms = jiffies_to_msecs(jiffies - start);
	bool dest = t->mode == ECPROXY_MODE_DEST;
	bool end = type != ECPROXY_EVENT_CONN_ESTABLISHED;
	bool failed = type == ECPROXY_EVENT_CONN_FAILED;
	struct sk_buff *skb;
	void *hdr;

	/* A task with targets has no client: its runs end as such. */
	if (dest && type == ECPROXY_EVENT_CONN_DONE)
		type = ECPROXY_EVENT_TASK_COMPLETED;
	else if (dest && failed)
		type = ECPROXY_EVENT_TASK_FAILED;
	skb = ecp_event_new(net, type, t->id, GFP_ATOMIC, &hdr);
	if (!skb)
		return;
	if ((!dest &&
	     (nla_put_in_addr(skb, ECPROXY_A_EVENT_CLIENT, client) ||
	      nla_put_u16(skb, ECPROXY_A_EVENT_CLIENT_PORT, ntohs(cport)))) ||
	    (cpu >= 0 && nla_put_u32(skb, ECPROXY_A_EVENT_CPU, cpu)) ||
	    (end && (nla_put_u64_64bit(skb, ECPROXY_A_EVENT_BYTES, bytes,
				       ECPROXY_A_EVENT_PAD) ||
		     nla_put_u64_64bit(skb, ECPROXY_A_EVENT_DURATION, ms,
				       ECPROXY_A_EVENT_PAD))) ||
	    (failed && (nla_put_u8(skb, ECPROXY_A_EVENT_ERROR, err) ||
			ecp_event_put_source(skb, t, err_src) ||
			ecp_event_put_target(skb, t, err_tgt)))) {
		ecp_event_cancel(net, skb);
		return;
	}
	ecp_event_send(net, skb, hdr, GFP_ATOMIC);
}
