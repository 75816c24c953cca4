// SPDX-License-Identifier: GPL-2.0
/* Dense indexes for 32-bit ids; see idmap.h. */
#include <stdlib.h>
#include <string.h>

#include "idmap.h"

static size_t slot_of(size_t mask, uint64_t id)
{
	return ((id ^ id >> 29) * 0x9e3779b97f4a7c15ull >> 32) & mask;
}

static int grow(struct idmap *map)
{
	size_t mask = map->mask ? 2 * map->mask + 1 : 63, i, j;
	uint64_t *keys = calloc(mask + 1, sizeof(*keys));
	uint32_t *values = calloc(mask + 1, sizeof(*values));

	if (!keys || !values) {
		free(keys);
		free(values);
		return -1;
	}
	for (i = 0; map->values && i <= map->mask; i++) {
		if (!map->values[i])
			continue;
		for (j = slot_of(mask, map->keys[i]); values[j];
		     j = (j + 1) & mask)
			;
		keys[j] = map->keys[i];
		values[j] = map->values[i];
	}
	free(map->keys);
	free(map->values);
	map->keys = keys;
	map->values = values;
	map->mask = mask;
	return 0;
}

long idmap_get(struct idmap *map, uint64_t id)
{
	size_t i;

	if ((map->count + 1) * 4 > (map->mask + 1) * 3 && grow(map))
		return -1;
	for (i = slot_of(map->mask, id); map->values[i];
	     i = (i + 1) & map->mask)
		if (map->keys[i] == id)
			return map->values[i] - 1;
	map->keys[i] = id;
	map->values[i] = ++map->count;
	return map->count - 1;
}

long idmap_find(const struct idmap *map, uint64_t id)
{
	size_t i;

	if (!map->values)
		return -1;
	for (i = slot_of(map->mask, id); map->values[i];
	     i = (i + 1) & map->mask)
		if (map->keys[i] == id)
			return map->values[i] - 1;
	return -1;
}

void idmap_free(struct idmap *map)
{
	free(map->keys);
	free(map->values);
	map->keys = NULL;
	map->values = NULL;
	map->mask = 0;
	map->count = 0;
}

void *keyed_get(struct keyed *k, uint64_t id, bool *fresh)
{
	long i = idmap_get(&k->index, id);
	void *items;

	if (i < 0)
		return NULL;
	if (fresh)
		*fresh = (size_t)i == k->count;
	if ((size_t)i < k->count)
		return keyed_item(k, i);
	if (k->count == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 64;

		items = realloc(k->items, cap * k->size);
		if (!items)
			return NULL;
		k->items = items;
		k->cap = cap;
	}
	memset(keyed_item(k, k->count), 0, k->size);
	return keyed_item(k, k->count++);
}

void keyed_free(struct keyed *k)
{
	idmap_free(&k->index);
	free(k->items);
	k->items = NULL;
	k->count = 0;
	k->cap = 0;
}
