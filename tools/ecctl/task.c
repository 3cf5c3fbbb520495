// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl task: configure reconstruction tasks in the kernel (generic
 * netlink, see uapi/linux/ecproxy.h).  Values are checked here only as
 * far as their type goes; ranges and consistency are the kernel's to
 * judge, so its message is the one users see, whatever the tool.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/genetlink.h>

#include <linux/ecproxy.h>
#include "ecctl.h"
#include "ecp.h"
#include "nl.h"
#include "nlfmt.h"

/* More than the kernel accepts, so that it is the kernel that refuses. */
#define TASK_MAX_SOURCES 64

static void task_usage(FILE *f)
{
	fprintf(f,
		"Usage: ecctl task add id ID vip ADDR [ port PORT ] [ client PREFIX ]\n"
		"                      code PROFILE k K m M lost I[,I...] [ matrix SPEC ]\n"
		"                      source ADDR:PORT:FRAG [ source ... ] [ spare ADDR:PORT:FRAG ... ]\n"
		"                      [ dest ADDR:PORT:FRAG [ dest ... ] ] [ read ]\n"
		"                      [ block BYTES cell SIZE ] [ rate RATE ]\n"
		"                      [ buffer SIZE ] [ timeout TIMEOUT MS [ TIMEOUT MS ... ] ]\n"
		"       ecctl task add id ID vip ADDR port PORT [ client PREFIX ]\n"
		"                      source ADDR:PORT coef C [ source ADDR:PORT coef C ... ]\n"
		"                      [ spare ADDR:PORT ... ]   (then every source takes check C[,C...])\n"
		"                      [ rate RATE ] [ buffer SIZE ] [ timeout ... ]\n"
		"       ecctl task add id ID vip ADDR port PORT [ client PREFIX ]\n"
		"                      encode PROFILE k K m M [ matrix SPEC ] cell SIZE\n"
		"                      dest ADDR:PORT:FRAG ...   (k+m of them, FRAG 0..k+m-1)\n"
		"                      [ rate RATE ] [ buffer SIZE ] [ timeout ... ]\n"
		"       ecctl task start id ID\n"
		"       ecctl task change id ID [ rate { RATE | none } ] [ client { PREFIX | any } ]\n"
		"                         [ buffer SIZE ] [ timeout TIMEOUT MS [ TIMEOUT MS ... ] ]\n"
		"       ecctl task del id ID\n"
		"       ecctl task show [ id ID ] [ -s ]\n"
		"       ecctl task flush\n"
		"       ecctl task help\n"
		"ID      := task number, 1..4294967295, unique in the network namespace\n"
		"ADDR    := IPv4 address; PORT := 1..65535; FRAG := fragment index\n"
		"PREFIX  := ADDR[/LEN]: only clients in it may connect (default: any;\n"
		"           \"any\" or 0.0.0.0/0 lifts the filter)\n"
		"PROFILE := a coding profile (see \"ecctl code profiles\")\n"
		"BYTES   := the block group's length; SIZE: its cell (stripe unit); both\n"
		"           take suffixes k, m, g\n"
		"RATE    := tc units: 500mbit, 1gbit, 100mbps (bytes), a bare number is bit/s\n"
		"SIZE    := decode buffer, bytes, 4096..64M, suffixes k, m (default 1m)\n"
		"TIMEOUT := { handshake | idle | linger }, MS in milliseconds\n"
		"           (defaults 3000, 60000, 1000)\n"
		"\n"
		"S reads the K sources (surviving fragments FRAG of a code PROFILE k K\n"
		"m M) once and rebuilds the lost fragments over GF(2^8) on the way:\n"
		"  pull  (no dest, no read, one lost fragment): a client connecting to\n"
		"        vip:port receives fragment I.  \"source ... coef C\" gives the\n"
		"        coefficients explicitly instead of \"code\".\n"
		"  dest  one target per lost fragment: \"task start\" makes S connect\n"
		"        from vip to every target and send it its fragment, then FIN.\n"
		"        The task ends completed when every target acknowledged all,\n"
		"        or failed (see \"ecctl monitor\"); it can be started again.\n"
		"  read  (needs block and cell) a client connecting to vip:port\n"
		"        receives the block in logical order, the lost data fragments'\n"
		"        cells rebuilt.\n"
		"encode  the write path: a writer connecting to vip:port sends a block\n"
		"        and shuts its side down; S stripes it in cells of SIZE to the k\n"
		"        data targets and sends the parity it computes to the m others.\n"
		"        The writer reads end-of-file once every target acknowledged its\n"
		"        whole fragment, a reset if anything failed (see ecput -h).\n"
		"block/cell describe an HDFS-style striped block group: data fragments\n"
		"are not padded, parity fragments are as long as data fragment 0, so\n"
		"that S knows every fragment's exact length.  Without them, fragments\n"
		"must be of equal length.\n"
		"rate caps the task's output; sources follow through the window.\n"
		"spare (pull and dest, no block; up to 4) reads one more surviving\n"
		"fragment each, so that the output need not wait for the slowest\n"
		"sources: wherever all sources but as many as there are spares have\n"
		"sent, S completes the rows with the spares' bytes.  With code, ecctl\n"
		"computes the spares' check coefficients, their fragments in terms of\n"
		"the sources'; with coef, give each source's as \"check C[,C...]\",\n"
		"one per spare.\n"
		"\n"
		"change applies client, buffer and timeouts while the task is idle,\n"
		"rate at any time; vip, port, sources, targets and the layout cannot\n"
		"be changed.  A new buffer is reserved before the old is freed.\n"
		"\n"
		"show -s adds statistics and the measured rate.  Errors from the\n"
		"kernel are printed as \"Error: MESSAGE\" with exit status 1; usage\n"
		"errors exit with 2.\n");
}

