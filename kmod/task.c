// SPDX-License-Identifier: GPL-2.0
/*
 * Task objects: the namespace's tables (by id in an xarray, by VIP:port
 * in a hash of RCU lists), memory accounting against netns_mem_max, and
 * RCU-safe teardown.
 */
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/socket.h>

#include "extack.h"
#include "event.h"
#include "netns.h"
#include "conn.h"
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

struct ecp_task *ecp_task_alloc(unsigned int k)
{
	struct ecp_task *t;
	unsigned int i;

	t = kzalloc(struct_size(t, src, k), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	refcount_set(&t->ref, 1);
	spin_lock_init(&t->lock);
	ecp_stats_init(&t->stats);
	t->last_error_source = -1;
	t->k = k;
	for (i = 0; i < k; i++)
		t->src[i].frag = -1;
	return t;
}

void ecp_task_free(struct ecp_task *t)
{
	kvfree(t->buffer);
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

struct ecp_task *ecp_task_lookup_vip(struct ecp_net *en, u8 family,
				     const union nf_inet_addr *vip,
				     __be16 port)
{
	struct hlist_head *head;
	struct ecp_task *t;

	head = &en->vip_hash[ecp_vip_hash(family, vip, port)];
	hlist_for_each_entry_rcu(t, head, vip_node,
				 lockdep_is_held(&en->conf_lock))
		if (t->port == port && t->family == family &&
		    ecp_addr_eq(family, &t->vip, vip))
			return t;
	return NULL;
}

int ecp_task_add(struct ecp_net *en, struct ecp_task *t,
		 struct netlink_ext_ack *extack)
{
	struct ecp_task *other;
	u64 used, cap;
	size_t size;
	int ret;

	t->headroom = ecp_task_headroom(t->buffer_size);
	size = (size_t)t->buffer_size + t->headroom;
	mutex_lock(&en->conf_lock);
	if (ecp_task_lookup_id(en, t->id)) {
		ecp_extack_fmt(extack, NULL, "task %u already exists", t->id);
		ret = -EEXIST;
		goto out;
	}
	other = ecp_task_lookup_vip(en, t->family, &t->vip, t->port);
	if (other) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: %pI4:%u is already served by task %u",
			       t->id, &t->vip.ip, ntohs(t->port), other->id);
		ret = -EEXIST;
		goto out;
	}
	used = en->mem_used;
	cap = ecp_netns_mem_max();
	if (size > cap || used > cap - size) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: buffer of %zu bytes exceeds the namespace cap (used %llu of %llu)",
			       t->id, size, used, cap);
		ret = -ENOSPC;
		goto out;
	}
	/* Allocated up front so that a connection never lacks memory. */
	t->buffer = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!t->buffer) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: cannot allocate a buffer of %zu bytes",
			       t->id, size);
		ret = -ENOMEM;
		goto out;
	}
	ret = xa_insert(&en->tasks, t->id, t, GFP_KERNEL_ACCOUNT);
	if (ret) {
		kvfree(t->buffer);
		t->buffer = NULL;
		ecp_extack_fmt(extack, NULL, "task %u: out of memory", t->id);
		goto out;
	}
	t->mem = size;
	WRITE_ONCE(en->mem_used, used + size);
	en->ntasks++;
	en->gen++;
	hlist_add_head_rcu(&t->vip_node,
			   &en->vip_hash[ecp_vip_hash(t->family, &t->vip,
						      t->port)]);
out:
	mutex_unlock(&en->conf_lock);
	return ret;
}

/*
 * Reset and free a live connection.  Called with conf_lock held, after
 * the task is unpublished, so no new connection can start: SYNs that
 * found the task before check dead under the task's lock.
 */
static void ecp_task_kill(struct ecp_task *t)
{
	spin_lock_bh(&t->lock);
	WRITE_ONCE(t->dead, true);
	spin_unlock_bh(&t->lock);
	ecp_conn_kill(t);
}

/* Unpublish t and drop the table's reference.  Caller holds conf_lock. */
static void ecp_task_unlink(struct ecp_net *en, struct ecp_task *t)
{
	lockdep_assert_held(&en->conf_lock);
	xa_erase(&en->tasks, t->id);
	hlist_del_rcu(&t->vip_node);
	/*
	 * Uncharged now rather than at free time, so that nothing touches
	 * en after the task leaves its tables: a task may outlive its netns.
	 */
	WRITE_ONCE(en->mem_used, en->mem_used - t->mem);
	en->ntasks--;
	en->gen++;
	ecp_task_kill(t);
	ecp_event_task(en->net, t, ECPROXY_EVENT_TASK_DELETED);
	ecp_stats_fold(&en->retired, &t->stats);
	atomic64_add(ecp_task_bytes_in(t), &en->retired_bytes_in);
	ecp_task_put(t);
}

