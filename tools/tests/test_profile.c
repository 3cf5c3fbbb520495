// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles, generators, decode coefficients (libecp only, no oracle).
 *
 * The vandermonde profile (klauspost/reedsolomon default) has no Debian
 * oracle, so it is checked by properties and hand-derived golden rows:
 *
 *   k=2, m=2: V = [1 0; 1 1; 1 2; 1 3] (rows r^0, r^1 for r = 0..3).
 *     top = [1 0; 1 1] is its own inverse in characteristic 2, so
 *     row 2 = [1 2] * top^-1 = [1^2, 2] = [3 2],
 *     row 3 = [1 3] * top^-1 = [1^3, 3] = [2 3].
 *   k=3, m=1: V row 3 = [1 3 5] (3*3 = (x+1)^2 = x^2+1 = 5).  Solve
 *     g * top = [1 3 5] with top rows [1 0 0; 1 1 1; 1 2 4]:
 *     column 1: g1 + 2 g2 = 3, column 2: g1 + 4 g2 = 5, so 6 g2 = 6,
 *     g2 = 1, g1 = 1, column 0: g0 + g1 + g2 = 1 gives g0 = 1:
 *     row 3 = [1 1 1].
 * Properties: systematic; gen * top(V) = V (the definition, checked by
 * multiplication only); every k-subset of rows invertible (MDS) for
 * k in {2,3,4,6,10,12}, m in {1..4}, with an encode/decode round trip for
 * every erasure pattern.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "ecp.h"
#include "tap.h"

static const int ks[] = { 2, 3, 4, 6, 10, 12 };
static const int ms[] = { 1, 2, 3, 4 };
#define NK 6
#define NM 4
#define LEN 257

static uint8_t frag[ECP_MAX_N][LEN], out[LEN];
static uint32_t masks[1 << 16];

static const struct ecp_profile *P(const char *name)
{
	return ecp_profile_by_name(name);
}

static int vand_group(int k, int m)
{
	struct ecp_code c;
	struct ecp_err err;
	uint8_t v[ECP_MAX_N * ECP_MAX_K], chk[ECP_MAX_N * ECP_MAX_K];
	uint8_t *d[ECP_MAX_K], *p[ECP_MAX_M];
	int n = k + m, ok = 1, npat;

	if (ecp_code_init(&c, P("vandermonde"), k, m, NULL, &err))
		return 0;
	/* gen * top(V) == V */
	for (int r = 0; r < n; r++)
		for (int j = 0; j < k; j++)
			v[r * k + j] = gf8_pow((uint8_t)r, j);
	ecp_mat_mul(c.gen, v, chk, n, k, k);
	if (memcmp(chk, v, (size_t)n * k))
		ok = 0;
	/* MDS */
	for (uint32_t mk = 0; mk < (1u << n); mk++) {
		uint8_t s[ECP_MAX_K * ECP_MAX_K];
		int r = 0;

		if (__builtin_popcount(mk) != k)
			continue;
		for (int i = 0; i < n; i++)
			if (mk & (1u << i))
				memcpy(&s[k * r++], ecp_code_row(&c, i), k);
		if (!ecp_mat_invertible(s, k))
			ok = 0;
	}
	/* round trip over every erasure pattern */
	npat = test_patterns(n, m, masks, 4000, NULL);
	for (int pi = 0; pi < npat; pi++) {
		int surv[ECP_MAX_K];

		for (int i = 0; i < k; i++) {
			test_fill(frag[i], LEN);
			d[i] = frag[i];
		}
		for (int r = 0; r < m; r++)
			p[r] = frag[k + r];
		ecp_encode(&c, (const uint8_t *const *)d, p, LEN);
		test_survivors(n, k, masks[pi], surv);
		for (int lost = 0; lost < n; lost++) {
			const uint8_t *src[ECP_MAX_K];
			struct ecp_coef co;

			if (!(masks[pi] & (1u << lost)))
				continue;
			if (ecp_code_coef(&c, lost, surv, k, &co, &err)) {
				ok = 0;
				continue;
			}
			for (int j = 0; j < k; j++)
				src[j] = frag[co.survivors[j]];
			ecp_combine(co.coef, src, k, out, LEN);
			if (memcmp(out, frag[lost], LEN))
				ok = 0;
		}
	}
	return ok;
}