static int task_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	task_usage(stdout);
	return ECCTL_OK;
}

/* Index of arg in names (exact, else unique prefix), -1 unknown, -2 ambiguous. */
static int match_kw(const char *arg, const char *const *names)
{
	size_t len = strlen(arg);
	int hit = -1, n = 0;

	for (int i = 0; names[i]; i++) {
		if (!strcmp(names[i], arg))
			return i;
		if (len && !strncmp(names[i], arg, len)) {
			hit = i;
			n++;
		}
	}
	return n == 1 ? hit : n ? -2 : -1;
}

/* Unknown: list every keyword; ambiguous: list the candidates. */
static int kw_error(const char *arg, int how, const char *const *names)
{
	size_t off = 0, len = strlen(arg);
	char buf[512];

	buf[0] = '\0';
	for (int i = 0; names[i] && off < sizeof(buf); i++)
		if (how != -2 || !strncmp(names[i], arg, len))
			off += snprintf(buf + off, sizeof(buf) - off, "%s%s", off ? ", " : "",
					names[i]);
	if (how == -2)
		return ecctl_error(ECCTL_USAGE, "ambiguous keyword \"%s\": could be %s", arg, buf);
	return ecctl_error(ECCTL_USAGE, "unknown keyword \"%s\"; valid: %s", arg, buf);
}

static int parse_u32(const char *kw, const char *val, uint32_t *out)
{
	long v;

	if (ecctl_parse_int(kw, val, 0, UINT32_MAX, &v))
		return ECCTL_USAGE;
	*out = (uint32_t)v;
	return 0;
}

static int parse_ip4(const char *kw, const char *val, struct in_addr *out)
{
	if (inet_pton(AF_INET, val, out) != 1)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": not an IPv4 address", kw, val);
	return 0;
}

struct src_arg {
	const char *text;
	struct in_addr addr;
	uint16_t port;
	int frag;		/* -1 if not given */
	int coef;		/* -1 if not given */
	int ncheck;		/* check coefficients given, one per spare */
	uint8_t check[ECPROXY_MAX_SPARES];
};

/* ADDR:PORT[:FRAG] of a source or a target (kw) */
static int parse_endpoint(const char *kw, const char *val, struct src_arg *s)
{
	char buf[64], *port, *frag, *end;
	long v;

	s->text = val;
	s->frag = -1;
	s->coef = -1;
	if (snprintf(buf, sizeof(buf), "%s", val) >= (int)sizeof(buf))
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": too long", kw, val);
	port = strchr(buf, ':');
	if (!port)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": expected ADDR:PORT%s", kw, val,
				   strcmp(kw, "dest") ? "[:FRAG]" : ":FRAG");
	*port++ = '\0';
	frag = strchr(port, ':');
	if (frag)
		*frag++ = '\0';
	if (inet_pton(AF_INET, buf, &s->addr) != 1)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": \"%s\" is not an IPv4 address",
				   kw, val, buf);
	errno = 0;
	v = strtol(port, &end, 10);
	if (errno || end == port || *end || v < 0 || v > 65535)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": \"%s\" is not a port", kw, val, port);
	s->port = (uint16_t)v;
	if (frag) {
		v = strtol(frag, &end, 10);
		if (end == frag || *end || v < 0 || v > 255)
			return ecctl_error(ECCTL_USAGE,
					   "\"%s %s\": \"%s\" is not a fragment index", kw, val, frag);
		s->frag = (int)v;
	}
	if (!strcmp(kw, "dest") && s->frag < 0)
		return ecctl_error(ECCTL_USAGE,
				   "\"dest %s\": name the fragment it stores, ADDR:PORT:FRAG", val);
	return 0;
}

