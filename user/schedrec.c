// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec: the front command.  `schedrec VERB [options]` runs a verb; each
 * verb lives in a file of its own and parses its own options.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "modversion.h"
#include "optspec.h"
#include "uapi/schedrec.h"
#include "verbs.h"

struct verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct verb verbs[] = {
	{ "record", cmd_record, "record scheduling events into a trace file" },
	{ "status", cmd_status, "show the module's state and per-CPU counters" },
	{ "report", cmd_report, "report on a trace: offcpu, tenancy, states, latency,\n"
	  "           heatmap, timeline, folded, flame, html" },
	{ "export", cmd_export, "write a trace for Perfetto, SchedDisplay (schedlog),\n"
	  "           as CSV, or as OpenMetrics for Prometheus" },
};

static const struct optspec options[] = {
	{ "help", 'h', no_argument, NULL, "this text\n" },
	{ "version", 'V', no_argument, NULL,
	  "the versions and ABI of this tool and of the loaded module\n" },
	{ 0 },
};

static const struct optspec *const tables[] = { options, NULL };

static void print_help(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: schedrec VERB [OPTIONS]\n"
		"       schedrec VERB --help\n"
		"\n"
		"Why were my threads not on a CPU?  schedrec records every\n"
		"scheduling event through schedrec.ko and reports on them.\n"
		"\n"
		"Verbs:\n");
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		fprintf(out, "  %-8s %s\n", verbs[i].name, verbs[i].summary);
	fprintf(out,
		"\n"
		"Examples:\n"
		"  schedrec status\n"
		"  schedrec record -C 1 -o run.srec -- sleep 1\n"
		"  schedrec report offcpu run.srec --top 10\n"
		"\n"
		"Options:\n");
	optspec_help(out, tables);
}

/*
 * The tool's version and ABI, then the loaded module's; a module of
 * another ABI is an error (EXIT_FAIL) that says what to do.
 */
static int print_version(void)
{
	struct modversion mv;
	char msg[512];
	int ret;

	printf("schedrec %s (ABI %u)\n", SCHEDREC_VERSION,
	       SCHEDREC_ABI_VERSION);
	modversion_read(&mv, NULL, NULL);
	ret = modversion_check(&mv, SCHEDREC_ABI_VERSION);
	if (ret == -ENOENT) {
		printf("module: not loaded\n");
		return EXIT_OK;
	}
	printf("module: schedrec.ko %s",
	       *mv.version ? mv.version : "(version unknown)");
	if (mv.abi)
		printf(" (ABI %u)\n", mv.abi);
	else if (mv.abi_error != -EPROTO)
		printf(" (ABI unknown: cannot read %s/format: %s%s)\n",
		       SCHEDREC_PROC_DIR, strerror(-mv.abi_error),
		       mv.abi_error == -EACCES ? "; run as root" : "");
	else
		printf(" (ABI not stated)\n");
	if (ret != -EPROTO)
		return EXIT_OK;
	modversion_mismatch(msg, sizeof(msg), &mv, SCHEDREC_VERSION,
			    SCHEDREC_ABI_VERSION);
	tool_error("--version", 0, "%s", msg);
	return EXIT_FAIL;
}

int main(int argc, char **argv)
{
	const struct optspec *o;
	size_t i;

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	o = optspec_word(options, argv[1]);
	if ((o && o->key == 'h') || !strcmp(argv[1], "help")) {
		print_help(stdout);
		return EXIT_OK;
	}
	if (o && o->key == 'V')
		return print_version();
	if (argv[1][0] == '-') {
		fprintf(stderr, "schedrec: unknown option '%s'; run 'schedrec --help' for the options\n",
			argv[1]);
		return EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(argv[1], verbs[i].name))
			return verbs[i].run(argc - 1, argv + 1);
	fprintf(stderr, "schedrec: unknown verb '%s'; run 'schedrec --help' for the list\n",
		argv[1]);
	return EXIT_USAGE;
}
