// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fragfile.h"
#include "layout.h"

uint64_t ecp_frag_size(uint64_t len, int k)
{
	return (len + (uint64_t)k - 1) / (uint64_t)k;
}

uint64_t ecp_meta_frag_len(const struct ecp_meta *meta, int frag)
{
	if (meta->cell)
		return ecp_layout_len(meta->length, meta->cell, meta->k, frag);
	return meta->fragsize;
}

/* The longest fragment of a layout: data fragment 0 (and the parity). */
static uint64_t layout_fragsize(uint64_t length, uint32_t cell, int k)
{
	return cell ? ecp_layout_len(length, cell, k, 0) : ecp_frag_size(length, k);
}

static void frag_path(char *buf, size_t size, const char *dir, int i)
{
	snprintf(buf, size, "%s/%s%d", dir, ECP_FRAG_PREFIX, i);
}

/*
 * Read a whole file into a new buffer of max(its size, size) bytes, the
 * rest zeroed; *len receives its size, which must be want unless want is
 * UINT64_MAX.
 */
static int read_file(const char *path, uint64_t want, uint64_t size, uint8_t **data,
		     uint64_t *len, struct ecp_err *e)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;
	uint64_t have;

	if (!f)
		return ecp_err_set(e, "cannot open %s: %s", path, strerror(errno)), -ECP_E_IO;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return ecp_err_set(e, "%s is not a regular file", path), -ECP_E_IO;
	}
	have = (uint64_t)st.st_size;
	if (want != UINT64_MAX && have != want) {
		fclose(f);
		return ecp_err_set(e, "%s has %" PRIu64 " bytes, expected %" PRIu64,
				   path, have, want), -ECP_E_IO;
	}
	if (have > size)
		size = have;
	buf = calloc(size ? (size_t)size : 1, 1);
	if (!buf) {
		fclose(f);
		return ecp_err_set(e, "out of memory reading %s", path), -ECP_E_NOMEM;
	}
	if (have && fread(buf, 1, (size_t)have, f) != (size_t)have) {
		free(buf);
		fclose(f);
		return ecp_err_set(e, "short read on %s", path), -ECP_E_IO;
	}
	fclose(f);
	*data = buf;
	*len = have;
	return 0;
}

static int write_file(const char *path, const uint8_t *data, uint64_t len, struct ecp_err *e)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return ecp_err_set(e, "cannot create %s: %s", path, strerror(errno)), -ECP_E_IO;
	if ((len && fwrite(data, 1, (size_t)len, f) != (size_t)len) || fclose(f)) {
		if (len)
			fclose(f);
		return ecp_err_set(e, "write error on %s: %s", path, strerror(errno)), -ECP_E_IO;
	}
	return 0;
}

static int write_meta(const char *dir, const struct ecp_meta *m, struct ecp_err *e)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, ECP_META_NAME);
	f = fopen(path, "w");
	if (!f)
		return ecp_err_set(e, "cannot create %s: %s", path, strerror(errno)), -ECP_E_IO;
	fprintf(f, "# ecproxy fragment set: frag.0..frag.%d, data first\n", m->k + m->m - 1);
	fprintf(f, "profile %s\nk %d\nm %d\nlength %" PRIu64 "\nfragsize %" PRIu64 "\n",
		m->profile, m->k, m->m, m->length, m->fragsize);
	/* Only a striped set says so: a padded one reads as it always did. */
	if (m->cell)
		fprintf(f, "layout striped\ncell %" PRIu32 "\n", m->cell);
	if (m->has_matrix) {
		fprintf(f, "matrix ");
		for (int r = 0; r < m->m; r++)
			for (int j = 0; j < m->k; j++)
				fprintf(f, "%d%s", m->parity[r * m->k + j],
					j + 1 < m->k ? "," : r + 1 < m->m ? ";" : "\n");
	}
	if (fclose(f))
		return ecp_err_set(e, "write error on %s: %s", path, strerror(errno)), -ECP_E_IO;
	return 0;
}

