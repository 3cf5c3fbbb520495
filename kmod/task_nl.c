// SPDX-License-Identifier: GPL-2.0
/*
 * Task commands: TASK_ADD, TASK_SET, TASK_DEL, TASK_GET (do and dump),
 * TASK_FLUSH, STATS_RESET.
 * Policies check types, sizes and ranges; the handlers check what a
 * policy cannot express (counts, duplicates, families) and name the
 * offending source in their messages.
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

static struct netlink_range_validation ecp_id_range = {
	.min = 1, .max = U32_MAX,
};
static struct netlink_range_validation ecp_buffer_range = {
	.min = ECPROXY_BUFFER_MIN, .max = ECPROXY_BUFFER_MAX,
};
static struct netlink_range_validation ecp_handshake_range = {
	.min = ECPROXY_HANDSHAKE_MS_MIN, .max = ECPROXY_HANDSHAKE_MS_MAX,
};
static struct netlink_range_validation ecp_idle_range = {
	.min = ECPROXY_IDLE_MS_MIN, .max = ECPROXY_IDLE_MS_MAX,
};
static struct netlink_range_validation ecp_linger_range = {
	.min = 0, .max = ECPROXY_LINGER_MS_MAX,
};

#define ECP_POLICY_ADDR	NLA_POLICY_RANGE(NLA_BINARY, 4, 16)

const struct nla_policy ecp_task_add_policy[ECPROXY_A_TASK_MAX + 1] = {
	[ECPROXY_A_TASK_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_id_range),
	[ECPROXY_A_TASK_VIP] = ECP_POLICY_ADDR,
	[ECPROXY_A_TASK_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[ECPROXY_A_TASK_CLIENT] = ECP_POLICY_ADDR,
	[ECPROXY_A_TASK_CLIENT_PREFIX] = NLA_POLICY_MAX(NLA_U8, 128),
	/* Entries are parsed by the handler, to name them in errors. */
	[ECPROXY_A_TASK_SOURCES] = { .type = NLA_NESTED },
	[ECPROXY_A_TASK_BUFFER_SIZE] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_buffer_range),
	[ECPROXY_A_TASK_HANDSHAKE_TIMEOUT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_handshake_range),
	[ECPROXY_A_TASK_IDLE_TIMEOUT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_idle_range),
	[ECPROXY_A_TASK_LINGER_TIMEOUT] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_linger_range),
	[ECPROXY_A_TASK_STATE] = { .type = NLA_REJECT },
	[ECPROXY_A_TASK_MEM] = { .type = NLA_REJECT },
	[ECPROXY_A_TASK_STATS] = { .type = NLA_REJECT },
};

const struct nla_policy ecp_task_id_policy[ECPROXY_A_TASK_ID + 1] = {
	[ECPROXY_A_TASK_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_id_range),
};

