// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the EBSN window: hand-picked cases, the invariants over
 * every shift on grids around the rounding boundaries and on random ACK
 * sequences, and a simulation of k TCP senders obeying (stale views of)
 * the windows, showing that the buffer bound holds with the headroom.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "dbuf.h"
#include "ebsn.h"
#include "ivset.h"

#define G4	0x100000000ULL

struct ecp_ebsn_case {
	const char *name;
	u64 edge;		/* largest edge offered before */
	u64 ack;
	u32 exposed;
	u8 wscale;
	u16 win;		/* expected field */
	unsigned int flags;
	u64 edge_after;
};

static const struct ecp_ebsn_case ecp_ebsn_cases[] = {
	{ "buffer", 0, 1000, 10000, 0, 10000, 0, 11000 },
	{ "round_down_shift7", 0, 1000, 100000, 7, 781, 0, 1000 + 781 * 128 },
	{ "exact_multiple_shift7", 0, 0, 128 * 781, 7, 781, 0, 128 * 781 },
	{ "below_one_unit", 0, 1000, 127, 7, 0, 0, 1000 },
	{ "field_clamp_shift0", 0, 0, 100000, 0, 65535, ECP_EBSN_CLAMP_FIELD,
	  65535 },
	{ "field_clamp_shift14", 0, 0, 1U << 31, 14, 65535,
	  ECP_EBSN_CLAMP_FIELD, 65535ULL << 14 },
	{ "field_exact_shift14", 0, 0, 65535U << 14, 14, 65535, 0,
	  65535ULL << 14 },
	{ "shift15_is_14", 0, 0, 1U << 20, 15, 64, 0, 1 << 20 },
	{ "buffer_shrinks_edge_kept", 20000, 10000, 5000, 0, 10000,
	  ECP_EBSN_KEPT_EDGE, 20000 },
	{ "kept_edge_rounds_down", 20000, 10001, 5000, 3, 1249,
	  ECP_EBSN_KEPT_EDGE, 20000 },
	{ "kept_edge_just_above", 20000, 15000, 4000, 0, 5000,
	  ECP_EBSN_KEPT_EDGE, 20000 },
	{ "edge_grows_past_old", 20000, 19000, 5000, 0, 5000, 0, 24000 },
	{ "ack_past_old_edge", 1000, 2000, 500, 0, 500, 0, 2500 },
	{ "past_4g", 5 * G4, 5 * G4 + 3, 200000, 2, 50000, 0,
	  5 * G4 + 3 + 200000 },
	{ "past_4g_field", 0, 7 * G4 - 5, 1 << 29, 5, 65535,
	  ECP_EBSN_CLAMP_FIELD, 7 * G4 - 5 + (65535ULL << 5) },
};

static void ecp_ebsn_case_desc(const struct ecp_ebsn_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_ebsn, ecp_ebsn_cases, ecp_ebsn_case_desc);

static void ecp_ebsn_case_test(struct kunit *test)
{
	const struct ecp_ebsn_case *c = test->param_value;
	struct ecp_ebsn_src st = { .edge = c->edge };
	unsigned int flags = ~0U;
	u16 win;

	win = ecp_ebsn_window(&st, c->ack, c->exposed, c->wscale, &flags);
	KUNIT_EXPECT_EQ(test, win, c->win);
	KUNIT_EXPECT_EQ(test, flags, c->flags);
	KUNIT_EXPECT_EQ(test, st.edge, c->edge_after);
	/* @flags is optional. */
	st.edge = c->edge;
	KUNIT_EXPECT_EQ(test, ecp_ebsn_window(&st, c->ack, c->exposed,
					      c->wscale, NULL),
			c->win);
}

struct ecp_ebsn_shift {
	u8 shift;
	char name[12];
};

static const struct ecp_ebsn_shift ecp_ebsn_shifts[] = {
	{ 0, "shift0" }, { 1, "shift1" }, { 2, "shift2" }, { 3, "shift3" },
	{ 4, "shift4" }, { 5, "shift5" }, { 6, "shift6" }, { 7, "shift7" },
	{ 8, "shift8" }, { 9, "shift9" }, { 10, "shift10" },
	{ 11, "shift11" }, { 12, "shift12" }, { 13, "shift13" },
	{ 14, "shift14" },
};

static void ecp_ebsn_shift_desc(const struct ecp_ebsn_shift *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_ebsn_shift, ecp_ebsn_shifts, ecp_ebsn_shift_desc);

