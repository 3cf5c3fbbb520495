// SPDX-License-Identifier: GPL-2.0
/*
 * ecctl code: coding profiles, generator matrices, decode coefficients and
 * file-level encode/decode with libecp.  Pure userspace, no netlink.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ecctl.h"
#include "ecp.h"

static void code_usage(FILE *f)
{
	fprintf(f,
		"Usage: ecctl code [ profiles ]\n"
		"       ecctl code matrix   PROFILE k K m M [ matrix SPEC ]\n"
		"       ecctl code coef     PROFILE k K m M lost I [ avail LIST ] [ matrix SPEC ]\n"
		"       ecctl code encode   PROFILE k K m M [ matrix SPEC ] [ cell SIZE [ block BYTES ] ]\n"
		"                           in FILE out DIR\n"
		"       ecctl code decode   PROFILE k K m M lost I [ avail LIST ] [ matrix SPEC ]\n"
		"                           [ block BYTES cell SIZE ] dir DIR out FILE\n"
		"       ecctl code assemble PROFILE k K m M [ avail LIST ] [ matrix SPEC ]\n"
		"                           [ length N | block BYTES cell SIZE ] dir DIR out FILE\n"
		"       ecctl code help\n"
		"PROFILE := { isal-rs | isal-cauchy | hdfs-rs | jerasure-rs | ceph-jerasure |\n"
		"             vandermonde | minio | klauspost | backblaze | matrix }\n"
		"K, M    := 1..%d data and parity fragments; fragments 0..K-1 are data,\n"
		"           K..K+M-1 parity\n"
		"I       := index of the fragment to rebuild, 0..K+M-1\n"
		"LIST    := comma-separated fragment indices that may be read, e.g. 0,2,3,5;\n"
		"           default: all but the lost one (decode: all frag.N present in DIR),\n"
		"           lowest first.  Exactly K entries are used as given, in order.\n"
		"SPEC    := parity rows for profile matrix: M rows of K coefficients 0..255\n"
		"           (decimal or 0x hex), entries separated by ',' rows by ';',\n"
		"           e.g. \"1,1,1;1,2,4\"; or @FILE with one row per line, # comments\n"
		"SIZE, BYTES := a byte count, with an optional binary suffix k, m or g\n"
		"\n"
		"matrix    prints the (K+M) x K generator (identity on top).\n"
		"coef      prints the K survivors used and one coefficient per survivor:\n"
		"          frag[I] = sum_j coefficients[j] * frag[survivors[j]] over GF(2^8).\n"
		"encode    splits FILE into DIR/frag.0 .. DIR/frag.<K+M-1> (raw, equal size\n"
		"          ceil(len/K), the last data bytes zero-padded) and writes the\n"
		"          sidecar DIR/ecmeta (profile, k, m, length, fragsize[, matrix]).\n"
		"          With cell, FILE is one HDFS-style striped block of BYTES (its\n"
		"          size; block, if given, must match): byte X goes to data fragment\n"
		"          (X / SIZE) mod K at offset (X / (SIZE*K))*SIZE + X mod SIZE, data\n"
		"          fragments are not padded (a short last stripe leaves them of\n"
		"          different lengths, maybe 0), parity is as long as fragment 0,\n"
		"          computed with the missing bytes taken as zeros; ecmeta records\n"
		"          layout striped, cell and length.\n"
		"decode    rebuilds fragment I (data or parity, its exact length) into FILE.\n"
		"assemble  rebuilds the original FILE from any K fragments, trimmed to\n"
		"          length N (default: the length recorded in DIR/ecmeta), or the\n"
		"          striped block in logical order.\n"
		"          The layout comes from DIR/ecmeta; block and cell give it when\n"
		"          there is none and must match a striped one.  Every fragment\n"
		"          read must have exactly its layout length; shorter ones count\n"
		"          as zero-extended.\n",
		ECP_MAX_K);
}

static int code_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	code_usage(stdout);
	return ECCTL_OK;
}

static int code_profiles(int argc, char **argv)
{
	json_object *arr = NULL;

	if (argc > 1 && !strcmp(argv[1], "help"))
		return code_help(argc, argv);
	if (argc > 1)
		return ecctl_error(ECCTL_USAGE, "\"%s\": profiles takes no arguments", argv[1]);
	if (ecctl_opts.json)
		arr = json_object_new_array();
	for (int i = 0; i < ECP_PROFILE_COUNT; i++) {
		const struct ecp_profile *p = ecp_profile_by_id(i);

		if (arr) {
			json_object *o = json_object_new_object(), *al = json_object_new_array();

			json_object_object_add(o, "name", json_object_new_string(p->name));
			for (const char *const *a = p->aliases; *a; a++)
				json_object_array_add(al, json_object_new_string(*a));
			json_object_object_add(o, "aliases", al);
			json_object_object_add(o, "description", json_object_new_string(p->desc));
			json_object_object_add(o, "mds", json_object_new_boolean(p->mds));
			json_object_object_add(o, "max_k", json_object_new_int(ECP_MAX_K));
			json_object_object_add(o, "max_m", json_object_new_int(ECP_MAX_M));
			json_object_array_add(arr, o);
			continue;
		}
		printf("%s", p->name);
		if (p->aliases[0]) {
			printf(" aliases");
			for (const char *const *a = p->aliases; *a; a++)
				printf("%s%s", a == p->aliases ? " " : ",", *a);
		}
		printf("\n    %s%s\n", p->desc, p->mds ? "" : "; not MDS for every k, m");
	}
	if (arr)
		ecctl_json_print(arr);
	return ECCTL_OK;
}

/* parse_code_args result for "ecctl code CMD help": usage printed, exit 0 */
#define CODE_HELP_SHOWN (-1)