int ecp_meta_read(const char *dir, struct ecp_meta *m, struct ecp_err *e)
{
	char path[4096], line[8192];
	int have = 0, striped = 0;
	uint64_t cell = 0;
	FILE *f;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/%s", dir, ECP_META_NAME);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		return ecp_err_set(e, "cannot open %s: %s", path, strerror(errno)), -ECP_E_IO;
	}
	while (fgets(line, sizeof(line), f)) {
		char key[32], val[8000];

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%31s %7999s", key, val) != 2)
			goto bad;
		if (!strcmp(key, "profile")) {
			if (strlen(val) >= sizeof(m->profile))
				goto bad;
			memcpy(m->profile, val, strlen(val) + 1);
			have |= 1;
		} else if (!strcmp(key, "k")) {
			m->k = atoi(val);
			have |= 2;
		} else if (!strcmp(key, "m")) {
			m->m = atoi(val);
			have |= 4;
		} else if (!strcmp(key, "length")) {
			m->length = strtoull(val, NULL, 10);
			have |= 8;
		} else if (!strcmp(key, "fragsize")) {
			m->fragsize = strtoull(val, NULL, 10);
			have |= 16;
		} else if (!strcmp(key, "layout")) {
			if (strcmp(val, "striped") && strcmp(val, "padded"))
				goto bad;
			striped = !strcmp(val, "striped");
		} else if (!strcmp(key, "cell")) {
			cell = strtoull(val, NULL, 10);
		} else if (!strcmp(key, "matrix")) {
			if (!(have & 6) || ecp_matrix_parse(val, m->k, m->m, m->parity, e)) {
				fclose(f);
				return -ECP_E_IO;
			}
			m->has_matrix = 1;
		}
		/* unknown keys are ignored for forward compatibility */
	}
	fclose(f);
	if (have != 31 || m->k < 1 || m->k > ECP_MAX_K || m->m < 1 || m->m > ECP_MAX_M ||
	    (striped ? cell < 1 || cell > UINT32_MAX : cell != 0))
		goto inconsistent;
	m->cell = (uint32_t)cell;
	if (m->fragsize != layout_fragsize(m->length, m->cell, m->k))
		goto inconsistent;
	return 0;
inconsistent:
	return ecp_err_set(e, "%s: incomplete or inconsistent metadata", path), -ECP_E_IO;
bad:
	fclose(f);
	return ecp_err_set(e, "%s: malformed line: %s", path, line), -ECP_E_IO;
}

int ecp_meta_check(const struct ecp_meta *meta, const struct ecp_code *c,
		   struct ecp_err *e)
{
	const struct ecp_profile *p = ecp_profile_by_name(meta->profile);

	if (p != c->profile || meta->k != c->k || meta->m != c->m)
		return ecp_err_set(e, "fragment set was encoded with %s k %d m %d, not %s k %d m %d",
				   meta->profile, meta->k, meta->m, c->profile->name, c->k, c->m),
		       -ECP_E_INVAL;
	if (meta->has_matrix && memcmp(meta->parity, ecp_code_row(c, c->k), (size_t)c->m * c->k))
		return ecp_err_set(e, "fragment set was encoded with a different user matrix"),
		       -ECP_E_INVAL;
	return 0;
}

int ecp_file_encode(const struct ecp_code *c, const char *in, const char *dir,
		    uint32_t cell, struct ecp_meta *meta, struct ecp_err *e)
{
	uint8_t *data = NULL, *frags = NULL;
	uint8_t *dptr[ECP_MAX_K], *pptr[ECP_MAX_M];
	int n = c->k + c->m, ret;
	uint64_t len, fs;
	struct ecp_run run;
	char path[4096];

	ret = read_file(in, UINT64_MAX, 0, &data, &len, e);
	if (ret)
		return ret;
	fs = layout_fragsize(len, cell, c->k);
	if (fs > SIZE_MAX / (size_t)n) {
		free(data);
		return ecp_err_set(e, "%s is too large", in), -ECP_E_NOMEM;
	}
	frags = calloc((size_t)(fs ? fs : 1) * n, 1);
	if (!frags) {
		free(data);
		return ecp_err_set(e, "out of memory"), -ECP_E_NOMEM;
	}
	/* The padded layout is one stripe of fs-byte cells, zero-padded. */
	for (ecp_run_first(&run, len, cell ? cell : fs, c->k); run.len; ecp_run_next(&run))
		memcpy(frags + (size_t)run.frag * fs + run.off, data + run.pos, (size_t)run.len);
	free(data);
	for (int i = 0; i < c->k; i++)
		dptr[i] = frags + (size_t)i * fs;
	for (int r = 0; r < c->m; r++)
		pptr[r] = frags + (size_t)(c->k + r) * fs;
	ecp_encode(c, (const uint8_t *const *)dptr, pptr, (size_t)fs);

	memset(meta, 0, sizeof(*meta));
	snprintf(meta->profile, sizeof(meta->profile), "%s", c->profile->name);
	meta->k = c->k;
	meta->m = c->m;
	meta->length = len;
	meta->fragsize = fs;
	meta->cell = cell;
	if (c->profile->id == ECP_PROFILE_MATRIX) {
		meta->has_matrix = 1;
		memcpy(meta->parity, ecp_code_row(c, c->k), (size_t)c->m * c->k);
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		ret = (ecp_err_set(e, "cannot create directory %s: %s", dir, strerror(errno)), -ECP_E_IO);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		frag_path(path, sizeof(path), dir, i);
		ret = write_file(path, frags + (size_t)i * fs, ecp_meta_frag_len(meta, i), e);
		if (ret)
			goto out;
	}
	ret = write_meta(dir, meta, e);
out:
	free(frags);
	return ret;
}

