// SPDX-License-Identifier: GPL-2.0
/*
 * A TASK_ADD or TASK_SET request turned into a task: the attribute
 * policies, then what a policy cannot express (counts, duplicates,
 * families, a row per target, the layout's lengths), each refusal with a
 * message that names the source or row at fault.
 */
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/math64.h>
#include <linux/socket.h>
#include <net/genetlink.h>

#include <linux/ecproxy.h>
#include "extack.h"
#include "layout.h"
#include "netlink.h"
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
static struct netlink_range_validation ecp_cell_range = {
	.min = 1, .max = ECPROXY_CELL_MAX,
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
	[ECPROXY_A_TASK_MODE] = NLA_POLICY_MAX(NLA_U8, ECPROXY_MODE_WRITE),
	[ECPROXY_A_TASK_ROWS] = { .type = NLA_NESTED },
	[ECPROXY_A_TASK_BLOCK] = NLA_POLICY_MIN(NLA_U64, 1),
	[ECPROXY_A_TASK_CELL] = NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_cell_range),
	[ECPROXY_A_TASK_RATE] = { .type = NLA_U64 },
};

const struct nla_policy ecp_task_id_policy[ECPROXY_A_TASK_ID + 1] = {
	[ECPROXY_A_TASK_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &ecp_id_range),
};