static const struct nla_policy ecp_source_policy[ECPROXY_A_SOURCE_MAX + 1] = {
	[ECPROXY_A_SOURCE_ADDR] = ECP_POLICY_ADDR,
	[ECPROXY_A_SOURCE_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[ECPROXY_A_SOURCE_COEF] = NLA_POLICY_MIN(NLA_U8, 1),
	[ECPROXY_A_SOURCE_FRAG] = { .type = NLA_U8 },
};

static int ecp_parse_addr(const struct nlattr *a, union nf_inet_addr *addr,
			  u8 *family, const char *what,
			  struct netlink_ext_ack *extack)
{
	memset(addr, 0, sizeof(*addr));
	switch (nla_len(a)) {
	case sizeof(struct in_addr):
		addr->ip = nla_get_in_addr(a);
		*family = AF_INET;
		return 0;
	case sizeof(struct in6_addr):
		ecp_extack_fmt(extack, a, "%s: IPv6 is not supported yet",
			       what);
		return -EAFNOSUPPORT;
	default:
		ecp_extack_fmt(extack, a,
			       "%s: address must be 4 (IPv4) or 16 (IPv6) bytes",
			       what);
		return -EINVAL;
	}
}

/* What a source policy failure means, worded for the user. */
static const char *ecp_source_reason(const struct nlattr *bad, int err,
				     const char *msg)
{
	if (bad && err == -ERANGE) {
		switch (nla_type(bad)) {
		case ECPROXY_A_SOURCE_COEF:
			return "coefficient must be non-zero";
		case ECPROXY_A_SOURCE_PORT:
			return "port must be non-zero";
		case ECPROXY_A_SOURCE_ADDR:
			return "address must be 4 (IPv4) or 16 (IPv6) bytes";
		}
	}
	return msg ?: "invalid attribute";
}

static int ecp_parse_source(struct ecp_task *t, unsigned int i,
			    const struct nlattr *nest,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ECPROXY_A_SOURCE_MAX + 1];
	struct ecp_source *s = &t->src[i];
	char what[16];
	unsigned int j;
	u8 family;
	int ret;

	ret = nla_parse_nested(tb, ECPROXY_A_SOURCE_MAX, nest,
			       ecp_source_policy, extack);
	if (ret) {
		const struct nlattr *bad = extack ? extack->bad_attr : NULL;

		ecp_extack_fmt(extack, bad, "source %u: %s", i,
			       ecp_source_reason(bad, ret,
						 extack ? extack->_msg : NULL));
		return ret;
	}
	if (!tb[ECPROXY_A_SOURCE_ADDR] || !tb[ECPROXY_A_SOURCE_PORT] ||
	    !tb[ECPROXY_A_SOURCE_COEF]) {
		int type = !tb[ECPROXY_A_SOURCE_ADDR] ? ECPROXY_A_SOURCE_ADDR :
			   !tb[ECPROXY_A_SOURCE_PORT] ? ECPROXY_A_SOURCE_PORT :
			   ECPROXY_A_SOURCE_COEF;

		ecp_extack_fmt(extack, nest, "source %u: missing %s", i,
			       type == ECPROXY_A_SOURCE_ADDR ? "address" :
			       type == ECPROXY_A_SOURCE_PORT ? "port" :
			       "coefficient");
		NL_SET_ERR_ATTR_MISS(extack, nest, type);
		return -EINVAL;
	}
	snprintf(what, sizeof(what), "source %u", i);
	ret = ecp_parse_addr(tb[ECPROXY_A_SOURCE_ADDR], &s->addr, &family,
			     what, extack);
	if (ret)
		return ret;
	if (family != t->family) {
		ecp_extack_fmt(extack, tb[ECPROXY_A_SOURCE_ADDR],
			       "source %u: address family differs from the VIP's",
			       i);
		return -EINVAL;
	}
	s->port = htons(nla_get_u16(tb[ECPROXY_A_SOURCE_PORT]));
	s->coef = nla_get_u8(tb[ECPROXY_A_SOURCE_COEF]);
	if (tb[ECPROXY_A_SOURCE_FRAG])
		s->frag = nla_get_u8(tb[ECPROXY_A_SOURCE_FRAG]);
	for (j = 0; j < i; j++) {
		if (t->src[j].port == s->port &&
		    ecp_addr_eq(family, &t->src[j].addr, &s->addr)) {
			ecp_extack_fmt(extack, nest,
				       "source %u: %pI4:%u is already source %u",
				       i, &s->addr.ip, ntohs(s->port), j);
			return -EINVAL;
		}
	}
	ecp_gf_coef_init(&s->gf, s->coef);
	return 0;
}

static unsigned int ecp_count_sources(const struct nlattr *sources)
{
	const struct nlattr *nest;
	unsigned int k = 0;
	int rem;

	nla_for_each_nested(nest, sources, rem)
		k++;
	return k;
}

static int ecp_parse_client(struct ecp_task *t, struct nlattr **attrs,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *a = attrs[ECPROXY_A_TASK_CLIENT];
	u8 family, prefix = 32;
	int ret;

	if (!a) {
		if (attrs[ECPROXY_A_TASK_CLIENT_PREFIX]) {
			ecp_extack_fmt(extack,
				       attrs[ECPROXY_A_TASK_CLIENT_PREFIX],
				       "client prefix given without a client address");
			return -EINVAL;
		}
		return 0;
	}
	ret = ecp_parse_addr(a, &t->client, &family, "client", extack);
	if (ret)
		return ret;
	if (family != t->family) {
		ecp_extack_fmt(extack, a,
			       "client: address family differs from the VIP's");
		return -EINVAL;
	}
	if (attrs[ECPROXY_A_TASK_CLIENT_PREFIX])
		prefix = nla_get_u8(attrs[ECPROXY_A_TASK_CLIENT_PREFIX]);
	if (prefix > 32) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_CLIENT_PREFIX],
			       "client: prefix /%u is longer than 32 bits",
			       prefix);
		return -ERANGE;
	}
	t->client_mask.ip = inet_make_mask(prefix);
	if (t->client.ip & ~t->client_mask.ip) {
		ecp_extack_fmt(extack, a,
			       "client: %pI4 has bits set beyond the /%u prefix",
			       &t->client.ip, prefix);
		return -EINVAL;
	}
	/* 0.0.0.0/0 lets everybody in: the same as no filter. */
	if (!prefix)
		return 0;
	t->has_client = true;
	t->client_prefix = prefix;
	return 0;
}

static u32 ecp_get_u32(struct nlattr **attrs, int type, u32 def)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : def;
}

