/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decode buffer: a ring holding the partial XOR sums of one connection, indexed
 * by 64-bit stream offset.  It covers the window [base, base + size), where
 * base is the lowest offset the client has not acknowledged.  Bytes stay until
 * the client acknowledges them, complete or not, because S re-sends lost
 * complete bytes from here instead of re-accumulating them.
 *
 * Logically the ring is zero wherever nothing was written.  Its memory is
 * not zeroed when bytes are released, nor between connections: only
 * [base, valid) holds sums, and beyond valid lies whatever earlier offsets
 * (or an earlier connection) left.  The first write past valid stores the
 * product instead of adding it, and zeroes any gap it leaves; a read past
 * valid zeroes first.  So the memory is written once per byte, not zeroed
 * and then added to, and releasing costs nothing.
 *
 * Offset off lives at buf[off % size]; size need not be a power of two (it is
 * the exposed size I plus headroom, see ebsn.h), so one u64 division per lookup
 * is paid instead of rounding the memory reservation up.
 *
 * Locking: none inside.  Every call on one buffer is serialised by the
 * connection's spinlock (softirq for the data path).  ecp_dbuf_init() and
 * ecp_dbuf_destroy() sleep and run in process context only.
 */
#ifndef _ECP_DBUF_H
#define _ECP_DBUF_H

#include <linux/types.h>

struct ecp_gf_coef;
struct ecp_ivset;
struct sk_buff;

struct ecp_dbuf {
	u8 *buf;
	u32 size;
	u64 base;	/* everything below was acknowledged by the client */
	u64 high;	/* highest offset written + 1, never below base */
	u64 valid;	/* [base, valid) holds sums, see above */
	u32 peak;	/* largest high - base seen */
};

/*
 * One or two pieces of buffer memory that together hold a stream range;
 * two when the range wraps around the end of the ring.
 */
struct ecp_dbuf_span {
	u8 *ptr[2];
	u32 len[2];
};

/* Process context.  Allocates @size bytes with kvzalloc. */
int ecp_dbuf_init(struct ecp_dbuf *d, u32 size);
void ecp_dbuf_destroy(struct ecp_dbuf *d);
/*
 * Restart empty at stream offset @base (a new client connection), over
 * memory that may hold anything.
 */
void ecp_dbuf_reset(struct ecp_dbuf *d, u64 base);

/*
 * The memory holding [off, off + len), as it is: past valid it holds stale
 * bytes (use ecp_dbuf_view() to read).  Returns 0, -ERANGE if the range
 * starts below base (already released) or -ENOBUFS if it ends beyond
 * base + size (an overflow: EBSN plus headroom should prevent it, so the
 * caller drops the segment and counts it).  An empty range gives 0 and two
 * empty pieces.
 */
int ecp_dbuf_span(const struct ecp_dbuf *d, u64 off, u32 len,
		  struct ecp_dbuf_span *sp);

/*
 * ecp_dbuf_span() for reading: what was never written is zeroed first, so
 * that the pieces hold the sums.  Does not count as writing (occupancy).
 */
int ecp_dbuf_view(struct ecp_dbuf *d, u64 off, u32 len,
		  struct ecp_dbuf_span *sp);

/*
 * Record that bytes up to @end were written (occupancy and its peak), as
 * the writes below do themselves.  It marks no memory as holding sums:
 * for a model of occupancy alone (ebsn_test.c).
 */
void ecp_dbuf_wrote(struct ecp_dbuf *d, u64 end);

/*
 * buffer[off, off + len) ^= c * src, or c * skb bytes [skb_off, skb_off +
 * len) for the skb form.  Same return values as ecp_dbuf_span(), plus
 * -EFAULT from the skb form if the skb is shorter; on error nothing is
 * written.  On success the write is recorded as by ecp_dbuf_wrote().
 */
int ecp_dbuf_mul_acc(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
		     u64 off, const u8 *src, u32 len);
int ecp_dbuf_mul_acc_skb(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
			 u64 off, const struct sk_buff *skb, int skb_off,
			 u32 len);
/*
 * buffer[off, off + len) ^= c * @src[off, off + len), another buffer of the
 * same size (a spare's check ring added to a row).  Same return values as
 * ecp_dbuf_span() for either buffer.
 */
int ecp_dbuf_mul_acc_dbuf(struct ecp_dbuf *d, const struct ecp_gf_coef *c,
			  struct ecp_dbuf *src, u64 off, u32 len);

/*
 * The whole step for one segment from a source: apply exactly the bytes of
 * stream [off, off + len) (= skb bytes [skb_off, skb_off + len)) that @iv
 * has not recorded, multiplied by @c, and record them in @iv.  Everything
 * is checked before anything is recorded, so a refused segment leaves no
 * trace and its retransmission is applied in full later; the order matters
 * because bytes recorded but not applied would be lost for good.
 *
 * Returns the number of bytes newly recorded (0 for a pure duplicate),
 * -EFAULT if the skb is shorter than @len, -ENOBUFS if the segment ends
 * beyond base + size (an overflow), or -ENOSPC if @iv is full (see
 * ivset.h).  New bytes below base are recorded but applied nowhere: the
 * ring released them complete and reuses their memory.  @iv is never
 * moved past what the source gave, since S acks the source from it.
 */
s64 ecp_dbuf_apply_skb(struct ecp_dbuf *d, struct ecp_ivset *iv,
		       const struct ecp_gf_coef *c, u64 off,
		       const struct sk_buff *skb, int skb_off, u32 len);

/*
 * ecp_dbuf_apply_skb() for a segment that feeds @n buffers at once (the
 * rows a source contributes to, each with its coefficient @c[i]): each
 * new byte is recorded once in @iv, the source's record, and applied to
 * every buffer that has not released it, unless it is below @floor (the
 * rows are final there: a spare stood in for this source, conn_rows.c).
 * The window is the tightest of the buffers' (-ENOBUFS past any limit).
 * Same return values as ecp_dbuf_apply_skb().
 */
s64 ecp_dbuf_apply_skb_n(struct ecp_dbuf *const *d,
			 const struct ecp_gf_coef *const *c, unsigned int n,
			 struct ecp_ivset *iv, u64 floor, u64 off,
			 const struct sk_buff *skb, int skb_off, u32 len);

/* Copy [off, off + len) out, e.g. to build a segment for the client. */
int ecp_dbuf_read(struct ecp_dbuf *d, u64 off, u8 *dst, u32 len);

/*
 * The client acknowledged everything below @upto: slide the window (the
 * memory is reused as it is, see above).  Offsets at or below base are
 * ignored (old or duplicate ACKs).  The
 * sources' records stay as they are: ecp_dbuf_apply_skb_n() applies
 * nothing below base, and S acks each source from its record.
 */
void ecp_dbuf_release(struct ecp_dbuf *d, u64 upto);

static inline u64 ecp_dbuf_base(const struct ecp_dbuf *d)
{
	return d->base;
}

/* The first offset the window does not cover. */
static inline u64 ecp_dbuf_limit(const struct ecp_dbuf *d)
{
	return d->base + d->size;
}

static inline u32 ecp_dbuf_occupancy(const struct ecp_dbuf *d)
{
	return d->high - d->base;
}

static inline u32 ecp_dbuf_peak(const struct ecp_dbuf *d)
{
	return d->peak;
}

#endif
