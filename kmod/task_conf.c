// SPDX-License-Identifier: GPL-2.0
/*
 * Adding, changing and deleting tasks, under the namespace's conf_lock:
 * checks, memory accounting against netns_mem_max, the netfilter hook
 * that comes with the first task and goes with the last, and teardown of
 * a deleted task's connection.  Process context only.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/route.h>

#include "conn.h"
#include "event.h"
#include "extack.h"
#include "hook.h"
#include "netns.h"
#include "task.h"

/*
 * The hook consumes what reaches VIP:port before S's stack sees it; a VIP
 * that is not S's own would take traffic routed through S to some other
 * host, and the replies of the sources to S could never come back.
 */
static bool ecp_task_vip_local(const struct ecp_net *en,
			       const struct ecp_task *t)
{
	return t->family != AF_INET ||
	       inet_addr_type(en->net, t->vip.ip) == RTN_LOCAL;
}

int ecp_task_add(struct ecp_net *en, struct ecp_task *t,
		 struct netlink_ext_ack *extack)
{
	struct ecp_task *other;
	u64 used, cap;
	size_t size;
	int ret;

	t->headroom = ecp_task_headroom(t->buffer_size);
	size = ecp_task_mem(t->buffer_size, t->nring,
			    ecp_task_nrecords(t->mode, t->k, t->nrow));
	mutex_lock(&en->conf_lock);
	if (ecp_task_lookup_id(en, t->id)) {
		ecp_extack_fmt(extack, NULL, "task %u already exists", t->id);
		ret = -EEXIST;
		goto out;
	}
	/* A task with targets serves no VIP:port: S connects from the VIP. */
	other = t->mode == ECPROXY_MODE_DEST ? NULL :
		ecp_task_lookup_vip(en, t->family, &t->vip, t->port);
	if (other) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: %pI4:%u is already served by task %u",
			       t->id, &t->vip.ip, ntohs(t->port), other->id);
		ret = -EEXIST;
		goto out;
	}
	if (!ecp_task_vip_local(en, t)) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: VIP %pI4 is not a local address of this network namespace; add it first (ip addr add %pI4/32 dev lo)",
			       t->id, &t->vip.ip, &t->vip.ip);
		ret = -EADDRNOTAVAIL;
		goto out;
	}
	if (t->family == AF_INET && t->mode != ECPROXY_MODE_DEST &&
	    ecp_conn_port_in_use(en->net, t->vip.ip, t->port)) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: %pI4:%u is S's end of a connection to a source or target now; use a port outside net.ipv4.ip_local_port_range",
			       t->id, &t->vip.ip, ntohs(t->port));
		ret = -EADDRINUSE;
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
	/* The namespace's first task brings the hook (hook.h). */
	if (!en->ntasks) {
		ret = ecp_hook_register(en->net);
		if (ret) {
			kvfree(t->buffer);
			t->buffer = NULL;
			ecp_extack_fmt(extack, NULL,
				       "task %u: cannot register the netfilter hook (%d)",
				       t->id, ret);
			goto out;
		}
	}
	ret = xa_insert(&en->tasks, t->id, t, GFP_KERNEL_ACCOUNT);
	if (ret) {
		if (!en->ntasks)
			ecp_hook_unregister(en->net);
		kvfree(t->buffer);
		t->buffer = NULL;
		ecp_extack_fmt(extack, NULL, "task %u: out of memory", t->id);
		goto out;
	}
	t->mem = size;
	WRITE_ONCE(en->mem_used, used + size);
	en->ntasks++;
	en->gen++;
	if (t->mode != ECPROXY_MODE_DEST)
		hlist_add_head_rcu(&t->vip_node,
				   ecp_task_vip_bucket(en, t->family, &t->vip,
						       t->port));
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
	if (t->mode != ECPROXY_MODE_DEST)
		hlist_del_rcu(&t->vip_node);
	/*
	 * Uncharged now rather than at free time, so that nothing touches
	 * en after the task leaves its tables: a task may outlive its netns.
	 */
	WRITE_ONCE(en->mem_used, en->mem_used - t->mem);
	en->ntasks--;
	en->gen++;
	ecp_task_kill(t);
	/* No task, no hook: the data path costs nothing per packet. */
	if (!en->ntasks)
		ecp_hook_unregister(en->net);
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
	/* The operator's knob during an incident: running or not. */
	if (what == ECP_CHANGE_RATE) {
		WRITE_ONCE(t->rate, model->rate);
		goto changed;
	}
	if ((what & ECP_CHANGE_BUFFER) &&
	    (t->mode == ECPROXY_MODE_READ || t->mode == ECPROXY_MODE_WRITE) &&
	    model->buffer_size / 2 < t->cell) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: a %s needs a buffer of at least two cells, %llu bytes",
			       id, t->mode == ECPROXY_MODE_READ ? "read" : "write",
			       2ULL * t->cell);
		ret = -EINVAL;
		goto out;
	}
	if ((what & ECP_CHANGE_BUFFER) &&
	    model->buffer_size != t->buffer_size) {
		size = ecp_task_mem(model->buffer_size, t->nring,
				    ecp_task_nrecords(t->mode, t->k, t->nrow));
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
	if (what & ECP_CHANGE_RATE)
		WRITE_ONCE(t->rate, model->rate);
	spin_unlock_bh(&t->lock);
changed:
	en->gen++;
	ecp_event_task(en->net, t, ECPROXY_EVENT_TASK_CHANGED);
out:
	mutex_unlock(&en->conf_lock);
	/* No connection used the old buffer: t->conn was NULL above. */
	kvfree(old);
	kvfree(buf);
	return ret;
}

