// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of a connection: what the sources' bytes add to them
 * (ecp_conn_src_apply()), and the streams the outputs read from them.
 *
 * Row r is the GF(2^8) sum of the sources it uses (non-zero coefficient),
 * accumulated by source-stream offset in its own ring.  It is complete up
 * to the lowest offset those sources have all given; a source that closed
 * at its exact length (a striped layout's short data fragment) counts as
 * zeros beyond it.  An output reads row r's offsets as its own (PULL: row
 * 0 to the client; DEST: row r to target r), or, for a read (READ), the
 * block in logical order: byte X is in data fragment (X / cell) mod k at
 * offset (X / (cell k)) cell + X mod cell, and row f is data fragment f.
 *
 * With a spare (task.h), the sources also feed the check row, and the
 * rows need not wait for the slowest source: wherever all sources but
 * one, j, have given, the check row holds check_j x_j, and adding
 * (coef_j / check_j) times it makes every row what it would be with j
 * (ecp_conn_spare_fix()).  Below c->fixed the rows are final, and what j
 * sends there later is recorded (S acks it) but applied nowhere.
 */
#include <linux/math64.h>
#include <linux/skbuff.h>

#include "conn_state.h"
#include "layout.h"
#include "task.h"

/* The row output o reads (PULL, DEST). */
static unsigned int ecp_conn_out_row(const struct ecp_conn *c,
				     const struct ecp_conn_out *o)
{
	return ecp_conn_has_targets(c) ? o - c->out : 0;
}

u64 ecp_conn_row_complete(const struct ecp_conn *c, unsigned int r)
{
	const struct ecp_row *row = &c->t->row[r];
	u64 m = c->row[r].len;
	unsigned int i;

	for (i = 0; i < c->k; i++) {
		const struct ecp_conn_src *s = &c->src[i];

		if (row->coef[i] && !ecp_conn_src_done(s))
			m = min(m, ecp_ivset_low(&s->iv));
	}
	/* Made final with the spare (0 without one). */
	return max(m, min(c->fixed, c->row[r].len));
}

/* Bytes of [start, end) that @iv holds: where its source was not missing. */
static u64 ecp_conn_iv_held(const struct ecp_ivset *iv, u64 start, u64 end)
{
	u64 held = min(end, ecp_ivset_low(iv)) > start ?
		   min(end, ecp_ivset_low(iv)) - start : 0;
	u32 i;

	for (i = ecp_ivset_search(iv, start); i < ecp_ivset_count(iv); i++) {
		struct ecp_iv x = ecp_ivset_at(iv, i);

		if (x.start >= end)
			break;
		held += min(end, x.end) - max(start, x.start);
	}
	return held;
}

/* Row r ^= @coef * the check row over [start, end), in both rings. */
static void ecp_conn_row_add_check(struct ecp_conn *c, unsigned int r, u8 coef,
				   u64 start, u64 end)
{
	struct ecp_dbuf_span dst, src;
	struct ecp_gf_coef k;
	unsigned int i;

	/*
	 * Both rings hold the range: row r's output cannot have acked past
	 * its missing source, and the check ring keeps what every row still
	 * holds.  The rings are the same size, so the pieces match.
	 */
	if (WARN_ON_ONCE(ecp_dbuf_span(&c->row[r].dbuf, start, end - start,
				       &dst) ||
			 ecp_dbuf_span(&c->check->dbuf, start, end - start,
				       &src)))
		return;
	ecp_gf_coef_init(&k, coef);
	for (i = 0; i < 2; i++)
		ecp_gf_mul_acc(&k, dst.ptr[i], src.ptr[i], dst.len[i]);
	ecp_dbuf_wrote(&c->row[r].dbuf, end);
}

