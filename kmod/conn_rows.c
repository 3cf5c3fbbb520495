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
 * With spares (task.h), the sources also feed the check rows, and the
 * rows need not wait for the slowest sources: wherever all sources but a
 * set J have given, spare t's check row holds the sum over J of
 * check_j[t] x_j; the check rows of |J| spares that are in give the x_J
 * (a |J| x |J| system), and adding sum over J of coef_j x_j makes every
 * row what it would be with them (ecp_conn_spare_fix()).  Below c->fixed
 * the rows are final, and what the missing sent there later is recorded
 * (S acks it) but applied nowhere.
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
	/* Made final with the spares (0 without). */
	return max(m, min(c->fixed, c->row[r].len));
}

/* Row r ^= @coef * check row @q over [start, end), in both rings. */
static void ecp_conn_row_add_check(struct ecp_conn *c, unsigned int r,
				   unsigned int q, u8 coef, u64 start, u64 end)
{
	struct ecp_gf_coef k;

	/*
	 * Both rings hold the range: row r's output cannot have acked past
	 * a missing source it uses, and the check rings keep what every row
	 * still holds.
	 */
	ecp_gf_coef_init(&k, coef);
	WARN_ON_ONCE(ecp_dbuf_mul_acc_dbuf(&c->row[r].dbuf, &k,
					   &ecp_conn_check(c, q)->dbuf, start,
					   end - start));
}

/*
 * What to add to the rows where the sources @miss[0..@n) are missing and
 * the others have given: from the check rows of spares that are in,
 * @q[0..u), the coefficients @co[r][t] of check row q[t] in row r.
 * Returns u, the missing sources that are not spares (0: the rows need
 * nothing), or -1 if the check coefficients cannot solve for them (a code
 * that is not MDS).
 */
static int ecp_conn_spare_solve(const struct ecp_conn *c,
				const unsigned int *miss, unsigned int n,
				unsigned int *q,
				u8 co[][ECPROXY_MAX_SPARES])
{
	const struct ecp_task *t = c->t;
	unsigned int kp = c->k - c->nspare, j[ECPROXY_MAX_SPARES];
	u8 g[ECP_GF_MAT_MAX * ECP_GF_MAT_MAX];
	unsigned int u = 0, nq = 0, a, b, r, s;

	for (a = 0; a < n; a++)
		if (miss[a] < kp)
			j[u++] = miss[a];
	if (!u)
		return 0;
	/* The spares that are in: as many as there are sources missing. */
	for (s = 0; s < c->nspare && nq < u; s++) {
		for (a = 0; a < n && miss[a] != kp + s; a++)
			;
		if (a == n)
			q[nq++] = s;
	}
	if (nq < u)
		return -1;
	/*
	 * Check row q[a] holds sum over b of check[q[a]] of j[b] times
	 * x_j[b]: solve for the x, then row r gets sum of coef_r,j[b] x_j[b].
	 */
	for (a = 0; a < u; a++)
		for (b = 0; b < u; b++)
			g[a * u + b] = t->row[t->nrow + q[a]].coef[j[b]];
	if (!ecp_gf_mat_inv(g, u))
		return -1;
	for (r = 0; r < c->nrow; r++) {
		for (a = 0; a < u; a++) {
			co[r][a] = 0;
			for (b = 0; b < u; b++)
				co[r][a] ^= ecp_gf_mul1(t->row[r].coef[j[b]],
							g[b * u + a]);
		}
	}
	return u;
}