int ecp_task_start(struct ecp_net *en, u32 id, struct netlink_ext_ack *extack)
{
	struct ecp_task *t;
	int ret;

	mutex_lock(&en->conf_lock);
	t = ecp_task_lookup_id(en, id);
	if (!t) {
		ecp_extack_fmt(extack, NULL, "task %u does not exist", id);
		ret = -ENOENT;
		goto out;
	}
	if (t->mode != ECPROXY_MODE_DEST) {
		ecp_extack_fmt(extack, NULL, t->mode == ECPROXY_MODE_WRITE ?
			       "task %u is a write: a writer starts it by connecting to %pI4:%u" :
			       "task %u has no targets: a client starts it by connecting to %pI4:%u",
			       id, &t->vip.ip, ntohs(t->port));
		ret = -EINVAL;
		goto out;
	}
	/* Checked at TASK_ADD, but an address can go since. */
	if (!ecp_task_vip_local(en, t)) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: VIP %pI4 is no longer a local address of this network namespace; add it again (ip addr add %pI4/32 dev lo)",
			       id, &t->vip.ip, &t->vip.ip);
		ret = -EADDRNOTAVAIL;
		goto out;
	}
	ret = ecp_conn_start_tgt(en->net, t);
	switch (ret) {
	case 0:
		ecp_event_task(en->net, t, ECPROXY_EVENT_TASK_STARTED);
		break;
	case -EBUSY:
		ecp_extack_fmt(extack, NULL, "task %u is running", id);
		break;
	case -EHOSTUNREACH:
		ecp_extack_fmt(extack, NULL,
			       "task %u: no route to a source or target", id);
		break;
	case -EADDRNOTAVAIL:
		ecp_extack_fmt(extack, NULL,
			       "task %u: no free local port on the VIP", id);
		break;
	default:
		ecp_extack_fmt(extack, NULL, "task %u: cannot start (%d)", id,
			       ret);
	}
out:
	mutex_unlock(&en->conf_lock);
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
		atomic64_set(&t->src[i].stats.lost, 0);
	}
	for (i = 0; i < t->nrow; i++)
		atomic64_set(&t->row[i].bytes_out, 0);
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