static const struct nla_policy ecp_source_policy[ECPROXY_A_SOURCE_MAX + 1] = {
	[ECPROXY_A_SOURCE_ADDR] = ECP_POLICY_ADDR,
	[ECPROXY_A_SOURCE_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[ECPROXY_A_SOURCE_COEF] = NLA_POLICY_MIN(NLA_U8, 1),
	[ECPROXY_A_SOURCE_FRAG] = { .type = NLA_U8 },
	[ECPROXY_A_SOURCE_SPARE] = { .type = NLA_FLAG },
	[ECPROXY_A_SOURCE_CHECK] = NLA_POLICY_RANGE(NLA_BINARY, 1,
						    ECPROXY_MAX_SPARES),
};

static const struct nla_policy ecp_row_policy[ECPROXY_A_ROW_MAX + 1] = {
	[ECPROXY_A_ROW_FRAG] = { .type = NLA_U8 },
	[ECPROXY_A_ROW_COEFS] = NLA_POLICY_RANGE(NLA_BINARY, 1,
						 ECPROXY_MAX_K),
	[ECPROXY_A_ROW_ADDR] = ECP_POLICY_ADDR,
	[ECPROXY_A_ROW_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
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

/*
 * What a policy failure in entry @i of SOURCES (@row false) or ROWS
 * means, worded for the user.
 */
static const char *ecp_entry_reason(const struct nlattr *bad, int err,
				    bool row, const char *msg)
{
	int type = bad ? nla_type(bad) : 0;

	if (err != -ERANGE || !bad)
		return msg ?: "invalid attribute";
	if (type == (row ? ECPROXY_A_ROW_PORT : ECPROXY_A_SOURCE_PORT))
		return "port must be non-zero";
	if (type == (row ? ECPROXY_A_ROW_ADDR : ECPROXY_A_SOURCE_ADDR))
		return "address must be 4 (IPv4) or 16 (IPv6) bytes";
	if (!row && type == ECPROXY_A_SOURCE_COEF)
		return "coefficient must be non-zero";
	if (!row && type == ECPROXY_A_SOURCE_CHECK)
		return "check coefficients: one byte per spare, 1..4 of them";
	if (row && type == ECPROXY_A_ROW_COEFS)
		return "coefficients: one byte per source, 1..32 of them";
	return msg ?: "invalid attribute";
}

/* Parse the nest of entry @i of SOURCES or ROWS (@row) into @tb. */
static int ecp_parse_entry(struct nlattr **tb, bool row,
			   const struct nlattr *nest, unsigned int i,
			   struct netlink_ext_ack *extack)
{
	int ret = row ? nla_parse_nested(tb, ECPROXY_A_ROW_MAX, nest,
					 ecp_row_policy, extack) :
			nla_parse_nested(tb, ECPROXY_A_SOURCE_MAX, nest,
					 ecp_source_policy, extack);

	if (ret) {
		const struct nlattr *bad = extack ? extack->bad_attr : NULL;

		const char *msg = extack ? extack->_msg : NULL;

		ecp_extack_fmt(extack, bad, "%s %u: %s", row ? "row" : "source",
			       i, ecp_entry_reason(bad, ret, row, msg));
	}
	return ret;
}

/*
 * Source @i is a spare (ECPROXY_A_SOURCE_SPARE): one of the last, with
 * neither a row coefficient nor a check coefficient of its own; the
 * others' check coefficients say what its fragment is.
 */
static int ecp_parse_spare(struct ecp_task *t, unsigned int i,
			   struct nlattr **tb, struct netlink_ext_ack *extack)
{
	const char *why = NULL;

	if (i == 0)
		why = "a spare needs another source to stand in for";
	else if (t->nspare == ECPROXY_MAX_SPARES)
		why = "at most 4 spares";
	else if (t->mode != ECPROXY_MODE_PULL && t->mode != ECPROXY_MODE_DEST)
		why = "a spare only for a pull task or one with targets (dest)";
	else if (tb[ECPROXY_A_SOURCE_COEF])
		why = "a spare feeds no row: no coefficient";
	else if (tb[ECPROXY_A_SOURCE_CHECK])
		why = "a spare takes no check coefficients: the other sources' make it";
	if (why) {
		ecp_extack_fmt(extack, tb[ECPROXY_A_SOURCE_SPARE], "source %u: %s",
			       i, why);
		return -EINVAL;
	}
	t->nspare++;
	return 0;
}

/* Source @i's check coefficients, one per spare (ECPROXY_A_SOURCE_CHECK). */
static int ecp_parse_check(struct ecp_task *t, unsigned int i,
			   const struct nlattr *a,
			   struct netlink_ext_ack *extack)
{
	struct ecp_source *s = &t->src[i];
	unsigned int j;

	s->ncheck = nla_len(a);
	nla_memcpy(s->check, a, sizeof(s->check));
	for (j = 0; j < s->ncheck; j++) {
		if (!s->check[j]) {
			ecp_extack_fmt(extack, a,
				       "source %u: check coefficient %u must be non-zero",
				       i, j);
			return -ERANGE;
		}
	}
	return 0;
}

static int ecp_parse_source(struct ecp_task *t, unsigned int i,
			    const struct nlattr *nest, bool coef,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ECPROXY_A_SOURCE_MAX + 1];
	struct ecp_source *s = &t->src[i];
	char what[16];
	unsigned int j;
	u8 family;
	int ret;

	ret = ecp_parse_entry(tb, false, nest, i, extack);
	if (ret)
		return ret;
	if (nla_get_flag(tb[ECPROXY_A_SOURCE_SPARE])) {
		ret = ecp_parse_spare(t, i, tb, extack);
		if (ret)
			return ret;
		/* It feeds no row: PULL's row 0 has no coefficient for it. */
		coef = false;
	} else if (t->nspare) {
		ecp_extack_fmt(extack, nest,
			       "source %u: after a spare; the spares are the last sources",
			       i);
		return -EINVAL;
	}
	if (!tb[ECPROXY_A_SOURCE_ADDR] || !tb[ECPROXY_A_SOURCE_PORT] ||
	    (coef && !tb[ECPROXY_A_SOURCE_COEF])) {
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
	if (!coef && tb[ECPROXY_A_SOURCE_COEF]) {
		ecp_extack_fmt(extack, tb[ECPROXY_A_SOURCE_COEF],
			       "source %u: a coefficient with rows; the rows hold them",
			       i);
		return -EINVAL;
	}
	if (tb[ECPROXY_A_SOURCE_CHECK]) {
		ret = ecp_parse_check(t, i, tb[ECPROXY_A_SOURCE_CHECK], extack);
		if (ret)
			return ret;
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
	/* Without rows (PULL), the coefficients make row 0. */
	if (coef)
		t->row[0].coef[i] = nla_get_u8(tb[ECPROXY_A_SOURCE_COEF]);
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
	return 0;
}

static int ecp_parse_row(struct ecp_task *t, unsigned int i,
			 const struct nlattr *nest,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ECPROXY_A_ROW_MAX + 1];
	struct ecp_row *r = &t->row[i];
	bool dest = t->mode == ECPROXY_MODE_DEST ||
		    t->mode == ECPROXY_MODE_WRITE;
	char what[16];
	unsigned int j;
	u8 family;
	int ret;

	ret = ecp_parse_entry(tb, true, nest, i, extack);
	if (ret)
		return ret;
	if (!tb[ECPROXY_A_ROW_COEFS]) {
		ecp_extack_fmt(extack, nest, "row %u: missing coefficients", i);
		NL_SET_ERR_ATTR_MISS(extack, nest, ECPROXY_A_ROW_COEFS);
		return -EINVAL;
	}
	if (nla_len(tb[ECPROXY_A_ROW_COEFS]) != t->k) {
		ecp_extack_fmt(extack, tb[ECPROXY_A_ROW_COEFS],
			       "row %u: %d coefficients for %u sources", i,
			       nla_len(tb[ECPROXY_A_ROW_COEFS]), t->k);
		return -EINVAL;
	}
	nla_memcpy(r->coef, tb[ECPROXY_A_ROW_COEFS], t->k);
	if (tb[ECPROXY_A_ROW_FRAG])
		r->frag = nla_get_u8(tb[ECPROXY_A_ROW_FRAG]);
	if (dest != !!tb[ECPROXY_A_ROW_ADDR] ||
	    dest != !!tb[ECPROXY_A_ROW_PORT]) {
		ecp_extack_fmt(extack, nest, dest ?
			       "row %u: a target needs an address and a port" :
			       "row %u: a target only for a task with targets (dest) or a write",
			       i);
		return -EINVAL;
	}
	if (!dest)
		return 0;
	snprintf(what, sizeof(what), "target %u", i);
	ret = ecp_parse_addr(tb[ECPROXY_A_ROW_ADDR], &r->addr, &family, what,
			     extack);
	if (ret)
		return ret;
	if (family != t->family) {
		ecp_extack_fmt(extack, tb[ECPROXY_A_ROW_ADDR],
			       "target %u: address family differs from the VIP's",
			       i);
		return -EINVAL;
	}
	r->port = htons(nla_get_u16(tb[ECPROXY_A_ROW_PORT]));
	for (j = 0; j < i; j++) {
		if (t->row[j].port == r->port &&
		    ecp_addr_eq(family, &t->row[j].addr, &r->addr)) {
			ecp_extack_fmt(extack, nest,
				       "target %u: %pI4:%u is already target %u",
				       i, &r->addr.ip, ntohs(r->port), j);
			return -EINVAL;
		}
	}
	return 0;
}

static unsigned int ecp_count_nested(const struct nlattr *array)
{
	const struct nlattr *nest;
	unsigned int n = 0;
	int rem;

	if (!array)
		return 0;
	nla_for_each_nested(nest, array, rem)
		n++;
	return n;
}

int ecp_parse_client(struct ecp_task *t, struct nlattr **attrs,
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

/*
 * A ring must hold two cells, so that the cells of one stripe can fill
 * while the rows still hold the last one (a read's client, a write's
 * parity); a default buffer grows to that, a given one must be that big.
 */
static int ecp_parse_two_cells(struct ecp_task *t, struct nlattr **attrs,
			       const char *who, struct netlink_ext_ack *extack)
{
	if (t->buffer_size / 2 >= t->cell)
		return 0;
	if (attrs[ECPROXY_A_TASK_BUFFER_SIZE] ||
	    t->cell > ECPROXY_BUFFER_MAX / 2) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_BUFFER_SIZE],
			       "%s needs a buffer of at least two cells, %llu bytes (at most %u)",
			       who, 2ULL * t->cell, ECPROXY_BUFFER_MAX);
		return -EINVAL;
	}
	t->buffer_size = 2 * t->cell;
	return 0;
}

/*
 * A write's layout: the cell, and no block, since the writer's stream is
 * the block and its FIN gives the lengths.  Its inputs are the data
 * fragments 0..k-1.
 */
static int ecp_parse_layout_write(struct ecp_task *t, struct nlattr **attrs,
				  struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (attrs[ECPROXY_A_TASK_BLOCK] || !attrs[ECPROXY_A_TASK_CELL]) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_BLOCK],
			       "a write needs the cell and takes no block: the writer's stream is the block");
		return -EINVAL;
	}
	t->cell = nla_get_u32(attrs[ECPROXY_A_TASK_CELL]);
	for (i = 0; i < t->k; i++)
		t->src[i].frag = i;
	return ecp_parse_two_cells(t, attrs, "a write", extack);
}

