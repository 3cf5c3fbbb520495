// SPDX-License-Identifier: GPL-2.0
/*
 * Connection lifetime: S's ports towards the sources and their RCU hash,
 * setting a connection up on the client's SYN, the per-connection timer
 * (handshake and idle timeouts, the RTO towards the client, the linger) and
 * teardown.  One timer per connection ticks every ECP_TICK.
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
#include "netns.h"
#include "task.h"
#include "xmit.h"

/* The sources' local ports, keyed by (netns, VIP, port). */
#define ECP_CONN_HASH_BITS	10
static DEFINE_HASHTABLE(ecp_conn_hash, ECP_CONN_HASH_BITS);
static DEFINE_SPINLOCK(ecp_conn_hash_lock);

static u32 ecp_conn_hashfn(const struct net *net, __be32 vip, __be16 port)
{
	return jhash_2words((__force u32)vip, (__force u32)port,
			    net_hash_mix(net));
}

struct ecp_conn_src *ecp_conn_lookup_src(const struct net *net,
					 const struct ecp_seg *p)
{
	struct ecp_conn_src *s;

	hash_for_each_possible_rcu(ecp_conn_hash, s, node,
				   ecp_conn_hashfn(net, p->h.daddr,
						   p->h.dport)) {
		struct ecp_conn *c = s->conn;
		struct ecp_source *cfg = &c->t->src[s->idx];

		if (s->lport == p->h.dport && c->vip == p->h.daddr &&
		    net_eq(c->net, net) && cfg->addr.ip == p->h.saddr &&
		    cfg->port == p->h.sport)
			return s;
	}
	return NULL;
}

/* Is (net, vip, port) free?  Caller holds ecp_conn_hash_lock. */
static bool ecp_conn_port_free(const struct net *net, __be32 vip,
			       __be16 port)
{
	struct ecp_conn_src *s;

	hash_for_each_possible(ecp_conn_hash, s, node,
			       ecp_conn_hashfn(net, vip, port))
		if (s->lport == port && s->conn->vip == vip &&
		    net_eq(s->conn->net, net))
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
 * Consecutive connections to one source then walk the range port by port,
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
				const struct ecp_source *cfg)
{
	net_get_random_once(&ecp_port_secret, sizeof(ecp_port_secret));
	return siphash_4u32((__force u32)vip, (__force u32)cfg->addr.ip,
			    (__force u32)cfg->port, net_hash_mix(net),
			    &ecp_port_secret);
}

/*
 * Give every source a local port from the ephemeral range, unique for
 * (netns, VIP) and not a task's service port on the VIP (the hook would
 * take the source's segments for a client's), in the order
 * ecp_conn_port_offset() sets.  Caller holds rcu_read_lock().
 */
static int ecp_conn_hash_ports(struct ecp_conn *c)
{
	struct ecp_net *en = ecp_net(c->net);
	unsigned int i, n, range;
	int lo, hi;

	inet_get_local_port_range(c->net, &lo, &hi);
	range = hi - lo + 1;
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];
		u32 offset = ecp_conn_port_offset(c->net, c->vip,
						  &c->t->src[i]);
		u32 *perturb = &ecp_port_perturb[hash_32(offset,
					ECP_PORT_PERTURB_BITS)];

		for (n = 0; n < range; n++) {
			__be16 port = htons(lo + (offset + *perturb + n) %
					    range);

			if (ecp_conn_port_free(c->net, c->vip, port) &&
			    !ecp_task_lookup_vip(en, AF_INET,
				(const union nf_inet_addr *)&c->vip, port)) {
				s->lport = port;
				break;
			}
		}
		if (n == range) {
			spin_unlock_bh(&ecp_conn_hash_lock);
			return -EADDRNOTAVAIL;
		}
		*perturb += n + 1;
		hash_add_rcu(ecp_conn_hash, &s->node,
			     ecp_conn_hashfn(c->net, c->vip, s->lport));
		s->hashed = true;
	}
	spin_unlock_bh(&ecp_conn_hash_lock);
	return 0;
}

void ecp_conn_free(struct ecp_conn *c)
{
	unsigned int i;

	del_timer(&c->timer);
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++)
		if (c->src[i].hashed)
			hash_del_rcu(&c->src[i].node);
	spin_unlock_bh(&ecp_conn_hash_lock);
	/*
	 * Readers that found c under RCU only look at it until they see
	 * dead under the task's lock, so the interval sets can go now.
	 */
	for (i = 0; i < c->k; i++)
		ecp_ivset_destroy(&c->src[i].iv);
	/* The task outlives RCU readers of c: its free is RCU-deferred too. */
	ecp_task_put(c->t);
	kfree_rcu(c, rcu);
}

void ecp_conn_set_state(struct ecp_conn *c, u8 state)
{
	c->state = state;
	WRITE_ONCE(c->t->conn_state, state);
}

