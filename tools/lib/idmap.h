/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idmap: a map from 64-bit ids (a pid, or a pair of ids) to dense indexes
 * 0, 1, 2... in the order ids were first seen, for reports that group rows
 * by process or number (process, thread) pairs.
 */
#ifndef SCHEDREC_IDMAP_H
#define SCHEDREC_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idmap {
	uint64_t *keys;		/* slot -> id */
	uint32_t *values;	/* slot -> index + 1, 0: empty */
	size_t mask;
	size_t count;
};

/* The index of @id, given the next one if new; -1 on ENOMEM. */
long idmap_get(struct idmap *map, uint64_t id);
/* The index of @id, or -1 if it has none. */
long idmap_find(const struct idmap *map, uint64_t id);

/* The id of two 32-bit ids. */
static inline uint64_t idmap_pair(uint32_t a, uint32_t b)
{
	return (uint64_t)a << 32 | b;
}
void idmap_free(struct idmap *map);

/*
 * Items of @size bytes kept by id, in the order the ids came: the rows of
 * a report grouped by process.
 */
struct keyed {
	struct idmap index;
	void *items;
	size_t size;		/* of an item: set before the first get */
	size_t count;
	size_t cap;
};

/*
 * The item of @id, zeroed if new (then *@fresh, if not NULL, is true);
 * NULL on ENOMEM.  Pointers stay valid until the next keyed_get().
 */
void *keyed_get(struct keyed *k, uint64_t id, bool *fresh);
/* Item @i, 0 <= i < count. */
static inline void *keyed_item(const struct keyed *k, size_t i)
{
	return (char *)k->items + i * k->size;
}
void keyed_free(struct keyed *k);

#endif /* SCHEDREC_IDMAP_H */
