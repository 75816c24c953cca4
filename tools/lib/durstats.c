// SPDX-License-Identifier: GPL-2.0
/* Statistics of durations in bounded memory; see durstats.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "durstats.h"

/* The middle of bucket @b. */
static uint64_t bucket_middle(unsigned int b)
{
	unsigned int shift;
	uint64_t low;

	if (b < (2u << DURSTATS_SUB_BITS))
		return b;
	shift = (b >> DURSTATS_SUB_BITS) - 1;
	low = (uint64_t)((b & ((1u << DURSTATS_SUB_BITS) - 1)) |
			 (1u << DURSTATS_SUB_BITS)) << shift;
	return low + (1ull << shift) / 2;
}

/* Value @i of those kept. */
static uint64_t value_at(const struct durstats *d, uint32_t i)
{
	return d->wide ? ((const uint64_t *)d->values)[i] :
			 ((const uint32_t *)d->values)[i];
}

/*
 * The values kept, the first @n of them set, as uint64_t: false if out of
 * memory (nothing changed).  They are widened in place from the last.
 */
static bool widen(struct durstats *d, uint32_t n)
{
	uint64_t *wide;
	uint32_t i;

	if (d->wide)
		return true;
	wide = d->cap ? realloc(d->values, d->cap * sizeof(*wide)) : NULL;
	if (d->cap && !wide)
		return false;
	for (i = n; i-- > 0;)
		wide[i] = ((const uint32_t *)wide)[i];
	d->values = wide;
	d->wide = true;
	return true;
}

static void to_buckets(struct durstats *d)
{
	uint32_t i;

	d->buckets = calloc(DURSTATS_BUCKETS, sizeof(*d->buckets));
	if (!d->buckets) {
		d->failed = true;
		return;
	}
	for (i = 0; i < DURSTATS_EXACT; i++)
		durstats_count(d, durstats_bucket_of(value_at(d, i)));
	free(d->values);
	d->values = NULL;
	d->cap = 0;
}

/* the room doubles from DURSTATS_FIRST to DURSTATS_EXACT exactly */
_Static_assert(DURSTATS_EXACT % DURSTATS_FIRST == 0 &&
	       !((DURSTATS_EXACT / DURSTATS_FIRST) &
		 (DURSTATS_EXACT / DURSTATS_FIRST - 1)),
	       "DURSTATS_EXACT is DURSTATS_FIRST times a power of two");

void durstats_add_slow(struct durstats *d, uint64_t ns)
{
	if (d->failed)
		return;
	if (d->count <= DURSTATS_EXACT) {
		/* most threads have few intervals: room as they come */
		uint32_t cap = d->cap ? 2 * d->cap : DURSTATS_FIRST;
		void *values;

		if (ns > UINT32_MAX && !widen(d, d->count - 1))
			goto failed;
		if (d->count > d->cap) {
			values = realloc(d->values, (size_t)cap *
					 (d->wide ? sizeof(uint64_t) :
						    sizeof(uint32_t)));
			if (!values)
				goto failed;
			d->values = values;
			d->cap = cap;
		}
		if (d->wide)
			((uint64_t *)d->values)[d->count - 1] = ns;
		else
			((uint32_t *)d->values)[d->count - 1] = ns;
		return;
	}
	to_buckets(d);
	if (d->buckets)
		durstats_count(d, durstats_bucket_of(ns));
	return;
failed:
	d->failed = true;
}

void durstats_carry(struct durstats *d, unsigned int b)
{
	if (!d->carries)
		d->carries = calloc(DURSTATS_BUCKETS, sizeof(*d->carries));
	if (d->carries)
		d->carries[b]++;
	else
		d->failed = true;
}

/* Parts this small are sorted by insertion */
#define SORT_SMALL	16

static void swap_values(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

/*
 * The value of rank @k (from 0) of the @n values at @v, ascending, put in
 * its place there: a quickselect, the median of three as the pivot and
 * Hoare's partition, then the part left (few values) sorted by insertion.
 * One percentile costs a pass or two over the values, not a sort.
 */
static uint64_t select_value(uint64_t *v, size_t n, size_t k)
{
	size_t i, j;
	uint64_t pivot, x;

	while (n > SORT_SMALL) {
		if (v[n / 2] < v[0])
			swap_values(&v[n / 2], &v[0]);
		if (v[n - 1] < v[n / 2]) {
			swap_values(&v[n - 1], &v[n / 2]);
			if (v[n / 2] < v[0])
				swap_values(&v[n / 2], &v[0]);
		}
		pivot = v[n / 2];
		/*
		 * then [0, j] <= pivot <= [j + 1, n), and neither part is
		 * empty, as v[0] <= pivot <= v[n - 1]: the search goes on
		 * in the part that holds rank @k
		 */
		i = 0;
		j = n - 1;
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap_values(&v[i++], &v[j--]);
		}
		j++;
		if (k < j) {
			n = j;
		} else {
			v += j;
			n -= j;
			k -= j;
		}
	}
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[k];
}

uint64_t durstats_percentile(struct durstats *d, double pct)
{
	uint64_t rank, seen = 0, v;
	unsigned int b;

	if (!d->count || d->failed)
		return 0;
	rank = (uint64_t)(pct / 100.0 * d->count);
	if ((double)rank < pct / 100.0 * d->count)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > d->count)
		rank = d->count;
	if (d->values) {
		/* as 64-bit values: only those of rows printed */
		if (!widen(d, d->count)) {
			d->failed = true;
			return 0;
		}
		return select_value(d->values, d->count, rank - 1);
	}
	for (b = 0; b < DURSTATS_BUCKETS; b++) {
		seen += d->buckets[b] +
			((uint64_t)(d->carries ? d->carries[b] : 0) <<
			 8 * sizeof(*d->buckets));
		if (seen >= rank)
			break;
	}
	v = bucket_middle(b < DURSTATS_BUCKETS ? b : DURSTATS_BUCKETS - 1);
	return v < d->min ? d->min : v > d->max ? d->max : v;
}

void durstats_free(struct durstats *d)
{
	free(d->values);
	free(d->buckets);
	free(d->carries);
	memset(d, 0, sizeof(*d));
}

void log2hist_add(struct log2hist *h, uint64_t value)
{
	h->slots[value ? durstats_highest_bit(value) : 0]++;
}

uint64_t log2hist_low(unsigned int slot)
{
	return slot ? 1ull << slot : 0;
}

uint64_t log2hist_high(unsigned int slot)
{
	return slot >= 63 ? UINT64_MAX : (2ull << slot) - 1;
}

#define STARS_MAX	40

void log2hist_print(FILE *f, const struct log2hist *h, const char *unit)
{
	int first = -1, last = -1, i, stars, j;
	uint64_t most = 0;
	char star_line[STARS_MAX + 1];

	for (i = 0; i < LOG2HIST_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (h->slots[i] > most)
			most = h->slots[i];
	}
	if (first < 0)
		return;
	fprintf(f, "%10s%-14s : count    distribution\n", unit, "");
	for (i = first; i <= last; i++) {
		uint64_t count = h->slots[i];

		stars = (int)((count * STARS_MAX + most - 1) / most);
		for (j = 0; j < STARS_MAX; j++)
			star_line[j] = j < stars ? '*' : ' ';
		star_line[STARS_MAX] = '\0';
		fprintf(f, "%10llu -> %-10llu : %-8llu |%s|\n",
			(unsigned long long)log2hist_low(i),
			(unsigned long long)log2hist_high(i),
			(unsigned long long)count, star_line);
	}
}