/*
 * Zeroing happens in process context, in steps: up to 72 MiB (the largest
 * buffer and its headroom) is too much work for softirq under the lock.
 */
static struct workqueue_struct *ecp_conn_wq;
#define ECP_CLEAR_STEP	(1U << 20)

static void ecp_conn_clear_work(struct work_struct *work)
{
	struct ecp_task *t = container_of(work, struct ecp_task, clear_work);
	/* The buffer cannot change while dirty (ecp_task_change()). */
	struct ecp_dbuf d = {
		.buf = t->buffer,
		.size = t->buffer_size + t->headroom,
		.base = t->dirty_off,
	};
	u64 off = t->dirty_off, end = off + t->dirty_len;
	struct ecp_dbuf_span sp;

	while (off < end) {
		u32 n = min_t(u64, end - off, ECP_CLEAR_STEP);

		if (!WARN_ON_ONCE(ecp_dbuf_span(&d, off, n, &sp))) {
			memset(sp.ptr[0], 0, sp.len[0]);
			memset(sp.ptr[1], 0, sp.len[1]);
		}
		off += n;
		d.base = off;
		cond_resched();
	}
	spin_lock_bh(&t->lock);
	t->buffer_dirty = false;
	spin_unlock_bh(&t->lock);
	ecp_task_put(t);
}

/*
 * Zero what the connection left in the task's buffer, for the next one.
 * A connection that delivered everything left nothing: every byte was
 * released (and zeroed) as the client acked it.
 */
static void ecp_conn_clear_buffer(struct ecp_conn *c)
{
	struct ecp_task *t = c->t;

	if (!ecp_dbuf_occupancy(&c->dbuf) || !ecp_task_tryget(t))
		return;
	t->buffer_dirty = true;
	t->dirty_off = ecp_dbuf_base(&c->dbuf);
	t->dirty_len = ecp_dbuf_occupancy(&c->dbuf);
	INIT_WORK(&t->clear_work, ecp_conn_clear_work);
	queue_work(ecp_conn_wq, &t->clear_work);
}

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
	unsigned int i;

	c->dead = true;
	t->conn = NULL;
	ecp_stats_buffer(&t->stats, ecp_dbuf_peak(&c->dbuf));
	ecp_conn_clear_buffer(c);
	WRITE_ONCE(t->conn_state, ECPROXY_CONN_NONE);
	for (i = 0; i < c->k; i++)
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_IDLE);
}

u16 ecp_conn_path_mss(struct net *net, __be32 saddr, __be32 daddr)
{
	unsigned int mtu = ecp_route_mtu(net, saddr, daddr);

	if (mtu < 68)
		return 0;
	return clamp_t(unsigned int,
		       mtu - sizeof(struct iphdr) - sizeof(struct tcphdr),
		       TCP_MIN_SND_MSS, ECP_GSO_MAX);
}

/*
 * A connection for the client's SYN @p, or an ERR_PTR: -ENOMEM, or
 * -EHOSTUNREACH when S has no route to the client or to a source (a
 * spoofed SYN from an unroutable address, or a source that is not
 * reachable from here).
 */
static struct ecp_conn *ecp_conn_alloc(struct net *net, struct ecp_task *t,
				       const struct ecp_seg *p)
{
	struct ecp_conn *c;
	int err = -ENOMEM;
	unsigned int i;
	u16 mss;

	c = kzalloc(struct_size(c, src, t->k), GFP_ATOMIC);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->k = t->k;
	c->t = t;
	c->net = net;
	for (i = 0; i < c->k; i++) {
		struct ecp_conn_src *s = &c->src[i];

		s->conn = c;
		s->idx = i;
		if (ecp_ivset_init(&s->iv, ECP_IVSET_DEFAULT_CAP,
				   GFP_ATOMIC))
			goto err;
		/*
		 * Routes are looked up here, for the MSS clamps, and again
		 * when ICMP lowers a path's MTU.
		 */
		s->mss = ecp_conn_path_mss(net, p->h.daddr,
					   t->src[i].addr.ip);
		if (!s->mss) {
			err = -EHOSTUNREACH;
			goto err;
		}
	}
	mss = ecp_conn_path_mss(net, p->h.daddr, p->h.saddr);
	if (!mss) {
		err = -EHOSTUNREACH;
		goto err;
	}
	/*
	 * Like a TCP sender: never below tcp_min_snd_mss's 48, whatever the
	 * client announced, and never above what one GSO packet carries,
	 * which ecp_conn_push_client() cuts into whole segments.
	 */
	c->client.mss = clamp_t(u16, min(p->h.mss ?: ECP_DEFAULT_MSS, mss),
				TCP_MIN_SND_MSS, ECP_GSO_MAX);
	c->src_mss = 0xffff;
	for (i = 0; i < c->k; i++)
		c->src_mss = min(c->src_mss, c->src[i].mss);
	return c;
err:
	for (i = 0; i < c->k; i++)
		ecp_ivset_destroy(&c->src[i].iv);
	kfree(c);
	return ERR_PTR(err);
}

