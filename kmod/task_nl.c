// SPDX-License-Identifier: GPL-2.0
/*
 * Task commands: TASK_ADD, TASK_SET, TASK_START, TASK_DEL, TASK_GET (do
 * and dump), TASK_FLUSH, STATS_RESET.  Requests are parsed and checked
 * by task_parse.c.
 */
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/socket.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/ecproxy.h>
#include "event.h"
#include "extack.h"
#include "netlink.h"
#include "netns.h"
#include "task.h"

int ecp_nl_task_add(struct sk_buff *skb, struct genl_info *info)
{
	struct ecp_net *en = ecp_net(genl_info_net(info));
	struct ecp_task *t;
	int ret;

	ret = ecp_parse_task(&t, info);
	if (ret)
		return ret;
	ret = ecp_task_add(en, t, info->extack);
	if (ret)
		ecp_task_free(t);
	else
		ecp_event_task(en->net, t, ECPROXY_EVENT_TASK_ADDED);
	return ret;
}

static int ecp_get_id(struct genl_info *info, u32 *id)
{
	if (!info->attrs[ECPROXY_A_TASK_ID]) {
		ecp_extack_missing(info->extack, NULL, ECPROXY_A_TASK_ID, "id");
		return -EINVAL;
	}
	*id = nla_get_u32(info->attrs[ECPROXY_A_TASK_ID]);
	return 0;
}

/*
 * TASK_SET: the settings are parsed into a model task with the rules of
 * TASK_ADD, then copied to the task if it is idle (ecp_task_change()).
 */
int ecp_nl_task_set(struct sk_buff *skb, struct genl_info *info)
{
	static const struct {
		int type;
		const char *name;
	} fixed[] = {
		{ ECPROXY_A_TASK_VIP, "vip" },
		{ ECPROXY_A_TASK_PORT, "port" },
		{ ECPROXY_A_TASK_SOURCES, "sources" },
		{ ECPROXY_A_TASK_MODE, "mode" },
		{ ECPROXY_A_TASK_ROWS, "rows" },
		{ ECPROXY_A_TASK_BLOCK, "block" },
		{ ECPROXY_A_TASK_CELL, "cell" },
	};
	static const struct {
		int type;
		unsigned int what;
	} changes[] = {
		{ ECPROXY_A_TASK_CLIENT, ECP_CHANGE_CLIENT },
		{ ECPROXY_A_TASK_BUFFER_SIZE, ECP_CHANGE_BUFFER },
		{ ECPROXY_A_TASK_HANDSHAKE_TIMEOUT, ECP_CHANGE_HANDSHAKE },
		{ ECPROXY_A_TASK_IDLE_TIMEOUT, ECP_CHANGE_IDLE },
		{ ECPROXY_A_TASK_LINGER_TIMEOUT, ECP_CHANGE_LINGER },
		{ ECPROXY_A_TASK_RATE, ECP_CHANGE_RATE },
	};
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	unsigned int i, what = 0;
	struct ecp_task *model;
	u32 id;
	int ret;

	ret = ecp_get_id(info, &id);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		if (attrs[fixed[i].type]) {
			ecp_extack_fmt(extack, attrs[fixed[i].type],
				       "task %u: %s cannot be changed; delete the task and add it again",
				       id, fixed[i].name);
			return -EINVAL;
		}
	}
	for (i = 0; i < ARRAY_SIZE(changes); i++)
		if (attrs[changes[i].type])
			what |= changes[i].what;
	if (!what && attrs[ECPROXY_A_TASK_CLIENT_PREFIX]) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_CLIENT_PREFIX],
			       "client prefix given without a client address");
		return -EINVAL;
	}
	if (!what) {
		ecp_extack_fmt(extack, NULL,
			       "task %u: nothing to change; give client, buffer, rate or a timeout",
			       id);
		return -EINVAL;
	}
	model = ecp_task_alloc(0, 0);
	if (!model)
		return -ENOMEM;
	/* IPv4 is the only family a task can have yet. */
	model->family = AF_INET;
	ret = ecp_parse_client(model, attrs, extack);
	if (ret)
		goto out;
	model->buffer_size = ecp_parse_u32(attrs, ECPROXY_A_TASK_BUFFER_SIZE,
					   0);
	model->handshake_ms = ecp_parse_u32(attrs,
					  ECPROXY_A_TASK_HANDSHAKE_TIMEOUT, 0);
	model->idle_ms = ecp_parse_u32(attrs, ECPROXY_A_TASK_IDLE_TIMEOUT, 0);
	model->linger_ms = ecp_parse_u32(attrs, ECPROXY_A_TASK_LINGER_TIMEOUT,
					 0);
	if (attrs[ECPROXY_A_TASK_RATE])
		model->rate = nla_get_u64(attrs[ECPROXY_A_TASK_RATE]);
	ret = ecp_task_change(ecp_net(genl_info_net(info)), id, model, what,
			      extack);
