// SPDX-License-Identifier: GPL-2.0
/*
 * Connection lifetime: S's ports towards the sources and targets and
 * their RCU hash, setting a connection up (on the client's SYN, or on
 * TASK_START for a task with targets), the per-connection timer
 * (handshake and idle timeouts, the outputs' RTO and persist timers, the
 * rate cap, the linger) and teardown.  One timer per connection ticks
 * every ECP_TICK.
 */
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <net/inet_hashtables.h>
#include <net/route.h>
#include <net/tcp.h>

#include "conn_state.h"
#include "event.h"
#include "netns.h"
#include "steer.h"
#include "task.h"
#include "xmit.h"

/* The local ports of the sources and targets, keyed by (netns, VIP, port). */
#define ECP_CONN_HASH_BITS	10
static DEFINE_HASHTABLE(ecp_conn_hash, ECP_CONN_HASH_BITS);
static DEFINE_SPINLOCK(ecp_conn_hash_lock);

static u32 ecp_conn_hashfn(const struct net *net, __be32 vip, __be16 port)
{
	return jhash_2words((__force u32)vip, (__force u32)port,
			    net_hash_mix(net));
}

struct ecp_conn_peer *ecp_conn_lookup_peer(const struct net *net,
					   const struct ecp_seg *p)
{
	struct ecp_conn_peer *pr;

	hash_for_each_possible_rcu(ecp_conn_hash, pr, node,
				   ecp_conn_hashfn(net, p->h.daddr,
						   p->h.dport)) {
		struct ecp_conn *c = pr->conn;

		if (pr->lport == p->h.dport && c->vip == p->h.daddr &&
		    net_eq(c->net, net) && pr->addr == p->h.saddr &&
		    pr->port == p->h.sport)
			return pr;
	}
	return NULL;
}

/* Is (net, vip, port) free?  Caller holds ecp_conn_hash_lock. */
static bool ecp_conn_port_free(const struct net *net, __be32 vip,
			       __be16 port)
{
	struct ecp_conn_peer *pr;

	hash_for_each_possible(ecp_conn_hash, pr, node,
			       ecp_conn_hashfn(net, vip, port))
		if (pr->lport == port && pr->conn->vip == vip &&
		    net_eq(pr->conn->net, net))
			return false;
	return true;
}

bool ecp_conn_port_in_use(const struct net *net, __be32 vip, __be16 port)
{
	bool free;

	spin_lock_bh(&ecp_conn_hash_lock);
	free = ecp_conn_port_free(net, vip, port);
	spin_unlock_bh(&ecp_conn_hash_lock);
	return !free;
}

/*
 * Where the next port towards one destination starts, as the kernel's
 * connect() does (__inet_hash_connect(), RFC 6056 algorithm 4): a secret
 * hash of (netns, VIP, destination) picks an offset into the ephemeral
 * range, and a counter per hash bucket moves it on with every connection.
 * Consecutive connections to one peer then walk the range port by port,
 * and come back to a port only after the whole range: a source's
 * TIME-WAIT from an earlier connection (60 s on Linux) is long gone by
 * then unless connections come faster than range / 60 s.  Random ports
 * hit a TIME-WAIT at once about (connections in 60 s) / range of the
 * time, and one SYN in two that does is refused.
 */
#define ECP_PORT_PERTURB_BITS	8
static u32 ecp_port_perturb[1 << ECP_PORT_PERTURB_BITS];
static siphash_key_t ecp_port_secret __read_mostly;

static u32 ecp_conn_port_offset(const struct net *net, __be32 vip,
				const struct ecp_conn_peer *pr)
{
	net_get_random_once(&ecp_port_secret, sizeof(ecp_port_secret));
	return siphash_4u32((__force u32)vip, (__force u32)pr->addr,
			    (__force u32)pr->port, net_hash_mix(net),
			    &ecp_port_secret);
}

static siphash_key_t ecp_ts_secret __read_mostly;

u32 ecp_conn_ts_off(const struct ecp_conn *c, __be32 addr, __be16 port,
		    __be16 lport)
{
	if (READ_ONCE(c->net->ipv4.sysctl_tcp_timestamps) != 1)
		return 0;
	net_get_random_once(&ecp_ts_secret, sizeof(ecp_ts_secret));
	return siphash_3u32((__force u32)c->vip, (__force u32)addr,
			    (__force u32)port << 16 | (__force u32)lport,
			    &ecp_ts_secret);
}

bool ecp_conn_ts_paws(struct ecp_conn *c, const struct ecp_ts *ts,
		      const struct ecp_seg *p, u32 slack)
{
	if (!p->h.ts || (p->h.flags & TCPHDR_RST) ||
	    !ecp_ts_paws_reject(ts, p->h.tsval, slack, ktime_get_seconds()))
		return false;
	ecp_stats_drop(&c->t->stats, ECPROXY_DROP_PAWS);
	return true;
}

bool ecp_conn_oow_ack(struct ecp_conn_peer *pr)
{
	unsigned long now = jiffies;

	if (pr->oow_at && time_before(now, pr->oow_at + HZ / 2))
		return false;
	pr->oow_at = now ?: 1;
	return true;
}

/*
 * Give peer @pr a local port from the ephemeral range, unique for (netns,
 * VIP) and not a task's service port on the VIP (the hook would take the
 * peer's segments for a client's), in the order ecp_conn_port_offset()
 * sets.  Caller holds ecp_conn_hash_lock and rcu_read_lock().
 */
static int ecp_conn_hash_port(struct ecp_conn *c, struct ecp_conn_peer *pr,
			      int lo, unsigned int range)
{
	struct ecp_net *en = ecp_net(c->net);
	u32 offset = ecp_conn_port_offset(c->net, c->vip, pr);
	u32 *perturb = &ecp_port_perturb[hash_32(offset,
						 ECP_PORT_PERTURB_BITS)];
	unsigned int n;

	for (n = 0; n < range; n++) {
		__be16 port = htons(lo + (offset + *perturb + n) % range);

		if (ecp_conn_port_free(c->net, c->vip, port) &&
		    !ecp_task_lookup_vip(en, AF_INET,
					 (const union nf_inet_addr *)&c->vip,
					 port)) {
			pr->lport = port;
			break;
		}
	}
	if (n == range)
		return -EADDRNOTAVAIL;
	*perturb += n + 1;
	hash_add_rcu(ecp_conn_hash, &pr->node,
		     ecp_conn_hashfn(c->net, c->vip, pr->lport));
	pr->hashed = true;
	return 0;
}

