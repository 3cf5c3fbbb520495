// SPDX-License-Identifier: GPL-2.0
/*
 * EBSN window computation; see ebsn.h for the rules.
 */
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "ebsn.h"

u16 ecp_ebsn_window(struct ecp_ebsn_src *st, u64 ack, u32 exposed, u8 wscale,
		    unsigned int *flags)
{
	unsigned int f = 0;
	u64 room = exposed, win;

	wscale = min_t(u8, wscale, ECP_EBSN_MAX_WSCALE);

	/* An edge offered earlier stands even if the bound is below it. */
	if (st->edge > ack + room) {
		room = st->edge - ack;
		f |= ECP_EBSN_KEPT_EDGE;
	}

	/* Round down: rounding up could offer bytes beyond the bound. */
	win = room >> wscale;
	if (win > U16_MAX) {
		win = U16_MAX;
		f |= ECP_EBSN_CLAMP_FIELD;
	}
	st->edge = max(st->edge, ack + (win << wscale));
	if (flags)
		*flags = f;
	return win;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ebsn_window);

/*
 * The paper allocates 2I because its switch advertises "I minus what is
 * buffered now", which senders apply to their own, older ACK state, so data
 * already in flight when the notification reaches zero can land beyond I.
 *
 * Here the window is an edge relative to the very ACK that slides the
 * buffer's base, and an edge once offered is never taken back: every edge
 * any source was ever offered lies at or below base + I.  A conforming
 * sender, however late its view of the window and however its segments are
 * cut, therefore never writes past base + I: the no-shrink rule costs no
 * headroom because a kept edge was bounded by an older, lower base.
 *
 * What remains is legal overshoot past a closed window: a zero-window probe
 * may carry new data (RFC 9293 §3.8.6.1; BSD-derived stacks send one octet,
 * some a whole segment).  All sources write the same offsets, so their
 * probes overlap instead of adding up: one segment of headroom covers any
 * number of sources.  Anything beyond is dropped, counted, and recovered by
 * the source's retransmission.
 */
u32 ecp_ebsn_headroom(u32 mss)
{
	return mss;
}
EXPORT_SYMBOL_IF_KUNIT(ecp_ebsn_headroom);