/* Fragments that exist in dir, except skip (or all if skip < 0), ascending. */
static int present_fragments(const struct ecp_code *c, const char *dir, int skip, int *out)
{
	char path[4096];
	struct stat st;
	int n = 0;

	for (int i = 0; i < c->k + c->m; i++) {
		if (i == skip)
			continue;
		frag_path(path, sizeof(path), dir, i);
		if (stat(path, &st) == 0)
			out[n++] = i;
	}
	return n;
}

/*
 * A fragment set being read: its geometry, and the fragments read so far,
 * each once, zero-extended to fragsize.
 */
struct fset {
	const char *dir;
	struct ecp_meta g;
	int known;		/* g is known; else the first fragment read sets it */
	uint8_t *buf[ECP_MAX_N];
};

static void fset_free(struct fset *fs)
{
	for (int i = 0; i < ECP_MAX_N; i++)
		free(fs->buf[i]);
}

/* Set up fs for dir from its ecmeta (checked against c) and st. */
static int fset_open(struct fset *fs, const struct ecp_code *c, const char *dir,
		     const struct ecp_striping *st, struct ecp_err *e)
{
	int ret;

	memset(fs, 0, sizeof(*fs));
	fs->dir = dir;
	ret = ecp_meta_read(dir, &fs->g, e);
	if (ret < 0)
		return ret;
	fs->known = ret == 0;
	if (fs->known) {
		ret = ecp_meta_check(&fs->g, c, e);
		if (ret)
			return ret;
	}
	fs->g.k = c->k;
	fs->g.m = c->m;
	if (!st)
		return 0;
	if (st->cell < 1)
		return ecp_err_set(e, "cell must be at least 1 byte"), -ECP_E_INVAL;
	if (fs->known && fs->g.cell && (fs->g.cell != st->cell || fs->g.length != st->block))
		return ecp_err_set(e, "block %" PRIu64 " cell %" PRIu32 ": %s/%s records block %" PRIu64 " cell %" PRIu32,
				   st->block, st->cell, dir, ECP_META_NAME, fs->g.length, fs->g.cell),
		       -ECP_E_INVAL;
	fs->g.length = st->block;
	fs->g.cell = st->cell;
	fs->g.fragsize = layout_fragsize(st->block, st->cell, c->k);
	fs->known = 1;
	return 0;
}

/* Read fragment i into fs->buf[i] (once), checking its length. */
static int fset_get(struct fset *fs, int i, struct ecp_err *e)
{
	char path[4096];
	uint64_t len;
	int ret;

	if (fs->buf[i])
		return 0;
	frag_path(path, sizeof(path), fs->dir, i);
	ret = read_file(path, fs->known ? ecp_meta_frag_len(&fs->g, i) : UINT64_MAX,
			fs->g.fragsize, &fs->buf[i], &len, e);
	if (ret)
		return ret;
	if (!fs->known) {
		/* Padded and no ecmeta: every fragment is as long as this one. */
		fs->g.fragsize = len;
		fs->known = 1;
	}
	return 0;
}

/* out (fragsize bytes) = fragment co->lost, from its survivors. */
static int fset_combine(struct fset *fs, const struct ecp_coef *co, int k, uint8_t *out,
			struct ecp_err *e)
{
	const uint8_t *src[ECP_MAX_K];

	for (int j = 0; j < k; j++) {
		int ret = fset_get(fs, co->survivors[j], e);

		if (ret)
			return ret;
		src[j] = fs->buf[co->survivors[j]];
	}
	ecp_combine(co->coef, src, k, out, (size_t)fs->g.fragsize);
	return 0;
}

int ecp_file_rebuild(const struct ecp_code *c, const char *dir, int lost,
		     const int *avail, int navail, const struct ecp_striping *st,
		     const char *out, struct ecp_coef *used, uint64_t *fraglen,
		     struct ecp_err *e)
{
	uint8_t *res = NULL;
	struct ecp_coef co;
	struct fset fs;
	int pres[ECP_MAX_N], ret;
	uint64_t len;

	ret = fset_open(&fs, c, dir, st, e);
	if (ret)
		return ret;
	if (!avail || navail == 0) {
		navail = present_fragments(c, dir, lost, pres);
		avail = pres;
		if (navail == 0)
			return ecp_err_set(e, "too many erasures: no fragments found in %s", dir),
			       -ECP_E_TOOFEW;
	}
	ret = ecp_code_coef(c, lost, avail, navail, &co, e);
	if (used)
		*used = co;
	if (ret)
		return ret;
	/* The first survivor sets the size when nothing else does. */
	ret = fset_get(&fs, co.survivors[0], e);
	if (ret)
		goto out;
	res = malloc(fs.g.fragsize ? (size_t)fs.g.fragsize : 1);
	if (!res) {
		ret = (ecp_err_set(e, "out of memory"), -ECP_E_NOMEM);
		goto out;
	}
	ret = fset_combine(&fs, &co, c->k, res, e);
	if (ret)
		goto out;
	len = ecp_meta_frag_len(&fs.g, lost);
	ret = write_file(out, res, len, e);
	if (fraglen)
		*fraglen = len;
out:
	fset_free(&fs);
	free(res);
	return ret;
}

