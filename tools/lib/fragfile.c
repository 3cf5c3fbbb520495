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

uint64_t ecp_frag_size(uint64_t len, int k)
{
	return (len + (uint64_t)k - 1) / (uint64_t)k;
}

static void frag_path(char *buf, size_t size, const char *dir, int i)
{
	snprintf(buf, size, "%s/%s%d", dir, ECP_FRAG_PREFIX, i);
}

/* Read a whole file; *len receives its size. */
static int read_file(const char *path, uint8_t **data, uint64_t *len, struct ecp_err *e)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;

	if (!f)
		return ecp_err_set(e, "cannot open %s: %s", path, strerror(errno)), -ECP_E_IO;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return ecp_err_set(e, "%s is not a regular file", path), -ECP_E_IO;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		fclose(f);
		return ecp_err_set(e, "out of memory reading %s", path), -ECP_E_NOMEM;
	}
	if (st.st_size && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		free(buf);
		fclose(f);
		return ecp_err_set(e, "short read on %s", path), -ECP_E_IO;
	}
	fclose(f);
	*data = buf;
	*len = (uint64_t)st.st_size;
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
	int have = 0;
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
	    m->fragsize != ecp_frag_size(m->length, m->k))
		return ecp_err_set(e, "%s: incomplete or inconsistent metadata", path), -ECP_E_IO;
	return 0;
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
		    struct ecp_meta *meta, struct ecp_err *e)
{
	uint8_t *data = NULL, *frags = NULL;
	uint8_t *dptr[ECP_MAX_K], *pptr[ECP_MAX_M];
	int n = c->k + c->m, ret;
	uint64_t len, fs;
	char path[4096];

	ret = read_file(in, &data, &len, e);
	if (ret)
		return ret;
	fs = ecp_frag_size(len, c->k);
	if (fs > SIZE_MAX / (size_t)n) {
		free(data);
		return ecp_err_set(e, "%s is too large", in), -ECP_E_NOMEM;
	}
	frags = calloc((size_t)(fs ? fs : 1) * n, 1);
	if (!frags) {
		free(data);
		return ecp_err_set(e, "out of memory"), -ECP_E_NOMEM;
	}
	memcpy(frags, data, (size_t)len);	/* data fragments are contiguous, zero-padded */
	free(data);
	for (int i = 0; i < c->k; i++)
		dptr[i] = frags + (size_t)i * fs;
	for (int r = 0; r < c->m; r++)
		pptr[r] = frags + (size_t)(c->k + r) * fs;
	ecp_encode(c, (const uint8_t *const *)dptr, pptr, (size_t)fs);