void ecp_conn_spare_fix(struct ecp_conn *c)
{
	u64 low1 = U64_MAX, low2 = U64_MAX, start, end;
	const struct ecp_task *t = c->t;
	unsigned int i, j = 0, r, n = 0;
	u8 inv;

	if (!c->check)
		return;
	/* The slowest source, j, and how far all the others have given. */
	for (i = 0; i < c->k; i++) {
		u64 low = ecp_ivset_low(&c->src[i].iv);

		if (low < low1) {
			low2 = low1;
			low1 = low;
			j = i;
		} else {
			low2 = min(low2, low);
		}
	}
	start = max(c->fixed, low1);
	/* The spare's own coefficient in every row is 0: nothing to add. */
	for (r = 0; j != c->k - 1 && r < c->nrow; r++)
		n += !!t->row[r].coef[j];
	if (low2 <= start || !n) {
		c->fixed = max(c->fixed, low2);
		return;
	}
	/* One softirq multiplies at most ECP_PUSH_MAX bytes over all rows. */
	end = min(low2, start + ECP_PUSH_MAX / n);
	c->fixed = end;
	inv = ecp_gf_inv(t->row[t->nrow].coef[j]);
	for (r = 0; r < c->nrow; r++)
		if (t->row[r].coef[j])
			ecp_conn_row_add_check(c, r,
					       ecp_gf_mul1(t->row[r].coef[j], inv),
					       start, end);
	ecp_stats_add(&c->t->stats, ECP_STAT_SPARE_BYTES,
		      end - start - ecp_conn_iv_held(&c->src[j].iv, start, end));
}

u64 ecp_conn_out_complete(const struct ecp_conn *c,
			  const struct ecp_conn_out *o)
{
	const struct ecp_task *t = c->t;
	unsigned int r;
	u64 m;

	if (c->mode != ECPROXY_MODE_READ)
		return ecp_conn_row_complete(c, ecp_conn_out_row(c, o));
	/* The first byte of the block some row still lacks. */
	m = t->block;
	for (r = 0; r < c->nrow; r++) {
		u64 done = ecp_conn_row_complete(c, r);

		if (done < c->row[r].len)
			m = min(m, ecp_layout_pos(t->cell, t->k, r, done));
	}
	return m;
}

u64 ecp_conn_out_len(const struct ecp_conn *c, const struct ecp_conn_out *o)
{
	u64 len = c->row[ecp_conn_out_row(c, o)].len;
	unsigned int i, open = 0;

	if (c->mode == ECPROXY_MODE_READ)
		return c->t->block;
	if (len != U64_MAX)
		return len;
	/*
	 * Without a layout every fragment is as long as the others: the
	 * length is known once every source has closed, at the same offset
	 * (ecp_conn_src_mismatch() holds the rest), or all but one with a
	 * spare, which stands in for the last.
	 */
	for (i = 0; i < c->k; i++) {
		if (!c->src[i].fin)
			open++;
		else
			len = c->src[i].fin_off;
	}
	return open > !!c->check ? U64_MAX : len;
}

int ecp_conn_src_mismatch(const struct ecp_conn *c)
{
	u64 ref = 0, len = U64_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		ref = max(ref, c->src[i].ref);
	for (i = 0; i < c->k; i++) {
		const struct ecp_conn_src *s = &c->src[i];

		/* With a layout, each has its own exact length. */
		if (s->len != U64_MAX) {
			if (s->ref > s->len || (s->fin && s->fin_off != s->len))
				return i;
			continue;
		}
		if (!s->fin)
			continue;
		if (len == U64_MAX)
			len = s->fin_off;
		/*
		 * A source that closes before bytes another one already
		 * sent (killed, or serving a short file) is at fault at
		 * once; waiting for the others' FINs could take forever,
		 * since EBSN holds them back.
		 */
		if (s->fin_off != len || s->fin_off < ref)
			return i;
	}
	return -1;
}

/* Copy ring bytes [off, off + len) of @d into @skb at @at. */
static int ecp_conn_ring_copy(const struct ecp_dbuf *d, struct sk_buff *skb,
			      unsigned int at, u64 off, u32 len)
{
	struct ecp_dbuf_span sp;

	/* Cannot fail: [acked, snd_nxt) stays in the ring. */
	if (WARN_ON_ONCE(ecp_dbuf_span(d, off, len, &sp)))
		return -EFAULT;
	if (skb_store_bits(skb, at, sp.ptr[0], sp.len[0]) ||
	    skb_store_bits(skb, at + sp.len[0], sp.ptr[1], sp.len[1]))
		return -EFAULT;
	return 0;
}

int ecp_conn_out_copy(struct ecp_conn *c, const struct ecp_conn_out *o,
		      struct sk_buff *skb, unsigned int at, u64 off, u32 len)
{
	const struct ecp_task *t = c->t;