out:
	ecp_task_free(model);
	return ret;
}

int ecp_nl_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *a = info->attrs[ECPROXY_A_TASK_ID];
	u32 id = a ? nla_get_u32(a) : 0;

	return ecp_task_stats_reset(ecp_net(genl_info_net(info)),
				    a ? &id : NULL, info->extack);
}

int ecp_nl_task_del(struct sk_buff *skb, struct genl_info *info)
{
	u32 id;
	int ret;

	ret = ecp_get_id(info, &id);
	if (ret)
		return ret;
	return ecp_task_del(ecp_net(genl_info_net(info)), id, info->extack);
}

int ecp_nl_task_start(struct sk_buff *skb, struct genl_info *info)
{
	u32 id;
	int ret;

	ret = ecp_get_id(info, &id);
	if (ret)
		return ret;
	return ecp_task_start(ecp_net(genl_info_net(info)), id, info->extack);
}

int ecp_nl_task_flush(struct sk_buff *skb, struct genl_info *info)
{
	ecp_task_flush(ecp_net(genl_info_net(info)));
	return 0;
}

static int ecp_put_addr(struct sk_buff *skb, int type, u8 family,
			const union nf_inet_addr *addr)
{
	if (family == AF_INET)
		return nla_put_in_addr(skb, type, addr->ip);
	return nla_put_in6_addr(skb, type, &addr->in6);
}

