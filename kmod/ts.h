/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP timestamps (RFC 7323) on one leg: S's clock as the peer sees it,
 * the peer's TS.Recent that S echoes, PAWS, and round trips from the
 * echo of S's own clock.
 *
 * Every leg is a TCP connection of its own, so each negotiates on its own:
 * on when S and the peer both offer them.  S's clock ticks in milliseconds,
 * as Linux's (tcp_time_stamp_raw()), plus an offset per leg that hides
 * S's uptime and is the same for the same four ports (ecp_conn_ts_off()),
 * so that a peer's TIME-WAIT sees a later connection's clock ahead of the
 * last one's and takes its SYN (RFC 6191).
 *
 * What they buy S: PAWS, without which a delayed duplicate from 4 GiB
 * earlier in a stream lands at the current offset of the same sequence
 * number (conn.h maps sequence numbers to 64-bit offsets near the last
 * one seen), and round trips timed across retransmissions, where Karn's
 * rule leaves rtt.h without a sample.  Samples from the echo have the
 * clock's millisecond granularity: rtt.h's own microsecond timing goes
 * first whenever it has one, as Linux prefers its skb timestamps.
 *
 * Pure arithmetic on the times the caller gives (milliseconds and seconds
 * of the monotonic clock), under the connection's lock.
 */
#ifndef _ECP_TS_H
#define _ECP_TS_H

#include <linux/types.h>

/* The option's room in every segment: NOP, NOP, kind, length, 2 x 4. */
#define ECP_TS_OPTLEN		12
/*
 * PAWS's tolerance, in ticks of the peer's clock (Linux's are ms): not
 * Linux's one tick.  A sender's segments reach S reordered by a few ms
 * (sent from two of its CPUs, or taken by two of S's), and after a copy
 * re-sent behind them: one tick made PAWS drop those originals, each
 * drop a loss to the sender, 103 in the demo's 60 MiB write.  A duplicate
 * from the last wrap of the sequence space is older by the time 4 GiB
 * takes to send, over 200 ms below 170 Gbit/s, far beyond one
 * connection of S's.
 */
#define ECP_TS_SLACK		200
/* TS.Recent older than this is no reference (RFC 7323 §5.5). */
#define ECP_TS_STALE_S		(24 * 24 * 60 * 60)

struct ecp_ts {
	bool ok;		/* on: both ends offered them */
	u32 off;		/* added to S's clock on this leg */
	u32 recent;		/* TS.Recent: the peer's TSval S echoes */
	u32 recent_s;		/* when it was set, seconds */
};

/* S's TSval on this leg at @now_ms. */
static inline u32 ecp_ts_val(const struct ecp_ts *ts, u32 now_ms)
{
	return now_ms + ts->off;
}

/* Option bytes every segment on the leg carries (the MSS loses them). */
static inline unsigned int ecp_ts_optlen(const struct ecp_ts *ts)
{
	return ts->ok ? ECP_TS_OPTLEN : 0;
}

/*
 * The peer's SYN or SYN-ACK: S offered (@offered) and @seen says whether
 * it carried the option, with @tsval.  Sets ok and TS.Recent.
 */
void ecp_ts_open(struct ecp_ts *ts, bool offered, bool seen, u32 tsval,
		 u32 now_s);

/*
 * PAWS (RFC 7323 §5.3): is a segment of the peer's with @tsval older than
 * TS.Recent by more than @slack ticks?  Then it is a duplicate from the
 * past, to be dropped.  A TS.Recent of 0 (stacks that send 0 in the
 * handshake) or 24 days old rejects nothing.  Not for RSTs (§5.2).
 */
bool ecp_ts_paws_reject(const struct ecp_ts *ts, u32 tsval, u32 slack,
			u32 now_s);

/*
 * A segment with @tsval passed PAWS and starts at or before what S last
 * acked (RFC 7323 §4.3: it is the one S's next ACK answers): keep it as
 * TS.Recent if it is not older.
 */
void ecp_ts_update(struct ecp_ts *ts, u32 tsval, u32 now_s);

/*
 * Is a segment at stream offset @seq with @len bytes (its FIN counting
 * one) the one S's next ACK answers, whose TSval becomes TS.Recent (RFC
 * 7323 §4.3): it covers @edge, what S last acked, or carries nothing and
 * is at or before it?  A copy of bytes S has (a retransmission that
 * reordering made needless) does not count: its newer TSval would make
 * PAWS drop the originals still on their way, sent before it.
 */
static inline bool ecp_ts_at_edge(s64 seq, u32 len, s64 edge)
{
	return seq <= edge && (!len || edge < seq + len);
}

/*
 * The round trip that the peer's echo @tsecr of S's clock gives at
 * @now_ms, in microseconds, or 0 if it gives none: no echo (0), or one
 * from the future or more than a minute old (forged or wrapped).
 */
u32 ecp_ts_rtt_us(const struct ecp_ts *ts, u32 tsecr, u32 now_ms);

#endif