/*
 * One call checked against every rule of ebsn.h; returns false (after
 * failing the test) so that callers can stop at the first violation.
 */
static bool ecp_ebsn_check(struct kunit *test, struct ecp_ebsn_src *st,
			   u64 ack, u32 exposed, u8 s)
{
	u64 prev = st->edge, bound = ack + exposed;
	u64 target = max(bound, prev), edge;
	unsigned int flags, want = 0;
	u16 win;

	win = ecp_ebsn_window(st, ack, exposed, s, &flags);
	edge = ack + ((u64)win << s);

	if (prev > bound)
		want |= ECP_EBSN_KEPT_EDGE;
	if ((target - ack) >> s > 65535)
		want |= ECP_EBSN_CLAMP_FIELD;
	KUNIT_EXPECT_EQ(test, flags, want);
	/* Never beyond the bound nor an edge offered before... */
	KUNIT_EXPECT_LE(test, edge, target);
	/* ...rounded down, but by less than one unit... */
	if (!(flags & ECP_EBSN_CLAMP_FIELD))
		KUNIT_EXPECT_GT(test, edge + (1ULL << s), target);
	else
		KUNIT_EXPECT_EQ(test, win, 65535);
	/*
	 * ...so an edge shrinks by less than one unit at most.  Only the
	 * grid's made-up old edges lie beyond the 16-bit field: a real one
	 * came from a lower ack under the same clamp.
	 */
	if (!(flags & ECP_EBSN_CLAMP_FIELD))
		KUNIT_EXPECT_GT(test, edge + (1ULL << s), prev);
	KUNIT_EXPECT_EQ(test, st->edge, max(prev, edge));
	return test->status == KUNIT_SUCCESS;
}

/* Every combination on a grid around multiples of the scale unit. */
static void ecp_ebsn_grid_test(struct kunit *test)
{
	const struct ecp_ebsn_shift *p = test->param_value;
	static const u64 acks[] = { 0, 1, G4 - 1, 5 * G4 + 12345 };
	static const u32 units[] = { 0, 1, 2, 3, 1000, 65534, 65535, 65536 };
	const unsigned int nu = ARRAY_SIZE(units) * 7;
	u64 unit = 1ULL << p->shift;
	unsigned int n;

	/* n enumerates (ack, exposed unit, delta, old edge and next ack). */
	for (n = 0; n < ARRAY_SIZE(acks) * nu * 7; n++) {
		unsigned int a = n / (nu * 7), m = n % (nu * 7);
		unsigned int di = m % 7, dj = m / nu;
		s64 e = (s64)(units[m / 7 % ARRAY_SIZE(units)] * unit) + di - 3;
		struct ecp_ebsn_src st = {};

		if (e < 1 || e > U32_MAX)
			continue;
		/* Fresh, then again with an old edge above the bound. */
		if (!ecp_ebsn_check(test, &st, acks[a], e, p->shift))
			return;
		st.edge = acks[a] + e + (unit - 1) * (dj & 1);
		if (!ecp_ebsn_check(test, &st, acks[a], e, p->shift))
			return;
		/* The next ACK advances by an odd amount. */
		if (!ecp_ebsn_check(test, &st, acks[a] + 1 + 2 * dj, e,
				    p->shift))
			return;
	}
}

/*
 * Random ACK sequences: ACKs advance by arbitrary amounts, the buffer is
 * now and then smaller than an edge offered; the edge stays within the
 * largest ack + I throughout.
 */
static void ecp_ebsn_random_test(struct kunit *test)
{
	const struct ecp_ebsn_shift *p = test->param_value;
	struct rnd_state rnd;
	unsigned int seq, step;

	prandom_seed_state(&rnd, 1000 + p->shift);
	for (seq = 0; seq < 50; seq++) {
		struct ecp_ebsn_src st = {};
		u32 exposed = prandom_u32_state(&rnd) % (1 << 24) + 1;
		u64 ack = seq & 1 ? 3 * G4 - 77 : 0;

		ecp_ebsn_reset(&st, ack);
		if (seq % 5 == 0)	/* around one scale unit */
			exposed = prandom_u32_state(&rnd) %
				  (4U << p->shift) + 1;
		for (step = 0; step < 400; step++) {
			u32 r = prandom_u32_state(&rnd);
			u32 room = r % 3 ? exposed : r % exposed + 1;

			if (!ecp_ebsn_check(test, &st, ack, room, p->shift))
				return;
			KUNIT_ASSERT_LE(test, st.edge, ack + exposed);
			if (r & 0x10)
				ack += prandom_u32_state(&rnd) % (exposed + 1);
		}
	}
}