int ecp_file_assemble(const struct ecp_code *c, const char *dir,
		      const int *avail, int navail, int64_t length,
		      const struct ecp_striping *st, const char *out,
		      uint64_t *written, struct ecp_err *e)
{
	uint8_t *rebuilt[ECP_MAX_K] = { 0 };
	const uint8_t *data[ECP_MAX_K];
	char usable[ECP_MAX_N] = { 0 };
	int pres[ECP_MAX_N], ret, k = c->k, n = c->k + c->m;
	struct ecp_coef co;
	struct ecp_run r;
	struct fset fs;
	FILE *f;
	int bad;

	ret = fset_open(&fs, c, dir, st, e);
	if (ret)
		return ret;
	if (length < 0) {
		if (!fs.known)
			return ecp_err_set(e, "original length unknown: no %s in %s, pass length N",
					   ECP_META_NAME, dir), -ECP_E_INVAL;
		length = (int64_t)fs.g.length;
	} else if (fs.g.cell && (uint64_t)length != fs.g.length) {
		return ecp_err_set(e, "length %" PRId64 ": the striped layout's block is %" PRIu64 " bytes",
				   length, fs.g.length), -ECP_E_INVAL;
	}
	if (!avail || navail == 0) {
		navail = present_fragments(c, dir, -1, pres);
		avail = pres;
	}
	for (int i = 0; i < navail; i++) {
		if (avail[i] < 0 || avail[i] >= n)
			return ecp_err_set(e, "available fragment %d out of range: fragment index must be < k+m (%d)",
					   avail[i], n), -ECP_E_INVAL;
		usable[avail[i]] = 1;
	}
	if (navail < k)
		return ecp_err_set(e, "too many erasures: %d fragment%s available, need k=%d",
				   navail, navail == 1 ? "" : "s", k), -ECP_E_TOOFEW;

	/* Fragment size: from the layout, else from the first usable fragment. */
	ret = fset_get(&fs, avail[0], e);
	if (ret)
		goto out;
	if (!fs.g.cell && (uint64_t)length > fs.g.fragsize * (uint64_t)k) {
		ret = (ecp_err_set(e, "length %" PRId64 " exceeds k * fragment size (%" PRIu64 ")",
				   length, fs.g.fragsize * (uint64_t)k), -ECP_E_INVAL);
		goto out;
	}
	for (int i = 0; i < k; i++) {
		int pool[ECP_MAX_N], np = 0;

		if (usable[i]) {
			ret = fset_get(&fs, i, e);
			if (ret)
				goto out;
			data[i] = fs.buf[i];
			continue;
		}
		/* Rebuild data fragment i from the usable set (same order as given). */
		for (int j = 0; j < navail; j++)
			if (avail[j] != i)
				pool[np++] = avail[j];
		ret = ecp_code_coef(c, i, pool, np, &co, e);
		if (ret)
			goto out;
		rebuilt[i] = malloc(fs.g.fragsize ? (size_t)fs.g.fragsize : 1);
		if (!rebuilt[i]) {
			ret = (ecp_err_set(e, "out of memory"), -ECP_E_NOMEM);
			goto out;
		}
		ret = fset_combine(&fs, &co, k, rebuilt[i], e);
		if (ret)
			goto out;
		data[i] = rebuilt[i];
	}

	f = fopen(out, "wb");
	if (!f) {
		ret = (ecp_err_set(e, "cannot create %s: %s", out, strerror(errno)), -ECP_E_IO);
		goto out;
	}
	/* In logical order; the padded layout is one stripe of fragsize cells. */
	for (ecp_run_first(&r, (uint64_t)length, fs.g.cell ? fs.g.cell : fs.g.fragsize, k);
	     r.len; ecp_run_next(&r))
		if (fwrite(data[r.frag] + r.off, 1, (size_t)r.len, f) != (size_t)r.len)
			break;
	bad = ferror(f);
	if (fclose(f) || bad) {
		ret = (ecp_err_set(e, "write error on %s: %s", out, strerror(errno)), -ECP_E_IO);
		goto out;
	}
	if (written)
		*written = (uint64_t)length;
out:
	for (int i = 0; i < k; i++)
		free(rebuilt[i]);
	fset_free(&fs);
	return ret;
}
