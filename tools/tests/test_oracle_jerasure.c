// SPDX-License-Identifier: GPL-2.0
/*
 * Oracle test against Jerasure 2 / gf-complete (Debian libjerasure-dev):
 * profile jerasure-rs = reed_sol_vandermonde_coding_matrix(k, m, 8), the
 * matrix of Ceph's jerasure plugin (technique reed_sol_van).
 *
 * Per k in {2,3,4,6,10,12}, m in {1,2,3,4}:
 *   gen:           our parity rows equal Jerasure's byte for byte;
 *   jerasure->ecp: jerasure_matrix_encode, then libecp rebuilds every erased
 *                  fragment of every erasure pattern of 1..m fragments
 *                  (survivors: the first k intact), lengths 1, 7, 4097;
 *   ecp->jerasure: ecp_encode, then jerasure_matrix_decode (row_k_ones=1,
 *                  as Ceph calls it) restores the erased data and coding
 *                  fragments, compared with ours.
 * Plus galois_single_multiply agrees with gf8_mul on the whole field,
 * and the Jerasure generator is MDS (every k-subset invertible according to
 * jerasure_invertible_matrix and to libecp) for the tested k, m.
 * And the striped layout (striped.h): libecp's striped file encode of
 * blocks with a partial last stripe has jerasure_matrix_encode's parity of
 * the zero-padded cells, and every fragment comes back with its exact
 * length.
 */
#include <stdlib.h>
#include <string.h>

#include <jerasure.h>
#include <jerasure/reed_sol.h>

#include "common.h"
#include "ecp.h"
#include "striped.h"
#include "tap.h"

#define MAXLEN 4097
/*
 * gf-complete's region multiply asserts that source and destination have
 * the same alignment modulo 16, so every fragment starts on a 64-byte
 * boundary (row stride a multiple of 64) whatever the data length.
 */
#define STRIDE 4160
#define PATTERN_CAP 3000

static const int ks[] = { 2, 3, 4, 6, 10, 12 };
static const int ms[] = { 1, 2, 3, 4 };
static const size_t lens[] = { 1, 7, 4097 };
#define NK (int)(sizeof(ks) / sizeof(ks[0]))
#define NM (int)(sizeof(ms) / sizeof(ms[0]))

static _Alignas(64) uint8_t frag[ECP_MAX_N][STRIDE];
static _Alignas(64) uint8_t work[ECP_MAX_N][STRIDE];
static _Alignas(64) uint8_t orig[ECP_MAX_N][STRIDE];
static uint32_t masks[1 << 16];

static const struct striped_cfg stripe_cfgs[] = {
	{ 4, 2, 4096, 4096 * 4 * 2 + 4096 + 100, "ends mid-cell in the last stripe" },
	{ 6, 3, 1024, 6144 * 3 + 3072, "ends mid-stripe on a cell boundary" },
	{ 10, 4, 4096, 5000, "shorter than two cells: 8 empty data fragments" },
	{ 6, 3, 1 << 20, (8ull << 20) + 12345, "1 MiB cells, ends mid-cell" },
};

/* striped.h's peer: jm is Jerasure's coding matrix. */
static void jer_peer(void *jm, int k, int m, uint8_t **data, uint8_t **parity, int len)
{
	jerasure_matrix_encode(k, m, 8, jm, (char **)data, (char **)parity, len);
}

static void jer_encode(int *jm, int k, int m, size_t len)
{
	char *d[ECP_MAX_K], *p[ECP_MAX_M];

	for (int i = 0; i < k; i++)
		d[i] = (char *)frag[i];
	for (int r = 0; r < m; r++)
		p[r] = (char *)frag[k + r];
	jerasure_matrix_encode(k, m, 8, jm, d, p, (int)len);
}

static int jer_to_ecp(const struct ecp_code *c, int *jm, int k, int m, int npat)
{
	int n = k + m, ok = 1;

	for (int pi = 0; pi < npat && ok; pi++) {
		size_t len = lens[pi % 3];
		int surv[ECP_MAX_K];

		for (int i = 0; i < k; i++)
			test_fill(frag[i], len);
		jer_encode(jm, k, m, len);
		test_survivors(n, k, masks[pi], surv);
		for (int lost = 0; lost < n; lost++) {
			const uint8_t *src[ECP_MAX_K];
			struct ecp_coef co;
			struct ecp_err err;

			if (!(masks[pi] & (1u << lost)))
				continue;
			if (ecp_code_coef(c, lost, surv, k, &co, &err)) {
				tap_diag("mask %#x lost %d: %s", masks[pi], lost, err.msg);
				ok = 0;
				break;
			}
			for (int j = 0; j < k; j++)
				src[j] = frag[co.survivors[j]];
			ecp_combine(co.coef, src, k, work[0], len);
			if (memcmp(work[0], frag[lost], len)) {
				tap_diag("mask %#x lost %d len %zu: mismatch", masks[pi], lost, len);
				ok = 0;
			}
		}
	}
	return ok;
}