/* Check the layout and give every source and row its exact length. */
static int ecp_parse_layout(struct ecp_task *t, struct nlattr **attrs,
			    struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (t->mode == ECPROXY_MODE_WRITE)
		return ecp_parse_layout_write(t, attrs, extack);
	if (!!attrs[ECPROXY_A_TASK_BLOCK] != !!attrs[ECPROXY_A_TASK_CELL]) {
		ecp_extack_fmt(extack, NULL,
			       "block and cell go together: both or neither");
		return -EINVAL;
	}
	if (!attrs[ECPROXY_A_TASK_BLOCK]) {
		if (t->mode == ECPROXY_MODE_READ) {
			ecp_extack_fmt(extack, NULL,
				       "a read needs the layout: block and cell");
			return -EINVAL;
		}
		return 0;
	}
	t->block = nla_get_u64(attrs[ECPROXY_A_TASK_BLOCK]);
	t->cell = nla_get_u32(attrs[ECPROXY_A_TASK_CELL]);
	/*
	 * A read's client takes the rows a cell at a time, in turn: a source
	 * feeding row r must be able to finish r's cell while the rows after
	 * it still hold the cells of the previous stripe.  With less than two
	 * cells per ring, the windows can round its last bytes away and the
	 * read stalls for ever.
	 */
	if (t->mode == ECPROXY_MODE_READ) {
		int ret = ecp_parse_two_cells(t, attrs, "a read", extack);

		if (ret)
			return ret;
	}
	for (i = 0; i < t->k; i++) {
		if (t->src[i].frag < 0) {
			ecp_extack_fmt(extack, NULL,
				       "source %u: the layout needs its fragment index",
				       i);
			return -EINVAL;
		}
		t->src[i].len = ecp_layout_len(t->block, t->cell, t->k,
					       t->src[i].frag);
	}
	for (i = 0; i < t->nrow; i++) {
		if (t->row[i].frag < 0) {
			ecp_extack_fmt(extack, NULL,
				       "row %u: the layout needs its fragment index",
				       i);
			return -EINVAL;
		}
		t->row[i].len = ecp_layout_len(t->block, t->cell, t->k,
					       t->row[i].frag);
	}
	return 0;
}

