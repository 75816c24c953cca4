// SPDX-License-Identifier: GPL-2.0
/* How a verb says an error: toolerr.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "toolerr.h"

void tool_error(const char *verb, int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedrec %s: ", verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	fputc('\n', stderr);
}