	if (c->mode != ECPROXY_MODE_READ)
		return ecp_conn_ring_copy(&c->row[ecp_conn_out_row(c, o)].dbuf,
					  skb, at, off, len);
	/* Cell by cell, each from the row of its data fragment. */
	while (len) {
		u32 in, r, n;
		u64 cells = div_u64_rem(off, t->cell, &in);
		u64 stripe = div_u64_rem(cells, t->k, &r);
		int ret;

		n = min_t(u32, len, t->cell - in);
		ret = ecp_conn_ring_copy(&c->row[r].dbuf, skb, at,
					 stripe * t->cell + in, n);
		if (ret)
			return ret;
		at += n;
		off += n;
		len -= n;
	}
	return 0;
}

bool ecp_conn_row_finished(const struct ecp_conn *c, unsigned int r)
{
	return c->row[r].len != U64_MAX &&
	       ecp_dbuf_base(&c->row[r].dbuf) >= c->row[r].len;
}

/*
 * Release row r's ring below @upto.  A row released to its exact length
 * is finished: what sources sent past it (a segment that straddled its
 * end, when their fragments are longer) is zeroed with it, at most a
 * segment per source, so that the ring is clean for the next connection.
 */
static void ecp_conn_row_release(struct ecp_conn *c, unsigned int r, u64 upto)
{
	struct ecp_dbuf *d = &c->row[r].dbuf;

	ecp_dbuf_release(d, upto);
	if (ecp_conn_row_finished(c, r))
		ecp_dbuf_release(d, d->high);
}

void ecp_conn_out_release(struct ecp_conn *c, struct ecp_conn_out *o,
			  u64 upto)
{
	unsigned int r;

	if (c->mode == ECPROXY_MODE_READ) {
		for (r = 0; r < c->nrow; r++)
			ecp_conn_row_release(c, r,
					     ecp_layout_frag_off(upto, c->t->cell,
								 c->t->k, r));
	} else {
		ecp_conn_row_release(c, ecp_conn_out_row(c, o), upto);
	}
	/* The check row serves the rows only where one still holds bytes. */
	if (c->check) {
		u64 b = U64_MAX;

		for (r = 0; r < c->nrow; r++)
			b = min(b, ecp_dbuf_base(&c->row[r].dbuf));
		ecp_dbuf_release(&c->check->dbuf, b);
	}
}

u64 ecp_conn_src_base(const struct ecp_conn *c, const struct ecp_conn_src *s)
{
	u32 rows = c->t->src[s->peer.idx].rows;
	u64 b = U64_MAX;
	unsigned int r;

	/* A finished row needs nothing more from s. */
	for (r = 0; r < c->nrow; r++)
		if ((rows & BIT(r)) && !ecp_conn_row_finished(c, r))
			b = min(b, ecp_dbuf_base(&c->row[r].dbuf));
	/* Every source feeds the check row too (no layout: never finished). */
	if (c->check)
		b = min(b, ecp_dbuf_base(&c->check->dbuf));
	/*
	 * Every row s feeds is finished (s is longer than all of them): it
	 * sends the rest of its fragment to no ring, bounded by the buffer
	 * alone.
	 */
	if (b == U64_MAX)
		b = ecp_ivset_low(&s->iv);
	return b;
}

s64 ecp_conn_src_apply(struct ecp_conn *c, struct ecp_conn_src *s, u64 off,
		       const struct sk_buff *skb, unsigned int dataoff, u32 len)
{
	const struct ecp_gf_coef *coef[ECPROXY_MAX_K + 1];
	struct ecp_dbuf *ring[ECPROXY_MAX_K + 1];
	unsigned int i = s->peer.idx, r, n = 0;
	const struct ecp_task *t = c->t;

	for (r = 0; r < c->nrow; r++) {
		/*
		 * A row shorter than s's fragment takes nothing past its
		 * end: that would hold its ring, and the sources, for ever.
		 */
		if (!t->row[r].coef[i] || ecp_conn_row_finished(c, r) ||
		    off >= c->row[r].len)
			continue;
		ring[n] = &c->row[r].dbuf;
		coef[n++] = &t->row[r].gf[i];
	}
	if (c->check) {
		ring[n] = &c->check->dbuf;
		coef[n++] = &t->row[c->nrow].gf[i];
	}
	return ecp_dbuf_apply_skb_n(ring, coef, n, &s->iv, c->fixed, off, skb,
				    dataoff, len);
}
