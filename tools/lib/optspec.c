// SPDX-License-Identifier: GPL-2.0
/* Option tables: getopt's table and --help from one; see optspec.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "optspec.h"

/* An option wider than this (its left part) does not set the column */
#define OPTSPEC_WIDE 24
/* Help lines end before this column */
#define OPTSPEC_WIDTH 79

static bool is_short(int key)
{
	return key > ' ' && key < 0x7f;
}

struct option *optspec_getopt(const struct optspec *const *tables,
			      const char *prefix, char *shortopts,
			      size_t size)
{
	const struct optspec *const *t;
	const struct optspec *o;
	struct option *opts;
	size_t n = 0, len;

	for (t = tables; *t; t++)
		for (o = *t; o->name; o++)
			n++;
	len = strlen(prefix);
	if (len >= size) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(shortopts, prefix, len + 1);
	opts = calloc(n + 1, sizeof(*opts));
	if (!opts)
		return NULL;
	n = 0;
	for (t = tables; *t; t++) {
		for (o = *t; o->name; o++) {
			if (!o->key)
				continue;
			opts[n++] = (struct option){
				o->name, o->has_arg, NULL, o->key,
			};
			if (!is_short(o->key))
				continue;
			if (len + 3 >= size) {
				free(opts);
				errno = EINVAL;
				return NULL;
			}
			shortopts[len++] = o->key;
			if (o->has_arg != no_argument)
				shortopts[len++] = ':';
			if (o->has_arg == optional_argument)
				shortopts[len++] = ':';
			shortopts[len] = '\0';
		}
	}
	return opts;
}

/* "  -o, --output FILE" into @buf (of 128), its length */
static int left_part(const struct optspec *o, bool indent, char *buf)
{
	const char *arg = o->arg ? o->arg : "";
	const char *sep = *arg && *arg != '=' && *arg != '[' ? " " : "";

	if (is_short(o->key))
		return snprintf(buf, 128, "  -%c, --%s%s%s", o->key, o->name,
				sep, arg);
	return snprintf(buf, 128, "  %s--%s%s%s", indent ? "    " : "",
			o->name, sep, arg);
}

static const char *skip(const char *p, const char *end, bool spaces)
{
	while (p < end && (*p == ' ') == spaces)
		p++;
	return p;
}

/*
 * One line of an option's help, [@s, @end), put at column @pos, its
 * words wrapped before OPTSPEC_WIDTH.  Its continuations hang under its
 * second word if two spaces or more come before it ("oncpu     on-CPU
 * time..."), else under its first.
 */
static void put_line(FILE *f, const char *s, const char *end, int pos)
{
	const char *first = skip(s, end, true);
	const char *gap = skip(first, end, false);
	const char *second = skip(gap, end, true);
	const char *p = s, *word, *after;
	int hang = pos + (int)((second - gap >= 2 && second < end ?
				second : first) - s);

	while ((word = skip(p, end, true)) < end) {
		after = skip(word, end, false);
		if (p != s && pos + (after - p) > OPTSPEC_WIDTH) {
			fprintf(f, "\n%*s", hang, "");
			pos = hang;
			p = word;
		}
		fwrite(p, 1, after - p, f);
		pos += after - p;
		p = after;
	}
	fputc('\n', f);
}

void optspec_help(FILE *f, const struct optspec *const *tables)
{
	const struct optspec *const *t;
	const struct optspec *o;
	bool indent = false;
	char left[128];
	int column = 0, w;

	for (t = tables; *t; t++)
		for (o = *t; o->name; o++)
			indent |= is_short(o->key);
	for (t = tables; *t; t++) {
		for (o = *t; o->name; o++) {
			w = left_part(o, indent, left);
			if (w <= OPTSPEC_WIDE && w + 2 > column)
				column = w + 2;
		}
	}
	for (t = tables; *t; t++) {
		for (o = *t; o->name; o++) {
			const char *line = o->help ? o->help : "", *end;
			int pos;

			w = left_part(o, indent, left);
			pos = w + 2 <= column ? column : w + 3;
			fputs(left, f);
			if (!*line)
				fputc('\n', f);
			for (; *line; line = *end ? end + 1 : end) {
				end = strchrnul(line, '\n');
				fprintf(f, "%*s", pos - w, "");
				put_line(f, line, end, pos);
				pos = column;
				w = 0;
			}
		}
	}
}

const struct optspec *optspec_find(const struct optspec *table,
				   const char *name)
{
	for (; table && table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

const struct optspec *optspec_word(const struct optspec *table,
				   const char *word)
{
	if (word[0] != '-')
		return NULL;
	if (word[1] == '-')
		return optspec_find(table, word + 2);
	for (; table && table->name && word[1] && !word[2]; table++)
		if (is_short(table->key) && table->key == word[1])
			return table;
	return NULL;
}
