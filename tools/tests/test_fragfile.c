// SPDX-License-Identifier: GPL-2.0
/*
 * File-level encode/rebuild/assemble: fragment layout and padding, the
 * ecmeta sidecar, rebuilding every fragment, reassembly with m fragments
 * missing, metadata mismatch.  The same for the striped layout: exact
 * fragment lengths, data placed byte by byte as the layout says, parity
 * of the zero-extended data, the layout in ecmeta or given, fragments of
 * the wrong length.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "ecp.h"
#include "files.h"
#include "tap.h"

static char tmpdir[64];

static uint8_t in[40000], buf[40000], buf2[40000];

/* Rebuild every fragment of dir from the default survivors: each as its file, exactly. */
static int rebuild_all(const struct ecp_code *c, const char *dir, const struct ecp_meta *meta,
		       const char *outp)
{
	struct ecp_err err;
	int ok = 1;

	for (int i = 0; i < c->k + c->m; i++) {
		uint64_t want = ecp_meta_frag_len(meta, i), got;
		char fp[256];

		if (ecp_file_rebuild(c, dir, i, NULL, 0, NULL, outp, NULL, &got, &err)) {
			tap_diag("rebuild %d: %s", i, err.msg);
			ok = 0;
			continue;
		}
		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, i);
		if (got != want || test_read_file(fp, buf, sizeof(buf)) != (long)want ||
		    test_read_file(outp, buf2, sizeof(buf2)) != (long)want || memcmp(buf, buf2, want)) {
			tap_diag("rebuild %d: wrong length or bytes", i);
			ok = 0;
		}
	}
	return ok;
}

/* Remove the first m fragments (all data when m >= k): the assembly is still in[0..len). */
static int assemble_without_first_m(const struct ecp_code *c, const char *dir, size_t len,
				    const char *outp)
{
	struct ecp_err err;
	uint64_t written;

	for (int i = 0; i < c->m; i++) {
		char fp[256];

		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, i);
		unlink(fp);
	}
	if (ecp_file_assemble(c, dir, NULL, 0, -1, NULL, outp, &written, &err)) {
		tap_diag("assemble: %s", err.msg);
		return 0;
	}
	if (written != len || test_read_file(outp, buf, sizeof(buf)) != (long)len ||
	    memcmp(buf, in, len)) {
		tap_diag("assemble: wrong bytes");
		return 0;
	}
	return 1;
}

/* Encode len bytes with profile, check layout, rebuild all, assemble with m lost. */
static int roundtrip(const char *prof, int k, int m, size_t len, const uint8_t *user)
{
	char dir[128], path[256], outp[256];
	struct ecp_code c;
	struct ecp_meta meta, meta2;
	struct ecp_err err;
	uint64_t fs = (len + k - 1) / k, written;
	int ok = 1;

	snprintf(dir, sizeof(dir), "%s/%s-%d-%d-%zu", tmpdir, prof, k, m, len);
	snprintf(path, sizeof(path), "%s/input", tmpdir);
	snprintf(outp, sizeof(outp), "%s/output", tmpdir);
	test_fill(in, len);
	test_write_file(path, in, len);
	if (ecp_code_init(&c, ecp_profile_by_name(prof), k, m, user, &err) ||
	    ecp_file_encode(&c, path, dir, 0, &meta, &err)) {
		tap_diag("%s", err.msg);
		return 0;
	}
	if (meta.fragsize != fs || meta.length != len || ecp_meta_read(dir, &meta2, &err) ||
	    memcmp(&meta, &meta2, sizeof(meta)))
		ok = 0;
	/* data fragments: consecutive slices, zero-padded */
	memset(buf2, 0, sizeof(buf2));
	memcpy(buf2, in, len);
	for (int i = 0; i < k + m; i++) {
		char fp[256];
		long got;

		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, i);
		got = test_read_file(fp, buf, sizeof(buf));
		if (got != (long)fs || (i < k && memcmp(buf, buf2 + i * fs, fs)))
			ok = 0;
	}
	if (!rebuild_all(&c, dir, &meta, outp) || !assemble_without_first_m(&c, dir, len, outp))
		ok = 0;
	/* one more missing: too many erasures */
	{
		char fp[256];

		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, m);
		unlink(fp);
		if (ecp_file_assemble(&c, dir, NULL, 0, -1, NULL, outp, &written, &err) != -ECP_E_TOOFEW)
			ok = 0;
	}
	return ok;
}

static uint8_t ext[ECP_MAX_N][40000];

/*
 * Striped: encode, lengths and placement against the byte-by-byte rule,
 * parity of the zero-extended data fragments, ecmeta, every fragment
 * rebuilt with its exact length, assembly with m data fragments missing.
 */