/*
 * A write's row i is fragment i, and a data fragment's row takes the
 * writer's bytes as they are: they are stored unchanged.
 */
static int ecp_check_row_write(const struct ecp_task *t, unsigned int i,
			       struct netlink_ext_ack *extack)
{
	const struct ecp_row *r = &t->row[i];
	unsigned int j;

	if (r->frag != i) {
		ecp_extack_fmt(extack, NULL,
			       "row %u: a write's rows are the fragments in order, not fragment %d",
			       i, r->frag);
		return -EINVAL;
	}
	for (j = 0; i < t->k && j < t->k; j++) {
		if (r->coef[j] != (i == j)) {
			ecp_extack_fmt(extack, NULL,
				       "row %u: data fragment %u of a write takes the writer's bytes unchanged (coefficients 0 and 1)",
				       i, i);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The check rows of the spares (task.h): spare t's has every other
 * source's check coefficient t, 1 for spare t and 0 for the other
 * spares, so that it sums to zero wherever all have given.  Called once
 * the rows are in.
 */
static int ecp_check_spare(struct ecp_task *t, struct netlink_ext_ack *extack)
{
	unsigned int kp = t->k - t->nspare, i, r, s;

	for (i = 0; i < kp; i++) {
		if (t->src[i].ncheck == t->nspare)
			continue;
		if (!t->nspare)
			ecp_extack_fmt(extack, NULL,
				       "source %u: check coefficients without a spare",
				       i);
		else
			ecp_extack_fmt(extack, NULL,
				       "source %u: %u check coefficients for %u spares",
				       i, t->src[i].ncheck, t->nspare);
		return -EINVAL;
	}
	if (!t->nspare)
		return 0;
	if (t->block) {
		ecp_extack_fmt(extack, NULL,
			       "source %u: a spare only without a layout (block, cell)",
			       kp);
		return -EINVAL;
	}
	for (r = 0; r < t->nrow; r++) {
		for (i = kp; i < t->k; i++) {
			if (!t->row[r].coef[i])
				continue;
			ecp_extack_fmt(extack, NULL,
				       "row %u: source %u is a spare and feeds no row, its coefficient must be 0",
				       r, i);
			return -EINVAL;
		}
	}
	for (s = 0; s < t->nspare; s++) {
		struct ecp_row *chk = &t->row[t->nrow + s];

		for (i = 0; i < t->k; i++) {
			chk->coef[i] = i < kp ? t->src[i].check[s] :
				       i == kp + s;
			if (chk->coef[i])
				ecp_gf_coef_init(&chk->gf[i], chk->coef[i]);
		}
	}
	t->nring = t->nrow + t->nspare;
	return 0;
}

/*
 * What a policy cannot say about the rows: how many the mode takes, that
 * every row uses a source and every source feeds a row, and, for a read,
 * that row f rebuilds data fragment f.
 */
static int ecp_check_rows(struct ecp_task *t, struct netlink_ext_ack *extack)
{
	unsigned int i, j;

	for (i = 0; i < t->nrow; i++) {
		struct ecp_row *r = &t->row[i];
		bool used = false;

		if (t->mode == ECPROXY_MODE_READ && r->frag != i) {
			ecp_extack_fmt(extack, NULL,
				       "row %u: a read's rows are the data fragments in order, not fragment %d",
				       i, r->frag);
			return -EINVAL;
		}
		if (t->mode == ECPROXY_MODE_WRITE) {
			int ret = ecp_check_row_write(t, i, extack);

			if (ret)
				return ret;
		}
		for (j = 0; j < t->k; j++) {
			if (!r->coef[j])
				continue;
			used = true;
			t->src[j].rows |= BIT(i);
			ecp_gf_coef_init(&r->gf[j], r->coef[j]);
		}
		if (!used) {
			ecp_extack_fmt(extack, NULL,
				       "row %u: every coefficient is zero", i);
			return -EINVAL;
		}
	}
	for (j = 0; j < t->k - t->nspare; j++) {
		if (!t->src[j].rows) {
			ecp_extack_fmt(extack, NULL,
				       "source %u feeds no row: every coefficient of it is zero",
				       j);
			return -EINVAL;
		}
	}
	return ecp_check_spare(t, extack);
}

u32 ecp_parse_u32(struct nlattr **attrs, int type, u32 def)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : def;
}

/*
 * A write's k: it has no sources, and its rows' coefficients, one per
 * data fragment, say how many there are.
 */
static int ecp_parse_write_k(struct nlattr **attrs, unsigned int *k,
			     struct netlink_ext_ack *extack)
{
	const struct nlattr *coefs = NULL;

	if (attrs[ECPROXY_A_TASK_SOURCES]) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_SOURCES],
			       "a write has no sources: its inputs are the writer's data fragments");
		return -EINVAL;
	}
	if (attrs[ECPROXY_A_TASK_ROWS]) {
		const struct nlattr *first = nla_data(attrs[ECPROXY_A_TASK_ROWS]);

		if (nla_len(attrs[ECPROXY_A_TASK_ROWS]) >= NLA_HDRLEN &&
		    nla_ok(first, nla_len(attrs[ECPROXY_A_TASK_ROWS])))
			coefs = nla_find_nested(first, ECPROXY_A_ROW_COEFS);
	}
	if (!coefs) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_ROWS],
			       "a write needs its rows, the first with its coefficients");
		return -EINVAL;
	}
	*k = nla_len(coefs);
	return 0;
}