/* "check C[,C...]": a source's check coefficients, one per spare. */
static int parse_checks(const char *val, struct src_arg *s)
{
	const char *p = val;

	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 0);
		if (errno || end == p || (*end && *end != ',') || v < 0 || v > 255)
			return ecctl_error(ECCTL_USAGE,
					   "\"check %s\": expected comma-separated coefficients 0..255",
					   val);
		if (s->ncheck == ECPROXY_MAX_SPARES)
			return ecctl_error(ECCTL_USAGE, "\"check %s\": one per spare, at most %d",
					   val, ECPROXY_MAX_SPARES);
		s->check[s->ncheck++] = (uint8_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* One output: the fragment it rebuilds and its coefficients per source. */
struct row_arg {
	int frag;
	uint8_t coef[TASK_MAX_SOURCES];
	const struct src_arg *target;	/* NULL without dest */
};

struct add_args {
	uint32_t id, buffer, timeout[3];
	int has_id, has_vip, has_port, has_client, has_buffer, has_timeout[3];
	int has_rate, read, encode;
	struct in_addr vip, client;
	uint16_t port;
	int prefix;
	uint64_t rate, block, cell;
	const char *profile, *k, *m, *lost, *matrix, *block_text;
	struct src_arg src[TASK_MAX_SOURCES];
	int nsrc;
	struct src_arg spare[ECPROXY_MAX_SPARES];
	int nspare;
	struct src_arg dst[TASK_MAX_SOURCES];
	int ndst;
	struct row_arg row[TASK_MAX_SOURCES];
	int nrow;
	int ncoef;		/* coefficients per row: sources, or a write's k */
	uint8_t mode;
};

static const char *const timeout_names[] = { "handshake", "idle", "linger", NULL };
static const int timeout_attr[] = {
	ECPROXY_A_TASK_HANDSHAKE_TIMEOUT, ECPROXY_A_TASK_IDLE_TIMEOUT,
	ECPROXY_A_TASK_LINGER_TIMEOUT,
};

enum { A_ID, A_VIP, A_PORT, A_CLIENT, A_CODE, A_K, A_M, A_LOST, A_MATRIX,
       A_SOURCE, A_COEF, A_DEST, A_READ, A_BLOCK, A_CELL, A_RATE, A_BUFFER, A_TIMEOUT,
       A_ENCODE, A_SPARE, A_CHECK };
static const char *const add_names[] = {
	"id", "vip", "port", "client", "code", "k", "m", "lost", "matrix",
	"source", "coef", "dest", "read", "block", "cell", "rate", "buffer", "timeout",
	"encode", "spare", "check", NULL
};

static int parse_client(const char *val, struct add_args *a)
{
	char buf[64], *slash, *end;
	long v;

	a->has_client = 1;
	if (!strcmp(val, "any")) {
		/* 0.0.0.0/0: the kernel drops the filter. */
		memset(&a->client, 0, sizeof(a->client));
		a->prefix = 0;
		return 0;
	}
	if (snprintf(buf, sizeof(buf), "%s", val) >= (int)sizeof(buf))
		return ecctl_error(ECCTL_USAGE, "\"client %s\": too long", val);
	slash = strchr(buf, '/');
	a->prefix = -1;
	if (slash) {
		*slash++ = '\0';
		errno = 0;
		v = strtol(slash, &end, 10);
		if (errno || end == slash || *end || v < 0 || v > 255)
			return ecctl_error(ECCTL_USAGE, "\"client %s\": bad prefix length", val);
		a->prefix = (int)v;
	}
	if (parse_ip4("client", buf, &a->client))
		return ECCTL_USAGE;
	a->has_client = 1;
	return 0;
}

/*
 * "timeout NAME MS [NAME MS ...]" with argv[*i] == "timeout"; leaves *i
 * two words before the next keyword, as the callers' loops expect.
 */
static int parse_timeouts(int argc, char **argv, int *i, struct add_args *a)
{
	int n = 0, j;

	for (j = *i + 1; j < argc; j += 2, n++) {
		int t = match_kw(argv[j], timeout_names);

		/* Past the first, only full names: "id" must stay a keyword. */
		if (t < 0 || (n && strcmp(argv[j], timeout_names[t])))
			break;
		if (j + 1 >= argc)
			return ecctl_error(ECCTL_USAGE, "\"timeout %s\": missing value MS", argv[j]);
		if (a->has_timeout[t])
			return ecctl_error(ECCTL_USAGE, "\"timeout %s %s\": given twice",
					   argv[j], argv[j + 1]);
		if (parse_u32(timeout_names[t], argv[j + 1], &a->timeout[t]))
			return ECCTL_USAGE;
		a->has_timeout[t] = 1;
	}
	if (!n)
		return ecctl_error(ECCTL_USAGE,
				   "\"timeout %s\": expected handshake, idle or linger and MS",
				   *i + 1 < argc ? argv[*i + 1] : "");
	*i = j - 2;
	return 0;
}

static int parse_buffer(const char *val, struct add_args *a)
{
	uint64_t v;

	if (ecctl_parse_size("buffer", val, UINT32_MAX, &v))
		return ECCTL_USAGE;
	a->buffer = (uint32_t)v;
	a->has_buffer = 1;
	return 0;
}

/*
 * "encode PROFILE": a write.  The writer's stream is the block, so a cell
 * and no block; its data fragments are the inputs, so no sources and
 * nothing lost; and a port for the writer to connect to.
 */
static int check_write(struct add_args *a)
{
	a->mode = ECPROXY_MODE_WRITE;
	if (!a->has_port)
		return ecctl_error(ECCTL_USAGE, "missing \"port PORT\": the writer connects to it");
	if (!a->cell || a->block_text)
		return ecctl_error(ECCTL_USAGE,
				   "encode needs \"cell SIZE\" and takes no block: the writer's stream is the block");
	if (a->nsrc || a->lost || a->read)
		return ecctl_error(ECCTL_USAGE, "encode takes no %s: the writer sends the data",
				   a->nsrc ? "source" : a->lost ? "lost" : "read");
	return 0;
}

static int parse_add(int argc, char **argv, struct add_args *a)
{
	const char **text[A_ENCODE] = { [A_CODE] = &a->profile, [A_K] = &a->k, [A_M] = &a->m,
				[A_LOST] = &a->lost, [A_MATRIX] = &a->matrix };

	memset(a, 0, sizeof(*a));
	for (int i = 1; i < argc; i += 2) {
		int kw = match_kw(argv[i], add_names);
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		int ret = 0;

		if (kw < 0)
			return kw_error(argv[i], kw, add_names);
		if (kw == A_READ) {
			/* A flag: no value. */
			if (a->read)
				return ecctl_error(ECCTL_USAGE, "\"read\": given twice");
			a->read = 1;
			i--;
			continue;
		}
		if (!val)
			return ecctl_error(ECCTL_USAGE, "\"%s\": missing value", argv[i]);
		switch (kw) {
		case A_ID:
			ret = parse_u32("id", val, &a->id);
			a->has_id = 1;
			break;
		case A_VIP:
			ret = parse_ip4("vip", val, &a->vip);
			a->has_vip = 1;
			break;
		case A_PORT: {
			long v;

			ret = ecctl_parse_int("port", val, 0, 65535, &v);
			a->port = (uint16_t)v;
			a->has_port = 1;
			break;
		}
		case A_CLIENT:
			ret = parse_client(val, a);
			break;
		case A_ENCODE:
			/* "encode PROFILE": a write, with the code's profile. */
			if (a->profile)
				return ecctl_error(ECCTL_USAGE, "\"%s %s\": a task has one code",
						   add_names[kw], val);
			a->profile = val;
			a->encode = 1;
			break;
		case A_CODE: case A_K: case A_M: case A_LOST: case A_MATRIX:
			if (kw == A_CODE && a->profile)
				return ecctl_error(ECCTL_USAGE, "\"code %s\": a task has one code",
						   val);
			if (*text[kw])
				return ecctl_error(ECCTL_USAGE, "\"%s %s\": given twice",
						   add_names[kw], val);
			*text[kw] = val;
			break;
		case A_SOURCE:
			if (a->nsrc >= TASK_MAX_SOURCES)
				return ecctl_error(ECCTL_USAGE, "more than %d sources",
						   TASK_MAX_SOURCES);
			ret = parse_endpoint("source", val, &a->src[a->nsrc++]);
			break;
		case A_DEST:
			if (a->ndst >= TASK_MAX_SOURCES)
				return ecctl_error(ECCTL_USAGE, "more than %d targets",
						   TASK_MAX_SOURCES);
			ret = parse_endpoint("dest", val, &a->dst[a->ndst++]);
			break;
		case A_SPARE:
			if (a->nspare >= ECPROXY_MAX_SPARES)
				return ecctl_error(ECCTL_USAGE, "\"spare %s\": at most %d spares",
						   val, ECPROXY_MAX_SPARES);
			ret = parse_endpoint("spare", val, &a->spare[a->nspare++]);
			break;
		case A_CHECK:
			if (!a->nsrc)
				return ecctl_error(ECCTL_USAGE, "\"check %s\": must follow a source", val);
			if (a->src[a->nsrc - 1].ncheck)
				return ecctl_error(ECCTL_USAGE, "\"check %s\": source %d has a check already",
						   val, a->nsrc - 1);
			ret = parse_checks(val, &a->src[a->nsrc - 1]);
			break;
		case A_COEF: {
			long v;

			if (!a->nsrc)
				return ecctl_error(ECCTL_USAGE, "\"coef %s\": must follow a source", val);
			if (a->src[a->nsrc - 1].coef >= 0)
				return ecctl_error(ECCTL_USAGE, "\"coef %s\": source %d has a coef already",
						   val, a->nsrc - 1);
			ret = ecctl_parse_int("coef", val, 0, 255, &v);
			a->src[a->nsrc - 1].coef = (int)v;
			break;
		}
		case A_BLOCK:
			a->block_text = val;
			ret = ecctl_parse_size("block", val, UINT64_MAX, &a->block);
			break;
		case A_CELL:
			ret = ecctl_parse_size("cell", val, UINT32_MAX, &a->cell);
			if (!ret && !a->cell)
				ret = ecctl_error(ECCTL_USAGE, "\"cell %s\": must not be 0", val);
			break;
		case A_RATE:
			ret = ecctl_parse_rate("rate", val, &a->rate);
			a->has_rate = 1;
			break;
		case A_BUFFER:
			ret = parse_buffer(val, a);
			break;
		case A_TIMEOUT:
			ret = parse_timeouts(argc, argv, &i, a);
			break;
		}
		if (ret)
			return ECCTL_USAGE;
	}
	if (!a->has_id || !a->has_vip)
		return ecctl_error(ECCTL_USAGE, "missing \"%s\"", !a->has_id ? "id ID" : "vip ADDR");
	if (a->encode)
		return check_write(a);
	if (!!a->block_text != !!a->cell)
		return ecctl_error(ECCTL_USAGE, "block and cell go together: give both or neither");
	if (a->ndst && a->read)
		return ecctl_error(ECCTL_USAGE,
				   "\"read\" serves a client; it cannot be combined with dest");
	a->mode = a->ndst ? ECPROXY_MODE_DEST : a->read ? ECPROXY_MODE_READ : ECPROXY_MODE_PULL;
	/* A task with targets connects out from the VIP: no port to serve. */
	if (a->mode != ECPROXY_MODE_DEST && !a->has_port)
		return ecctl_error(ECCTL_USAGE, "missing \"port PORT\" (only dest tasks go without)");
	return 0;
}

/* The code of "code PROFILE k K m M [matrix SPEC]" into c. */
static int parse_code(const struct add_args *a, struct ecp_code *c)
{
	uint8_t parity[ECP_MAX_M * ECP_MAX_K];
	const struct ecp_profile *p;
	struct ecp_err err;
	long k, m;

	if (a->encode && (!a->k || !a->m))
		return ecctl_error(ECCTL_USAGE, "\"encode %s\" needs k K m M", a->profile);
	if (!a->encode && (!a->k || !a->m || !a->lost))
		return ecctl_error(ECCTL_USAGE, "\"code %s\" needs k K m M lost I", a->profile);
	p = ecp_profile_by_name(a->profile);
	if (!p)
		return ecctl_error(ECCTL_USAGE, "unknown profile \"%s\" (see \"ecctl code profiles\")",
				   a->profile);
	if (ecctl_parse_int("k", a->k, 1, ECP_MAX_K, &k) ||
	    ecctl_parse_int("m", a->m, 1, ECP_MAX_M, &m))
		return ECCTL_USAGE;
	if (p->id == ECP_PROFILE_MATRIX) {
		if (!a->matrix)
			return ecctl_error(ECCTL_USAGE, "profile matrix needs \"matrix SPEC\"");
		if (ecp_matrix_parse(a->matrix, (int)k, (int)m, parity, &err))
			return ecctl_error(ECCTL_USAGE, "\"matrix %s\": %s", a->matrix, err.msg);
	} else if (a->matrix) {
		return ecctl_error(ECCTL_USAGE, "\"matrix %s\": only profile matrix takes a matrix",
				   a->matrix);
	}
	if (ecp_code_init(c, p, (int)k, (int)m, p->id == ECP_PROFILE_MATRIX ? parity : NULL, &err))
		return ecctl_error(ECCTL_USAGE, "%s", err.msg);
	return 0;
}

/*
 * Row r rebuilds fragment frag from the sources: the unit vector when a
 * source serves frag itself (a read passes that data fragment through),
 * else the decode coefficients over the sources' fragments.
 */
static int code_row(const struct ecp_code *c, const struct add_args *a, const int *avail,
		    int frag, struct row_arg *r)
{
	struct ecp_coef co;
	struct ecp_err err;

	memset(r, 0, sizeof(*r));
	r->frag = frag;
	for (int i = 0; i < a->nsrc; i++) {
		if (avail[i] == frag) {
			r->coef[i] = 1;
			return 0;
		}
	}
	if (ecp_code_coef(c, frag, avail, a->nsrc, &co, &err))
		return ecctl_error(ECCTL_USAGE, "fragment %d: %s", frag, err.msg);
	memcpy(r->coef, co.coef, (size_t)a->nsrc);
	return 0;
}

/*
 * A write's rows: fragment f of the block to the target that stores it,
 * in fragment order, each over the k data fragments (a unit vector for a
 * data fragment, the code's parity row for the others).
 */
static int write_rows(struct add_args *a, const struct ecp_code *code)
{
	int n = code->k + code->m, avail[ECP_MAX_K];

	if (a->ndst != n)
		return ecctl_error(ECCTL_USAGE, "encode with k=%d m=%d needs %d dest targets, got %d",
				   code->k, code->m, n, a->ndst);
	for (int i = 0; i < code->k; i++)
		avail[i] = i;
	a->nrow = n;
	a->ncoef = code->k;
	for (int i = 0; i < a->ndst; i++) {
		int f = a->dst[i].frag;
		struct ecp_coef co;
		struct ecp_err err;

		if (f >= n)
			return ecctl_error(ECCTL_USAGE, "\"dest %s\": fragment index must be < k+m (%d)",
					   a->dst[i].text, n);
		if (a->row[f].target)
			return ecctl_error(ECCTL_USAGE, "\"dest %s\": fragment %d already goes to %s",
					   a->dst[i].text, f, a->row[f].target->text);
		memset(&a->row[f], 0, sizeof(a->row[f]));
		a->row[f].frag = f;
		a->row[f].target = &a->dst[i];
		if (f < code->k) {
			a->row[f].coef[f] = 1;
			continue;
		}
		if (ecp_code_coef(code, f, avail, code->k, &co, &err))
			return ecctl_error(ECCTL_USAGE, "fragment %d: %s", f, err.msg);
		memcpy(a->row[f].coef, co.coef, (size_t)code->k);
	}
	return 0;
}

/*
 * The spares' fragments in terms of the sources' (their check
 * coefficients): the decode coefficients that would rebuild each from them.
 */
static int code_spares(struct add_args *a, const struct ecp_code *c, const int *avail,
		       const int *lost, int nlost)
{
	for (int t = 0; t < a->nspare; t++) {
		const struct src_arg *sp = &a->spare[t];
		struct ecp_coef co;
		struct ecp_err err;

		if (a->mode == ECPROXY_MODE_READ || a->cell)
			return ecctl_error(ECCTL_USAGE,
					   "\"spare %s\": only for a pull or dest task without block",
					   sp->text);
		if (sp->frag < 0)
			return ecctl_error(ECCTL_USAGE,
					   "\"spare %s\": with code, give the fragment as ADDR:PORT:FRAG",
					   sp->text);
		if (sp->frag >= c->k + c->m)
			return ecctl_error(ECCTL_USAGE, "\"spare %s\": fragment index must be < k+m (%d)",
					   sp->text, c->k + c->m);
		for (int j = 0; j < nlost; j++)
			if (lost[j] == sp->frag)
				return ecctl_error(ECCTL_USAGE, "\"spare %s\": fragment %d is lost",
						   sp->text, sp->frag);
		for (int i = 0; i < a->nsrc; i++)
			if (avail[i] == sp->frag)
				return ecctl_error(ECCTL_USAGE,
						   "\"spare %s\": fragment %d is source %s already",
						   sp->text, sp->frag, a->src[i].text);
		for (int u = 0; u < t; u++)
			if (a->spare[u].frag == sp->frag)
				return ecctl_error(ECCTL_USAGE,
						   "\"spare %s\": fragment %d is spare %s already",
						   sp->text, sp->frag, a->spare[u].text);
		if (ecp_code_coef(c, sp->frag, avail, a->nsrc, &co, &err))
			return ecctl_error(ECCTL_USAGE, "spare fragment %d: %s", sp->frag, err.msg);
		for (int i = 0; i < a->nsrc; i++) {
			/* An MDS code's fragment depends on every k others. */
			if (!co.coef[i])
				return ecctl_error(ECCTL_USAGE,
						   "\"spare %s\": fragment %d does not depend on source %s, so it cannot stand in for it",
						   sp->text, sp->frag, a->src[i].text);
			a->src[i].check[t] = co.coef[i];
			a->src[i].ncheck = t + 1;
		}
	}
	return 0;
}

/* The rows of the mode, from the code, the lost fragments and the targets. */
static int code_rows(struct add_args *a)
{
	int lost[ECP_MAX_N], avail[ECP_MAX_K], nlost;
	struct ecp_code code;
	int ret, n;

	ret = parse_code(a, &code);
	if (ret)
		return ret;
	if (a->mode == ECPROXY_MODE_WRITE)
		return write_rows(a, &code);
	/* A spare feeds no row: its coefficient is 0 in every one. */
	a->ncoef = a->nsrc + a->nspare;
	n = code.k + code.m;
	nlost = ecctl_parse_list("lost", a->lost, n, lost, n);
	if (nlost < 0)
		return ECCTL_USAGE;
	if (nlost > code.m)
		return ecctl_error(ECCTL_USAGE, "\"lost %s\": %d fragments lost, m=%d can be rebuilt",
				   a->lost, nlost, code.m);
	if (a->nsrc != code.k)
		return ecctl_error(ECCTL_USAGE, "code with k=%d needs exactly %d sources, got %d",
				   code.k, code.k, a->nsrc);
	for (int i = 0; i < a->nsrc; i++) {
		if (a->src[i].frag < 0)
			return ecctl_error(ECCTL_USAGE,
					   "\"source %s\": with code, give the fragment as ADDR:PORT:FRAG",
					   a->src[i].text);
		if (a->src[i].coef >= 0 || a->src[i].ncheck)
			return ecctl_error(ECCTL_USAGE,
					   "\"source %s\": %s cannot be combined with code",
					   a->src[i].text, a->src[i].coef >= 0 ? "coef" : "check");
		if (a->src[i].frag >= n)
			return ecctl_error(ECCTL_USAGE, "\"source %s\": fragment index must be < k+m (%d)",
					   a->src[i].text, n);
		for (int j = 0; j < nlost; j++)
			if (lost[j] == a->src[i].frag)
				return ecctl_error(ECCTL_USAGE,
						   "\"source %s\": fragment %d is lost",
						   a->src[i].text, lost[j]);
		avail[i] = a->src[i].frag;
	}
	if (code_spares(a, &code, avail, lost, nlost))
		return ECCTL_USAGE;
	switch (a->mode) {
	case ECPROXY_MODE_PULL:
		if (nlost != 1)
			return ecctl_error(ECCTL_USAGE,
					   "\"lost %s\": a client reads one fragment; several lost fragments need dest targets or read",
					   a->lost);
		a->nrow = 1;
		return code_row(&code, a, avail, lost[0], &a->row[0]);
	case ECPROXY_MODE_READ:
		for (int j = 0; j < nlost; j++)
			if (lost[j] >= code.k)
				return ecctl_error(ECCTL_USAGE,
						   "\"lost %s\": a read rebuilds data fragments (0..%d), not %d",
						   a->lost, code.k - 1, lost[j]);
		a->nrow = code.k;
		for (int f = 0; f < code.k; f++)
			if (code_row(&code, a, avail, f, &a->row[f]))
				return ECCTL_USAGE;
		return 0;
	default:
		if (a->ndst != nlost)
			return ecctl_error(ECCTL_USAGE, "\"lost %s\": %d lost fragments but %d dest targets",
					   a->lost, nlost, a->ndst);
		a->nrow = a->ndst;
		for (int i = 0; i < a->ndst; i++) {
			int hit = 0;

			for (int j = 0; j < nlost; j++)
				hit |= lost[j] == a->dst[i].frag;
			if (!hit)
				return ecctl_error(ECCTL_USAGE, "\"dest %s\": fragment %d is not lost (lost %s)",
						   a->dst[i].text, a->dst[i].frag, a->lost);
			for (int j = 0; j < i; j++)
				if (a->dst[j].frag == a->dst[i].frag)
					return ecctl_error(ECCTL_USAGE,
							   "\"dest %s\": fragment %d already goes to %s",
							   a->dst[i].text, a->dst[i].frag, a->dst[j].text);
			if (code_row(&code, a, avail, a->dst[i].frag, &a->row[i]))
				return ECCTL_USAGE;
			a->row[i].target = &a->dst[i];
		}
		return 0;
	}
}

/* The settings TASK_ADD and TASK_SET share: client, buffer, timeouts, rate. */
static void put_settings(struct nlmsghdr *nlh, const struct add_args *a)
{
	if (a->has_client) {
		mnl_attr_put(nlh, ECPROXY_A_TASK_CLIENT, 4, &a->client);
		if (a->prefix >= 0)
			mnl_attr_put_u8(nlh, ECPROXY_A_TASK_CLIENT_PREFIX, (uint8_t)a->prefix);
	}
	if (a->has_buffer)
		mnl_attr_put_u32(nlh, ECPROXY_A_TASK_BUFFER_SIZE, a->buffer);
	for (int t = 0; t < 3; t++)
		if (a->has_timeout[t])
			mnl_attr_put_u32(nlh, timeout_attr[t], a->timeout[t]);
	if (a->has_rate)
		mnl_attr_put_u64(nlh, ECPROXY_A_TASK_RATE, a->rate);
}

/* Sources, and rows when there are any (a "coef" task has none). */
static void put_endpoints(struct nlmsghdr *nlh, const struct add_args *a)
{
	struct nlattr *nest;

	/* A write's inputs are the writer's data fragments. */
	if (a->mode == ECPROXY_MODE_WRITE)
		goto rows;
	nest = mnl_attr_nest_start(nlh, ECPROXY_A_TASK_SOURCES);
	for (int i = 0; i < a->nsrc; i++) {
		struct nlattr *s = mnl_attr_nest_start(nlh, (uint16_t)i);

		mnl_attr_put(nlh, ECPROXY_A_SOURCE_ADDR, 4, &a->src[i].addr);
		mnl_attr_put_u16(nlh, ECPROXY_A_SOURCE_PORT, a->src[i].port);
		if (!a->nrow)
			mnl_attr_put_u8(nlh, ECPROXY_A_SOURCE_COEF, (uint8_t)a->src[i].coef);
		if (a->src[i].frag >= 0)
			mnl_attr_put_u8(nlh, ECPROXY_A_SOURCE_FRAG, (uint8_t)a->src[i].frag);
		if (a->src[i].ncheck)
			mnl_attr_put(nlh, ECPROXY_A_SOURCE_CHECK, (size_t)a->src[i].ncheck,
				     a->src[i].check);
		mnl_attr_nest_end(nlh, s);
	}
	/* The spares are the last sources (the kernel takes them nowhere else). */
	for (int t = 0; t < a->nspare; t++) {
		struct nlattr *s = mnl_attr_nest_start(nlh, (uint16_t)(a->nsrc + t));

		mnl_attr_put(nlh, ECPROXY_A_SOURCE_ADDR, 4, &a->spare[t].addr);
		mnl_attr_put_u16(nlh, ECPROXY_A_SOURCE_PORT, a->spare[t].port);
		if (a->spare[t].frag >= 0)
			mnl_attr_put_u8(nlh, ECPROXY_A_SOURCE_FRAG, (uint8_t)a->spare[t].frag);
		mnl_attr_put(nlh, ECPROXY_A_SOURCE_SPARE, 0, NULL);
		mnl_attr_nest_end(nlh, s);
	}
	mnl_attr_nest_end(nlh, nest);
	if (!a->nrow)
		return;
rows:
	nest = mnl_attr_nest_start(nlh, ECPROXY_A_TASK_ROWS);
	for (int i = 0; i < a->nrow; i++) {
		const struct row_arg *r = &a->row[i];
		struct nlattr *n = mnl_attr_nest_start(nlh, (uint16_t)i);

		mnl_attr_put_u8(nlh, ECPROXY_A_ROW_FRAG, (uint8_t)r->frag);
		mnl_attr_put(nlh, ECPROXY_A_ROW_COEFS, (size_t)a->ncoef, r->coef);
		if (r->target) {
			mnl_attr_put(nlh, ECPROXY_A_ROW_ADDR, 4, &r->target->addr);
			mnl_attr_put_u16(nlh, ECPROXY_A_ROW_PORT, r->target->port);
		}
		mnl_attr_nest_end(nlh, n);
	}
	mnl_attr_nest_end(nlh, nest);
}

static int task_add(int argc, char **argv)
{
	static struct add_args a;
	struct ecctl_nl *nl;
	struct nlmsghdr *nlh;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "help"))
		return task_help(argc, argv);
	ret = parse_add(argc, argv, &a);
	if (ret)
		return ret;
	if (a.profile) {
		ret = code_rows(&a);
		if (ret)
			return ret;
	} else {
		if (a.k || a.m || a.lost || a.matrix)
			return ecctl_error(ECCTL_USAGE, "k, m, lost and matrix need \"code PROFILE\"");
		if (a.mode != ECPROXY_MODE_PULL || a.cell)
			return ecctl_error(ECCTL_USAGE,
					   "dest, read and block need \"code PROFILE k K m M lost I\"");
		for (int i = 0; i < a.nsrc; i++)
			if (a.src[i].coef < 0)
				return ecctl_error(ECCTL_USAGE,
						   "\"source %s\": needs \"coef C\" (or use \"code\")",
						   a.src[i].text);
	}

	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	nlh = ecctl_nl_req(nl, ECPROXY_CMD_TASK_ADD, 0);
	mnl_attr_put_u32(nlh, ECPROXY_A_TASK_ID, a.id);
	mnl_attr_put(nlh, ECPROXY_A_TASK_VIP, 4, &a.vip);
	if (a.has_port)
		mnl_attr_put_u16(nlh, ECPROXY_A_TASK_PORT, a.port);
	if (a.mode != ECPROXY_MODE_PULL)
		mnl_attr_put_u8(nlh, ECPROXY_A_TASK_MODE, a.mode);
	if (a.cell) {
		if (a.mode != ECPROXY_MODE_WRITE)
			mnl_attr_put_u64(nlh, ECPROXY_A_TASK_BLOCK, a.block);
		mnl_attr_put_u32(nlh, ECPROXY_A_TASK_CELL, (uint32_t)a.cell);
	}
	put_settings(nlh, &a);
	put_endpoints(nlh, &a);
	ret = ecctl_nl_talk(nl, nlh, NULL, NULL, ecctl_describe_task_attr);
	ecctl_nl_free(nl);
	return ret;
}