/*
 * k senders that each send up to the edge of the last window they heard of
 * (ACKs reach them late and thinned, and are seen in order), segments reach S
 * late and reordered, and the client acknowledges complete bytes late.  S does
 * what the data path does: ivset, dbuf, release on the client's ACK, EBSN. A
 * buffer of exactly I must never refuse a byte from such senders; with probes
 * carrying new data past a closed window the headroom absorbs them.
 */
#define SIM_K		6
#define SIM_Q		64
#define SIM_TICKS	4000

struct ecp_ebsn_seg {
	u64 start, end;
	u32 due;
};

struct ecp_ebsn_sender {
	u64 nxt;		/* next byte to send */
	u64 edge;		/* right edge as seen by the sender */
	u32 rate;		/* bytes per tick */
	struct ecp_ebsn_seg tx[SIM_Q];	/* on the way to S */
	unsigned int ntx;
	struct ecp_ebsn_seg rx[SIM_Q];	/* ACKs on the way back */
	unsigned int nrx;
	struct ecp_ebsn_src ebsn;
	struct ecp_ivset iv;
};

struct ecp_ebsn_sim_case {
	const char *name;
	u32 exposed;
	u32 mss;
	u8 wscale;
	bool probes;
	u64 seed;
};

static const struct ecp_ebsn_sim_case ecp_ebsn_sim_cases[] = {
	{ "conforming_i64k", 65536, 1448, 7, false, 1 },
	{ "conforming_i_odd", 50001, 1448, 3, false, 2 },
	{ "conforming_jumbo", 262144, 8948, 9, false, 3 },
	{ "probes_i64k", 65536, 1448, 7, true, 4 },
	{ "probes_small_i", 3000, 1448, 0, true, 5 },
};

static void ecp_ebsn_sim_desc(const struct ecp_ebsn_sim_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecp_ebsn_sim, ecp_ebsn_sim_cases, ecp_ebsn_sim_desc);