/* Ports for every source and target.  Caller holds rcu_read_lock(). */
static int ecp_conn_hash_ports(struct ecp_conn *c)
{
	unsigned int i, range;
	int lo, hi, ret = 0;

	inet_get_local_port_range(c->net, &lo, &hi);
	range = hi - lo + 1;
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; ecp_conn_has_sources(c) && i < c->k && !ret; i++)
		ret = ecp_conn_hash_port(c, &c->src[i].peer, lo, range);
	for (i = 0; ecp_conn_has_targets(c) && i < c->nout && !ret; i++)
		ret = ecp_conn_hash_port(c, &c->out[i].peer, lo, range);
	spin_unlock_bh(&ecp_conn_hash_lock);
	return ret;
}

static void ecp_conn_unhash_ports(struct ecp_conn *c)
{
	unsigned int i;

	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++)
		if (c->src[i].peer.hashed)
			hash_del_rcu(&c->src[i].peer.node);
	for (i = 0; i < c->nout; i++)
		if (c->out[i].peer.hashed)
			hash_del_rcu(&c->out[i].peer.node);
	spin_unlock_bh(&ecp_conn_hash_lock);
}

/*
 * What a connection holds besides its own memory: its place in its home
 * CPU's count (steer.c).  The sources' records and the outputs'
 * scoreboards are the task's (ecp_task_mem()).
 */
static void ecp_conn_release(struct ecp_conn *c)
{
	ecp_steer_leave(c->home);
}

void ecp_conn_free(struct ecp_conn *c)
{
	/*
	 * Running elsewhere, the timer's callback sees dead and does not
	 * re-arm; it ends before the RCU grace period that frees c.  The
	 * pacing timer may have been armed again while its callback ran
	 * (hrtimer_start() under the lock, the callback sending after it):
	 * only hrtimer_cancel() takes it out of the queue then, waiting for
	 * the callback, which never calls this (ecp_conn_free_work()).
	 */
	del_timer(&c->timer);
	hrtimer_cancel(&c->pace_timer);
	/* Armed only under the lock while c lives: not again. */
	hrtimer_cancel(&c->ack_timer);
	ecp_conn_unhash_ports(c);
	/*
	 * Readers that found c under RCU only look at it until they see
	 * dead under the task's lock: its home's count can go now.
	 */
	ecp_conn_release(c);
	/* The task outlives RCU readers of c: its free is RCU-deferred too. */
	ecp_task_put(c->t);
	kfree_rcu(c, rcu);
}

void ecp_conn_set_state(struct ecp_conn *c, u8 state)
{
	c->state = state;
	WRITE_ONCE(c->t->conn_state, state);
}

/* Frees connections in process context (ecp_conn_put()). */
static struct workqueue_struct *ecp_conn_wq;

int ecp_conn_init(void)
{
	ecp_conn_wq = alloc_workqueue("ecproxy", WQ_UNBOUND, 0);
	return ecp_conn_wq ? 0 : -ENOMEM;
}

void ecp_conn_exit(void)
{
	/* Drains it: no work item may outlive the module. */
	destroy_workqueue(ecp_conn_wq);
}

void ecp_conn_finish(struct ecp_conn *c)
{
	struct ecp_task *t = c->t;
	unsigned long ms = jiffies_to_msecs(jiffies - c->start);
	unsigned int i;

	c->dead = true;
	t->conn = NULL;
	for (i = 0; i < c->nrow; i++) {
		ecp_stats_buffer(&t->stats, ecp_dbuf_peak(&c->row[i].dbuf));
		/* A target's row stays done or reset until the next run. */
		if (ecp_conn_has_client(c))
			WRITE_ONCE(t->row[i].state, ECPROXY_ROW_IDLE);
	}
	/* Once a run has ended, its average is what an operator compares. */
	if (ms)
		WRITE_ONCE(t->rate_measured, div_u64(c->bytes_out * 1000, ms));
	WRITE_ONCE(t->conn_state, ECPROXY_CONN_NONE);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_IDLE);
}

static void ecp_conn_free_work(struct work_struct *work)
{
	ecp_conn_free(container_of(work, struct ecp_conn, free_work));
}

/*
 * The pacing timer (pace.h): an output's next segment is due.  Soft, so
 * that it runs in softirq like the rest of the data path.
 */
static enum hrtimer_restart ecp_conn_pace_timer(struct hrtimer *timer)
{
	struct ecp_conn *c = container_of(timer, struct ecp_conn, pace_timer);
	struct ecp_task *t = c->t;
	struct sk_buff_head q;
	bool free = false;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead) {
		spin_unlock_bh(&t->lock);
		return HRTIMER_NORESTART;
	}
	c->pace_at = 0;
	if (c->state == ECPROXY_CONN_ESTABLISHED ||
	    c->state == ECPROXY_CONN_CLOSING)
		free = !ecp_conn_push(c, &q);
	ecp_conn_unlock_send(t, c->net, &q, NULL);
	/* Its free waits for this callback to end: not from within it. */
	if (free)
		queue_work(ecp_conn_wq, &c->free_work);
	return HRTIMER_NORESTART;
}

/* The sources' delayed ACKs (ecp_conn_send_ack_src_later()). */
static enum hrtimer_restart ecp_conn_ack_timer(struct hrtimer *timer)
{
	struct ecp_conn *c = container_of(timer, struct ecp_conn, ack_timer);
	struct ecp_task *t = c->t;
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead) {
		spin_unlock_bh(&t->lock);
		return HRTIMER_NORESTART;
	}
	ecp_conn_send_ack_srcs(c, &q);
	ecp_conn_unlock_send(t, c->net, &q, NULL);
	return HRTIMER_NORESTART;
}

void ecp_conn_steer(struct ecp_conn *c, struct sk_buff *skb)
{
	if (raw_smp_processor_id() != c->home)
		ecp_stats_inc(&c->t->stats, ECP_STAT_OFF_HOME);
	ecp_steer_flow(skb, c->home);
}

/*
 * A connection of task t from VIP @vip, or an ERR_PTR: -ENOMEM, or
 * -EHOSTUNREACH when S has no route to a source or target.  The sources,
 * rows and outputs follow it in one allocation.
 */
