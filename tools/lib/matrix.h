/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dense matrices over GF(2^8), stored row-major as uint8_t arrays.
 */
#ifndef ECP_MATRIX_H
#define ECP_MATRIX_H

#include <stdint.h>

/* out (n x p) = a (n x k) * b (k x p).  out must not alias a or b. */
void ecp_mat_mul(const uint8_t *a, const uint8_t *b, uint8_t *out,
		 int n, int k, int p);

/*
 * out (n x n) = in^-1 by Gauss-Jordan elimination with row pivoting.
 * in is not modified.  Returns 0, or -1 if in is singular (out is then
 * unspecified).  n <= ECP_MAT_MAX.
 */
#define ECP_MAT_MAX 256
int ecp_mat_invert(const uint8_t *in, uint8_t *out, int n);

/* 1 if the n x n matrix is invertible, else 0. */
int ecp_mat_invertible(const uint8_t *in, int n);

#endif
