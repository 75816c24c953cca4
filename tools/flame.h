/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot/cold flame graph of folded stacks (foldstack.h, flamegraph.h):
 * drawn by `report flame` (tools/flame.c), and by `report folded --svg`.
 */
#ifndef SCHEDREC_FLAME_H
#define SCHEDREC_FLAME_H

#include <stddef.h>

#include "foldstack.h"
#include "report.h"

/*
 * Draw the @n @lines of foldstack_lines() as one hot/cold flame graph into
 * ctx->svg_path.  0, or -errno (said on stderr).
 */
int flame_draw_svg(struct report_ctx *ctx, const struct fold_line *lines,
		   size_t n);

#endif /* SCHEDREC_FLAME_H */
