// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "size.h"

int ecp_parse_size(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	/* strtoull would take "-1" as a huge number and skip blanks. */
	if (!isdigit((unsigned char)*s))
		return ECP_SIZE_BAD;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return ECP_SIZE_BAD;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	}
	if (shift)
		end++;
	if (*end || v > (UINT64_MAX >> shift))
		return ECP_SIZE_BAD;
	v <<= shift;
	if (v > max)
		return ECP_SIZE_BIG;
	*out = v;
	return 0;
}
