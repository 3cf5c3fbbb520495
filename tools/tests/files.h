/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File helpers for the C tests that go through fragment directories: a
 * temporary directory removed at the end, whole files written and read.
 */
#ifndef ECP_TEST_FILES_H
#define ECP_TEST_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* mkdtemp under $TMPDIR (or /tmp) as PREFIX.XXXXXX into dir; 0 or -1. */
static inline int test_tmpdir(char *dir, size_t size, const char *prefix)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, size, "%s/%s.XXXXXX", t ? t : "/tmp", prefix);
	return mkdtemp(dir) ? 0 : -1;
}

static inline void test_rmdir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# cleanup of %s failed\n", dir);
}

static inline int test_write_file(const char *path, const uint8_t *b, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (len)
		fwrite(b, 1, len, f);
	return fclose(f);
}

/* Up to max bytes of path into b; the count, or -1. */
static inline long test_read_file(const char *path, uint8_t *b, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(b, 1, max, f);
	fclose(f);
	return (long)n;
}

#endif