enum { C_ID, C_CLIENT, C_BUFFER, C_TIMEOUT, C_RATE };
static const char *const change_names[] = { "id", "client", "buffer", "timeout", "rate", NULL };

static int task_change(int argc, char **argv)
{
	static struct add_args a;
	struct ecctl_nl *nl;
	struct nlmsghdr *nlh;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "help"))
		return task_help(argc, argv);
	memset(&a, 0, sizeof(a));
	for (int i = 1; i < argc; i += 2) {
		int kw = match_kw(argv[i], change_names);
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (kw < 0)
			return kw_error(argv[i], kw, change_names);
		if (!val)
			return ecctl_error(ECCTL_USAGE, "\"%s\": missing value", argv[i]);
		switch (kw) {
		case C_ID:
			ret = parse_u32("id", val, &a.id);
			a.has_id = 1;
			break;
		case C_CLIENT:
			ret = parse_client(val, &a);
			break;
		case C_BUFFER:
			ret = parse_buffer(val, &a);
			break;
		case C_RATE:
			ret = ecctl_parse_rate("rate", val, &a.rate);
			a.has_rate = 1;
			break;
		default:
			ret = parse_timeouts(argc, argv, &i, &a);
			break;
		}
		if (ret)
			return ECCTL_USAGE;
	}
	if (!a.has_id)
		return ecctl_error(ECCTL_USAGE, "missing \"id ID\"");
	if (!a.has_client && !a.has_buffer && !a.has_timeout[0] && !a.has_timeout[1] &&
	    !a.has_timeout[2] && !a.has_rate)
		return ecctl_error(ECCTL_USAGE,
				   "task change id %u: nothing to change; give rate, client, buffer or timeout",
				   a.id);

	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	nlh = ecctl_nl_req(nl, ECPROXY_CMD_TASK_SET, 0);
	mnl_attr_put_u32(nlh, ECPROXY_A_TASK_ID, a.id);
	put_settings(nlh, &a);
	ret = ecctl_nl_talk(nl, nlh, NULL, NULL, ecctl_describe_task_attr);
	ecctl_nl_free(nl);
	return ret;
}

