/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coding tasks: configuration, lifetime and lookup.
 *
 * A task combines k sources (the servers S connects to and reads
 * fragments from) into rows: row r is the GF(2^8) sum of the sources'
 * streams, source i multiplied by row r's coefficient coef[i] (zero:
 * not used).  Its mode says where rows go (enum ecproxy_task_mode): to
 * the client that connects to VIP:port (PULL: row 0; READ: all rows,
 * interleaved cell by cell into the block's logical order), or to a
 * target per row that S connects to on TASK_START (DEST).  With a
 * striped layout (block, cell), every fragment's exact length is known.
 *
 * A task may have spares (PULL, DEST, no layout): its last nspare
 * sources, more fragments that feed no row but their check rows,
 * row[nrow + t] for spare t, whose coefficients (check) make each zero
 * wherever every source has given: x_spare_t = sum(check_i[t] x_i).
 * Where sources are missing, the check rows hold their bytes times the
 * check coefficients, and the rows are completed from them (conn_rows.c).
 *
 * Rules for the data path:
 * - Look a task up with ecp_task_lookup_vip() inside rcu_read_lock() (any
 *   context, softirq included).  The pointer is good until
 *   rcu_read_unlock().  To keep it longer (connection state, timers), take
 *   a reference with ecp_task_tryget() before unlocking and drop it with
 *   ecp_task_put() (any context).
 * - Everything in struct ecp_task above the "mutable" marker is written
 *   once before the task is published and never changes while a
 *   connection exists: read it without locks from the connection.  Only
 *   ecp_task_change() rewrites the client filter, the buffer and the
 *   timeouts, holding conf_lock and the task's lock, and only while
 *   t->conn is NULL; so a connection starting under the lock sees either
 *   the old or the new settings, never a mix.  The rest is for the data
 *   path to manage (lock, conn_state, stats, conn).
 * - A deleted task is unpublished first (readers that start later cannot
 *   find it) and t->dead is set; memory goes one grace period after the
 *   last reference.  A data path holding a reference must check dead and
 *   tear its connection down, see ecp_task_kill().
 * - Configuration changes are serialised by ecp_net.conf_lock.
 */
#ifndef _ECP_TASK_H
#define _ECP_TASK_H

#include <linux/netfilter.h>
#include <linux/rculist.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/netlink.h>

#include <linux/ecproxy.h>

#include "gf.h"
#include "ivset.h"
#include "stats.h"

struct ecp_net;

struct ecp_source {
	union nf_inet_addr addr;
	__be16 port;
	s16 frag;		/* fragment index, -1 if not configured */
	u64 len;		/* exact length; U64_MAX: the others' */
	u32 rows;		/* the rows it feeds (non-zero coefficient) */
	u8 check[ECPROXY_MAX_SPARES];	/* in each spare's check row */
	u8 ncheck;			/* how many were given */
	/* mutable */
	u8 state;		/* enum ecproxy_source_state, WRITE_ONCE */
	struct ecp_source_stats stats;
};

/* A row of the task's code: one rebuilt fragment. */
struct ecp_row {
	union nf_inet_addr addr;	/* DEST: the target */
	__be16 port;
	s16 frag;			/* the fragment it rebuilds, or -1 */
	u64 len;			/* exact length, or U64_MAX */
	u8 coef[ECPROXY_MAX_K];		/* per source; 0: not used */
	struct ecp_gf_coef gf[ECPROXY_MAX_K];	/* tables for coef */
	/* mutable */
	u8 state;			/* enum ecproxy_row_state, WRITE_ONCE */
	atomic64_t bytes_out;
};

struct ecp_task {
	struct hlist_node vip_node;	/* ecp_net.vip_hash, RCU */
	struct rcu_head rcu;
	refcount_t ref;
	u32 id;
	u8 family;			/* AF_INET (AF_INET6 later) */
	bool has_client;
	u8 client_prefix;
	__be16 port;
	union nf_inet_addr vip;
	union nf_inet_addr client;	/* masked to client_prefix */
	union nf_inet_addr client_mask;
	u8 mode;			/* enum ecproxy_task_mode */
	u64 block;			/* striped layout: block bytes, or 0 */
	u32 cell;			/* and its cell */
	unsigned int nrow;
	struct ecp_row *row;		/* nrow, then the check rows */
	unsigned int nspare;		/* the last nspare sources are spares */
	unsigned int nring;		/* rings: nrow + nspare */
	u32 buffer_size;		/* per row, exposed to the sources */
	u32 headroom;			/* per row, allocated beyond it */
	u8 *buffer;			/* rings and records, ecp_task_mem() */
	size_t mem;			/* charged to the namespace */
	u32 handshake_ms;
	u32 idle_ms;
	u32 linger_ms;
	unsigned int k;
	/* mutable */
	u64 rate;			/* bytes/s of all outputs, 0: no cap */
	u64 rate_measured;		/* bytes/s, see ecp_conn_measure() */
	u32 rtt_measured;		/* us, see ecp_conn_out_acked() */
	bool dead;			/* unpublished; READ_ONCE */
	spinlock_t lock;		/* for the data path's use */
	u8 conn_state;			/* enum ecproxy_conn_state, WRITE_ONCE */
	u8 last_error;			/* enum ecproxy_conn_error */
	s8 last_error_source;		/* source index or -1 */
	s8 last_error_target;		/* row (target) index or -1 */
	void *conn;			/* the data path's connection */
	struct ecp_stats stats;
	struct ecp_source src[];	/* k of them */
};

/* Headroom the paper argues for: senders' in-flight data past the window. */
static inline u32 ecp_task_headroom(u32 buffer_size)
{
	return max_t(u32, buffer_size / 8, 64 << 10);
}

/* Bytes of one row's ring for @buffer_size: the buffer and its headroom. */
static inline size_t ecp_task_ring_bytes(u32 buffer_size)
{
	return (size_t)buffer_size + ecp_task_headroom(buffer_size);
}

/* Bytes of one row's ring: the exposed buffer and the headroom. */
static inline size_t ecp_task_ring_size(const struct ecp_task *t)
{
	return (size_t)t->buffer_size + t->headroom;
}

static inline u8 *ecp_task_ring(const struct ecp_task *t, unsigned int r)
{
	return t->buffer + r * ecp_task_ring_size(t);
}

/*
 * How many byte ranges a source may hold beyond its first hole
 * (ivset.h), and an output's scoreboard beyond its ack (sack.h): as many
 * as a ring of full-sized Ethernet segments (1460 bytes), every other one
 * lost, would make, so that a source never has in-window data refused
 * for want of a record and a recovery knows every hole; at least
 * ECP_IVSET_MIN_CAP, at most ECP_IVSET_MAX_CAP.
 */
static inline u32 ecp_task_holes(u32 buffer_size)
{
	return clamp_t(size_t, ecp_task_ring_bytes(buffer_size) / (2 * 1460),
		       ECP_IVSET_MIN_CAP, ECP_IVSET_MAX_CAP);
}

/* Where the records of the sources start: after the @nring rings, aligned. */
static inline size_t ecp_task_records_off(u32 buffer_size, unsigned int nring)
{
	return ALIGN(ecp_task_ring_bytes(buffer_size) * nring, sizeof(u64));
}

/*
 * The outputs of a connection of a task in @mode with @nrow rows: a
 * target per row for DEST and WRITE, else the client.
 */
static inline unsigned int ecp_task_nout(u8 mode, unsigned int nrow)
{
	return mode == ECPROXY_MODE_DEST || mode == ECPROXY_MODE_WRITE ?
	       nrow : 1;
}

/*
 * The sets of interval records of a connection of a task in @mode with k
 * sources and @nrow rows: the sources' records, the outputs' scoreboards,
 * and a writer's (WRITE): what S holds of the writer's stream beyond its
 * first hole, for the writer's SACK blocks.
 */
static inline unsigned int ecp_task_nrecords(u8 mode, unsigned int k,
					     unsigned int nrow)
{
	return k + ecp_task_nout(mode, nrow) + (mode == ECPROXY_MODE_WRITE);
}

/*
 * The memory a task reserves up front and charges to its namespace: the
 * @nring rings of its rows (and check row), then its @nrec sets of
 * interval records (ecp_task_nrecords()), so that a connection, set up in
 * softirq, never lacks memory.
 */
static inline size_t ecp_task_mem(u32 buffer_size, unsigned int nring,
				  unsigned int nrec)
{
	return ecp_task_records_off(buffer_size, nring) +
	       (size_t)nrec * ecp_task_holes(buffer_size) *
	       sizeof(struct ecp_iv);
}

/* Source i's interval records, ecp_task_holes() of them. */
static inline struct ecp_iv *ecp_task_records(const struct ecp_task *t,
					      unsigned int i)
{
	return (struct ecp_iv *)(t->buffer +
				 ecp_task_records_off(t->buffer_size, t->nring)) +
	       (size_t)i * ecp_task_holes(t->buffer_size);
}

/* Output i's scoreboard ranges, after the sources' records. */
static inline struct ecp_iv *ecp_task_scoreboard(const struct ecp_task *t,
						 unsigned int i)
{
	return ecp_task_records(t, t->k + i);
}

/* A writer's records, after the outputs' scoreboards. */
static inline struct ecp_iv *ecp_task_writer_records(const struct ecp_task *t)
{
	return ecp_task_scoreboard(t, ecp_task_nout(t->mode, t->nrow));
}

/*
 * Allocate a task for k sources and nrow rows (and room for the check
 * rows of ECPROXY_MAX_SPARES spares), unpublished, one reference, no
 * buffer.
 */
struct ecp_task *ecp_task_alloc(unsigned int k, unsigned int nrow);
/* Free a task that was never added. */
void ecp_task_free(struct ecp_task *t);

/* ---- task_conf.c: configuration, under ecp_net.conf_lock ---- */

/*
 * Check t's id and VIP:port are free and its VIP is local, charge its
 * buffer to the namespace, register the hook if t is the first task,
 * allocate the buffer and publish the task.  On error, extack says why
 * and the caller still owns t.
 */
int ecp_task_add(struct ecp_net *en, struct ecp_task *t,
		 struct netlink_ext_ack *extack);
int ecp_task_del(struct ecp_net *en, u32 id, struct netlink_ext_ack *extack);
void ecp_task_flush(struct ecp_net *en);

/* What ecp_task_change() copies from its model. */
enum {
	ECP_CHANGE_CLIENT	= BIT(0),
	ECP_CHANGE_BUFFER	= BIT(1),
	ECP_CHANGE_HANDSHAKE	= BIT(2),
	ECP_CHANGE_IDLE		= BIT(3),
	ECP_CHANGE_LINGER	= BIT(4),
	ECP_CHANGE_RATE		= BIT(5),
};

/*
 * Copy the settings flagged in @what from @model (an unpublished task)
 * to task @id, all or nothing, while it has no connection (-EBUSY
 * otherwise), except the rate, which may change at any time.  A new
 * buffer is charged to the namespace in place of the old one.
 */
int ecp_task_change(struct ecp_net *en, u32 id, const struct ecp_task *model,
		    unsigned int what, struct netlink_ext_ack *extack);

/*
 * TASK_START: connect task @id (DEST) to its sources and targets, from
 * process context.  -EBUSY if it is running, -EINVAL if it has no targets.
 */
int ecp_task_start(struct ecp_net *en, u32 id, struct netlink_ext_ack *extack);

/* Zero the counters of task @id, or of every task and the netns if NULL. */
int ecp_task_stats_reset(struct ecp_net *en, const u32 *id,
			 struct netlink_ext_ack *extack);

/* Caller holds rcu_read_lock() or en->conf_lock. */
struct ecp_task *ecp_task_lookup_id(struct ecp_net *en, u32 id);
/* The VIP hash list a task with this VIP:port is on. */
struct hlist_head *ecp_task_vip_bucket(struct ecp_net *en, u8 family,
				       const union nf_inet_addr *vip,
				       __be16 port);
struct ecp_task *ecp_task_lookup_vip(struct ecp_net *en, u8 family,
				     const union nf_inet_addr *vip,
				     __be16 port);

static inline bool ecp_task_tryget(struct ecp_task *t)
{
	return refcount_inc_not_zero(&t->ref);
}

void ecp_task_put(struct ecp_task *t);

static inline bool ecp_addr_eq(u8 family, const union nf_inet_addr *a,
			       const union nf_inet_addr *b)
{
	if (family == AF_INET)
		return a->ip == b->ip;
	return !memcmp(a->all, b->all, sizeof(a->all));
}

/* Client address allowed to use the task (IPv4). */
static inline bool ecp_task_client_ok(const struct ecp_task *t, __be32 saddr)
{
	return !t->has_client ||
	       (saddr & t->client_mask.ip) == t->client.ip;
}

static inline u64 ecp_task_bytes_in(const struct ecp_task *t)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < t->k; i++)
		sum += atomic64_read(&t->src[i].stats.bytes_in);
	return sum;
}

#endif
