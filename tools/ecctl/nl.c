// SPDX-License-Identifier: GPL-2.0
/*
 * libmnl layer: family resolution, request/reply loop, extended acks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "nl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

struct table_arg {
	const struct nlattr **tb;
	unsigned int max;
};

static int table_cb(const struct nlattr *a, void *data)
{
	struct table_arg *t = data;
	unsigned int type = mnl_attr_get_type(a);

	if (type <= t->max)
		t->tb[type] = a;
	return MNL_CB_OK;
}

int ecctl_nl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		   unsigned int max)
{
	struct table_arg t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), table_cb, &t);
}

int ecctl_nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			  unsigned int max)
{
	struct table_arg t = { tb, max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse_nested(nest, table_cb, &t);
}

static struct nlmsghdr *put_req(char *buf, uint16_t type, uint8_t cmd,
				uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

struct nlmsghdr *ecctl_nl_req(struct ecctl_nl *nl, uint8_t cmd,
			      uint16_t flags)
{
	return put_req(nl->tx, nl->family, cmd, ECPROXY_GENL_VERSION, flags);
}

/* Error state collected from an NLMSG_ERROR or NLMSG_DONE. */
struct nl_err {
	int error;
	char msg[512];
	uint32_t off;
	int has_off;
	int has_range;
	uint64_t min, max;
};

static int ext_ack_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(a);

	if (type <= NLMSGERR_ATTR_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static void parse_policy(struct nl_err *e, const struct nlattr *pol)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, pol) {
		switch (mnl_attr_get_type(a)) {
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
		case NL_POLICY_TYPE_ATTR_MIN_LENGTH:
			e->min = mnl_attr_get_payload_len(a) == 8 ?
				 mnl_attr_get_u64(a) : mnl_attr_get_u32(a);
			e->has_range |= 1;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
		case NL_POLICY_TYPE_ATTR_MAX_LENGTH:
			e->max = mnl_attr_get_payload_len(a) == 8 ?
				 mnl_attr_get_u64(a) : mnl_attr_get_u32(a);
			e->has_range |= 2;
			break;
		}
	}
}

/* Parse the TLVs after struct nlmsgerr (or after the DONE status). */
static void parse_ext_ack(const struct nlmsghdr *nlh, size_t offset,
			  struct nl_err *e)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { 0 };

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (mnl_attr_parse(nlh, offset, ext_ack_cb, tb) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(e->msg, sizeof(e->msg), "%s",
			 mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS]) {
		e->off = mnl_attr_get_u32(tb[NLMSGERR_ATTR_OFFS]);
		e->has_off = 1;
	}
	if (tb[NLMSGERR_ATTR_POLICY])
		parse_policy(e, tb[NLMSGERR_ATTR_POLICY]);
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct nl_err *e = data;
	size_t offset = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		e->error = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	e->error = -err->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += err->msg.nlmsg_len - sizeof(err->msg);
	parse_ext_ack(nlh, offset, e);
	return MNL_CB_ERROR;
}

static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_err *e = data;
	int status;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(status))
		return MNL_CB_STOP;
	memcpy(&status, mnl_nlmsg_get_payload(nlh), sizeof(status));
	if (!status)
		return MNL_CB_STOP;
	e->error = -status;
	parse_ext_ack(nlh, sizeof(status), e);
	return MNL_CB_ERROR;
}

struct talk_arg {
	struct ecctl_nl *nl;
	mnl_cb_t cb;
	void *data;
};

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk_arg *t = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		t->nl->dump_intr = 1;
	return t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;
}

/*
 * mnl_cb_run2() passes one data pointer to both data and control
 * callbacks; errors and replies need different ones, so dispatch here.
 */
static int run_msgs(struct ecctl_nl *nl, const char *buf, size_t len,
		    uint32_t seq, struct talk_arg *t, struct nl_err *e)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	int ret = MNL_CB_OK;

	while (mnl_nlmsg_ok(nlh, (int)len)) {
		if (!mnl_nlmsg_portid_ok(nlh, nl->portid) ||
		    !mnl_nlmsg_seq_ok(nlh, seq)) {
			e->error = ESRCH;
			return MNL_CB_ERROR;
		}
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			ret = MNL_CB_OK;
			break;
		case NLMSG_ERROR:
			ret = error_cb(nlh, e);
			break;
		case NLMSG_DONE:
			ret = done_cb(nlh, e);
			break;
		case NLMSG_OVERRUN:
			e->error = ENOBUFS;
			ret = MNL_CB_ERROR;
			break;
		default:
			ret = data_cb(nlh, t);
			if (ret == MNL_CB_ERROR && !e->error)
				e->error = errno ? errno : EPROTO;
			break;
		}
		if (ret <= MNL_CB_STOP)
			return ret;
		nlh = mnl_nlmsg_next(nlh, (int *)&len);
	}
	return ret;
}

