// SPDX-License-Identifier: GPL-2.0
/*
 * GF(2^8)/0x11d unit tests: tables against bit-by-bit multiplication,
 * field axioms, inverses, powers, region operations.
 */
#include <string.h>

#include "common.h"
#include "ecp.h"
#include "tap.h"

/* Reference multiply: shift-and-add, reducing by 0x11d. */
static uint8_t slow_mul(uint8_t a, uint8_t b)
{
	unsigned int r = 0, x = a;

	for (int i = 0; i < 8; i++) {
		if (b & (1u << i))
			r ^= x;
		x <<= 1;
		if (x & 0x100)
			x ^= GF8_POLY;
	}
	return (uint8_t)r;
}

int main(void)
{
	int ok;

	tap_plan(11);

	ok = 1;
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			if (gf8_mul(a, b) != slow_mul(a, b))
				ok = 0;
	tap_ok(ok, "mul equals shift-and-add reference on all 65536 pairs");

	ok = 1;
	for (int a = 0; a < 256; a++) {
		if (gf8_mul(a, 1) != a || gf8_mul(a, 0) != 0)
			ok = 0;
		for (int b = 0; b < 256; b++)
			if (gf8_mul(a, b) != gf8_mul(b, a))
				ok = 0;
	}
	tap_ok(ok, "identity, zero, commutativity");

	ok = 1;
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++)
			for (int c = 0; c < 256; c++) {
				if (gf8_mul(gf8_mul(a, b), c) != gf8_mul(a, gf8_mul(b, c)))
					ok = 0;
				if (gf8_mul(a, b ^ c) != (gf8_mul(a, b) ^ gf8_mul(a, c)))
					ok = 0;
			}
	tap_ok(ok, "associativity and distributivity on all 2^24 triples");

	ok = gf8_inv(0) == 0;
	for (int a = 1; a < 256; a++)
		if (gf8_mul(a, gf8_inv(a)) != 1 || gf8_inv(gf8_inv(a)) != a)
			ok = 0;
	tap_ok(ok, "every nonzero element has an inverse, inv(inv(a)) = a");

	ok = 1;
	for (int a = 0; a < 256; a++)
		for (int b = 1; b < 256; b++)
			if (gf8_div(gf8_mul(a, b), b) != a)
				ok = 0;
	tap_ok(ok, "div undoes mul");

	ok = gf8_pow(0, 0) == 1 && gf8_pow(0, 5) == 0;
	for (int a = 0; a < 256; a++) {
		uint8_t p = 1;

		for (unsigned int n = 0; n < 600; n++) {
			if (gf8_pow(a, n) != p)
				ok = 0;
			p = gf8_mul(p, a);
		}
	}
	tap_ok(ok, "pow equals repeated mul (n < 600), 0^0 = 1");

	{
		uint8_t seen[256] = { 0 };
		int distinct = 0;

		for (int i = 0; i < 255; i++) {
			uint8_t v = gf8_pow(2, i);

			distinct += !seen[v];
			seen[v] = 1;
		}
		tap_ok(distinct == 255 && gf8_pow(2, 255) == 1, "2 generates the multiplicative group");
	}

	{
		uint8_t t[256];

		ok = 1;
		for (int c = 0; c < 256; c++) {
			gf8_mul_row(c, t);
			for (int x = 0; x < 256; x++)
				if (t[x] != slow_mul(c, x))
					ok = 0;
		}
		tap_ok(ok, "mul_row(c) matches reference for all c");
	}

	{
		static uint8_t src[4099], dst[4099], ref[4099];
		static const size_t lens[] = { 0, 1, 7, 16, 31, 4097, 4099 };

		ok = 1;
		for (int c = 0; c < 256; c++) {
			for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
				size_t len = lens[li];

				test_fill(src, len);
				test_fill(dst, len);
				memcpy(ref, dst, len);
				gf8_region_muladd(dst, src, c, len);
				for (size_t i = 0; i < len; i++)
					if (dst[i] != (ref[i] ^ slow_mul(c, src[i])))
						ok = 0;
			}
		}
		tap_ok(ok, "region_muladd matches scalar for all c, odd lengths");

		ok = 1;
		for (int c = 0; c < 256; c++) {
			test_fill(src, 4097);
			gf8_region_mul(dst, src, c, 4097);
			for (size_t i = 0; i < 4097; i++)
				if (dst[i] != slow_mul(c, src[i]))
					ok = 0;
		}
		tap_ok(ok, "region_mul matches scalar for all c");

		test_fill(src, 100);
		memcpy(ref, src, 100);
		gf8_region_mul(src, src, 0x53, 100);
		gf8_region_mul(src, src, gf8_inv(0x53), 100);
		tap_ok(!memcmp(src, ref, 100), "region_mul in place, c then 1/c restores");
	}
	return tap_done();
}