void ecp_conn_spare_fix(struct ecp_conn *c)
{
	u8 co[ECPROXY_MAX_K][ECPROXY_MAX_SPARES];
	unsigned int ord[ECPROXY_MAX_K], q[ECPROXY_MAX_SPARES];
	u64 low[ECPROXY_MAX_K], budget = ECP_PUSH_MAX, pos = c->fixed;
	unsigned int i, a, r, u;
	int ret;

	if (!c->nspare)
		return;
	/* The sources by watermark, lowest first (k <= 32: insertion). */
	for (i = 0; i < c->k; i++) {
		low[i] = ecp_ivset_low(&c->src[i].iv);
		for (a = i; a && low[ord[a - 1]] > low[i]; a--)
			ord[a] = ord[a - 1];
		ord[a] = i;
	}
	/*
	 * Up to the watermark of the (nspare + 1)-th lowest, at most nspare
	 * sources are missing at any offset: ord[0..a] in [low of ord[a],
	 * low of ord[a + 1]).  Below the lowest, none.
	 */
	for (a = 0; a < c->nspare; a++) {
		u64 start = max(pos, low[ord[a]]);
		u64 end = low[ord[a + 1]];
		unsigned int n = 0;

		if (start >= end)
			continue;
		ret = ecp_conn_spare_solve(c, ord, a + 1, q, co);
		if (ret < 0)
			break;
		u = ret;
		for (r = 0; r < c->nrow; r++)
			for (i = 0; i < u; i++)
				n += !!co[r][i];
		/* One softirq multiplies at most ECP_PUSH_MAX bytes in all. */
		if (n) {
			end = min(end, start + max_t(u64, budget / n, 1));
			budget -= min(budget, (end - start) * n);
		}
		for (r = 0; r < c->nrow; r++)
			for (i = 0; i < u; i++)
				if (co[r][i])
					ecp_conn_row_add_check(c, r, q[i],
							       co[r][i], start,
							       end);
		if (u)
			ecp_stats_add(&c->t->stats, ECP_STAT_SPARE_BYTES,
				      end - start);
		pos = end;
		if (end < low[ord[a + 1]] || !budget)
			break;
	}
	c->fixed = max(c->fixed, pos);
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
	 * (ecp_conn_src_mismatch() holds the rest), or all but as many as
	 * there are spares, which stand in for them.
	 */
	for (i = 0; i < c->k; i++) {
		/* One that closed short is one the spares stand in for. */
		if (!c->src[i].fin || c->src[i].lost)
			open++;
		else
			len = c->src[i].fin_off;
	}
	return open > c->nspare ? U64_MAX : len;
}

/* The furthest any source has sent. */
static u64 ecp_conn_src_ref(const struct ecp_conn *c)
{
	u64 ref = 0;
	unsigned int i;

	for (i = 0; i < c->k; i++)
		ref = max(ref, c->src[i].ref);
	return ref;
}

bool ecp_conn_src_short(const struct ecp_conn *c, const struct ecp_conn_src *s)
{
	return s->len == U64_MAX && s->fin && s->fin_off < ecp_conn_src_ref(c);
}

int ecp_conn_src_mismatch(const struct ecp_conn *c)
{
	u64 ref = ecp_conn_src_ref(c), len = U64_MAX;
	unsigned int i;

	for (i = 0; i < c->k; i++) {
		const struct ecp_conn_src *s = &c->src[i];

		/* With a layout, each has its own exact length. */
		if (s->len != U64_MAX) {
			if (s->ref > s->len || (s->fin && s->fin_off != s->len))
				return i;
			continue;
		}
		/* A spare stands in for one that closed short. */
		if (!s->fin || s->lost)
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
static int ecp_conn_ring_copy(struct ecp_dbuf *d, struct sk_buff *skb,
			      unsigned int at, u64 off, u32 len)
{
	struct ecp_dbuf_span sp;

	/* Cannot fail: [acked, snd_nxt) stays in the ring. */
	if (WARN_ON_ONCE(ecp_dbuf_view(d, off, len, &sp)))
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
 * end, when their fragments are longer) goes with it, so that the row's
 * occupancy says it holds nothing.
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
	/* The check rows serve the rows only where one still holds bytes. */
	if (c->nspare) {
		u64 b = U64_MAX;

		for (r = 0; r < c->nrow; r++)
			b = min(b, ecp_dbuf_base(&c->row[r].dbuf));
		for (r = 0; r < c->nspare; r++)
			ecp_dbuf_release(&ecp_conn_check(c, r)->dbuf, b);
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
	/*
	 * Every source feeds a check row too (no layout: never finished),
	 * all released together.
	 */
	if (c->nspare)
		b = min(b, ecp_dbuf_base(&ecp_conn_check(c, 0)->dbuf));
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
	const struct ecp_gf_coef *coef[ECPROXY_MAX_K + ECPROXY_MAX_SPARES];
	struct ecp_dbuf *ring[ECPROXY_MAX_K + ECPROXY_MAX_SPARES];
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
	for (r = 0; r < c->nspare; r++) {
		if (!t->row[c->nrow + r].coef[i])
			continue;
		ring[n] = &ecp_conn_check(c, r)->dbuf;
		coef[n++] = &t->row[c->nrow + r].gf[i];
	}
	return ecp_dbuf_apply_skb_n(ring, coef, n, &s->iv, c->fixed, off, skb,
				    dataoff, len);
}
