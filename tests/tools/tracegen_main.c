// SPDX-License-Identifier: GPL-2.0
/*
 * tracegen DESC.txt OUT.srec: compile a trace description (tracegen.h)
 * into a .srec file, for writing golden test cases by hand.  DESC.txt may
 * be "-" for standard input.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracegen.h"

/* The whole of @path, NUL-terminated; NULL with errno set on failure. */
static char *read_description(const char *path)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t len = 0, cap = 0;
	char *text = NULL, *bigger;
	bool failed = false;

	if (!in)
		return NULL;
	for (;;) {
		if (cap - len < 2) {
			cap = cap ? 2 * cap : 4096;
			bigger = realloc(text, cap);
			if (!bigger) {
				failed = true;
				break;
			}
			text = bigger;
		}
		len += fread(text + len, 1, cap - len - 1, in);
		if (feof(in) || ferror(in)) {
			failed = ferror(in);
			break;
		}
	}
	if (in != stdin)
		fclose(in);
	if (failed) {
		free(text);
		errno = errno ? errno : EIO;
		return NULL;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		errno = EINVAL;	/* a NUL byte: not a description */
		return NULL;
	}
	return text;
}

int main(int argc, char **argv)
{
	char err[512];
	char *text;
	int ret;

	if (argc != 3 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: tracegen DESC.txt OUT.srec\n"
			"Compile a trace description (see tests/tools/tracegen.h) into a .srec\n"
			"trace; DESC.txt may be - for standard input.\n");
		return argc == 2 ? 0 : 2;
	}
	text = read_description(argv[1]);
	if (!text) {
		fprintf(stderr, "tracegen: cannot read %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	ret = tracegen_write_file(text, argv[2], err, sizeof(err));
	free(text);
	if (ret) {
		fprintf(stderr, "tracegen: %s: %s\n", argv[1], err);
		return 1;
	}
	return 0;
}
