/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedrec export perfetto writes one of two encodings, each in a file of
 * its own: Perfetto's protobuf trace (export_perfetto.c, the default) and
 * the Chrome JSON trace events (export_perfetto_json.c, --format json).
 * Each is what struct export_format's functions are to the front.
 */
#ifndef SCHEDREC_EXPORT_PERFETTO_H
#define SCHEDREC_EXPORT_PERFETTO_H

#include "export.h"

struct perfetto_writer {
	size_t priv_size;
	int (*start)(void *priv, struct export_ctx *ctx);
	int (*record)(void *priv, struct export_ctx *ctx,
		      const struct export_record *er);	/* NULL: none */
	int (*finish)(void *priv, struct export_ctx *ctx);
	void (*free)(void *priv);
};

extern const struct perfetto_writer perfetto_json;

#endif /* SCHEDREC_EXPORT_PERFETTO_H */