static struct ecp_conn *ecp_conn_alloc(struct net *net, struct ecp_task *t,
				       __be32 vip, gfp_t gfp)
{
	bool targets = t->mode == ECPROXY_MODE_DEST ||
		       t->mode == ECPROXY_MODE_WRITE;
	unsigned int i, nout = ecp_task_nout(t->mode, t->nrow);
	struct ecp_conn *c;
	size_t rows = ALIGN(struct_size(c, src, t->k), sizeof(u64));
	size_t outs = rows + t->nring * sizeof(struct ecp_conn_row);
	int err = -ENOMEM;

	c = kzalloc(outs + nout * sizeof(struct ecp_conn_out), gfp);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->t = t;
	c->net = net;
	c->vip = vip;
	c->mode = t->mode;
	c->k = t->k;
	c->nrow = t->nrow;
	c->nout = nout;
	c->row = (void *)c + rows;
	c->out = (void *)c + outs;
	hrtimer_init(&c->pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	c->pace_timer.function = ecp_conn_pace_timer;
	hrtimer_init(&c->ack_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	c->ack_timer.function = ecp_conn_ack_timer;
	INIT_WORK(&c->free_work, ecp_conn_free_work);
	c->src_mss = 0xffff;
	/*
	 * Without RFS, home is where the client's SYN came in (for DEST,
	 * where TASK_START ran); with it, the least loaded CPU, unless
	 * steer_by_load is off (steer.c).
	 */
	c->home = ecp_steer_home();
	/* As for S's own sockets: tcp_timestamps 0 offers none. */
	c->ts_offer = READ_ONCE(net->ipv4.sysctl_tcp_timestamps);
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		s->peer.conn = c;
		s->peer.role = ECP_PEER_SRC;
		s->peer.idx = i;
		s->peer.addr = t->src[i].addr.ip;
		s->peer.port = t->src[i].port;
		s->len = t->src[i].len;
		ecp_ivset_init_on(&s->iv, ecp_task_records(t, i),
				  ecp_task_holes(t->buffer_size));
		/* A writer's data fragment: no peer, no handshake. */
		if (!ecp_conn_has_sources(c)) {
			s->synack = true;
			continue;
		}
		/*
		 * Routes are looked up here, for the MSS clamps, and again
		 * when ICMP lowers a path's MTU.
		 */
		s->mss = ecp_route_mss(net, vip, s->peer.addr);
		if (!s->mss) {
			err = -EHOSTUNREACH;
			goto err;
		}
		c->src_mss = min(c->src_mss, s->mss);
	}
	if (ecp_conn_has_writer(c))
		ecp_ivset_init_on(&c->client.iv, ecp_task_writer_records(t),
				  ecp_task_holes(t->buffer_size));
	for (i = 0; i < t->nring; i++) {
		/* What an earlier connection left is stored over (dbuf.h). */
		c->row[i].dbuf.buf = ecp_task_ring(t, i);
		c->row[i].dbuf.size = ecp_task_ring_size(t);
		c->row[i].len = t->row[i].len;
	}
	c->nspare = t->nspare;
	for (i = 0; i < c->nout; i++) {
		struct ecp_conn_out *o = &c->out[i];

		o->peer.conn = c;
		o->peer.role = ECP_PEER_TGT;
		o->peer.idx = i;
		o->iss = get_random_u32();
		o->rto = ECP_RTO_MIN;
		ecp_sack_init(&o->sack, ecp_task_scoreboard(t, i),
			      ecp_task_holes(t->buffer_size));
		if (!targets)
			continue;
		o->peer.addr = t->row[i].addr.ip;
		o->peer.port = t->row[i].port;
		o->mss = ecp_route_caps(net, vip, o->peer.addr, &o->gso_bytes,
					&o->gso_segs);
		if (!o->mss) {
			err = -EHOSTUNREACH;
			goto err;
		}
	}
	return c;
err:
	ecp_conn_release(c);
	kfree(c);
	return ERR_PTR(err);
}

static void ecp_conn_timer(struct timer_list *timer);

/*
 * Publish @c on its task and open it: ports, timer, SYNs to every source
 * (and target).  Task lock held.  Returns 0, or -EADDRNOTAVAIL with @c
 * not published and still the caller's.
 */
static int ecp_conn_open(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	c->start = jiffies;
	c->last_rx = jiffies;
	c->tokens_ns = ktime_get_ns();
	for (i = 0; i < ECP_MEASURE_SLOTS; i++)
		c->measured_at[i] = jiffies;
	for (i = 0; i < c->k; i++)
		c->src[i].last_rx = jiffies;
	for (i = 0; i < c->nout; i++) {
		c->out[i].last_rx = jiffies;
		c->out[i].last_progress = jiffies;
	}
	c->w.last_rx = jiffies;
	/* With targets, out[0]'s timer repeats the SYNs (conn.c). */
	if (ecp_conn_has_targets(c))
		c->out[0].rto = ECP_SYNACK_RTO;
	if (ecp_conn_hash_ports(c)) {
		ecp_conn_unhash_ports(c);
		return -EADDRNOTAVAIL;
	}
	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++)
		c->src[i].ts.off = ecp_conn_ts_off(c, c->src[i].peer.addr,
						   c->src[i].peer.port,
						   c->src[i].peer.lport);
	for (i = 0; ecp_conn_has_targets(c) && i < c->nout; i++)
		c->out[i].ts.off = ecp_conn_ts_off(c, c->out[i].peer.addr,
						   c->out[i].peer.port,
						   c->out[i].peer.lport);
	timer_setup(&c->timer, ecp_conn_timer, 0);
	t->conn = c;
	ecp_conn_set_state(c, ECPROXY_CONN_HANDSHAKE);
	t->last_error = ECPROXY_ERR_NONE;
	t->last_error_source = -1;
	t->last_error_target = -1;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS);
	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++) {
		ecp_conn_send_syn_src(c, &c->src[i], q);
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_SYN_SENT);
	}
	for (i = 0; ecp_conn_has_targets(c) && i < c->nout; i++) {
		ecp_conn_send_syn_tgt(c, &c->out[i], q);
		WRITE_ONCE(t->row[i].state, ECPROXY_ROW_SYN_SENT);
	}
	mod_timer(&c->timer, jiffies + ECP_TICK);
	return 0;
}

struct ecp_conn *ecp_conn_start(struct net *net, struct ecp_task *t,
				const struct ecp_seg *p,
				struct sk_buff_head *q)
{
	struct ecp_conn_out *cl;
	struct ecp_conn *c;
	u16 mss;