static void ecp_ebsn_sim_test(struct kunit *test)
{
	const struct ecp_ebsn_sim_case *c = test->param_value;
	u32 size = c->exposed + (c->probes ? ecp_ebsn_headroom(c->mss) : 0);
	struct ecp_ebsn_sender *s;
	struct rnd_state rnd;
	struct ecp_dbuf d;
	u64 client_ack = 0, sent_to_client = 0;
	unsigned int i, j, refused = 0, probes = 0, clamps = 0;
	u32 t;

	s = kunit_kcalloc(test, SIM_K, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ecp_dbuf_init(&d, size), 0);
	prandom_seed_state(&rnd, c->seed);
	for (i = 0; i < SIM_K; i++) {
		KUNIT_ASSERT_EQ(test, ecp_ivset_init(&s[i].iv, 32,
						     GFP_KERNEL), 0);
		/* The handshake-completing ACK carried an EBSN window. */
		s[i].edge = (u64)ecp_ebsn_window(&s[i].ebsn, 0, c->exposed,
						 c->wscale, NULL) << c->wscale;
		/* One straggler; the others up to 8 times faster. */
		s[i].rate = i ? c->mss * (1 + i) : c->mss / 2;
	}

	for (t = 0; t < SIM_TICKS; t++) {
		u64 complete;

		for (i = 0; i < SIM_K; i++) {
			struct ecp_ebsn_sender *src = &s[i];
			u32 budget = src->rate;

			/* ACKs due by now, in order. */
			while (src->nrx && src->rx[0].due <= t) {
				src->edge = src->rx[0].end;
				memmove(&src->rx[0], &src->rx[1],
					--src->nrx * sizeof(src->rx[0]));
			}
			/* Send within the window, MSS at a time. */
			while (budget && src->nxt < src->edge && src->ntx < SIM_Q) {
				u32 n = min3((u64)budget, (u64)c->mss,
					     src->edge - src->nxt);

				src->tx[src->ntx].start = src->nxt;
				src->tx[src->ntx].end = src->nxt + n;
				src->tx[src->ntx].due = t + 1 +
					prandom_u32_state(&rnd) % 5;
				src->ntx++;
				src->nxt += n;
				budget -= n;
			}
			/* A probe with one new segment past a closed window. */
			if (c->probes && src->nxt == src->edge && src->ntx < SIM_Q &&
			    prandom_u32_state(&rnd) % 8 == 0) {
				src->tx[src->ntx].start = src->nxt;
				src->tx[src->ntx].end = src->nxt + c->mss;
				src->tx[src->ntx].due = t + 1;
				src->ntx++;
				src->nxt += c->mss;
				probes++;
			}
			/* Segments due at S, in any order among them. */
			for (j = 0; j < src->ntx; j++) {
				struct ecp_ebsn_seg *g = &src->tx[j];
				u64 start = max(g->start, ecp_dbuf_base(&d));
				s64 ret;

				if (g->due > t)
					continue;
				if (start < g->end &&
				    ecp_dbuf_span(&d, start, g->end - start,
						  &(struct ecp_dbuf_span){})) {
					/* Dropped: go back to resend it. */
					refused++;
					src->nxt = min(src->nxt, g->start);
				} else {
					ret = ecp_ivset_insert(&src->iv,
							       g->start,
							       g->end, NULL,
							       NULL);
					if (ret < 0)
						src->nxt = min(src->nxt, g->start);
					else
						ecp_dbuf_wrote(&d, g->end);
				}
				*g = src->tx[--src->ntx];
				j--;
			}
		}

		/* Complete bytes go to the client; it acks every other tick. */
		complete = ecp_ivset_min_low_of(s, SIM_K, iv);
		sent_to_client = max(sent_to_client, complete);
		if (t % 2 || sent_to_client == client_ack)
			continue;
		client_ack = sent_to_client;
		ecp_dbuf_release(&d, client_ack);
		for (i = 0; i < SIM_K; i++) {
			struct ecp_ebsn_sender *src = &s[i];
			unsigned int flags;
			u16 win;

			ecp_ivset_trim(&src->iv, client_ack);
			win = ecp_ebsn_window(&src->ebsn, client_ack,
					      c->exposed, c->wscale, &flags);
			clamps += !!flags;
			KUNIT_ASSERT_LE(test, src->ebsn.edge, client_ack + c->exposed);
			if (src->nrx == SIM_Q)
				continue;	/* an ACK lost */
			src->rx[src->nrx].start = client_ack;
			src->rx[src->nrx].end = client_ack + ((u64)win << c->wscale);
			src->rx[src->nrx].due = t + 1 + prandom_u32_state(&rnd) % 6;
			/* Keep them in order: a later one is not earlier. */
			if (src->nrx)
				src->rx[src->nrx].due = max(src->rx[src->nrx].due,
							src->rx[src->nrx - 1].due);
			src->nrx++;
		}
	}
	kunit_info(test,
		   "client acked %llu, peak %u of %u, %u refused, %u probes, %u clamps\n",
		   client_ack, ecp_dbuf_peak(&d), size, refused, probes, clamps);
	/* Progress was made and the straggler set the pace. */
	KUNIT_EXPECT_GT(test, client_ack, (u64)SIM_TICKS * s[0].rate / 4);
	KUNIT_EXPECT_LE(test, ecp_dbuf_peak(&d), size);
	KUNIT_EXPECT_EQ(test, refused, 0);
	if (c->probes)
		KUNIT_EXPECT_GT(test, probes, 0);
	for (i = 0; i < SIM_K; i++)
		ecp_ivset_destroy(&s[i].iv);
	ecp_dbuf_destroy(&d);
}

static void ecp_ebsn_headroom_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ecp_ebsn_headroom(1448), 1448);
	KUNIT_EXPECT_EQ(test, ecp_ebsn_headroom(8948), 8948);
}

static struct kunit_case ecp_ebsn_test_cases[] = {
	KUNIT_CASE_PARAM(ecp_ebsn_case_test, ecp_ebsn_gen_params),
	KUNIT_CASE_PARAM(ecp_ebsn_grid_test, ecp_ebsn_shift_gen_params),
	KUNIT_CASE_PARAM(ecp_ebsn_random_test, ecp_ebsn_shift_gen_params),
	KUNIT_CASE_PARAM(ecp_ebsn_sim_test, ecp_ebsn_sim_gen_params),
	KUNIT_CASE(ecp_ebsn_headroom_test),
	{}
};

static struct kunit_suite ecp_ebsn_test_suite = {
	.name = "ecproxy_ebsn",
	.test_cases = ecp_ebsn_test_cases,
};

kunit_test_suite(ecp_ebsn_test_suite);