static int ecp_parse_task(struct ecp_task **out, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	static const struct {
		int type;
		const char *name;
	} required[] = {
		{ ECPROXY_A_TASK_ID, "id" },
		{ ECPROXY_A_TASK_VIP, "vip" },
		{ ECPROXY_A_TASK_PORT, "port" },
		{ ECPROXY_A_TASK_SOURCES, "sources" },
	};
	const struct nlattr *nest;
	struct ecp_task *t;
	unsigned int k, i;
	int rem, ret;

	for (i = 0; i < ARRAY_SIZE(required); i++) {
		if (!attrs[required[i].type]) {
			ecp_extack_missing(extack, NULL, required[i].type,
					   required[i].name);
			return -EINVAL;
		}
	}
	k = ecp_count_sources(attrs[ECPROXY_A_TASK_SOURCES]);
	if (k < 1 || k > ECPROXY_MAX_K) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_SOURCES],
			       "sources: got %u, k must be 1..%u", k,
			       ECPROXY_MAX_K);
		return -EINVAL;
	}
	t = ecp_task_alloc(k);
	if (!t)
		return -ENOMEM;
	t->id = nla_get_u32(attrs[ECPROXY_A_TASK_ID]);
	ret = ecp_parse_addr(attrs[ECPROXY_A_TASK_VIP], &t->vip, &t->family,
			     "vip", extack);
	if (ret)
		goto err;
	t->port = htons(nla_get_u16(attrs[ECPROXY_A_TASK_PORT]));
	ret = ecp_parse_client(t, attrs, extack);
	if (ret)
		goto err;
	t->buffer_size = ecp_get_u32(attrs, ECPROXY_A_TASK_BUFFER_SIZE,
				     ECPROXY_BUFFER_DEFAULT);
	t->handshake_ms = ecp_get_u32(attrs, ECPROXY_A_TASK_HANDSHAKE_TIMEOUT,
				      ECPROXY_HANDSHAKE_MS_DEFAULT);
	t->idle_ms = ecp_get_u32(attrs, ECPROXY_A_TASK_IDLE_TIMEOUT,
				 ECPROXY_IDLE_MS_DEFAULT);
	t->linger_ms = ecp_get_u32(attrs, ECPROXY_A_TASK_LINGER_TIMEOUT,
				   ECPROXY_LINGER_MS_DEFAULT);
	i = 0;
	nla_for_each_nested(nest, attrs[ECPROXY_A_TASK_SOURCES], rem) {
		ret = ecp_parse_source(t, i++, nest, extack);
		if (ret)
			goto err;
	}
	*out = t;
	return 0;
err:
	ecp_task_free(t);
	return ret;
}

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
			       "task %u: nothing to change; give client, buffer or a timeout",
			       id);
		return -EINVAL;
	}
	model = ecp_task_alloc(0);
	if (!model)
		return -ENOMEM;
	/* IPv4 is the only family a task can have yet. */
	model->family = AF_INET;
	ret = ecp_parse_client(model, attrs, extack);
	if (ret)
		goto out;
	model->buffer_size = ecp_get_u32(attrs, ECPROXY_A_TASK_BUFFER_SIZE, 0);
	model->handshake_ms = ecp_get_u32(attrs,
					  ECPROXY_A_TASK_HANDSHAKE_TIMEOUT, 0);
	model->idle_ms = ecp_get_u32(attrs, ECPROXY_A_TASK_IDLE_TIMEOUT, 0);
	model->linger_ms = ecp_get_u32(attrs, ECPROXY_A_TASK_LINGER_TIMEOUT, 0);
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
	struct nlattr *nest;

	nest = nla_nest_start(skb, i);
	if (!nest)
		return -EMSGSIZE;
	if (ecp_put_addr(skb, ECPROXY_A_SOURCE_ADDR, t->family, &s->addr) ||
	    nla_put_u16(skb, ECPROXY_A_SOURCE_PORT, ntohs(s->port)) ||
	    nla_put_u8(skb, ECPROXY_A_SOURCE_COEF, s->coef) ||
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
			      ECPROXY_A_SOURCE_PAD)) {
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

	nest = nla_nest_start(skb, ECPROXY_A_TASK_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (ecp_stats_put(skb, &t->stats, ecp_task_bytes_in(t)) ||
	    nla_put_u8(skb, ECPROXY_A_STATS_CONN_STATE,
		       READ_ONCE(t->conn_state)) ||
	    nla_put_u8(skb, ECPROXY_A_STATS_LAST_ERROR,
		       READ_ONCE(t->last_error)) ||
	    (src >= 0 &&
	     nla_put_u8(skb, ECPROXY_A_STATS_LAST_ERROR_SOURCE, src)))
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
			      ECPROXY_A_TASK_PAD))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, ECPROXY_A_TASK_SOURCES);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < t->k; i++)
		if (ecp_put_source(skb, t, i))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return ecp_put_task_stats(skb, t);
}

/* Upper bound of ecp_put_task()'s output, genetlink header excluded. */
static size_t ecp_task_msg_size(const struct ecp_task *t)
{
	size_t addr = nla_total_size(sizeof(struct in6_addr));
	size_t u64 = nla_total_size_64bit(sizeof(u64));
	size_t source = nla_total_size(0) + addr + 4 * nla_total_size(1) +
			3 * u64;

	return 2 * addr + 6 * nla_total_size(4) + 2 * nla_total_size(1) +
	       u64 + nla_total_size(0) + t->k * source +
	       nla_total_size(0) + ecp_stats_size() + 3 * nla_total_size(1);
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