/* Keywords shared by the code commands; command-specific ones follow. */
enum {
	KW_K, KW_M, KW_MATRIX, KW_LOST, KW_AVAIL, KW_IN, KW_OUT, KW_DIR, KW_LENGTH, KW_BLOCK,
	KW_CELL, KW_MAX
};

struct code_args {
	struct ecp_code code;
	const char *profile_arg;
	int lost;
	int avail[ECP_MAX_N];
	int navail;
	int64_t length;
	int has_block;
	struct ecp_striping st;	/* block and cell; cell alone for encode */
	struct ecctl_kw kw[KW_MAX + 1];
};

static const struct ecctl_kw kw_template[KW_MAX] = {
	[KW_K] = { "k", "K", 1, NULL },
	[KW_M] = { "m", "M", 1, NULL },
	[KW_MATRIX] = { "matrix", "SPEC", 0, NULL },
	[KW_LOST] = { "lost", "I", 1, NULL },
	[KW_AVAIL] = { "avail", "LIST", 0, NULL },
	[KW_IN] = { "in", "FILE", 1, NULL },
	[KW_OUT] = { "out", "FILE", 1, NULL },
	[KW_DIR] = { "dir", "DIR", 1, NULL },
	[KW_LENGTH] = { "length", "N", 0, NULL },
	[KW_BLOCK] = { "block", "BYTES", 0, NULL },
	[KW_CELL] = { "cell", "SIZE", 0, NULL },
};

static void list_profiles(char *buf, size_t size)
{
	size_t off = 0;

	for (int i = 0; i < ECP_PROFILE_COUNT && off < size; i++) {
		const struct ecp_profile *p = ecp_profile_by_id(i);

		off += snprintf(buf + off, size - off, "%s%s", i ? ", " : "", p->name);
		for (const char *const *a = p->aliases; *a && off < size; a++)
			off += snprintf(buf + off, size - off, ", %s", *a);
	}
}

/* "KW VAL" as a byte count in min..max; prints the error. */
static int parse_bytes(const char *kw, const char *val, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	int ret = ecp_parse_size(val, max, out);

	if (ret == ECP_SIZE_BAD)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": not a size (suffixes k, m, g)", kw, val);
	if (ret == ECP_SIZE_BIG || *out < min)
		return ecctl_error(ECCTL_USAGE, "\"%s %s\": must be in %" PRIu64 "..%" PRIu64,
				   kw, val, min, max);
	return 0;
}

