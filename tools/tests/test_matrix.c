// SPDX-License-Identifier: GPL-2.0
/*
 * Matrix multiply/inversion over GF(2^8): round trips, singular detection.
 */
#include <string.h>

#include "common.h"
#include "ecp.h"
#include "tap.h"

static int is_identity(const uint8_t *a, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (a[i * n + j] != (i == j))
				return 0;
	return 1;
}

int main(void)
{
	uint8_t a[64 * 64], inv[64 * 64], p[64 * 64], b[64 * 64];
	int ok, nsing = 0, ninv = 0;

	tap_plan(7);

	ok = 1;
	for (int n = 1; n <= 64; n++) {
		memset(a, 0, sizeof(a));
		for (int i = 0; i < n; i++)
			a[i * n + i] = 1;
		if (ecp_mat_invert(a, inv, n) || !is_identity(inv, n))
			ok = 0;
	}
	tap_ok(ok, "identity inverts to identity, n = 1..64");

	ok = 1;
	for (int t = 0; t < 2000; t++) {
		int n = 1 + (int)(test_rand() % 32);

		test_fill(a, (size_t)n * n);
		memcpy(b, a, (size_t)n * n);
		if (ecp_mat_invert(a, inv, n)) {
			nsing++;
			continue;
		}
		ninv++;
		if (memcmp(a, b, (size_t)n * n))
			ok = 0;	/* input must be preserved */
		ecp_mat_mul(a, inv, p, n, n, n);
		if (!is_identity(p, n))
			ok = 0;
		ecp_mat_mul(inv, a, p, n, n, n);
		if (!is_identity(p, n))
			ok = 0;
		/* inverse of the inverse is the original */
		if (ecp_mat_invert(inv, b, n) || memcmp(a, b, (size_t)n * n))
			ok = 0;
	}
	tap_ok(ok && ninv > 1900, "random matrices: A*A^-1 = A^-1*A = I, (A^-1)^-1 = A (%d invertible, %d singular)",
	       ninv, nsing);

	/* A matrix needing row swaps: anti-diagonal. */
	memset(a, 0, sizeof(a));
	for (int i = 0; i < 8; i++)
		a[i * 8 + (7 - i)] = (uint8_t)(i + 2);
	ok = ecp_mat_invert(a, inv, 8) == 0;
	ecp_mat_mul(a, inv, p, 8, 8, 8);
	tap_ok(ok && is_identity(p, 8), "pivoting: anti-diagonal matrix inverts");

	test_fill(a, 16 * 16);
	memset(&a[5 * 16], 0, 16);
	tap_ok(ecp_mat_invert(a, inv, 16) == -1 && !ecp_mat_invertible(a, 16), "zero row is singular");

	test_fill(a, 16 * 16);
	memcpy(&a[9 * 16], &a[3 * 16], 16);
	tap_ok(ecp_mat_invert(a, inv, 16) == -1, "duplicate row is singular");

	/* row 7 = 3*row 1 + 0x8e*row 4 */
	test_fill(a, 12 * 12);
	for (int j = 0; j < 12; j++)
		a[7 * 12 + j] = gf8_mul(3, a[1 * 12 + j]) ^ gf8_mul(0x8e, a[4 * 12 + j]);
	tap_ok(ecp_mat_invert(a, inv, 12) == -1, "linearly dependent row is singular");

	/* (AB)C = A(BC) for non-square shapes */
	{
		uint8_t x[5 * 3], y[3 * 4], z[4 * 2], xy[5 * 4], yz[3 * 2], r1[5 * 2], r2[5 * 2];

		test_fill(x, sizeof(x));
		test_fill(y, sizeof(y));
		test_fill(z, sizeof(z));
		ecp_mat_mul(x, y, xy, 5, 3, 4);
		ecp_mat_mul(xy, z, r1, 5, 4, 2);
		ecp_mat_mul(y, z, yz, 3, 4, 2);
		ecp_mat_mul(x, yz, r2, 5, 3, 2);
		tap_ok(!memcmp(r1, r2, sizeof(r1)), "matrix multiply is associative (5x3 * 3x4 * 4x2)");
	}
	return tap_done();
}
