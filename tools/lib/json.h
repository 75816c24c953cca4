/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON strings of any bytes, for the writers of JSON (export perfetto,
 * the data of report html's page): a thread's name or a path is any
 * bytes, and what is written must be UTF-8.
 */
#ifndef SCHEDREC_JSON_H
#define SCHEDREC_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * @len bytes of @s as the inside of a JSON string into @dst, which has
 * room for 6 * @len bytes; returns the length.  Control bytes, and < > &
 * (so that the string may stand inside an HTML <script>), become \u00XX;
 * bytes that are not UTF-8 become the code point of the same value, as
 * Latin-1 reads them.
 */
size_t json_escape(char *dst, const char *s, size_t len);

/* @s as a JSON string, quotes included, to @f. */
void json_put_string(FILE *f, const char *s);

#endif /* SCHEDREC_JSON_H */