static int striped_roundtrip(const char *prof, int k, int m, size_t len, uint32_t cell)
{
	char dir[128], path[256], outp[256], fp[256];
	uint8_t *dptr[ECP_MAX_K], *pptr[ECP_MAX_M];
	struct ecp_meta meta, meta2;
	struct ecp_code c;
	struct ecp_err err;
	uint64_t fs = ecp_layout_len(len, cell, k, 0);
	int ok = 1;

	snprintf(dir, sizeof(dir), "%s/s-%s-%d-%d-%zu-%u", tmpdir, prof, k, m, len, cell);
	snprintf(path, sizeof(path), "%s/input", tmpdir);
	snprintf(outp, sizeof(outp), "%s/output", tmpdir);
	test_fill(in, len);
	test_write_file(path, in, len);
	if (ecp_code_init(&c, ecp_profile_by_name(prof), k, m, NULL, &err) ||
	    ecp_file_encode(&c, path, dir, cell, &meta, &err)) {
		tap_diag("%s", err.msg);
		return 0;
	}
	if (meta.fragsize != fs || meta.length != len || meta.cell != cell ||
	    ecp_meta_read(dir, &meta2, &err) || memcmp(&meta, &meta2, sizeof(meta))) {
		tap_diag("meta: fragsize %llu cell %u", (unsigned long long)meta.fragsize, meta.cell);
		ok = 0;
	}
	/* The reference: data placed byte by byte, zero-extended, encoded. */
	memset(ext, 0, sizeof(ext));
	for (size_t x = 0; x < len; x++)
		ext[(x / cell) % k][(x / ((size_t)cell * k)) * cell + x % cell] = in[x];
	for (int i = 0; i < k; i++)
		dptr[i] = ext[i];
	for (int r = 0; r < m; r++)
		pptr[r] = ext[k + r];
	ecp_encode(&c, (const uint8_t *const *)dptr, pptr, fs);
	for (int i = 0; i < k + m; i++) {
		uint64_t want = ecp_layout_len(len, cell, k, i);
		long got;

		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, i);
		got = test_read_file(fp, buf, sizeof(buf));
		if (got != (long)want || memcmp(buf, ext[i], want)) {
			tap_diag("fragment %d: %ld bytes, want %llu, or other bytes", i, got,
				 (unsigned long long)want);
			ok = 0;
		}
	}
	return ok && rebuild_all(&c, dir, &meta, outp) && assemble_without_first_m(&c, dir, len, outp);
}