/* The number of rows the request gives, within the mode's bounds. */
static int ecp_parse_nrow(struct nlattr **attrs, u8 mode, unsigned int k,
			  unsigned int *nrow, struct netlink_ext_ack *extack)
{
	unsigned int n = ecp_count_nested(attrs[ECPROXY_A_TASK_ROWS]);
	unsigned int lo = 1, hi = ECPROXY_MAX_K;

	if (mode == ECPROXY_MODE_PULL) {
		hi = 1;
		/* The sources' coefficients make the one row. */
		if (!attrs[ECPROXY_A_TASK_ROWS])
			lo = n = 1;
	} else if (mode == ECPROXY_MODE_READ) {
		lo = hi = k;
	} else if (mode == ECPROXY_MODE_WRITE) {
		lo = k + 1;
	}
	if (n < lo || n > hi) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_ROWS],
			       "rows: got %u, %s takes %u..%u", n,
			       mode == ECPROXY_MODE_DEST ? "a task with targets" :
			       mode == ECPROXY_MODE_READ ?
			       "a read (one per data fragment)" :
			       mode == ECPROXY_MODE_WRITE ?
			       "a write (k data fragments and parity)" :
			       "a pull task",
			       lo, hi);
		return -EINVAL;
	}
	*nrow = n;
	return 0;
}