int ecp_task_del(struct ecp_net *en, u32 id, struct netlink_ext_ack *extack)
{
	struct ecp_task *t;
	int ret = 0;

	mutex_lock(&en->conf_lock);
	t = ecp_task_lookup_id(en, id);
	if (t) {
		ecp_task_unlink(en, t);
	} else {
		ecp_extack_fmt(extack, NULL, "task %u does not exist", id);
		ret = -ENOENT;
	}
	mutex_unlock(&en->conf_lock);
	return ret;
}

void ecp_task_flush(struct ecp_net *en)
{
	struct ecp_task *t;
	unsigned long id;

	mutex_lock(&en->conf_lock);
	xa_for_each(&en->tasks, id, t)
		ecp_task_unlink(en, t);
	mutex_unlock(&en->conf_lock);
}

int ecp_task_change(struct ecp_net *en, u32 id, const struct ecp_task *model,
		    unsigned int what, struct netlink_ext_ack *extack)
{
	u8 *buf = NULL, *old = NULL;
	struct ecp_task *t;
	u64 used = 0, cap;
	size_t size = 0;
	int ret = 0;

	mutex_lock(&en->conf_lock);
	t = ecp_task_lookup_id(en, id);
	if (!t) {
		ecp_extack_fmt(extack, NULL, "task %u does not exist", id);
		ret = -ENOENT;
		goto out;
	}
	if ((what & ECP_CHANGE_BUFFER) &&
	    model->buffer_size != t->buffer_size) {
		size = (size_t)model->buffer_size +
		       ecp_task_headroom(model->buffer_size);
		/* The task's own reservation is given back first. */
		used = en->mem_used - t->mem;
		cap = ecp_netns_mem_max();
		if (size > cap || used > cap - size) {
			ecp_extack_fmt(extack, NULL,
				       "task %u: buffer of %zu bytes exceeds the namespace cap (used %llu of %llu by the other tasks)",
				       id, size, used, cap);
			ret = -ENOSPC;
			goto out;
		}
		/* Before the lock: a connection must never lack memory. */
		buf = kvzalloc(size, GFP_KERNEL_ACCOUNT);
		if (!buf) {
			ecp_extack_fmt(extack, NULL,
				       "task %u: cannot allocate a buffer of %zu bytes",
				       id, size);
			ret = -ENOMEM;
			goto out;
		}
	}
	spin_lock_bh(&t->lock);
	if (t->conn) {
		spin_unlock_bh(&t->lock);
		ecp_extack_fmt(extack, NULL,
			       "task %u has a live connection; change it when it is idle",
			       id);
		ret = -EBUSY;
		goto out;
	}
	if (buf) {
		old = t->buffer;
		t->buffer = buf;
		buf = NULL;
		t->buffer_size = model->buffer_size;
		t->headroom = ecp_task_headroom(model->buffer_size);
		t->mem = size;
		WRITE_ONCE(en->mem_used, used + size);
	}
	if (what & ECP_CHANGE_CLIENT) {
		t->has_client = model->has_client;
		t->client_prefix = model->client_prefix;
		t->client = model->client;
		t->client_mask = model->client_mask;
	}
	if (what & ECP_CHANGE_HANDSHAKE)
		t->handshake_ms = model->handshake_ms;
	if (what & ECP_CHANGE_IDLE)
		t->idle_ms = model->idle_ms;
	if (what & ECP_CHANGE_LINGER)
		t->linger_ms = model->linger_ms;
	spin_unlock_bh(&t->lock);
	en->gen++;
	ecp_event_task(en->net, t, ECPROXY_EVENT_TASK_CHANGED);
out:
	mutex_unlock(&en->conf_lock);
	/* No connection used the old buffer: t->conn was NULL above. */
	kvfree(old);
	kvfree(buf);
	return ret;
}

static void ecp_task_reset_stats(struct ecp_task *t)
{
	unsigned int i;

	ecp_stats_init(&t->stats);
	for (i = 0; i < t->k; i++) {
		atomic64_set(&t->src[i].stats.bytes_in, 0);
		atomic64_set(&t->src[i].stats.segs_in, 0);
		atomic64_set(&t->src[i].stats.dup_bytes, 0);
	}
}

int ecp_task_stats_reset(struct ecp_net *en, const u32 *id,
			 struct netlink_ext_ack *extack)
{
	struct ecp_task *t;
	unsigned long i;
	int ret = 0;

	mutex_lock(&en->conf_lock);
	if (id) {
		t = ecp_task_lookup_id(en, *id);
		if (t) {
			ecp_task_reset_stats(t);
		} else {
			ecp_extack_fmt(extack, NULL, "task %u does not exist",
				       *id);
			ret = -ENOENT;
		}
	} else {
		xa_for_each(&en->tasks, i, t)
			ecp_task_reset_stats(t);
		ecp_stats_init(&en->retired);
		atomic64_set(&en->retired_bytes_in, 0);
		atomic64_set(&en->events_dropped, 0);
	}
	mutex_unlock(&en->conf_lock);
	return ret;
}