	c = ecp_conn_alloc(net, t, p->h.daddr, GFP_ATOMIC);
	if (IS_ERR(c)) {
		ecp_stats_drop(&t->stats, PTR_ERR(c) == -EHOSTUNREACH ?
			       ECPROXY_DROP_NO_ROUTE : ECPROXY_DROP_NO_MEMORY);
		return NULL;
	}
	cl = ecp_conn_caller(c);
	mss = ecp_route_caps(net, p->h.daddr, p->h.saddr, &cl->gso_bytes,
			     &cl->gso_segs);
	if (!mss) {
		ecp_stats_drop(&t->stats, ECPROXY_DROP_NO_ROUTE);
		goto err;
	}
	if (!ecp_task_tryget(t))
		goto err;
	c->vport = p->h.dport;
	cl->peer.addr = p->h.saddr;
	cl->peer.port = p->h.sport;
	cl->peer.lport = p->h.dport;
	/*
	 * Like a TCP sender: never below tcp_min_snd_mss's 48, whatever the
	 * client announced, and never above what one GSO packet carries,
	 * which ecp_conn_push() cuts into whole segments.
	 */
	cl->ts.off = ecp_conn_ts_off(c, p->h.saddr, p->h.sport, p->h.dport);
	ecp_conn_ts_open(c, &cl->ts, p);
	cl->mss = min_t(u16, ecp_conn_ts_mss(&cl->ts,
					     min(p->h.mss ?: ECP_DEFAULT_MSS,
						 mss)),
			ECP_GSO_MAX);
	cl->ws = p->h.wscale >= 0 ? p->h.wscale : 0;
	cl->win = p->h.win;
	cl->wl1 = p->h.seq;
	cl->sack_ok = p->h.sack_ok;
	/*
	 * ECN (RFC 3168 §6.1.1) when the client or the writer asks for it,
	 * ECE and CWR on its SYN, and S's namespace takes it (tcp_ecn, as
	 * for its own sockets: Linux's default 2 accepts what is asked).
	 * S marks its data to the client ECN-capable, and echoes the marks
	 * on the writer's (ecp_conn_rcv_writer_seg()).
	 */
	cl->ecn_ok = (p->h.flags & (TCPHDR_ECE | TCPHDR_CWR)) ==
		     (TCPHDR_ECE | TCPHDR_CWR) &&
		     READ_ONCE(net->ipv4.sysctl_tcp_ecn);
	c->client.isn = p->h.seq;
	c->client.syn_win = p->h.win;
	c->client.wscale = p->h.wscale;
	if (!ecp_conn_open(c, q))
		return c;
	ecp_task_put(t);
	ecp_stats_drop(&t->stats, ECPROXY_DROP_NO_MEMORY);
err:
	ecp_conn_release(c);
	/* Some of its ports may have been visible to RCU readers. */
	kfree_rcu(c, rcu);
	return NULL;
}

int ecp_conn_start_tgt(struct net *net, struct ecp_task *t)
{
	struct sk_buff_head q;
	struct ecp_conn *c;
	int ret;

	c = ecp_conn_alloc(net, t, t->vip.ip, GFP_KERNEL);
	if (IS_ERR(c))
		return PTR_ERR(c);
	/*
	 * No client: S's own request stream, closed at once (a FIN to each
	 * source once it answers), as a client that sends nothing would.
	 */
	c->client.isn = get_random_u32();
	c->client.syn_win = 0xffff;
	c->client.wscale = -1;
	c->client.fin = true;
	c->client.rcv_nxt = 1;
	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	ret = -EBUSY;
	if (t->conn || READ_ONCE(t->dead) || !ecp_task_tryget(t))
		goto out;
	rcu_read_lock();
	ret = ecp_conn_open(c, &q);
	rcu_read_unlock();
	if (ret)
		ecp_task_put(t);
out:
	spin_unlock_bh(&t->lock);
	ecp_xmit_queue(net, &q);
	if (ret) {
		ecp_conn_release(c);
		/* As in ecp_conn_start(): readers may have seen its ports. */
		kfree_rcu(c, rcu);
	}
	return ret;
}

void ecp_conn_unlock_send(struct ecp_task *t, struct net *net,
			  struct sk_buff_head *q, struct ecp_conn *to_free)
	__releases(&t->lock)
{
	spin_unlock_bh(&t->lock);
	ecp_xmit_queue(net, q);
	if (to_free)
		ecp_conn_free(to_free);
}

/*
 * The window-scale shift S announces to the writer: the smallest that
 * lets a 16-bit window cover the buffer of all k data fragments, the most
 * S offers it (ecp_conn_writer_win()).
 */
static u8 ecp_conn_writer_wscale(const struct ecp_conn *c)
{
	return clamp_t(int, fls64((u64)c->t->buffer_size * c->k) - 16, 0,
		       ECP_EBSN_MAX_WSCALE);
}

/*
 * Every target answered: S's ACK completes their handshakes, and their
 * rows start, with the RTO their SYN-ACKs timed.
 */
static void ecp_conn_targets_established(struct ecp_conn *c,
					 struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	unsigned int i;

	for (i = 0; i < c->nout; i++) {
		struct ecp_conn_out *o = &c->out[i];

		o->rto = ecp_rtt_rto(&o->rtt);
		o->last_progress = jiffies;
		ecp_cc_init(&o->cc, o->mss);
		ecp_conn_send_ack_out(c, o, q);
		WRITE_ONCE(t->row[i].state, ECPROXY_ROW_SENDING);
	}
}

/* Every target of a write answered: ACK them, and the SYN-ACK to the writer. */
static void ecp_conn_answered_writer(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_conn_out *w = &c->w;

	ecp_conn_targets_established(c, q);
	if (c->client.wscale >= 0) {
		w->ws = c->client.wscale;
		w->ws_out = ecp_conn_writer_wscale(c);
	}
	ecp_conn_writer_win(c);
	w->synack_sent = true;
	w->last_progress = jiffies;
	w->rto = ECP_SYNACK_RTO;
	c->synack_at = jiffies;
	ecp_conn_send_synack_writer(c, q);
}

/*
 * Every source has answered, or a spare stands in for it: the SYN-ACK to
 * the client, or once every target has answered too, the ACKs that
 * establish the rest.  Task lock held.
 */