static int parse_id_only(int argc, char **argv, int required, uint32_t *id, int *has_id)
{
	struct ecctl_kw kw[] = { { "id", "ID", required, NULL }, { NULL, NULL, 0, NULL } };

	*has_id = 0;
	if (ecctl_parse_kw(kw, argc, argv))
		return ECCTL_USAGE;
	if (kw[0].val) {
		if (parse_u32("id", kw[0].val, id))
			return ECCTL_USAGE;
		*has_id = 1;
	}
	return 0;
}

/* Run one request without reply payload. */
static int simple_cmd(uint8_t cmd, int has_id, uint32_t id)
{
	struct ecctl_nl *nl;
	struct nlmsghdr *nlh;
	int ret;

	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	nlh = ecctl_nl_req(nl, cmd, 0);
	if (has_id)
		mnl_attr_put_u32(nlh, ECPROXY_A_TASK_ID, id);
	ret = ecctl_nl_talk(nl, nlh, NULL, NULL, ecctl_describe_task_attr);
	ecctl_nl_free(nl);
	return ret;
}

/* "task del" and "task start": CMD on the task "id ID" names. */
static int task_id_cmd(int argc, char **argv, uint8_t cmd)
{
	uint32_t id;
	int has_id;

	if (argc > 1 && !strcmp(argv[1], "help"))
		return task_help(argc, argv);
	if (parse_id_only(argc - 1, argv + 1, 1, &id, &has_id))
		return ECCTL_USAGE;
	return simple_cmd(cmd, 1, id);
}