/*
 * block and cell, for the commands that take them: both, or cell alone
 * for encode (the block is the input file); never with length.
 */
static int parse_striping(struct code_args *a, struct ecctl_kw *const *kv)
{
	const char *block = kv[KW_BLOCK] ? kv[KW_BLOCK]->val : NULL;
	const char *cell = kv[KW_CELL] ? kv[KW_CELL]->val : NULL;
	uint64_t v;

	if (block) {
		if (parse_bytes("block", block, 0, INT64_MAX, &a->st.block))
			return ECCTL_USAGE;
		a->has_block = 1;
	}
	if (cell) {
		if (parse_bytes("cell", cell, 1, UINT32_MAX, &v))
			return ECCTL_USAGE;
		a->st.cell = (uint32_t)v;
	}
	if (block && !cell)
		return ecctl_error(ECCTL_USAGE, "\"block %s\": needs \"cell SIZE\"", block);
	if (cell && !block && !kv[KW_IN])
		return ecctl_error(ECCTL_USAGE, "\"cell %s\": needs \"block BYTES\"", cell);
	if (block && a->length >= 0)
		return ecctl_error(ECCTL_USAGE, "\"length %s\": not with block and cell (the block is the length)",
				   kv[KW_LENGTH]->val);
	return 0;
}

/*
 * Parse "PROFILE kw val ..." for a command accepting the keywords in
 * want (a list of KW_* ending with -1), set up the code and validate
 * lost/avail/block/cell.  Returns 0 or an exit code.
 */
static int parse_code_args(struct code_args *a, const char *cmd, const int *want,
			   int argc, char **argv)
{
	const struct ecp_profile *p;
	uint8_t parity[ECP_MAX_M * ECP_MAX_K];
	struct ecctl_kw *kv[KW_MAX] = { 0 };
	struct ecp_err err;
	long k, m, v;
	int n, nk = 0, ret;

	memset(a, 0, sizeof(*a));
	a->lost = -1;
	a->length = -1;
	for (int i = 0; want[i] >= 0; i++) {
		a->kw[nk] = kw_template[want[i]];
		kv[want[i]] = &a->kw[nk++];
	}
	if (argc < 2)
		return ecctl_error(ECCTL_USAGE, "code %s: missing PROFILE (see \"ecctl code help\")", cmd);
	if (!strcmp(argv[1], "help")) {
		code_usage(stdout);
		return CODE_HELP_SHOWN;
	}
	a->profile_arg = argv[1];
	p = ecp_profile_by_name(argv[1]);
	if (!p) {
		char names[512];

		list_profiles(names, sizeof(names));
		return ecctl_error(ECCTL_USAGE, "unknown profile \"%s\"; valid: %s", argv[1], names);
	}
	ret = ecctl_parse_kw(a->kw, argc - 2, argv + 2);
	if (ret)
		return ret == CODE_HELP_SHOWN ? ECCTL_OK : ret;
	if (ecctl_parse_int("k", kv[KW_K]->val, 1, ECP_MAX_K, &k) ||
	    ecctl_parse_int("m", kv[KW_M]->val, 1, ECP_MAX_M, &m))
		return ECCTL_USAGE;
	if (k + m > p->max_n)
		return ecctl_error(ECCTL_USAGE, "\"k %ld m %ld\": profile %s needs k+m <= %d",
				   k, m, p->name, p->max_n);
	n = (int)(k + m);

	if (p->id == ECP_PROFILE_MATRIX) {
		if (!kv[KW_MATRIX] || !kv[KW_MATRIX]->val)
			return ecctl_error(ECCTL_USAGE, "profile matrix needs \"matrix SPEC\"");
		if (ecp_matrix_parse(kv[KW_MATRIX]->val, (int)k, (int)m, parity, &err))
			return ecctl_error(ECCTL_USAGE, "\"matrix %s\": %s", kv[KW_MATRIX]->val, err.msg);
	} else if (kv[KW_MATRIX] && kv[KW_MATRIX]->val) {
		return ecctl_error(ECCTL_USAGE, "\"matrix %s\": only profile matrix takes a matrix",
				   kv[KW_MATRIX]->val);
	}
	if (ecp_code_init(&a->code, p, (int)k, (int)m,
			  p->id == ECP_PROFILE_MATRIX ? parity : NULL, &err))
		return ecctl_error(ECCTL_USAGE, "%s", err.msg);

	if (kv[KW_LOST]) {
		const char *s = kv[KW_LOST]->val;
		char *end;

		v = strtol(s, &end, 10);
		if (end == s || *end || v < 0)
			return ecctl_error(ECCTL_USAGE, "\"lost %s\": not a fragment index", s);
		if (v >= n)
			return ecctl_error(ECCTL_USAGE, "\"lost %s\": fragment index must be < k+m (%d)",
					   s, n);
		a->lost = (int)v;
	}
	if (kv[KW_AVAIL] && kv[KW_AVAIL]->val) {
		const char *s = kv[KW_AVAIL]->val;

		ret = ecctl_parse_list("avail", s, n, a->avail, ECP_MAX_N);
		if (ret < 0)
			return -ret;
		a->navail = ret;
		for (int i = 0; i < a->navail; i++)
			if (a->avail[i] == a->lost)
				return ecctl_error(ECCTL_USAGE, "\"avail %s\": lists the lost fragment %d",
						   s, a->lost);
		if (a->navail < k)
			return ecctl_error(ECCTL_USAGE,
					   "\"avail %s\": too many erasures: %d fragment%s available, need k=%ld",
					   s, a->navail, a->navail == 1 ? "" : "s", k);
	}
	if (kv[KW_LENGTH] && kv[KW_LENGTH]->val) {
		if (ecctl_parse_int("length", kv[KW_LENGTH]->val, 0, LONG_MAX, &v))
			return ECCTL_USAGE;
		a->length = v;
	}
	return parse_striping(a, kv);
}