static void ecp_conn_answered_all(struct ecp_conn *c, struct sk_buff_head *q)
{
	struct ecp_task *t = c->t;
	struct ecp_conn_out *cl;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		if (ecp_conn_src_unanswered(&c->src[i]))
			return;
	if (ecp_conn_has_client(c)) {
		/* One SYN-ACK to the client; its ACK completes the rest. */
		cl = &c->out[0];
		cl->ws_out = ECP_EBSN_MAX_WSCALE;
		for (i = 0; i < c->k; i++)
			if (!c->src[i].gone)
				cl->ws_out = min(cl->ws_out, c->src[i].ws);
		if (c->client.wscale < 0)
			cl->ws_out = 0;
		cl->last_progress = jiffies;
		cl->rto = ECP_SYNACK_RTO;
		c->synack_at = jiffies;
		ecp_conn_send_synack_client(c, q);
		return;
	}
	for (i = 0; i < c->nout; i++)
		if (!c->out[i].synack)
			return;
	if (ecp_conn_has_writer(c)) {
		ecp_conn_answered_writer(c, q);
		return;
	}
	ecp_conn_set_state(c, ECPROXY_CONN_ESTABLISHED);
	ecp_conn_targets_established(c, q);
	c->client.fin_at = jiffies;
	for (i = 0; i < c->k; i++) {
		if (c->src[i].gone)
			continue;
		ecp_conn_send_fin_src(c, &c->src[i], q);
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_ESTABLISHED);
	}
}

void ecp_conn_answered(struct ecp_conn *c, struct ecp_conn_peer *p,
		       struct sk_buff_head *q)
{
	unsigned long rtt;

	/*
	 * Karn: an answer to a repeated SYN does not say to which; and one
	 * after ECP_SYNACK_RTO may be the peer's own repeat of a lost one.
	 */
	rtt = jiffies - p->syn_at;
	if (p->syns == 1 && rtt < ECP_SYNACK_RTO) {
		c->syn_rtt = max(c->syn_rtt, rtt);
		c->syn_timed = true;
	}
	ecp_conn_answered_all(c, q);
}

unsigned int ecp_conn_spares_free(const struct ecp_conn *c)
{
	unsigned int i, lost = 0;

	if (c->state == ECPROXY_CONN_LINGER)
		return 0;
	for (i = 0; i < c->k; i++)
		lost += c->src[i].lost;
	return c->nspare - lost;
}

bool ecp_conn_src_stand_in(struct ecp_conn *c, struct ecp_conn_src *s,
			   u8 state, struct sk_buff_head *q)
{
	bool unanswered = ecp_conn_src_unanswered(s);

	if (s->gone || !ecp_conn_spares_free(c))
		return false;
	s->gone = true;
	s->lost = true;
	WRITE_ONCE(c->t->src[s->peer.idx].state, state);
	ecp_stats_inc(&c->t->stats, ECP_STAT_SOURCES_LOST);
	/* Which node: the state goes back to idle with the connection. */
	atomic64_inc(&c->t->src[s->peer.idx].stats.lost);
	/* It was the last one the handshake waited for. */
	if (unanswered)
		ecp_conn_answered_all(c, q);
	return true;
}

/*
 * Without a client S closed the request stream itself (ecp_conn_answered()),
 * so its FIN, if lost, is S's to repeat as a TCP's RTO would: every second
 * to each source that has not acked it.  The end waits for those acks.
 */
static void ecp_conn_tick_fin_src(struct ecp_conn *c, unsigned long now,
				  struct sk_buff_head *q)
{
	unsigned int i;

	if (c->mode != ECPROXY_MODE_DEST ||
	    time_before(now, c->client.fin_at + ECP_SYNACK_RTO))
		return;
	c->client.fin_at = now;
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		if (!s->gone && s->acked <= c->client.fin_off)
			ecp_conn_send_fin_src(c, s, q);
	}
}

/* ---- Timer and teardown ---------------------------------------------- */

/*
 * The persist timer's case (RFC 9293 §3.8.6.1; tcp_check_probe_timer()):
 * the stream is not done, nothing is in flight, and the output's window
 * has less than a segment of room beyond what S sent, so no ACK will come
 * by itself.  Less than a segment counts: a sliver is not worth a
 * segment, and the bytes that would fill it wait in the rings.  If the
 * output's window update was lost, only a probe brings the next.
 */
static bool ecp_conn_out_persist(const struct ecp_conn_out *o)
{
	return !o->fin_sent && o->snd_nxt == o->acked &&
	       o->acked + o->win < o->snd_nxt + o->mss;
}

/*
 * Is a tail loss probe due to output o (RFC 8985 §7.2)?  It negotiated
 * SACK, S is not recovering, data is in flight and none has been sent for
 * two round trips: the end of the flight (or the whole of it) was likely
 * lost, and nothing beyond it will draw the ACKs that would say so.  A
 * netem or switch queue that drops a GSO packet whole takes 44 segments
 * of a tail at once, which only the RTO (200 ms and doubling) repaired.
 * One probe per flight: the next waits for an ACK of this one.  With a
 * single segment in flight the output may be delaying its ACK, and the
 * RTO comes soon enough.
 */
static unsigned long ecp_conn_out_pto(const struct ecp_conn_out *o)
{
	u32 srtt = o->rtt.srtt_us;

	if (!o->sack_ok || !srtt || o->probe_end ||
	    ecp_cc_recovering(&o->cc, o->acked) ||
	    o->snd_nxt <= o->acked + o->mss)
		return 0;
	return usecs_to_jiffies(max_t(u64, 2ULL * srtt, 10 * USEC_PER_MSEC));
}

/*
 * When output o's timer work is next due (jiffies), within a tick of
 * @now: its RTO, its tail loss probe or its persist timer.  The
 * connection's timer is set for the earliest (ecp_conn_timer_due()), so
 * that a probe due 10 ms after the last segment goes then, not at the
 * next 50 ms tick, and an RTO does not wait up to a tick past its time.
 */
static unsigned long ecp_conn_out_due(const struct ecp_conn_out *o,
				      unsigned long now)
{
	unsigned long due = now + ECP_TICK, pto;

	if (o->done)
		return due;
	if (ecp_conn_out_snd_max(o) > o->acked) {
		pto = ecp_conn_out_pto(o);
		if (pto && time_before(o->last_sent + pto, due))
			due = o->last_sent + pto;
	} else if (!ecp_conn_out_persist(o)) {
		return due;
	}
	if (time_before(o->last_progress + o->rto, due))
		due = o->last_progress + o->rto;
	return due;
}

/*
 * Set the connection's timer for its outputs' earliest work (never in
 * the past): on each run, and after pushing bytes, whose tail probe may
 * be due before the timer is.  Task lock held; not once c is dead, when
 * its free deletes the timer.
 */