static int ecp_to_jer(const struct ecp_code *c, int *jm, int k, int m, int npat)
{
	int n = k + m, ok = 1;

	for (int pi = 0; pi < npat && ok; pi++) {
		size_t len = lens[(pi + 1) % 3];
		uint8_t *d[ECP_MAX_K], *p[ECP_MAX_M];
		int erasures[ECP_MAX_N + 1], ne = 0;

		for (int i = 0; i < k; i++) {
			test_fill(frag[i], len);
			d[i] = frag[i];
		}
		for (int r = 0; r < m; r++)
			p[r] = frag[k + r];
		ecp_encode(c, (const uint8_t *const *)d, p, len);
		for (int i = 0; i < n; i++) {
			memcpy(orig[i], frag[i], len);
			if (masks[pi] & (1u << i)) {
				memset(frag[i], 0x5a, len);	/* destroy erased fragments */
				erasures[ne++] = i;
			}
		}
		erasures[ne] = -1;
		if (jerasure_matrix_decode(k, m, 8, jm, 1, erasures, (char **)d, (char **)p, (int)len)) {
			tap_diag("mask %#x: jerasure_matrix_decode failed", masks[pi]);
			ok = 0;
			continue;
		}
		for (int i = 0; i < n; i++) {
			if (memcmp(orig[i], frag[i], len)) {
				tap_diag("mask %#x fragment %d len %zu: Jerasure decode mismatch",
					 masks[pi], i, len);
				ok = 0;
			}
		}
	}
	return ok;
}

/* Every k-subset of the generator invertible, per Jerasure and per libecp. */
static int mds_check(const struct ecp_code *c, int k, int m)
{
	int n = k + m, ok = 1;

	for (uint32_t mk = 0; mk < (1u << n); mk++) {
		int jmat[ECP_MAX_K * ECP_MAX_K], r = 0;
		uint8_t emat[ECP_MAX_K * ECP_MAX_K];

		if (__builtin_popcount(mk) != k)
			continue;
		for (int i = 0; i < n; i++) {
			if (!(mk & (1u << i)))
				continue;
			for (int j = 0; j < k; j++) {
				emat[r * k + j] = ecp_code_row(c, i)[j];
				jmat[r * k + j] = ecp_code_row(c, i)[j];
			}
			r++;
		}
		if (!jerasure_invertible_matrix(jmat, k, 8) || !ecp_mat_invertible(emat, k)) {
			tap_diag("subset %#x not invertible", mk);
			ok = 0;
		}
	}
	return ok;
}

int main(void)
{
	const int nstripe = (int)(sizeof(stripe_cfgs) / sizeof(stripe_cfgs[0]));
	char tmp[64];
	int ok;

	if (test_tmpdir(tmp, sizeof(tmp), "ecp-jerasure")) {
		printf("1..0 # SKIP cannot create temp dir\n");
		return 1;
	}
	tap_plan(1 + NK * NM * 4 + nstripe);

	ok = 1;
	for (int x = 0; x < 256; x++)
		for (int y = 0; y < 256; y++)
			if (galois_single_multiply(x, y, 8) != gf8_mul(x, y))
				ok = 0;
	tap_ok(ok, "gf8_mul equals Jerasure galois_single_multiply (w=8) on all pairs");

	for (int ki = 0; ki < NK; ki++) {
		for (int mi = 0; mi < NM; mi++) {
			int k = ks[ki], m = ms[mi], n = k + m, total, npat, same = 1;
			int *jm = reed_sol_vandermonde_coding_matrix(k, m, 8);
			struct ecp_code c;
			struct ecp_err err;

			if (!jm || ecp_code_init(&c, ecp_profile_by_name("jerasure-rs"), k, m, NULL, &err)) {
				tap_diag("setup failed for k=%d m=%d", k, m);
				return 1;
			}
			for (int i = 0; i < k * k; i++)
				if (c.gen[i] != (i / k == i % k))
					same = 0;
			for (int i = 0; i < m * k; i++)
				if (jm[i] != c.gen[k * k + i])
					same = 0;
			tap_ok(same, "jerasure-rs k=%d m=%d: generator equals Jerasure's", k, m);
			npat = test_patterns(n, m, masks, PATTERN_CAP, &total);
			tap_ok(jer_to_ecp(&c, jm, k, m, npat),
			       "jerasure-rs k=%d m=%d: Jerasure encode, ecp decode (%d of %d patterns)",
			       k, m, npat, total);
			tap_ok(ecp_to_jer(&c, jm, k, m, npat),
			       "jerasure-rs k=%d m=%d: ecp encode, Jerasure decode (%d of %d patterns)",
			       k, m, npat, total);
			tap_ok(mds_check(&c, k, m), "jerasure-rs k=%d m=%d: every k-subset invertible", k, m);
			free(jm);
		}
	}

	for (int i = 0; i < nstripe; i++) {
		int k = stripe_cfgs[i].k, m = stripe_cfgs[i].m, nreb = 0;
		int *jm = reed_sol_vandermonde_coding_matrix(k, m, 8);
		struct ecp_code c;
		char dir[128];

		snprintf(dir, sizeof(dir), "%s/%d", tmp, i);
		ok = jm && !ecp_code_init(&c, ecp_profile_by_name("jerasure-rs"), k, m, NULL, NULL) &&
		     striped_oracle(&c, stripe_cfgs[i].block, stripe_cfgs[i].cell, dir, jer_peer, jm,
				    &nreb);
		tap_ok(ok, "jerasure-rs k=%d m=%d striped block %" PRIu64 " cell %u (%s): Jerasure parity of the zero-padded cells, %d fragments rebuilt exact, one and m at once",
		       k, m, stripe_cfgs[i].block, stripe_cfgs[i].cell, stripe_cfgs[i].what, nreb);
		free(jm);
	}
	test_rmdir(tmp);
	return tap_done();
}
