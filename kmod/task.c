// SPDX-License-Identifier: GPL-2.0
/*
 * The task object and what the data path reads of it: allocation, the
 * reference that keeps it while a connection uses it, RCU-deferred free,
 * and the namespace's two tables (by id in an xarray, by VIP:port in a
 * hash of RCU lists).  Adding, changing and deleting tasks is
 * task_conf.c's: the data path never calls it.
 */
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/socket.h>

#include "netns.h"
#include "task.h"

static u32 ecp_vip_hash(u8 family, const union nf_inet_addr *vip,
			__be16 port)
{
	u32 h;

	if (family == AF_INET)
		h = jhash_2words((__force u32)vip->ip, (__force u32)port,
				 family);
	else
		h = jhash2(vip->all, 4, (__force u32)port);
	return hash_32(h, ECP_VIP_HASH_BITS);
}

struct ecp_task *ecp_task_alloc(unsigned int k, unsigned int nrow)
{
	struct ecp_task *t;
	unsigned int i;

	t = kzalloc(struct_size(t, src, k), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	/*
	 * Up to 32 rows of 32 coefficient tables, and the check rows of the
	 * spares: vmalloc may serve it.
	 */
	if (nrow) {
		t->row = kvcalloc(nrow + ECPROXY_MAX_SPARES, sizeof(*t->row),
				  GFP_KERNEL_ACCOUNT);
		if (!t->row) {
			kfree(t);
			return NULL;
		}
	}
	refcount_set(&t->ref, 1);
	spin_lock_init(&t->lock);
	ecp_stats_init(&t->stats);
	t->last_error_source = -1;
	t->last_error_target = -1;
	t->k = k;
	t->nrow = nrow;
	t->nring = nrow;
	for (i = 0; i < k; i++) {
		t->src[i].frag = -1;
		t->src[i].len = U64_MAX;
	}
	for (i = 0; nrow && i < nrow + ECPROXY_MAX_SPARES; i++) {
		t->row[i].frag = -1;
		t->row[i].len = U64_MAX;
	}
	return t;
}

void ecp_task_free(struct ecp_task *t)
{
	kvfree(t->buffer);
	kvfree(t->row);
	kfree(t);
}

static void ecp_task_free_rcu(struct rcu_head *rcu)
{
	/* kvfree() defers vfree() itself when called from softirq. */
	ecp_task_free(container_of(rcu, struct ecp_task, rcu));
}

void ecp_task_put(struct ecp_task *t)
{
	if (refcount_dec_and_test(&t->ref))
		call_rcu(&t->rcu, ecp_task_free_rcu);
}

struct ecp_task *ecp_task_lookup_id(struct ecp_net *en, u32 id)
{
	return xa_load(&en->tasks, id);
}

struct hlist_head *ecp_task_vip_bucket(struct ecp_net *en, u8 family,
					const union nf_inet_addr *vip,
					__be16 port)
{
	return &en->vip_hash[ecp_vip_hash(family, vip, port)];
}

struct ecp_task *ecp_task_lookup_vip(struct ecp_net *en, u8 family,
				     const union nf_inet_addr *vip,
				     __be16 port)
{
	struct hlist_head *head;
	struct ecp_task *t;

	head = ecp_task_vip_bucket(en, family, vip, port);
	hlist_for_each_entry_rcu(t, head, vip_node,
				 lockdep_is_held(&en->conf_lock))
		if (t->port == port && t->family == family &&
		    ecp_addr_eq(family, &t->vip, vip))
			return t;
	return NULL;
}