void ecp_conn_timer_due(struct ecp_conn *c)
{
	unsigned long now = jiffies, due = now + ECP_TICK, at;
	unsigned int i;

	if (c->dead)
		return;
	if (c->state == ECPROXY_CONN_ESTABLISHED ||
	    c->state == ECPROXY_CONN_CLOSING)
		for (i = 0; i < c->nout; i++) {
			at = ecp_conn_out_due(&c->out[i], now);
			if (time_before(at, due))
				due = at;
		}
	timer_reduce(&c->timer, time_after(due, now) ? due : now + 1);
}

/*
 * The timer's work for output o: its RTO, tail loss probe or persist
 * timer.  Returns the error (ECPROXY_ERR_*) if it has been silent too
 * long, else 0.
 */
static u8 ecp_conn_out_tick(struct ecp_conn *c, struct ecp_conn_out *o,
			    unsigned long now, struct sk_buff_head *q)
{
	unsigned long idle = msecs_to_jiffies(c->t->idle_ms);

	if (o->done)
		return 0;
	if (ecp_conn_out_snd_max(o) > o->acked) {
		/* S re-sends at its RTO: a live output answers. */
		if (time_after_eq(now, o->last_rx + idle))
			return ecp_conn_has_client(c) ?
			       ECPROXY_ERR_CLIENT_TIMEOUT :
			       ECPROXY_ERR_TARGET_TIMEOUT;
		if (time_before(now, o->last_progress + o->rto)) {
			unsigned long pto = ecp_conn_out_pto(o);

			if (pto && time_after_eq(now, o->last_sent + pto))
				ecp_conn_send_tail_probe(c, o, q);
			return 0;
		}
		/*
		 * The window goes to one segment and everything outstanding
		 * but what the output SACKed is lost: re-sent from the ack
		 * in slow start (go back N); with only the FIN outstanding,
		 * the FIN.  The SACKed ranges are kept, as Linux keeps them
		 * (tcp_timeout_mark_lost()), unless the output may have
		 * reneged (RFC 2018 §8): a range starts at its ack, or this
		 * RTO follows one that brought the recovery no end.  Then
		 * everything goes again.
		 */
		if (o->cc.rto || ecp_ivset_low(&o->sack.iv) > o->acked)
			ecp_sack_clear(&o->sack);
		ecp_stats_inc(&c->t->stats, ECP_STAT_TIMEOUTS);
		o->probe_end = 0;
		ecp_cc_timeout(&o->cc, ecp_conn_out_snd_max(o) - o->acked,
			       o->snd_nxt, o->mss);
		ecp_rtt_resent(&o->rtt);
		if (o->acked < o->snd_nxt) {
			u64 budget = ECP_PUSH_MAX;

			ecp_sack_start(&o->sack, o->snd_nxt, 0);
			ecp_conn_resend_out(c, o, q, &budget);
		} else {
			ecp_conn_send_fin_out(c, o, q);
			ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
		}
		o->rto = min_t(unsigned long, o->rto * 2, ECP_RTO_MAX);
		o->last_progress = now;
	} else if (ecp_conn_out_persist(o) &&
		   time_after_eq(now, o->last_progress + o->rto)) {
		ecp_conn_send_probe_out(c, o, q);
		/*
		 * Only the probes draw the output's answers, which keep the
		 * connection from its idle timeout: three per idle time, or a
		 * live client that holds its window closed for a few minutes
		 * is reset between two of them.
		 */
		o->rto = min_t(unsigned long, o->rto * 2,
			       min_t(unsigned long, ECP_PERSIST_MAX, idle / 3));
		o->last_progress = now;
	}
	return 0;
}

/*
 * Is source s the one the stream waits on?  Its bytes are the next ones
 * missing in a row it feeds, the row's output has sent everything
 * complete, and S offered s room beyond them (its EBSN edge, which the
 * buffer bounds): nothing but s stops the stream,
 * and a live s would send or retransmit.  A source whose window S closed
 * (or rounded down to nothing at its scale) waits for S, and one that
 * gave everything waits for nobody.
 */
static bool ecp_conn_src_awaited(const struct ecp_conn *c,
				 const struct ecp_conn_src *s)
{
	u32 rows = c->t->src[s->peer.idx].rows;
	u64 low = ecp_ivset_low(&s->iv);
	unsigned int r;

	/* A source that is gone is waited on by nothing it could help. */
	if (s->gone)
		return false;
	/* A spare holds up every row once others are missing. */
	if (s->peer.idx >= c->k - c->nspare)
		rows = GENMASK(c->nrow - 1, 0);

	if ((s->fin && low >= s->fin_off) || s->ebsn.edge <= low)
		return false;
	for (r = 0; r < c->nrow; r++) {
		const struct ecp_conn_out *o;

		if (!(rows & BIT(r)) || ecp_conn_row_complete(c, r) != low)
			continue;
		o = &c->out[ecp_conn_has_targets(c) ? r : 0];
		if (o->snd_nxt == ecp_conn_out_complete(c, o))
			return true;
	}
	return false;
}

/* The idle timeout's verdict on a write (ecp_conn_stalled()). */
static u8 ecp_conn_writer_stalled(struct ecp_conn *c, unsigned long now)
{
	unsigned long idle = msecs_to_jiffies(c->t->idle_ms);
	struct ecp_conn_client *wr = &c->client;
	struct ecp_conn_out *w = &c->w;

	/*
	 * The writer has room and has not closed, or has not acked S's
	 * FIN, which S repeats: a live one sends.
	 */
	if (((!wr->fin_seen && wr->edge > wr->rcv_nxt) ||
	     (w->fin_sent && !w->acked)) &&
	    time_after_eq(now, w->last_rx + idle))
		return ECPROXY_ERR_CLIENT_TIMEOUT;
	if (time_after_eq(now, c->last_rx + idle))
		return ECPROXY_ERR_IDLE_TIMEOUT;
	return ECPROXY_ERR_NONE;
}

/* The timer's work for the writer: delayed ACK, window, FIN repeats. */
static void ecp_conn_tick_writer(struct ecp_conn *c, unsigned long now,
				 struct sk_buff_head *q)
{
	struct ecp_conn_out *w = &c->w;

	/* The delayed ACK. */
	if (c->client.rcv_nxt > c->client.ack_sent)
		ecp_conn_send_ack_writer(c, q);
	else
		ecp_conn_send_win_writer(c, q);
	if (w->fin_sent && !w->acked &&
	    time_after_eq(now, w->last_progress + w->rto)) {
		ecp_conn_send_fin_writer(c, q);
		ecp_stats_inc(&c->t->stats, ECP_STAT_RESENT);
		w->rto = min_t(unsigned long, w->rto * 2, ECP_RTO_MAX);
		w->last_progress = now;
	}
}