static int ecp_put_source(struct sk_buff *skb, const struct ecp_task *t,
			  unsigned int i)
{
	const struct ecp_source *s = &t->src[i];
	bool spare = i >= t->k - t->nspare;
	struct nlattr *nest;

	nest = nla_nest_start(skb, i);
	if (!nest)
		return -EMSGSIZE;
	if (ecp_put_addr(skb, ECPROXY_A_SOURCE_ADDR, t->family, &s->addr) ||
	    nla_put_u16(skb, ECPROXY_A_SOURCE_PORT, ntohs(s->port)) ||
	    (t->mode == ECPROXY_MODE_PULL && !spare &&
	     nla_put_u8(skb, ECPROXY_A_SOURCE_COEF, t->row[0].coef[i])) ||
	    (spare && nla_put_flag(skb, ECPROXY_A_SOURCE_SPARE)) ||
	    (t->nspare && !spare &&
	     nla_put(skb, ECPROXY_A_SOURCE_CHECK, t->nspare, s->check)) ||
	    (s->len != U64_MAX &&
	     nla_put_u64_64bit(skb, ECPROXY_A_SOURCE_LENGTH, s->len,
			       ECPROXY_A_SOURCE_PAD)) ||
	    (s->frag >= 0 &&
	     nla_put_u8(skb, ECPROXY_A_SOURCE_FRAG, s->frag)) ||
	    nla_put_u8(skb, ECPROXY_A_SOURCE_STATE, READ_ONCE(s->state)) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_SOURCE_BYTES_IN,
			      atomic64_read(&s->stats.bytes_in),
			      ECPROXY_A_SOURCE_PAD) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_SOURCE_SEGS_IN,
			      atomic64_read(&s->stats.segs_in),
			      ECPROXY_A_SOURCE_PAD) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_SOURCE_DUP_BYTES,
			      atomic64_read(&s->stats.dup_bytes),
			      ECPROXY_A_SOURCE_PAD) ||
	    (t->nspare &&
	     nla_put_u64_64bit(skb, ECPROXY_A_SOURCE_LOST,
			       atomic64_read(&s->stats.lost),
			       ECPROXY_A_SOURCE_PAD))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int ecp_put_row(struct sk_buff *skb, const struct ecp_task *t,
		       unsigned int i)
{
	const struct ecp_row *r = &t->row[i];
	struct nlattr *nest;

	nest = nla_nest_start(skb, i);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put(skb, ECPROXY_A_ROW_COEFS, t->k, r->coef) ||
	    (r->frag >= 0 && nla_put_u8(skb, ECPROXY_A_ROW_FRAG, r->frag)) ||
	    ((t->mode == ECPROXY_MODE_DEST || t->mode == ECPROXY_MODE_WRITE) &&
	     (ecp_put_addr(skb, ECPROXY_A_ROW_ADDR, t->family, &r->addr) ||
	      nla_put_u16(skb, ECPROXY_A_ROW_PORT, ntohs(r->port)))) ||
	    (r->len != U64_MAX &&
	     nla_put_u64_64bit(skb, ECPROXY_A_ROW_LENGTH, r->len,
			       ECPROXY_A_ROW_PAD)) ||
	    nla_put_u8(skb, ECPROXY_A_ROW_STATE, READ_ONCE(r->state)) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_ROW_BYTES_OUT,
			      atomic64_read(&r->bytes_out),
			      ECPROXY_A_ROW_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int ecp_put_task_stats(struct sk_buff *skb, const struct ecp_task *t)
{
	struct nlattr *nest;
	s8 src = READ_ONCE(t->last_error_source);
	s8 tgt = READ_ONCE(t->last_error_target);

	nest = nla_nest_start(skb, ECPROXY_A_TASK_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (ecp_stats_put(skb, &t->stats, ecp_task_bytes_in(t)) ||
	    nla_put_u8(skb, ECPROXY_A_STATS_CONN_STATE,
		       READ_ONCE(t->conn_state)) ||
	    nla_put_u8(skb, ECPROXY_A_STATS_LAST_ERROR,
		       READ_ONCE(t->last_error)) ||
	    (src >= 0 &&
	     nla_put_u8(skb, ECPROXY_A_STATS_LAST_ERROR_SOURCE, src)) ||
	    (tgt >= 0 &&
	     nla_put_u8(skb, ECPROXY_A_STATS_LAST_ERROR_TARGET, tgt)) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_STATS_RATE,
			      READ_ONCE(t->rate_measured), ECPROXY_A_STATS_PAD) ||
	    nla_put_u32(skb, ECPROXY_A_STATS_RTT, READ_ONCE(t->rtt_measured)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int ecp_put_task(struct sk_buff *skb, const struct ecp_task *t)
{
	u8 state = READ_ONCE(t->conn_state) == ECPROXY_CONN_NONE ?
		   ECPROXY_TASK_IDLE : ECPROXY_TASK_BUSY;
	struct nlattr *nest;
	unsigned int i;

	if (nla_put_u32(skb, ECPROXY_A_TASK_ID, t->id) ||
	    ecp_put_addr(skb, ECPROXY_A_TASK_VIP, t->family, &t->vip) ||
	    nla_put_u16(skb, ECPROXY_A_TASK_PORT, ntohs(t->port)) ||
	    (t->has_client &&
	     (ecp_put_addr(skb, ECPROXY_A_TASK_CLIENT, t->family,
			   &t->client) ||
	      nla_put_u8(skb, ECPROXY_A_TASK_CLIENT_PREFIX,
			 t->client_prefix))) ||
	    nla_put_u32(skb, ECPROXY_A_TASK_BUFFER_SIZE, t->buffer_size) ||
	    nla_put_u32(skb, ECPROXY_A_TASK_HANDSHAKE_TIMEOUT,
			t->handshake_ms) ||
	    nla_put_u32(skb, ECPROXY_A_TASK_IDLE_TIMEOUT, t->idle_ms) ||
	    nla_put_u32(skb, ECPROXY_A_TASK_LINGER_TIMEOUT, t->linger_ms) ||
	    nla_put_u8(skb, ECPROXY_A_TASK_STATE, state) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_TASK_MEM, t->mem,
			      ECPROXY_A_TASK_PAD) ||
	    nla_put_u8(skb, ECPROXY_A_TASK_MODE, t->mode) ||
	    nla_put_u64_64bit(skb, ECPROXY_A_TASK_RATE, READ_ONCE(t->rate),
			      ECPROXY_A_TASK_PAD) ||
	    (t->block &&
	     nla_put_u64_64bit(skb, ECPROXY_A_TASK_BLOCK, t->block,
			       ECPROXY_A_TASK_PAD)) ||
	    (t->cell && nla_put_u32(skb, ECPROXY_A_TASK_CELL, t->cell)))
		return -EMSGSIZE;
	/* A write's inputs are the writer's data fragments, not sources. */
	if (t->mode != ECPROXY_MODE_WRITE) {
		nest = nla_nest_start(skb, ECPROXY_A_TASK_SOURCES);
		if (!nest)
			return -EMSGSIZE;
		for (i = 0; i < t->k; i++)
			if (ecp_put_source(skb, t, i))
				return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	nest = nla_nest_start(skb, ECPROXY_A_TASK_ROWS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < t->nrow; i++)
		if (ecp_put_row(skb, t, i))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return ecp_put_task_stats(skb, t);
}

/* Upper bound of ecp_put_task()'s output, genetlink header excluded. */
static size_t ecp_task_msg_size(const struct ecp_task *t)
{
	size_t addr = nla_total_size(sizeof(struct in6_addr));
	size_t u64 = nla_total_size_64bit(sizeof(u64));
	size_t source = 2 * nla_total_size(0) + addr + 5 * nla_total_size(1) +
			5 * u64;
	size_t row = nla_total_size(0) + nla_total_size(ECPROXY_MAX_K) +
		     addr + 3 * nla_total_size(2) + 2 * u64;

	return 2 * addr + 7 * nla_total_size(4) + 3 * nla_total_size(1) +
	       4 * u64 + nla_total_size(0) + t->k * source +
	       nla_total_size(0) + t->nrow * row +
	       nla_total_size(0) + ecp_stats_size() + 4 * nla_total_size(1) +
	       u64;
}

int ecp_nl_task_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ecp_net *en = ecp_net(genl_info_net(info));
	struct sk_buff *msg = NULL;
	struct ecp_task *t;
	void *hdr;
	u32 id;
	int ret;

	ret = ecp_get_id(info, &id);
	if (ret)
		return ret;
	mutex_lock(&en->conf_lock);
	t = ecp_task_lookup_id(en, id);
	if (!t) {
		ecp_extack_fmt(info->extack, info->attrs[ECPROXY_A_TASK_ID],
			       "task %u does not exist", id);
		ret = -ENOENT;
		goto out;
	}
	msg = genlmsg_new(ecp_task_msg_size(t), GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &ecp_genl_family, 0,
				ECPROXY_CMD_TASK_GET);
	if (!hdr || ecp_put_task(msg, t)) {
		NL_SET_ERR_MSG(info->extack, "reply does not fit in a message");
		ret = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(msg, hdr);
	mutex_unlock(&en->conf_lock);
	return genlmsg_reply(msg, info);
out:
	mutex_unlock(&en->conf_lock);
	nlmsg_free(msg);
	return ret;
}

/*
 * cb->args[0] is the next id to dump, so a dump resumes correctly even if
 * tasks come and go between its parts; en->gen flags that it happened.
 */
int ecp_nl_task_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct ecp_net *en = ecp_net(sock_net(skb->sk));
	unsigned long id = cb->args[0];
	struct ecp_task *t;
	int ret = 0;
	void *hdr;

	if (di->attrs[ECPROXY_A_TASK_ID]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, di->attrs[ECPROXY_A_TASK_ID],
				    "a dump takes no id; use a do request");
		return -EINVAL;
	}
	if (cb->args[1])
		return 0;	/* done */
	mutex_lock(&en->conf_lock);
	/* +1: seq 0 means "not checked" to nl_dump_check_consistent(). */
	cb->seq = en->gen + 1;
	xa_for_each_start(&en->tasks, id, t, id) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ecp_genl_family,
				  NLM_F_MULTI, ECPROXY_CMD_TASK_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (ecp_put_task(skb, t)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	if (!t)
		cb->args[1] = 1;
	else if (!skb->len)
		ret = -EMSGSIZE;	/* one task does not fit: buffer too small */
	cb->args[0] = id;
	mutex_unlock(&en->conf_lock);
	return ret ?: skb->len;
}