int main(void)
{
	struct ecp_code c, c2;
	struct ecp_coef co;
	struct ecp_err err;
	uint8_t par[ECP_MAX_M * ECP_MAX_K];
	int ok, ret;

	tap_plan(24 + NK * NM);

	/* 1: all profiles build, systematic, k,m in 1..32 */
	ok = 1;
	for (int id = 0; id < ECP_PROFILE_MATRIX; id++)
		for (int k = 1; k <= ECP_MAX_K; k++)
			for (int m = 1; m <= ECP_MAX_M; m++) {
				if (ecp_code_init(&c, ecp_profile_by_id(id), k, m, NULL, &err)) {
					ok = 0;
					continue;
				}
				for (int i = 0; i < k * k; i++)
					if (c.gen[i] != (i / k == i % k))
						ok = 0;
			}
	tap_ok(ok, "every built-in profile, k,m in 1..32: generator top is identity");

	ok = P("isal-rs") && P("isal-cauchy") == P("hdfs-rs") &&
	     P("jerasure-rs") == P("ceph-jerasure") && P("vandermonde") == P("minio") &&
	     P("klauspost") == P("minio") && P("backblaze") == P("minio") &&
	     P("matrix") && !P("isal") && !P("") && !P("Vandermonde");
	tap_ok(ok, "profile names and aliases resolve exactly");

	ret = ecp_code_init(&c, P("isal-rs"), 0, 2, NULL, &err) +
	      ecp_code_init(&c, P("isal-rs"), 33, 2, NULL, &err) +
	      ecp_code_init(&c, P("isal-rs"), 4, 0, NULL, &err) +
	      ecp_code_init(&c, P("isal-rs"), 4, 33, NULL, &err);
	tap_ok(ret == -4 * ECP_E_INVAL, "k/m out of range rejected (%s)", err.msg);

	/* vandermonde golden rows */
	ecp_code_init(&c, P("vandermonde"), 2, 2, NULL, &err);
	tap_ok(!memcmp(&c.gen[4], (uint8_t[]){ 3, 2, 2, 3 }, 4), "vandermonde k=2 m=2 parity rows [3 2] [2 3]");
	ecp_code_init(&c, P("vandermonde"), 3, 1, NULL, &err);
	tap_ok(!memcmp(&c.gen[9], (uint8_t[]){ 1, 1, 1 }, 3), "vandermonde k=3 m=1 parity row [1 1 1]");
	ecp_code_init(&c, P("vandermonde"), 2, 1, NULL, &err);
	tap_ok(!memcmp(&c.gen[4], (uint8_t[]){ 3, 2 }, 2), "vandermonde k=2 m=1 parity row [3 2]");

	for (int ki = 0; ki < NK; ki++)
		for (int mi = 0; mi < NM; mi++)
			tap_ok(vand_group(ks[ki], ms[mi]),
			       "vandermonde k=%d m=%d: gen*top(V) = V, MDS, round trip for all patterns",
			       ks[ki], ms[mi]);

	/* matrix parsing */
	ok = ecp_matrix_parse("1,1,1;1,2,4", 3, 2, par, &err) == 0 &&
	     !memcmp(par, (uint8_t[]){ 1, 1, 1, 1, 2, 4 }, 6);
	tap_ok(ok, "parse \"1,1,1;1,2,4\"");
	ok = ecp_matrix_parse("# comment\n0x1 0x02, 255\n  3 4 5 # tail\n\n", 3, 2, par, &err) == 0 &&
	     !memcmp(par, (uint8_t[]){ 1, 2, 255, 3, 4, 5 }, 6);
	tap_ok(ok, "parse hex, blanks, newlines, comments");
	{
		char path[] = "/tmp/ecp-matrix.XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");
		char spec[64];

		fputs("1 1\n1 2\n", f);
		fclose(f);
		snprintf(spec, sizeof(spec), "@%s", path);
		ok = ecp_matrix_parse(spec, 2, 2, par, &err) == 0 &&
		     !memcmp(par, (uint8_t[]){ 1, 1, 1, 2 }, 4);
		unlink(path);
		tap_ok(ok, "parse @FILE");
	}
	tap_ok(ecp_matrix_parse("1,1,1", 3, 2, par, &err) && strstr(err.msg, "need m=2"),
	       "too few rows rejected: %s", err.msg);
	tap_ok(ecp_matrix_parse("1,1,1;1,2", 3, 2, par, &err) && strstr(err.msg, "row 2"),
	       "short row rejected: %s", err.msg);
	tap_ok(ecp_matrix_parse("1,1,1;1,2,256", 3, 2, par, &err) && strstr(err.msg, "256"),
	       "coefficient 256 rejected: %s", err.msg);
	tap_ok(ecp_matrix_parse("1,1,x;1,2,3", 3, 2, par, &err) != 0, "garbage rejected: %s", err.msg);
	tap_ok(ecp_matrix_parse("@/nonexistent/m", 3, 2, par, &err) != 0, "missing file rejected: %s", err.msg);

	/* matrix profile equal to isal-cauchy rows gives the same code */
	ecp_code_init(&c, P("isal-cauchy"), 4, 2, NULL, &err);
	ret = ecp_code_init(&c2, P("matrix"), 4, 2, &c.gen[16], &err);
	tap_ok(!ret && !memcmp(c.gen, c2.gen, 6 * 4), "matrix profile with Cauchy rows equals isal-cauchy");
	tap_ok(ecp_code_init(&c2, P("matrix"), 4, 2, NULL, &err) == -ECP_E_INVAL &&
	       ecp_code_init(&c2, P("isal-rs"), 4, 2, &c.gen[16], &err) == -ECP_E_INVAL,
	       "matrix profile requires a matrix, others refuse one");

	/* decode coefficient errors and survivor selection */
	ecp_code_init(&c, P("isal-cauchy"), 4, 2, NULL, &err);
	ret = ecp_code_coef(&c, 6, NULL, 0, &co, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "must be < k+m (6)"), "lost out of range: %s", err.msg);
	ret = ecp_code_coef(&c, 1, (int[]){ 0, 2, 3 }, 3, &co, &err);
	tap_ok(ret == -ECP_E_TOOFEW && strstr(err.msg, "too many erasures"), "too many erasures: %s", err.msg);
	ret = ecp_code_coef(&c, 1, (int[]){ 0, 2, 2, 3 }, 4, &co, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "twice"), "duplicate survivor: %s", err.msg);
	ret = ecp_code_coef(&c, 1, (int[]){ 0, 1, 2, 3 }, 4, &co, &err);
	tap_ok(ret == -ECP_E_INVAL && strstr(err.msg, "both lost and available"), "lost listed as available: %s", err.msg);

	/* exactly k survivors are used in the given order */
	{
		struct ecp_coef a, b;

		ret = ecp_code_coef(&c, 1, (int[]){ 5, 0, 3, 2 }, 4, &a, &err);
		ret |= ecp_code_coef(&c, 1, (int[]){ 0, 2, 3, 5 }, 4, &b, &err);
		ok = !ret && !memcmp(a.survivors, (int[]){ 5, 0, 3, 2 }, sizeof(int) * 4) &&
		     a.coef[0] == b.coef[3] && a.coef[1] == b.coef[0] &&
		     a.coef[2] == b.coef[2] && a.coef[3] == b.coef[1];
		tap_ok(ok, "k survivors used in given order, coefficients follow them");
		ret = ecp_code_coef(&c, 2, NULL, 0, &a, &err);
		tap_ok(!ret && !memcmp(a.survivors, (int[]){ 0, 1, 3, 4 }, sizeof(int) * 4),
		       "default survivors: lowest indices except lost");
	}

	/* singular user matrix: k=2, m=2, both parity rows equal */
	ecp_code_init(&c, P("matrix"), 2, 2, (uint8_t[]){ 1, 1, 1, 1 }, &err);
	ret = ecp_code_coef(&c, 0, (int[]){ 2, 3 }, 2, &co, &err);
	ok = ret == -ECP_E_SINGULAR && co.have_suggestion && strstr(err.msg, "survivor set 2,3 is singular") &&
	     strstr(err.msg, "try avail 2,1");
	tap_ok(ok, "singular set reported with suggestion: %s", err.msg);
	ret = ecp_code_coef(&c, 0, (int[]){ 2, 3, 1 }, 3, &co, &err);
	ok = ret == 0 && !memcmp(co.survivors, (int[]){ 2, 1 }, sizeof(int) * 2) &&
	     co.coef[0] == 1 && co.coef[1] == 1;
	tap_ok(ok, "more than k available: singular first set skipped, next invertible subset used");
	return tap_done();
}