/*
 * Is an established connection held up by a side that has gone quiet for
 * the idle timeout?  Returns the error (ERR_NONE if not) and sets
 * @err_src or @err_tgt to the source or target at fault, if one is.
 *
 * Silence alone proves nothing: a fast source waits at its EBSN edge
 * without sending, and everyone waits while an output's window is closed.
 * So blame only a side the stream is waiting on:
 *  - an output, when it has bytes outstanding (S re-sends them at its RTO,
 *    so a live one answers; ecp_conn_out_tick());
 *  - a source, ecp_conn_src_awaited().
 * Failing both, the idle timeout still applies to the whole connection.
 */
static u8 ecp_conn_stalled(struct ecp_conn *c, unsigned long now,
			   int *err_src, int *err_tgt, struct sk_buff_head *q)
{
	unsigned long idle = msecs_to_jiffies(c->t->idle_ms);
	unsigned int i;
	u8 err;

	for (i = 0; i < c->nout; i++) {
		err = ecp_conn_out_tick(c, &c->out[i], now, q);
		if (err) {
			if (ecp_conn_has_targets(c))
				*err_tgt = i;
			return err;
		}
	}
	if (ecp_conn_has_writer(c))
		return ecp_conn_writer_stalled(c, now);
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		if (ecp_conn_src_awaited(c, s) &&
		    time_after_eq(now, s->last_rx + idle)) {
			*err_src = i;
			return ECPROXY_ERR_SOURCE_TIMEOUT;
		}
	}
	if (time_after_eq(now, c->last_rx + idle))
		return ECPROXY_ERR_IDLE_TIMEOUT;
	return ECPROXY_ERR_NONE;
}

/*
 * A repeated SYN waits ECP_SYN_RTTS of the slowest answered round trip, at
 * least a tick, doubled per SYN up to 2^ECP_SYN_BACKOFF times: three round
 * trips leave room for a peer that is only slower than the others, and a
 * peer that is down costs a few SYNs within the handshake timeout.  Every
 * answered source waits in SYN-RECV for the last one, and takes that wait
 * as its first round trip (tcp_synack_rtt_meas()): at 200 ms, the floor
 * this had, their RTOs started at 600 ms.  After the first, repeats keep
 * ECP_SYN_GAP apart: a Linux peer in SYN-RECV answers a repeated SYN with
 * its SYN-ACK at most once per tcp_invalid_ratelimit (500 ms,
 * tcp_check_req()), so closer ones would draw nothing.
 */
#define ECP_SYN_RTTS		3
#define ECP_SYN_BACKOFF		6
#define ECP_SYN_GAP		(HZ / 2 + ECP_TICK)
/*
 * With spares, a source silent to this many SYNs, while another answered
 * the first (the path works), is one the spares stand in for when the next
 * would go: about a second on a LAN (ECP_SYN_GAP), where waiting for the
 * handshake timeout (3 s by default) would hold up the whole read.
 */
#define ECP_SYN_STAND_IN	3

static bool ecp_conn_syn_due(const struct ecp_conn_peer *p, unsigned long wait,
			     unsigned long now)
{
	if (p->syns > 1)
		wait = max_t(unsigned long,
			     wait << min_t(unsigned int, p->syns - 1,
					   ECP_SYN_BACKOFF),
			     ECP_SYN_GAP);
	return p->syns && time_after_eq(now, p->syn_at + wait);
}

/*
 * A source or target that has not answered once another has: its SYN or
 * SYN-ACK was lost.  RFC 6298's 1 s would leave it to the client's SYN
 * retransmission, or to S's timer without a client, and a request that
 * opens k peers would lose that second k times as often as one TCP
 * connection does.  The others answered through the same router, so S
 * sends the SYN again after a few of their round trips (ecp_conn_syn_due()).
 * Task lock held.
 */
static void ecp_conn_tick_syns(struct ecp_conn *c, unsigned long now,
			       struct sk_buff_head *q)
{
	unsigned long wait;
	unsigned int i;

	if (!c->syn_timed)
		return;
	wait = max_t(unsigned long, ECP_SYN_RTTS * c->syn_rtt, ECP_TICK);
	for (i = 0; ecp_conn_has_sources(c) && i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		if (!ecp_conn_src_unanswered(s) ||
		    !ecp_conn_syn_due(&s->peer, wait, now))
			continue;
		if (s->peer.syns >= ECP_SYN_STAND_IN &&
		    ecp_conn_src_stand_in(c, s, ECPROXY_SOURCE_SILENT, q))
			continue;
		ecp_conn_send_syn_src(c, s, q);
	}
	for (i = 0; ecp_conn_has_targets(c) && i < c->nout; i++)
		if (!c->out[i].synack &&
		    ecp_conn_syn_due(&c->out[i].peer, wait, now))
			ecp_conn_send_syn_tgt(c, &c->out[i], q);
}

/* Not sent a SYN in this tick already (by ecp_conn_tick_syns()). */
static bool ecp_conn_syn_old(const struct ecp_conn_peer *p, unsigned long now)
{
	return time_before(p->syn_at, now);
}

/*
 * The handshake timed out: if only sources are silent, and no more than
 * the spares can stand in for, they do, and the handshake goes on (the
 * client has as long again to ack S's SYN-ACK).  A source that answered
 * no SYN in time (no other answered the first one, or their answers came
 * to repeats, which time no round trip) is as good as one that refused.
 * Returns true if it goes on.  Task lock held.
 */
static bool ecp_conn_tick_stand_in(struct ecp_conn *c, struct sk_buff_head *q)
{
	unsigned int i, silent = 0;

	if (!c->nspare || (ecp_conn_has_client(c) &&
			   ecp_conn_caller(c)->synack_sent))
		return false;
	for (i = 0; i < c->k; i++)
		silent += ecp_conn_src_unanswered(&c->src[i]);
	for (i = 0; ecp_conn_has_targets(c) && i < c->nout; i++)
		if (!c->out[i].synack)
			return false;
	/* All of them or none: one left waiting fails the handshake. */
	if (!silent || silent > ecp_conn_spares_free(c))
		return false;
	for (i = 0; i < c->k; i++)
		if (ecp_conn_src_unanswered(&c->src[i]))
			ecp_conn_src_stand_in(c, &c->src[i],
					      ECPROXY_SOURCE_SILENT, q);
	return true;
}