int ecp_parse_task(struct ecp_task **out, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	u8 mode = attrs[ECPROXY_A_TASK_MODE] ?
		  nla_get_u8(attrs[ECPROXY_A_TASK_MODE]) : ECPROXY_MODE_PULL;
	static const struct {
		int type;
		const char *name;
	} required[] = {
		{ ECPROXY_A_TASK_ID, "id" },
		{ ECPROXY_A_TASK_VIP, "vip" },
		{ ECPROXY_A_TASK_PORT, "port" },
		{ ECPROXY_A_TASK_SOURCES, "sources" },
	};
	bool rows = attrs[ECPROXY_A_TASK_ROWS];
	const struct nlattr *nest;
	unsigned int k, i, nrow;
	struct ecp_task *t;
	int rem, ret;

	for (i = 0; i < ARRAY_SIZE(required); i++) {
		/* Targets are reached from the VIP: no service port. */
		if (required[i].type == ECPROXY_A_TASK_PORT &&
		    mode == ECPROXY_MODE_DEST)
			continue;
		/* A write's inputs are the writer's data fragments. */
		if (required[i].type == ECPROXY_A_TASK_SOURCES &&
		    mode == ECPROXY_MODE_WRITE)
			continue;
		if (!attrs[required[i].type]) {
			ecp_extack_missing(extack, NULL, required[i].type,
					   required[i].name);
			return -EINVAL;
		}
	}
	if (mode == ECPROXY_MODE_WRITE) {
		ret = ecp_parse_write_k(attrs, &k, extack);
		if (ret)
			return ret;
	} else {
		k = ecp_count_nested(attrs[ECPROXY_A_TASK_SOURCES]);
	}
	if (k < 1 || k > ECPROXY_MAX_K) {
		ecp_extack_fmt(extack, attrs[ECPROXY_A_TASK_SOURCES],
			       mode == ECPROXY_MODE_WRITE ?
			       "rows: %u coefficients, k must be 1..%u" :
			       "sources: got %u, k must be 1..%u", k,
			       ECPROXY_MAX_K);
		return -EINVAL;
	}
	ret = ecp_parse_nrow(attrs, mode, k, &nrow, extack);
	if (ret)
		return ret;
	t = ecp_task_alloc(k, nrow);
	if (!t)
		return -ENOMEM;
	t->mode = mode;
	t->id = nla_get_u32(attrs[ECPROXY_A_TASK_ID]);
	ret = ecp_parse_addr(attrs[ECPROXY_A_TASK_VIP], &t->vip, &t->family,
			     "vip", extack);
	if (ret)
		goto err;
	if (attrs[ECPROXY_A_TASK_PORT])
		t->port = htons(nla_get_u16(attrs[ECPROXY_A_TASK_PORT]));
	ret = ecp_parse_client(t, attrs, extack);
	if (ret)
		goto err;
	t->buffer_size = ecp_parse_u32(attrs, ECPROXY_A_TASK_BUFFER_SIZE,
				       ECPROXY_BUFFER_DEFAULT);
	t->handshake_ms = ecp_parse_u32(attrs, ECPROXY_A_TASK_HANDSHAKE_TIMEOUT,
					ECPROXY_HANDSHAKE_MS_DEFAULT);
	t->idle_ms = ecp_parse_u32(attrs, ECPROXY_A_TASK_IDLE_TIMEOUT,
				   ECPROXY_IDLE_MS_DEFAULT);
	t->linger_ms = ecp_parse_u32(attrs, ECPROXY_A_TASK_LINGER_TIMEOUT,
				     ECPROXY_LINGER_MS_DEFAULT);
	if (attrs[ECPROXY_A_TASK_RATE])
		t->rate = nla_get_u64(attrs[ECPROXY_A_TASK_RATE]);
	i = 0;
	if (mode != ECPROXY_MODE_WRITE) {
		nla_for_each_nested(nest, attrs[ECPROXY_A_TASK_SOURCES], rem) {
			ret = ecp_parse_source(t, i++, nest, !rows, extack);
			if (ret)
				goto err;
		}
	}
	i = 0;
	if (rows) {
		nla_for_each_nested(nest, attrs[ECPROXY_A_TASK_ROWS], rem) {
			ret = ecp_parse_row(t, i++, nest, extack);
			if (ret)
				goto err;
		}
	}
	ret = ecp_parse_layout(t, attrs, extack) ?:
	      ecp_check_rows(t, extack);
	if (ret)
		goto err;
	*out = t;
	return 0;
err:
	ecp_task_free(t);
	return ret;
}
