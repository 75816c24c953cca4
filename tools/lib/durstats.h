/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics of durations in bounded memory: count, total, min, max and
 * percentiles.  The first DURSTATS_EXACT values are kept as they are (in
 * 32 bits while each fits, up to 4.29 s; in 64 once one does not), so
 * percentiles of up to that many are exact; past that, they go into a
 * log-linear histogram whose buckets are 1/64 of a power of two wide, and a
 * percentile is its bucket's middle, within 0.8 % of the true value (and
 * never outside [min, max]).
 *
 * Percentiles are nearest-rank: p50 of 10, 20 is 10; p99 of 1..100 is 99.
 *
 * Also the log2 histogram of bcc's tools: slot k counts values in
 * [2^k, 2^(k+1)) (slot 0 holds 0 and 1).
 */
#ifndef SCHEDREC_DURSTATS_H
#define SCHEDREC_DURSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

#define DURSTATS_EXACT	1024
#define DURSTATS_FIRST	16	/* values made room for at first */

struct durstats {
	uint64_t count;
	uint64_t total;
	uint64_t min;
	uint64_t max;
	void *values;		/* the first DURSTATS_EXACT, then NULL */
	uint32_t cap;		/* values' room: it doubles, up to that */
	uint8_t *buckets;	/* after that: counts mod 256 */
	uint32_t *carries;	/* and of 256, once a bucket wraps */
	bool wide;		/* values are uint64_t, not uint32_t */
	bool failed;		/* out of memory: percentiles are 0 */
};

/*
 * The log-linear histogram: values below 128 have a bucket each; a value
 * v in [2^e, 2^(e+1)) with e >= 7 goes to bucket (e - 6) * 64 + v >>
 * (e - 6), which is one of 64 buckets of width 2^(e - 6).  Values of 2^42
 * ns (73 minutes) and more share the last bucket.
 */
#define DURSTATS_SUB_BITS	6
#define DURSTATS_TOP_EXP	42
#define DURSTATS_BUCKETS	(((DURSTATS_TOP_EXP - DURSTATS_SUB_BITS) << \
				  DURSTATS_SUB_BITS) + (2u << DURSTATS_SUB_BITS))

/* The index of @v's highest set bit (@v > 0). */
static inline unsigned int durstats_highest_bit(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

static inline unsigned int durstats_bucket_of(uint64_t v)
{
	unsigned int e;

	if (v < (2u << DURSTATS_SUB_BITS))
		return v;
	e = durstats_highest_bit(v);
	if (e >= DURSTATS_TOP_EXP)
		return DURSTATS_BUCKETS - 1;
	return ((e - DURSTATS_SUB_BITS) << DURSTATS_SUB_BITS) +
	       (v >> (e - DURSTATS_SUB_BITS));
}

/*
 * durstats_add() past the values' room, of a value that needs 64 bits, or
 * once they are 64-bit: more room, wider values, or the histogram.
 */
void durstats_add_slow(struct durstats *d, uint64_t ns);

/* Bucket @b wrapped to 0: 256 more in its carry. */
void durstats_carry(struct durstats *d, unsigned int b);

/* One more value in bucket @b of @d's histogram. */
static inline void durstats_count(struct durstats *d, unsigned int b)
{
	if (unlikely(!++d->buckets[b]))
		durstats_carry(d, b);
}

/* Add @ns (inline: reports add a value per interval). */
static inline void durstats_add(struct durstats *d, uint64_t ns)
{
	if (!d->count || ns < d->min)
		d->min = ns;
	if (ns > d->max)
		d->max = ns;
	d->total += ns;
	d->count++;
	if (d->buckets)
		durstats_count(d, durstats_bucket_of(ns));
	else if (d->count <= d->cap && !d->wide && ns <= UINT32_MAX)
		((uint32_t *)d->values)[d->count - 1] = ns;
	else
		durstats_add_slow(d, ns);
}

/*
 * Which values of a durstats are flagged (by the reports: uncertain, they
 * may rest on lost events), in O(1) memory: whether the longest is, and
 * the shortest that is.  A percentile equal to the longest is flagged as
 * it is; below it, one at or above the shortest flagged value may be one
 * of them (only the percentile's value is kept, not every value).
 */
struct durflags {
	uint64_t min;		/* the shortest flagged value */
	bool any;		/* min is set */
	bool max;		/* the longest value is (either, if two are) */
};

/*
 * Before durstats_add(@d, @ns): note whether @ns is @flagged.  Whether
 * @ns is the longest value yet (the first of that length).
 */
static inline bool durflags_add(struct durflags *f, const struct durstats *d,
				uint64_t ns, bool flagged)
{
	bool longest = !d->count || ns > d->max;

	if (longest)
		f->max = flagged;
	else if (ns == d->max)
		f->max |= flagged;
	if (flagged && (!f->any || ns < f->min)) {
		f->any = true;
		f->min = ns;
	}
	return longest;
}

/* Whether value @v of @d may be flagged, the longest being @max_flagged. */
static inline bool durflags_value(const struct durflags *f,
				  const struct durstats *d, bool max_flagged,
				  uint64_t v)
{
	if (v == d->max)
		return max_flagged;
	return f->any && v >= f->min;
}

/* Nearest-rank percentile @pct (0 < pct <= 100); 0 if empty. */
uint64_t durstats_percentile(struct durstats *d, double pct);
void durstats_free(struct durstats *d);

#define LOG2HIST_SLOTS	64

struct log2hist {
	uint64_t slots[LOG2HIST_SLOTS];
};

void log2hist_add(struct log2hist *h, uint64_t value);
/* The lowest value slot @slot counts, and the highest. */
uint64_t log2hist_low(unsigned int slot);
uint64_t log2hist_high(unsigned int slot);

/*
 * Print it as bcc does, its values named @unit (add values in that unit:
 * microseconds for "usecs"):
 *
 *	     usecs               : count    distribution
 *	         2 -> 3          : 5        |*****                |
 *
 * from the first to the last non-empty slot.  Nothing if it is empty.
 */
void log2hist_print(FILE *f, const struct log2hist *h, const char *unit);

#endif /* SCHEDREC_DURSTATS_H */