int main(void)
{
	static const size_t lens[] = { 0, 1, 7, 4097, 30001 };
	static const char *const profs[] = { "isal-rs", "isal-cauchy", "jerasure-rs", "vandermonde" };
	struct ecp_code c;
	struct ecp_err err;
	char dir[128], path[256], outp[256];
	struct ecp_meta meta;
	uint64_t written;
	int ret;

	static const struct {
		const char *prof;
		int k, m;
		size_t len;
		uint32_t cell;
		const char *what;
	} sc[] = {
		{ "isal-cauchy", 4, 2, 30001, 1000, "ends mid-cell of the middle stripe" },
		{ "isal-rs", 5, 2, 12500, 1000, "ends mid-cell, last two data fragments a cell short" },
		{ "jerasure-rs", 3, 3, 7000, 1000, "ends mid-stripe on a cell boundary" },
		{ "vandermonde", 6, 3, 24000, 1000, "whole stripes" },
		{ "isal-cauchy", 4, 2, 999, 4096, "block shorter than a cell: 3 empty data fragments" },
		{ "isal-cauchy", 2, 4, 5, 4096, "k=2 m=4: assembled from parity only" },
		{ "vandermonde", 3, 2, 0, 64, "empty block" },
		{ "isal-rs", 1, 2, 3333, 1000, "k=1" },
	};
	const int nsc = (int)(sizeof(sc) / sizeof(sc[0]));
	struct ecp_striping st;

	if (test_tmpdir(tmpdir, sizeof(tmpdir), "ecp-frag")) {
		printf("1..0 # SKIP cannot create temp dir\n");
		return 1;
	}
	tap_plan(4 * 5 + 6 + nsc + 7);

	for (int p = 0; p < 4; p++)
		for (int l = 0; l < 5; l++) {
			int k = 3 + p, m = 1 + (l % 3);

			tap_ok(roundtrip(profs[p], k, m, lens[l], NULL),
			       "%s k=%d m=%d len=%zu: layout, meta, rebuild all, assemble without %d",
			       profs[p], k, m, lens[l], m);
		}
	tap_ok(roundtrip("matrix", 3, 2, 1000, (uint8_t[]){ 1, 1, 1, 1, 2, 4 }),
	       "matrix profile: round trip, matrix kept in ecmeta");
	tap_ok(roundtrip("isal-cauchy", 2, 4, 999, NULL), "k=2 m=4: assemble from parity only");

	/* mismatching parameters are refused */
	snprintf(dir, sizeof(dir), "%s/isal-cauchy-2-4-999", tmpdir);
	snprintf(outp, sizeof(outp), "%s/output", tmpdir);
	ecp_code_init(&c, ecp_profile_by_name("isal-rs"), 2, 4, NULL, &err);
	ret = ecp_file_rebuild(&c, dir, 0, NULL, 0, NULL, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "encoded with isal-cauchy k 2 m 4"),
	       "profile mismatch with ecmeta refused: %s", err.msg);

	/* without ecmeta: fragment size from files, length must be given */
	snprintf(dir, sizeof(dir), "%s/nometa", tmpdir);
	snprintf(path, sizeof(path), "%s/input", tmpdir);
	test_fill(in, 100);
	test_write_file(path, in, 100);
	ecp_code_init(&c, ecp_profile_by_name("vandermonde"), 3, 2, NULL, &err);
	ecp_file_encode(&c, path, dir, 0, &meta, &err);
	snprintf(path, sizeof(path), "%s/ecmeta", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/frag.1", dir);
	unlink(path);
	ret = ecp_file_assemble(&c, dir, NULL, 0, -1, NULL, outp, &written, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "pass length"), "no ecmeta and no length: %s", err.msg);
	ret = ecp_file_assemble(&c, dir, NULL, 0, 100, NULL, outp, &written, &err);
	tap_ok(ret == 0 && test_read_file(outp, buf, sizeof(buf)) == 100 && !memcmp(buf, in, 100),
	       "no ecmeta, explicit length: assembled");
	/* wrong-size fragment detected */
	snprintf(path, sizeof(path), "%s/frag.3", dir);
	test_write_file(path, in, 5);
	ret = ecp_file_rebuild(&c, dir, 1, NULL, 0, NULL, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_IO && strstr(err.msg, "expected"), "short fragment detected: %s", err.msg);

	for (int i = 0; i < nsc; i++)
		tap_ok(striped_roundtrip(sc[i].prof, sc[i].k, sc[i].m, sc[i].len, sc[i].cell),
		       "striped %s k=%d m=%d block %zu cell %u (%s): lengths, placement, parity, meta, rebuild all, assemble",
		       sc[i].prof, sc[i].k, sc[i].m, sc[i].len, sc[i].cell, sc[i].what);

	/* Striped, 10000 bytes in 1000-byte cells over k=4: 3000,3000,2000,2000. */
	snprintf(dir, sizeof(dir), "%s/striped", tmpdir);
	snprintf(path, sizeof(path), "%s/input", tmpdir);
	test_fill(in, 10000);
	test_write_file(path, in, 10000);
	ecp_code_init(&c, ecp_profile_by_name("isal-cauchy"), 4, 2, NULL, &err);
	ecp_file_encode(&c, path, dir, 1000, &meta, &err);
	snprintf(path, sizeof(path), "%s/frag.3", dir);
	test_read_file(path, buf2, sizeof(buf2));
	test_write_file(path, buf2, 2001);
	ret = ecp_file_rebuild(&c, dir, 0, NULL, 0, NULL, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_IO && strstr(err.msg, "frag.3 has 2001 bytes, expected 2000"),
	       "striped: a survivor one byte long: %s", err.msg);
	test_write_file(path, buf2, 2000);
	st.block = 10000;
	st.cell = 500;
	ret = ecp_file_rebuild(&c, dir, 0, NULL, 0, &st, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "block 10000 cell 500: ") && strstr(err.msg, "records block 10000 cell 1000"),
	       "striped: a layout other than ecmeta's refused: %s", err.msg);
	ret = ecp_file_assemble(&c, dir, NULL, 0, 9999, NULL, outp, &written, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "block is 10000"),
	       "striped: a length other than the block refused: %s", err.msg);

	/* Without ecmeta the layout must be given; then all works as before. */
	snprintf(path, sizeof(path), "%s/ecmeta", dir);
	unlink(path);
	st.cell = 1000;
	ret = ecp_file_rebuild(&c, dir, 2, (int[]){ 0, 1, 3, 5 }, 4, &st, outp, NULL, &written, &err);
	snprintf(path, sizeof(path), "%s/frag.2", dir);
	tap_ok(ret == 0 && written == 2000 && test_read_file(outp, buf, sizeof(buf)) == 2000 &&
	       test_read_file(path, buf2, sizeof(buf2)) == 2000 && !memcmp(buf, buf2, 2000),
	       "striped without ecmeta, layout given: data fragment rebuilt, 2000 bytes");
	ret = ecp_file_rebuild(&c, dir, 2, NULL, 0, NULL, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_IO && strstr(err.msg, "expected"),
	       "striped without ecmeta or layout: uneven fragments refused: %s", err.msg);
	ret = ecp_file_assemble(&c, dir, (int[]){ 5, 4, 3, 1 }, 4, -1, &st, outp, &written, &err);
	tap_ok(ret == 0 && written == 10000 && test_read_file(outp, buf, sizeof(buf)) == 10000 &&
	       !memcmp(buf, in, 10000), "striped without ecmeta, layout given: assembled from 5,4,3,1");
	/* An ecmeta whose fragsize does not follow its layout. */
	snprintf(path, sizeof(path), "%s/ecmeta", dir);
	{
		static const char bad[] = "profile isal-cauchy\nk 4\nm 2\nlength 10000\n"
					  "fragsize 2500\nlayout striped\ncell 1000\n";

		test_write_file(path, (const uint8_t *)bad, strlen(bad));
	}
	ret = ecp_meta_read(dir, &meta, &err);
	tap_ok(ret == -ECP_E_IO && strstr(err.msg, "inconsistent"),
	       "striped ecmeta with a padded fragsize: %s", err.msg);

	test_rmdir(tmpdir);
	return tap_done();
}