static int exchange(struct ecctl_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		    void *data, struct nl_err *e)
{
	struct talk_arg t = { nl, cb, data };
	uint32_t seq;
	ssize_t n;
	int ret;

	memset(e, 0, sizeof(*e));
	nl->dump_intr = 0;
	seq = req->nlmsg_seq = ++nl->seq;
	if (mnl_socket_sendto(nl->sk, req, req->nlmsg_len) < 0) {
		e->error = errno;
		return -1;
	}
	do {
		n = mnl_socket_recvfrom(nl->sk, nl->rx, sizeof(nl->rx));
		if (n < 0) {
			e->error = errno;
			return -1;
		}
		ret = run_msgs(nl, nl->rx, (size_t)n, seq, &t, e);
	} while (ret > MNL_CB_STOP);
	return ret == MNL_CB_ERROR ? -1 : 0;
}

static void print_error(const struct nlmsghdr *req, const struct nl_err *e,
			ecctl_nl_describe_t describe)
{
	char what[128] = "";
	int named = 0;

	if (e->has_off && e->has_range && describe)
		named = describe(req, e->off, what, sizeof(what));
	fprintf(stderr, "Error: %s", e->msg[0] ? e->msg : strerror(e->error));
	if (named && e->has_range == 3)
		fprintf(stderr, " (%s: valid range %llu..%llu)", what,
			(unsigned long long)e->min,
			(unsigned long long)e->max);
	else if (named)
		fprintf(stderr, " (%s)", what);
	fputc('\n', stderr);
}

int ecctl_nl_talk(struct ecctl_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		  void *data, ecctl_nl_describe_t describe)
{
	struct nl_err e;

	if (exchange(nl, req, cb, data, &e) == 0)
		return ECCTL_OK;
	print_error(req, &e, describe);
	return ECCTL_ERR;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1], *grp;
	struct ecctl_nl *nl = data;

	ecctl_nl_parse(nlh, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS]) {
		const struct nlattr *g[CTRL_ATTR_MCAST_GRP_MAX + 1];

		ecctl_nl_parse_nested(grp, g, CTRL_ATTR_MCAST_GRP_MAX);
		if (g[CTRL_ATTR_MCAST_GRP_NAME] && g[CTRL_ATTR_MCAST_GRP_ID] &&
		    mnl_attr_validate(g[CTRL_ATTR_MCAST_GRP_NAME], MNL_TYPE_NUL_STRING) >= 0 &&
		    !strcmp(mnl_attr_get_str(g[CTRL_ATTR_MCAST_GRP_NAME]), ECPROXY_MCGRP_EVENTS))
			nl->events_group = mnl_attr_get_u32(g[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return MNL_CB_OK;
}

int ecctl_nl_subscribe_events(struct ecctl_nl *nl)
{
	int grp = (int)nl->events_group;

	if (!grp)
		return ecctl_error(ECCTL_ERR,
				   "the ecproxy module has no \"%s\" multicast group (too old?)",
				   ECPROXY_MCGRP_EVENTS);
	if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
		return ecctl_error(ECCTL_ERR, "cannot follow the events: %s", strerror(errno));
	return ECCTL_OK;
}

static int ecctl_nl_open(struct ecctl_nl *nl)
{
	struct nlmsghdr *nlh;
	struct nl_err e;
	int one = 1;

	memset(nl, 0, offsetof(struct ecctl_nl, tx));
	nl->seq = (uint32_t)time(NULL);
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk)
		return ecctl_error(ECCTL_ERR, "netlink socket: %s", strerror(errno));
	/* Both are best effort: old kernels still work, with less detail. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	/* On failure ecctl_nl_new() closes the socket with the rest. */
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return ecctl_error(ECCTL_ERR, "netlink bind: %s", strerror(errno));
	nl->portid = mnl_socket_get_portid(nl->sk);

	nlh = put_req(nl->tx, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ECPROXY_GENL_NAME);
	if (exchange(nl, nlh, family_cb, nl, &e) || !nl->family) {
		if (e.error == ENOENT)
			return ecctl_error(ECCTL_ERR,
					   "the ecproxy module is not loaded (no generic netlink family \"%s\")",
					   ECPROXY_GENL_NAME);
		return ecctl_error(ECCTL_ERR, "resolving family %s: %s",
				   ECPROXY_GENL_NAME, strerror(e.error));
	}
	return ECCTL_OK;
}

void ecctl_nl_free(struct ecctl_nl *nl)
{
	if (!nl)
		return;
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl);
}

int ecctl_nl_new(struct ecctl_nl **nlp)
{
	struct ecctl_nl *nl = malloc(sizeof(*nl));
	int ret;

	*nlp = NULL;
	if (!nl)
		return ecctl_error(ECCTL_ERR, "out of memory");
	ret = ecctl_nl_open(nl);
	if (ret) {
		ecctl_nl_free(nl);
		return ret;
	}
	*nlp = nl;
	return 0;
}
