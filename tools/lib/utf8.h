/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 for the writers of text formats: a thread's name is any bytes, and
 * each format (SVG, JSON, Prometheus text) says what becomes of the bytes
 * that are not UTF-8; this says which those are.
 */
#ifndef SCHEDREC_UTF8_H
#define SCHEDREC_UTF8_H

#include <stddef.h>

/*
 * The length of the UTF-8 character at @s, of at most @left bytes: 1 to 4,
 * or 0 if the bytes there are not one (a stray or missing continuation
 * byte, an overlong form, a surrogate, past U+10FFFF, or cut by @left).
 */
size_t utf8_len(const unsigned char *s, size_t left);

/*
 * The columns a terminal gives the character of @len bytes (utf8_len()'s)
 * at @s: 2 for East Asian wide and fullwidth ones (CJK, Hangul, emoji), 0
 * for combining marks and zero-width ones, else 1.
 */
unsigned int utf8_width(const unsigned char *s, size_t len);

#endif /* SCHEDREC_UTF8_H */
