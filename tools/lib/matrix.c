// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "gf.h"
#include "matrix.h"

void ecp_mat_mul(const uint8_t *a, const uint8_t *b, uint8_t *out,
		 int n, int k, int p)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < p; j++) {
			uint8_t acc = 0;

			for (int l = 0; l < k; l++)
				acc ^= gf8_mul(a[i * k + l], b[l * p + j]);
			out[i * p + j] = acc;
		}
	}
}

static void row_swap(uint8_t *m, int n, int r1, int r2)
{
	for (int c = 0; c < n; c++) {
		uint8_t t = m[r1 * n + c];

		m[r1 * n + c] = m[r2 * n + c];
		m[r2 * n + c] = t;
	}
}

/* Row operations applied to the work matrix and its companion together.
 * Scalar on purpose: n is small (<= k), a per-row product table would
 * cost more than it saves. */
static void row_scale(uint8_t *w, uint8_t *o, int n, int r, uint8_t s)
{
	for (int c = 0; c < n; c++) {
		w[r * n + c] = gf8_mul(w[r * n + c], s);
		o[r * n + c] = gf8_mul(o[r * n + c], s);
	}
}

/* row dst ^= f * row src */
static void row_addmul(uint8_t *w, uint8_t *o, int n, int dst, int src, uint8_t f)
{
	for (int c = 0; c < n; c++) {
		w[dst * n + c] ^= gf8_mul(w[src * n + c], f);
		o[dst * n + c] ^= gf8_mul(o[src * n + c], f);
	}
}

int ecp_mat_invert(const uint8_t *in, uint8_t *out, int n)
{
	uint8_t *w;

	if (n <= 0 || n > ECP_MAT_MAX)
		return -1;
	w = malloc((size_t)n * n);
	if (!w)
		return -1;
	memcpy(w, in, (size_t)n * n);
	memset(out, 0, (size_t)n * n);
	for (int i = 0; i < n; i++)
		out[i * n + i] = 1;

	for (int col = 0; col < n; col++) {
		int piv = col;
		uint8_t s;

		while (piv < n && w[piv * n + col] == 0)
			piv++;
		if (piv == n) {
			free(w);
			return -1;
		}
		if (piv != col) {
			row_swap(w, n, piv, col);
			row_swap(out, n, piv, col);
		}
		s = gf8_inv(w[col * n + col]);
		if (s != 1)
			row_scale(w, out, n, col, s);
		for (int r = 0; r < n; r++) {
			uint8_t f = w[r * n + col];

			if (r == col || f == 0)
				continue;
			row_addmul(w, out, n, r, col, f);
		}
	}
	free(w);
	return 0;
}

int ecp_mat_invertible(const uint8_t *in, int n)
{
	uint8_t *tmp;
	int ok;

	if (n <= 0 || n > ECP_MAT_MAX)
		return 0;
	tmp = malloc((size_t)n * n);
	if (!tmp)
		return 0;
	ok = ecp_mat_invert(in, tmp, n) == 0;
	free(tmp);
	return ok;
}