/*
 * The handshake: the client established on S's SYN-ACK and, if its ACK
 * was lost, will not send another until S repeats it; without a client S
 * repeats on its own timer the SYNs that got no answer, and with one or
 * without, on the others' round trips (ecp_conn_tick_syns()).  Returns
 * false if it timed out.
 *
 * The peers have handshake_ms from the client's SYN (or the start) to
 * answer; the client, or the writer, as long again from S's SYN-ACK to
 * ack it, however long the peers took.  The repeats do not back off:
 * doubling from 1 s, as a Linux listener does with 63 s to wait
 * (tcp_synack_retries), leaves one repeat in the default 3 s, and a
 * lost ACK and one lost answer reset the read (5% loss on A's link
 * did, in make check).  One segment a second per task is nothing a
 * path notices.
 */
static bool ecp_conn_tick_handshake(struct ecp_conn *c, unsigned long now,
				    struct sk_buff_head *q)
{
	struct ecp_conn_out *o = &c->out[0];
	struct ecp_task *t = c->t;
	unsigned long from = c->start;
	int err_src = -1, err_tgt = -1;
	unsigned int i;

	if ((ecp_conn_has_client(c) || ecp_conn_has_writer(c)) &&
	    ecp_conn_caller(c)->synack_sent)
		from = c->synack_at;
	if (time_before(now, from + msecs_to_jiffies(t->handshake_ms))) {
		ecp_conn_tick_syns(c, now, q);
		/* Every target answered: the writer is to ack the SYN-ACK. */
		if (ecp_conn_has_writer(c) && c->w.synack_sent)
			o = &c->w;
		if (time_before(now, o->last_progress + o->rto))
			return true;
		if (o == &c->w) {
			ecp_conn_send_synack_writer(c, q);
		} else if (ecp_conn_has_client(c)) {
			if (!o->synack_sent)
				return true;
			ecp_conn_send_synack_client(c, q);
		} else {
			for (i = 0; i < c->k; i++)
				if (ecp_conn_src_unanswered(&c->src[i]) &&
				    ecp_conn_syn_old(&c->src[i].peer, now))
					ecp_conn_send_syn_src(c, &c->src[i], q);
			for (i = 0; i < c->nout; i++)
				if (!c->out[i].synack &&
				    ecp_conn_syn_old(&c->out[i].peer, now))
					ecp_conn_send_syn_tgt(c, &c->out[i], q);
		}
		o->last_progress = now;
		return true;
	}
	if (ecp_conn_tick_stand_in(c, q))
		return true;
	for (i = 0; i < c->k && err_src < 0; i++)
		if (ecp_conn_src_unanswered(&c->src[i]))
			err_src = i;
	for (i = 0; ecp_conn_has_targets(c) && i < c->nout && err_tgt < 0;
	     i++)
		if (!c->out[i].synack)
			err_tgt = i;
	ecp_conn_abort(c, q, ECPROXY_ERR_HANDSHAKE_TIMEOUT, err_src, err_tgt,
		       false, -1, -1);
	return false;
}

/*
 * The measured rate while a connection runs: its output over the last four
 * seconds, sampled every second.  One second alone swings by the rate cap's
 * burst (64 KiB, a quarter of a second at 2 Mbit/s), and an operator turning
 * the cap wants to see the rate it holds, soon after the change.
 */
static void ecp_conn_measure(struct ecp_conn *c, unsigned long now)
{
	unsigned int old = c->measured_slot;
	unsigned int last = (old + ECP_MEASURE_SLOTS - 1) % ECP_MEASURE_SLOTS;
	unsigned long el = now - c->measured_at[old];

	if (now - c->measured_at[last] < HZ)
		return;
	WRITE_ONCE(c->t->rate_measured,
		   div_u64((c->bytes_out - c->measured_bytes[old]) * HZ, el));
	c->measured_at[old] = now;
	c->measured_bytes[old] = c->bytes_out;
	c->measured_slot = (old + 1) % ECP_MEASURE_SLOTS;
}

static void ecp_conn_timer(struct timer_list *timer)
{
	struct ecp_conn *c = from_timer(c, timer, timer);
	struct ecp_task *t = c->t;
	int err_src = -1, err_tgt = -1;
	unsigned long now = jiffies;
	struct sk_buff_head q;
	bool free = false;
	u8 err;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead) {
		spin_unlock_bh(&t->lock);
		return;
	}
	switch (c->state) {
	case ECPROXY_CONN_HANDSHAKE:
		free = !ecp_conn_tick_handshake(c, now, &q);
		break;
	case ECPROXY_CONN_LINGER:
		if (time_before(now, c->linger_start +
				msecs_to_jiffies(t->linger_ms)))
			break;
		ecp_conn_finish(c);
		free = true;
		break;
	default:
		err = ecp_conn_stalled(c, now, &err_src, &err_tgt, &q);
		if (err != ECPROXY_ERR_NONE) {
			ecp_conn_abort(c, &q, err, err_src, err_tgt, false, -1,
				       -1);
			free = true;
			break;
		}
		/*
		 * Anything c->ack_timer left; while it is queued, it acks
		 * in time itself, and this timer, due whenever a tail probe
		 * could be, would ack ahead of it.
		 */
		if (!hrtimer_is_queued(&c->ack_timer))
			ecp_conn_send_ack_srcs(c, &q);
		ecp_conn_tick_fin_src(c, now, &q);
		if (ecp_conn_has_writer(c))
			ecp_conn_tick_writer(c, now, &q);
		ecp_conn_measure(c, now);
		/*
		 * What a rate cap held back since the last segment, or
		 * what was held back when the cap was lifted.
		 */
		free = !ecp_conn_push(c, &q);
		break;
	}
	if (!free)
		ecp_conn_timer_due(c);
	ecp_conn_unlock_send(t, c->net, &q, free ? c : NULL);
}

void ecp_conn_kill(struct ecp_task *t)
{
	struct sk_buff_head q;
	struct ecp_conn *c;

	might_sleep();
	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	c = t->conn;
	if (c) {
		if (c->state == ECPROXY_CONN_LINGER)
			ecp_conn_finish(c);
		else
			ecp_conn_abort(c, &q, ECPROXY_ERR_TASK_DELETED, -1, -1,
				       false, -1, -1);
	}
	spin_unlock_bh(&t->lock);
	if (!c)
		return;
	ecp_xmit_queue(c->net, &q);
	/* The callback sees dead and does not re-arm. */
	del_timer_sync(&c->timer);
	ecp_conn_free(c);
}
