// SPDX-License-Identifier: GPL-2.0
/*
 * File-level encode/rebuild/assemble: fragment layout and padding, the
 * ecmeta sidecar, rebuilding every fragment, reassembly with m fragments
 * missing, metadata mismatch.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "ecp.h"
#include "tap.h"

static char tmpdir[64];

static int write_buf(const char *path, const uint8_t *b, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (len)
		fwrite(b, 1, len, f);
	return fclose(f);
}

static long read_buf(const char *path, uint8_t *b, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(b, 1, max, f);
	fclose(f);
	return (long)n;
}

static uint8_t in[40000], buf[40000], buf2[40000];

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
	write_buf(path, in, len);
	if (ecp_code_init(&c, ecp_profile_by_name(prof), k, m, user, &err) ||
	    ecp_file_encode(&c, path, dir, &meta, &err)) {
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
		got = read_buf(fp, buf, sizeof(buf));
		if (got != (long)fs || (i < k && memcmp(buf, buf2 + i * fs, fs)))
			ok = 0;
	}
	/* rebuild every fragment from the default survivors */
	for (int i = 0; i < k + m; i++) {
		char fp[256];
		struct ecp_coef co;
		uint64_t got_fs;

		if (ecp_file_rebuild(&c, dir, i, NULL, 0, outp, &co, &got_fs, &err)) {
			tap_diag("rebuild %d: %s", i, err.msg);
			ok = 0;
			continue;
		}
		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, i);
		if (read_buf(fp, buf, sizeof(buf)) != (long)fs || read_buf(outp, buf2, sizeof(buf2)) != (long)fs ||
		    memcmp(buf, buf2, fs) || got_fs != fs)
			ok = 0;
	}
	/* remove the first m fragments (all data when m >= k), assemble */
	for (int i = 0; i < m; i++) {
		char fp[256];

		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, i);
		unlink(fp);
	}
	if (ecp_file_assemble(&c, dir, NULL, 0, -1, outp, &written, &err)) {
		tap_diag("assemble: %s", err.msg);
		ok = 0;
	} else if (written != len || read_buf(outp, buf, sizeof(buf)) != (long)len || memcmp(buf, in, len)) {
		ok = 0;
	}
	/* one more missing: too many erasures */
	{
		char fp[256];

		snprintf(fp, sizeof(fp), "%s/frag.%d", dir, m);
		unlink(fp);
		if (ecp_file_assemble(&c, dir, NULL, 0, -1, outp, &written, &err) != -ECP_E_TOOFEW)
			ok = 0;
	}
	return ok;
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

	snprintf(tmpdir, sizeof(tmpdir), "%s/ecp-frag.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir)) {
		printf("1..0 # SKIP cannot create temp dir\n");
		return 1;
	}
	tap_plan(4 * 5 + 6);

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
	ret = ecp_file_rebuild(&c, dir, 0, NULL, 0, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "encoded with isal-cauchy k 2 m 4"),
	       "profile mismatch with ecmeta refused: %s", err.msg);

	/* without ecmeta: fragment size from files, length must be given */
	snprintf(dir, sizeof(dir), "%s/nometa", tmpdir);
	snprintf(path, sizeof(path), "%s/input", tmpdir);
	test_fill(in, 100);
	write_buf(path, in, 100);
	ecp_code_init(&c, ecp_profile_by_name("vandermonde"), 3, 2, NULL, &err);
	ecp_file_encode(&c, path, dir, &meta, &err);
	snprintf(path, sizeof(path), "%s/ecmeta", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/frag.1", dir);
	unlink(path);
	ret = ecp_file_assemble(&c, dir, NULL, 0, -1, outp, &written, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "pass length"), "no ecmeta and no length: %s", err.msg);
	ret = ecp_file_assemble(&c, dir, NULL, 0, 100, outp, &written, &err);
	tap_ok(ret == 0 && read_buf(outp, buf, sizeof(buf)) == 100 && !memcmp(buf, in, 100),
	       "no ecmeta, explicit length: assembled");
	/* wrong-size fragment detected */
	snprintf(path, sizeof(path), "%s/frag.3", dir);
	write_buf(path, in, 5);
	ret = ecp_file_rebuild(&c, dir, 1, NULL, 0, outp, NULL, NULL, &err);
	tap_ok(ret == -ECP_E_IO && strstr(err.msg, "expected"), "short fragment detected: %s", err.msg);

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			tap_diag("cleanup of %s failed", tmpdir);
	}
	return tap_done();
}