static int task_del(int argc, char **argv)
{
	return task_id_cmd(argc, argv, ECPROXY_CMD_TASK_DEL);
}

static int task_start(int argc, char **argv)
{
	return task_id_cmd(argc, argv, ECPROXY_CMD_TASK_START);
}

static int task_flush(int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "help"))
			return task_help(argc, argv);
		return ecctl_error(ECCTL_USAGE, "\"%s\": flush takes no arguments", argv[1]);
	}
	return simple_cmd(ECPROXY_CMD_TASK_FLUSH, 0, 0);
}

static int task_cb(const struct nlmsghdr *nlh, void *data)
{
	json_object *task = ecctl_fmt_task(nlh);

	if (!task)
		return MNL_CB_ERROR;
	json_object_array_add(data, task);
	return MNL_CB_OK;
}

static int task_show(int argc, char **argv)
{
	int stats = 0, has_id, ret, tries = 0;
	char *args[8];
	int nargs = 0;
	struct ecctl_nl *nl;
	json_object *tasks;
	uint32_t id = 0;

	stats = ecctl_opts.stats;
	/* "-s" (or "stats") may also appear anywhere after "show". */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "-stats") ||
		    !strcmp(argv[i], "--stats") || !strcmp(argv[i], "stats"))
			stats = 1;
		else if (!strcmp(argv[i], "help"))
			return task_help(argc, argv);
		else if (nargs < 8)
			args[nargs++] = argv[i];
		else
			return ecctl_error(ECCTL_USAGE, "\"%s\": too many arguments", argv[i]);
	}
	if (parse_id_only(nargs, args, 0, &id, &has_id))
		return ECCTL_USAGE;
	ret = ecctl_nl_new(&nl);
	if (ret)
		return ret;
	do {
		struct nlmsghdr *nlh;

		tasks = json_object_new_array();
		nlh = ecctl_nl_req(nl, ECPROXY_CMD_TASK_GET, has_id ? 0 : NLM_F_DUMP);
		if (has_id)
			mnl_attr_put_u32(nlh, ECPROXY_A_TASK_ID, id);
		ret = ecctl_nl_talk(nl, nlh, task_cb, tasks, ecctl_describe_task_attr);
		if (ret || !nl->dump_intr)
			break;
		/* Tasks changed during the dump: start again. */
		json_object_put(tasks);
		tasks = NULL;
	} while (++tries < 10);
	ecctl_nl_free(nl);
	if (!tasks)
		return ecctl_error(ECCTL_ERR, "tasks kept changing during the dump");
	if (!ret) {
		if (ecctl_opts.json) {
			if (!stats)
				ecctl_fmt_strip_stats(tasks);
			ecctl_json_print(json_object_get(tasks));
		} else {
			for (size_t i = 0; i < json_object_array_length(tasks); i++)
				ecctl_fmt_task_text(json_object_array_get_idx(tasks, i), stats);
		}
	}
	json_object_put(tasks);
	return ret;
}

static const struct ecctl_cmd task_cmds[] = {
	{ "add", task_add, "add a task" },
	{ "change", task_change, "change a task" },
	{ "del", task_del, "delete a task" },
	{ "show", task_show, "list tasks" },
	{ "start", task_start, "start a task with targets" },
	{ "list", task_show, "alias of show" },
	{ "flush", task_flush, "delete every task" },
	{ "help", task_help, "usage" },
	{ NULL, NULL, NULL }
};

int do_task(int argc, char **argv)
{
	return ecctl_dispatch("task command", task_cmds, "show", argc - 1, argv + 1);
}