	if (mkdir(dir, 0777) && errno != EEXIST) {
		ret = (ecp_err_set(e, "cannot create directory %s: %s", dir, strerror(errno)), -ECP_E_IO);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		frag_path(path, sizeof(path), dir, i);
		ret = write_file(path, frags + (size_t)i * fs, fs, e);
		if (ret)
			goto out;
	}
	memset(meta, 0, sizeof(*meta));
	snprintf(meta->profile, sizeof(meta->profile), "%s", c->profile->name);
	meta->k = c->k;
	meta->m = c->m;
	meta->length = len;
	meta->fragsize = fs;
	if (c->profile->id == ECP_PROFILE_MATRIX) {
		meta->has_matrix = 1;
		memcpy(meta->parity, ecp_code_row(c, c->k), (size_t)c->m * c->k);
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

/* Load common context: metadata (checked against c) and the fragment size. */
static int load_meta(const struct ecp_code *c, const char *dir, struct ecp_meta *meta,
		     int *have_meta, struct ecp_err *e)
{
	int ret = ecp_meta_read(dir, meta, e);

	if (ret < 0)
		return ret;
	*have_meta = ret == 0;
	if (*have_meta)
		return ecp_meta_check(meta, c, e);
	return 0;
}

/* Read survivor fragments; all must have size *fs (or set it if unknown). */
static int read_survivors(const char *dir, const int *surv, int k, uint8_t **bufs,
			  uint64_t *fs, int fs_known, struct ecp_err *e)
{
	char path[4096];

	for (int j = 0; j < k; j++) {
		uint64_t len;
		int ret;

		frag_path(path, sizeof(path), dir, surv[j]);
		ret = read_file(path, &bufs[j], &len, e);
		if (ret)
			return ret;
		if (!fs_known && j == 0)
			*fs = len;
		if (len != *fs) {
			free(bufs[j]);
			bufs[j] = NULL;
			return ecp_err_set(e, "%s has %" PRIu64 " bytes, expected %" PRIu64,
					   path, len, *fs), -ECP_E_IO;
		}
	}
	return 0;
}

int ecp_file_rebuild(const struct ecp_code *c, const char *dir, int lost,
		     const int *avail, int navail, const char *out,
		     struct ecp_coef *used, uint64_t *fragsize, struct ecp_err *e)
{
	uint8_t *bufs[ECP_MAX_K] = { 0 }, *res = NULL;
	struct ecp_meta meta;
	struct ecp_coef co;
	int pres[ECP_MAX_N], have_meta, ret;
	uint64_t fs = 0;

	ret = load_meta(c, dir, &meta, &have_meta, e);
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
	if (have_meta)
		fs = meta.fragsize;
	ret = read_survivors(dir, co.survivors, c->k, bufs, &fs, have_meta, e);
	if (ret)
		goto out;
	res = malloc(fs ? (size_t)fs : 1);
	if (!res) {
		ret = (ecp_err_set(e, "out of memory"), -ECP_E_NOMEM);
		goto out;
	}
	ecp_combine(co.coef, (const uint8_t *const *)bufs, c->k, res, (size_t)fs);
	ret = write_file(out, res, fs, e);
	if (fragsize)
		*fragsize = fs;
out:
	for (int j = 0; j < c->k; j++)
		free(bufs[j]);
	free(res);
	return ret;
}

int ecp_file_assemble(const struct ecp_code *c, const char *dir,
		      const int *avail, int navail, int64_t length,
		      const char *out, uint64_t *written, struct ecp_err *e)
{
	uint8_t *bufs[ECP_MAX_K] = { 0 }, *data = NULL;
	char usable[ECP_MAX_N] = { 0 };
	int pres[ECP_MAX_N], have_meta, ret, k = c->k, n = c->k + c->m;
	struct ecp_meta meta;
	struct ecp_coef co;
	uint64_t fs = 0;

	ret = load_meta(c, dir, &meta, &have_meta, e);
	if (ret)
		return ret;
	if (length < 0) {
		if (!have_meta)
			return ecp_err_set(e, "original length unknown: no %s in %s, pass length N",
					   ECP_META_NAME, dir), -ECP_E_INVAL;
		length = (int64_t)meta.length;
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

	/* Fragment size: from the metadata, else from the first usable fragment. */
	if (have_meta) {
		fs = meta.fragsize;
	} else {
		uint8_t *tmp;
		int first = avail[0];

		ret = read_survivors(dir, &first, 1, &tmp, &fs, 0, e);
		if (ret)
			return ret;
		free(tmp);
	}
	if ((uint64_t)length > fs * (uint64_t)k)
		return ecp_err_set(e, "length %" PRId64 " exceeds k * fragment size (%" PRIu64 ")",
				   length, fs * (uint64_t)k), -ECP_E_INVAL;
	data = calloc((size_t)(fs ? fs : 1) * k, 1);
	if (!data)
		return ecp_err_set(e, "out of memory"), -ECP_E_NOMEM;

	for (int i = 0; i < k; i++) {
		uint8_t *dst = data + (size_t)i * fs;

		if (usable[i]) {
			uint8_t *b;

			ret = read_survivors(dir, &i, 1, &b, &fs, 1, e);
			if (ret)
				goto out;
			memcpy(dst, b, (size_t)fs);
			free(b);
			continue;
		}
		/* Rebuild data fragment i from the usable set (same order as given). */
		{
			int pool[ECP_MAX_N], np = 0;

			for (int j = 0; j < navail; j++)
				if (avail[j] != i)
					pool[np++] = avail[j];
			ret = ecp_code_coef(c, i, pool, np, &co, e);
			if (ret)
				goto out;
			ret = read_survivors(dir, co.survivors, k, bufs, &fs, 1, e);
			if (ret)
				goto out;
			ecp_combine(co.coef, (const uint8_t *const *)bufs, k, dst, (size_t)fs);
			for (int j = 0; j < k; j++) {
				free(bufs[j]);
				bufs[j] = NULL;
			}
		}
	}
	ret = write_file(out, data, (uint64_t)length, e);
	if (!ret && written)
		*written = (uint64_t)length;
out:
	for (int j = 0; j < k; j++)
		free(bufs[j]);
	free(data);
	return ret;
}