static const char *kwval(const struct code_args *a, int which)
{
	const char *name = kw_template[which].name;

	for (const struct ecctl_kw *k = a->kw; k->name; k++)
		if (!strcmp(k->name, name))
			return k->val;
	return NULL;
}

/* Map a libecp error to an exit code, quoting avail when it was given. */
static int lib_error(const struct code_args *a, int ret, const struct ecp_err *err)
{
	const char *av = kwval(a, KW_AVAIL);
	/* Bad arguments are usage errors; so is "too few" when the user gave
	 * the list, but not when fragment files are simply missing. */
	int code = (ret == -ECP_E_INVAL || (ret == -ECP_E_TOOFEW && av)) ? ECCTL_USAGE : ECCTL_ERR;

	if (av && (ret == -ECP_E_TOOFEW || ret == -ECP_E_SINGULAR))
		return ecctl_error(code, "\"avail %s\": %s", av, err->msg);
	return ecctl_error(code, "%s", err->msg);
}

static json_object *int_array(const int *v, int n)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_int(v[i]));
	return arr;
}

static json_object *u8_array(const uint8_t *v, int n)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_int(v[i]));
	return arr;
}

static json_object *code_json(const struct code_args *a)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "profile", json_object_new_string(a->code.profile->name));
	json_object_object_add(o, "k", json_object_new_int(a->code.k));
	json_object_object_add(o, "m", json_object_new_int(a->code.m));
	return o;
}

static void print_coef_text(const struct ecp_coef *co, int k)
{
	printf("survivors");
	for (int j = 0; j < k; j++)
		printf(" %d", co->survivors[j]);
	printf("\ncoefficients");
	for (int j = 0; j < k; j++)
		printf(" 0x%02x", co->coef[j]);
	printf("\n");
}

