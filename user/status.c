// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec status: is the module loaded, what does it record, and how full
 * and lossy is each CPU's ring.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "modstate.h"
#include "optspec.h"
#include "procfile.h"
#include "uapi/schedrec.h"

static const char *const event_names[] = SCHEDREC_EVENT_NAMES;

static const struct optspec options[] = {
	{ "help", 'h', no_argument, NULL, "this text\n" },
	{ 0 },
};

static const struct optspec *const tables[] = { options, NULL };

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: schedrec status\n"
		"\n"
		"Show whether schedrec.ko is loaded, its settings (recording on or\n"
		"off, stream or overwrite mode, ring size, events) and per CPU:\n"
		"  written      records written to the ring since recording began\n"
		"  lost         events dropped because the ring was full (stream)\n"
		"  overwritten  records the ring forgot to make room (overwrite)\n"
		"  fill         bytes waiting for a reader, as %% of the ring\n"
		"  peak         the highest fill seen, as %% of the ring\n"
		"\n"
		"Options:\n");
	optspec_help(out, tables);
	fprintf(out,
		"\n"
		"Exit status: 0 loaded; 3 not loaded, not readable (run as root),\n"
		"or speaking another ABI than this schedrec (see schedrec --version).\n"
		"Not loaded on a kernel that loads only signed modules (sig_enforce,\n"
		"or lockdown as under Secure Boot), it says so, and whether the\n"
		"installed schedrec.ko is signed.\n"
		"\n"
		"Example:\n"
		"  schedrec status\n");
}

static void print_events(uint32_t mask)
{
	unsigned int id;
	const char *sep = "";

	printf("events:    ");
	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++) {
		if (mask & (1u << id)) {
			printf("%s%s", sep, event_names[id]);
			sep = " ";
		}
	}
	printf("%s (mask 0x%x)\n", *sep ? "" : "none", mask);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

int cmd_status(int argc, char **argv)
{
	struct procfile_stats st;
	struct modversion mv;
	struct option *opts;
	char shortopts[8];
	unsigned int cpu;
	uint64_t ring;
	int opt, ret;

	opts = optspec_getopt(tables, "", shortopts, sizeof(shortopts));
	if (!opts) {
		tool_error("status", ENOMEM, "cannot start");
		return EXIT_FAIL;
	}
	argv[0] = "schedrec status";	/* for getopt's messages */
	opt = getopt_long(argc, argv, shortopts, opts, NULL);
	free(opts);
	if (opt == 'h') {
		print_help(stdout);
		return EXIT_OK;
	}
	if (opt != -1) {
		fprintf(stderr, "run 'schedrec status --help' for what it shows\n");
		return EXIT_USAGE;
	}
	if (optind < argc) {
		tool_error("status", 0, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	modversion_read(&mv, NULL, NULL);
	ret = modversion_check(&mv, SCHEDREC_ABI_VERSION);
	if (ret == -ENOENT) {
		printf("module:    not loaded (modprobe schedrec, or insmod kmod/schedrec.ko)\n");
		fflush(stdout);
		modstate_explain_signing("status");
		return EXIT_FAIL;
	}
	if (ret) {
		modstate_explain("status", &mv, ret);
		return EXIT_FAIL;
	}
	ret = procfile_stats_read(&st);
	if (ret) {
		tool_error("status", ret, "cannot read %s/stats%s",
			   SCHEDREC_PROC_DIR,
			   ret == -EACCES ? " (run as root)" : "");
		return EXIT_FAIL;
	}
	ring = (uint64_t)st.buf_kb * 1024;
	printf("module:    loaded, ABI %u, version %s\n", mv.abi,
	       *mv.version ? mv.version : "unknown");
	printf("recording: %s, %s mode, %u KiB ring per CPU\n",
	       st.enabled ? "on" : "off",
	       st.overwrite ? "overwrite" : "stream", st.buf_kb);
	print_events(st.events);
	printf("\n%4s %14s %12s %12s %7s %7s\n", "cpu", "written", "lost",
	       "overwritten", "fill", "peak");
	for (cpu = 0; cpu < st.nr_cpus; cpu++) {
		const struct procfile_cpu_stats *c = &st.cpu[cpu];

		printf("%4u %14llu %12llu %12llu %6.1f%% %6.1f%%\n", cpu,
		       (unsigned long long)c->written,
		       (unsigned long long)c->lost,
		       (unsigned long long)c->overwritten,
		       pct(c->head - c->tail, ring), pct(c->peak, ring));
	}
	procfile_stats_free(&st);
	return EXIT_OK;
}