static void ecp_conn_timer(struct timer_list *timer);

struct ecp_conn *ecp_conn_start(struct net *net, struct ecp_task *t,
				const struct ecp_seg *p,
				struct sk_buff_head *q)
{
	struct ecp_conn *c;
	unsigned int i;

	c = ecp_conn_alloc(net, t, p);
	if (IS_ERR(c)) {
		ecp_stats_drop(&t->stats, PTR_ERR(c) == -EHOSTUNREACH ?
			       ECPROXY_DROP_NO_ROUTE : ECPROXY_DROP_NO_MEMORY);
		return NULL;
	}
	if (!ecp_task_tryget(t)) {
		c->t = NULL;
		goto err;
	}
	c->vip = p->h.daddr;
	c->vport = p->h.dport;
	c->client.addr = p->h.saddr;
	c->client.port = p->h.sport;
	c->client.isn = p->h.seq;
	c->client.iss = get_random_u32();
	c->client.syn_win = p->h.win;
	c->client.wscale = p->h.wscale;
	c->client.ws = p->h.wscale >= 0 ? p->h.wscale : 0;
	c->client.win = p->h.win;
	c->start = jiffies;
	c->last_rx = jiffies;
	c->client.last_rx = jiffies;
	c->client.last_progress = jiffies;
	c->client.rto = ECP_RTO_MIN;
	for (i = 0; i < c->k; i++)
		c->src[i].last_rx = jiffies;
	/* The task's buffer is zero outside a connection (see finish). */
	c->dbuf.buf = t->buffer;
	c->dbuf.size = t->buffer_size + t->headroom;
	if (ecp_conn_hash_ports(c))
		goto err_put;
	timer_setup(&c->timer, ecp_conn_timer, 0);
	t->conn = c;
	ecp_conn_set_state(c, ECPROXY_CONN_HANDSHAKE);
	t->last_error = ECPROXY_ERR_NONE;
	t->last_error_source = -1;
	ecp_stats_inc(&t->stats, ECP_STAT_CONNS);
	for (i = 0; i < c->k; i++) {
		ecp_conn_send_syn_src(c, &c->src[i], q);
		WRITE_ONCE(t->src[i].state, ECPROXY_SOURCE_SYN_SENT);
	}
	mod_timer(&c->timer, jiffies + ECP_TICK);
	return c;

err_put:
	c->dead = true;
	/* Not published: free at once, minus the timer it never had. */
	spin_lock_bh(&ecp_conn_hash_lock);
	for (i = 0; i < c->k; i++)
		if (c->src[i].hashed)
			hash_del_rcu(&c->src[i].node);
	spin_unlock_bh(&ecp_conn_hash_lock);
	ecp_task_put(t);
err:
	for (i = 0; i < c->k; i++)
		ecp_ivset_destroy(&c->src[i].iv);
	kfree_rcu(c, rcu);
	ecp_stats_drop(&t->stats, ECPROXY_DROP_NO_MEMORY);
	return NULL;
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

/* ---- Timer and teardown ---------------------------------------------- */

/*
 * Is an established connection held up by a side that has gone quiet for the
 * idle timeout?  Returns the error (ERR_NONE if not) and sets @err_src to the
 * source at fault, if one is.
 *
 * Silence alone proves nothing: a fast source waits at its EBSN edge without
 * sending, and everyone waits while the client's window is closed.  So blame
 * only a side the stream is waiting on:
 *  - the client, when it has bytes outstanding (S re-sends them at its RTO, so
 *    a live client answers);
 *  - a source at the completion front (its bytes are the next ones missing),
 *    when S has sent the client everything complete and has offered that
 *    source room beyond it (its EBSN edge, which the client's window and
 *    the buffer bound): nothing but that source stops the stream, and a
 *    live one would send or retransmit.  A source whose window S closed
 *    (or rounded down to nothing at its scale) waits for S.
 * Failing both, the idle timeout still applies to the whole connection.
 */
static u8 ecp_conn_stalled(struct ecp_conn *c, unsigned long now,
			   int *err_src)
{
	unsigned long idle = msecs_to_jiffies(c->t->idle_ms);
	u64 complete = ecp_ivset_min_low_of(c->src, c->k, iv);
	unsigned int i;

	if (ecp_conn_client_snd_max(&c->client) > c->client.acked &&
	    time_after_eq(now, c->client.last_rx + idle))
		return ECPROXY_ERR_CLIENT_TIMEOUT;
	if (c->client.snd_nxt == complete) {
		for (i = 0; i < c->k; i++) {
			struct ecp_conn_src *s = &c->src[i];

			if (ecp_ivset_low(&s->iv) != complete ||
			    (s->fin && s->fin_off == complete) ||
			    s->ebsn.edge <= complete)
				continue;
			if (time_after_eq(now, s->last_rx + idle)) {
				*err_src = i;
				return ECPROXY_ERR_SOURCE_TIMEOUT;
			}
		}
	}
	if (time_after_eq(now, c->last_rx + idle))
		return ECPROXY_ERR_IDLE_TIMEOUT;
	return ECPROXY_ERR_NONE;
}

/*
 * The persist timer's case (RFC 9293 §3.8.6.1; tcp_check_probe_timer()):
 * the stream is not done, nothing is in flight, and the client's window
 * has less than a segment of room beyond what S sent, so no ACK will come
 * by itself.  Less than a segment counts: EBSN passes the window on to
 * the sources, whose scaled windows round it down to nothing, and whose
 * senders would not fill a sliver anyway.  The bytes to send are not
 * waiting in the buffer either: EBSN holds the sources to the same
 * window.  If the client's window update was lost, only a probe brings
 * the next one.
 */
static bool ecp_conn_client_persist(const struct ecp_conn *c)
{
	const struct ecp_conn_client *cl = &c->client;

	return !cl->fin_sent && cl->snd_nxt == cl->acked &&
	       cl->acked + cl->win < cl->snd_nxt + cl->mss;
}

static void ecp_conn_timer(struct timer_list *timer)
{
	struct ecp_conn *c = from_timer(c, timer, timer);
	struct ecp_conn_client *cl = &c->client;
	struct ecp_task *t = c->t;
	unsigned long now = jiffies;
	struct sk_buff_head q;
	bool free = false;
	unsigned int i;
	int err_src = -1;
	u8 err;

	__skb_queue_head_init(&q);
	spin_lock_bh(&t->lock);
	if (t->conn != c || c->dead) {
		spin_unlock_bh(&t->lock);
		return;
	}
	switch (c->state) {
	case ECPROXY_CONN_HANDSHAKE:
		if (time_before(now, c->start +
				msecs_to_jiffies(t->handshake_ms))) {
			/*
			 * The client established on our SYN-ACK; if its ACK was
			 * lost it will not send another until we repeat ours.
			 */
			if (cl->synack_sent &&
			    time_after_eq(now, cl->last_progress + cl->rto)) {
				ecp_conn_send_synack_client(c, &q);
				cl->rto = min_t(unsigned long, cl->rto * 2,
						ECP_RTO_MAX);
				cl->last_progress = now;
			}
			break;
		}
		for (i = 0; i < c->k && err_src < 0; i++)
			if (!c->src[i].synack)
				err_src = i;
		ecp_conn_abort(c, &q, ECPROXY_ERR_HANDSHAKE_TIMEOUT, err_src,
			       false, -1);
		free = true;
		break;
	case ECPROXY_CONN_LINGER:
		if (time_before(now, c->linger_start +
				msecs_to_jiffies(t->linger_ms)))
			break;
		ecp_conn_finish(c);
		free = true;
		break;
	default:
		err = ecp_conn_stalled(c, now, &err_src);
		if (err != ECPROXY_ERR_NONE) {
			ecp_conn_abort(c, &q, err, err_src, false, -1);
			free = true;
			break;
		}
		/* The delayed ACKs of ecp_conn_send_ack_src(). */
		for (i = 0; i < c->k; i++)
			ecp_conn_send_ack_src(c, &c->src[i], &q, true);
		if (ecp_conn_client_snd_max(cl) > cl->acked &&
		    time_after_eq(now, cl->last_progress + cl->rto)) {
			ecp_cc_timeout(&cl->cc, ecp_conn_client_snd_max(cl) -
				       cl->acked, cl->snd_nxt, cl->mss);
			ecp_conn_resend_client(c, &q, ECP_RTO_SEGS);
			cl->rto = min_t(unsigned long, cl->rto * 2,
					ECP_RTO_MAX);
			cl->last_progress = now;
		} else if (ecp_conn_client_persist(c) &&
			   time_after_eq(now, cl->last_progress + cl->rto)) {
			ecp_conn_send_probe_client(c, &q);
			cl->rto = min_t(unsigned long, cl->rto * 2,
					ECP_PERSIST_MAX);
			cl->last_progress = now;
		}
		break;
	}
	if (!free)
		mod_timer(&c->timer, now + ECP_TICK);
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
			ecp_conn_abort(c, &q, ECPROXY_ERR_TASK_DELETED, -1,
				       false, -1);
	}
	spin_unlock_bh(&t->lock);
	if (!c)
		return;
	ecp_xmit_queue(c->net, &q);
	/* The callback sees dead and does not re-arm. */
	del_timer_sync(&c->timer);
	ecp_conn_free(c);
}