static void add_coef_json(json_object *o, const struct ecp_coef *co, int k)
{
	json_object_object_add(o, "lost", json_object_new_int(co->lost));
	json_object_object_add(o, "survivors", int_array(co->survivors, k));
	json_object_object_add(o, "coefficients", u8_array(co->coef, k));
}

static int code_matrix(int argc, char **argv)
{
	static const int want[] = { KW_K, KW_M, KW_MATRIX, -1 };
	struct code_args a;
	int ret = parse_code_args(&a, "matrix", want, argc, argv);
	int k, n;

	if (ret)
		return ret == CODE_HELP_SHOWN ? ECCTL_OK : ret;
	k = a.code.k;
	n = k + a.code.m;
	if (ecctl_opts.json) {
		json_object *o = code_json(&a), *rows = json_object_new_array();

		for (int i = 0; i < n; i++)
			json_object_array_add(rows, u8_array(ecp_code_row(&a.code, i), k));
		json_object_object_add(o, "generator", rows);
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	printf("profile %s k %d m %d\n", a.code.profile->name, k, a.code.m);
	for (int i = 0; i < n; i++) {
		printf("%s %2d:", i < k ? "data  " : "parity", i);
		for (int j = 0; j < k; j++)
			printf(" 0x%02x", ecp_code_row(&a.code, i)[j]);
		printf("\n");
	}
	return ECCTL_OK;
}

static int code_coef(int argc, char **argv)
{
	static const int want[] = { KW_K, KW_M, KW_MATRIX, KW_LOST, KW_AVAIL, -1 };
	struct code_args a;
	struct ecp_coef co;
	struct ecp_err err;
	int ret = parse_code_args(&a, "coef", want, argc, argv);

	if (ret)
		return ret == CODE_HELP_SHOWN ? ECCTL_OK : ret;
	ret = ecp_code_coef(&a.code, a.lost, a.avail, a.navail, &co, &err);
	if (ret)
		return lib_error(&a, ret, &err);
	if (ecctl_opts.json) {
		json_object *o = code_json(&a);

		add_coef_json(o, &co, a.code.k);
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	printf("profile %s k %d m %d lost %d\n", a.code.profile->name, a.code.k, a.code.m, a.lost);
	print_coef_text(&co, a.code.k);
	return ECCTL_OK;
}

static int code_encode(int argc, char **argv)
{
	static const int want[] = { KW_K, KW_M, KW_MATRIX, KW_CELL, KW_BLOCK, KW_IN, KW_OUT, -1 };
	struct code_args a;
	struct ecp_meta meta;
	struct ecp_err err;
	int ret = parse_code_args(&a, "encode", want, argc, argv);
	const char *dir, *in;
	struct stat st;

	if (ret)
		return ret == CODE_HELP_SHOWN ? ECCTL_OK : ret;
	dir = kwval(&a, KW_OUT);
	in = kwval(&a, KW_IN);
	/* Checked before anything is written; the library reads the file. */
	if (a.has_block && !stat(in, &st) && (uint64_t)st.st_size != a.st.block)
		return ecctl_error(ECCTL_USAGE, "\"block %s\": %s has %lld bytes",
				   kwval(&a, KW_BLOCK), in, (long long)st.st_size);
	ret = ecp_file_encode(&a.code, in, dir, a.st.cell, &meta, &err);
	if (ret)
		return lib_error(&a, ret, &err);
	if (ecctl_opts.json) {
		json_object *o = code_json(&a), *lens = json_object_new_array();

		json_object_object_add(o, "dir", json_object_new_string(dir));
		json_object_object_add(o, "length", json_object_new_int64((int64_t)meta.length));
		json_object_object_add(o, "fragsize", json_object_new_int64((int64_t)meta.fragsize));
		json_object_object_add(o, "fragments", json_object_new_int(a.code.k + a.code.m));
		json_object_object_add(o, "layout",
				       json_object_new_string(meta.cell ? "striped" : "padded"));
		if (meta.cell)
			json_object_object_add(o, "cell", json_object_new_int64(meta.cell));
		for (int i = 0; i < a.code.k + a.code.m; i++)
			json_object_array_add(lens, json_object_new_int64(
				(int64_t)ecp_meta_frag_len(&meta, i)));
		json_object_object_add(o, "lengths", lens);
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	if (meta.cell)
		printf("encoded %" PRIu64 " bytes striped in %" PRIu32 "-byte cells into %d fragments of at most %" PRIu64 " bytes in %s\n",
		       meta.length, meta.cell, a.code.k + a.code.m, meta.fragsize, dir);
	else
		printf("encoded %" PRIu64 " bytes into %d fragments of %" PRIu64 " bytes in %s\n",
		       meta.length, a.code.k + a.code.m, meta.fragsize, dir);
	return ECCTL_OK;
}

static int code_decode(int argc, char **argv)
{
	static const int want[] = { KW_K, KW_M, KW_MATRIX, KW_LOST, KW_AVAIL, KW_BLOCK, KW_CELL,
				    KW_DIR, KW_OUT, -1 };
	struct code_args a;
	struct ecp_coef co;
	struct ecp_err err;
	uint64_t fs = 0;
	int ret = parse_code_args(&a, "decode", want, argc, argv);

	if (ret)
		return ret == CODE_HELP_SHOWN ? ECCTL_OK : ret;
	ret = ecp_file_rebuild(&a.code, kwval(&a, KW_DIR), a.lost, a.avail, a.navail,
			       a.has_block ? &a.st : NULL, kwval(&a, KW_OUT), &co, &fs, &err);
	if (ret)
		return lib_error(&a, ret, &err);
	if (ecctl_opts.json) {
		json_object *o = code_json(&a);

		add_coef_json(o, &co, a.code.k);
		json_object_object_add(o, "fragsize", json_object_new_int64((int64_t)fs));
		json_object_object_add(o, "out", json_object_new_string(kwval(&a, KW_OUT)));
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	printf("rebuilt fragment %d (%" PRIu64 " bytes) into %s\n", a.lost, fs, kwval(&a, KW_OUT));
	print_coef_text(&co, a.code.k);
	return ECCTL_OK;
}

static int code_assemble(int argc, char **argv)
{
	static const int want[] = { KW_K, KW_M, KW_MATRIX, KW_AVAIL, KW_LENGTH, KW_BLOCK, KW_CELL,
				    KW_DIR, KW_OUT, -1 };
	struct code_args a;
	struct ecp_err err;
	uint64_t written = 0;
	int ret = parse_code_args(&a, "assemble", want, argc, argv);

	if (ret)
		return ret == CODE_HELP_SHOWN ? ECCTL_OK : ret;
	ret = ecp_file_assemble(&a.code, kwval(&a, KW_DIR), a.avail, a.navail, a.length,
				a.has_block ? &a.st : NULL, kwval(&a, KW_OUT), &written, &err);
	if (ret)
		return lib_error(&a, ret, &err);
	if (ecctl_opts.json) {
		json_object *o = code_json(&a);

		json_object_object_add(o, "length", json_object_new_int64((int64_t)written));
		json_object_object_add(o, "out", json_object_new_string(kwval(&a, KW_OUT)));
		ecctl_json_print(o);
		return ECCTL_OK;
	}
	printf("assembled %" PRIu64 " bytes into %s\n", written, kwval(&a, KW_OUT));
	return ECCTL_OK;
}

static const struct ecctl_cmd code_cmds[] = {
	{ "profiles", code_profiles, "list coding profiles" },
	{ "matrix", code_matrix, "print a generator matrix" },
	{ "coef", code_coef, "decode coefficients for one lost fragment" },
	{ "encode", code_encode, "split a file into fragments" },
	{ "decode", code_decode, "rebuild one fragment from k others" },
	{ "assemble", code_assemble, "rebuild the original file from k fragments" },
	{ "help", code_help, "usage" },
	{ NULL, NULL, NULL }
};

int do_code(int argc, char **argv)
{
	return ecctl_dispatch("code command", code_cmds, "profiles", argc - 1, argv + 1);
}
