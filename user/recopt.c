// SPDX-License-Identifier: GPL-2.0
/*
 * `schedrec record` options: parsing, checks and --help.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "optspec.h"
#include "recopt.h"
#include "timefmt.h"
#include "uapi/schedrec.h"

static const char *const event_names[] = SCHEDREC_EVENT_NAMES;

/*
 * What -e stack costs, measured by `make bench` (tests/bench, BENCH_STACK=1,
 * 12 rounds, two boots) on Debian's 6.12 under QEMU -icount, where a ns is
 * a guest instruction, recording switch and waking with and without stack
 * (stack_depth 24), added ns per event, median of the per-round ratios:
 *
 *	perf bench sched pipe on CPU 0:   402/419 without, 4254/4227 with,
 *	                                  x10.6/x10.1; 5794/5716 more per
 *	                                  context switch
 *	perf bench sched pipe:            473/446 without, 2765/2745 with,
 *	                                  x5.9/x6.2 (half the switches are
 *	                                  from idle: no stack)
 *	hackbench -g 2 -l 100:            too noisy for a ratio; 7100 more
 *	                                  per context switch
 *
 * Stack records took 72 to 100 bytes (6 to 10 frames); a pinned switch
 * costs about 6500 instructions untraced.  --help says so under -e.
 */
enum {
	OPT_TID = 0x100,
	OPT_WAIT,
	OPT_DUMP,
	OPT_ROTATE,
	OPT_KEEP,
	OPT_DIRECT,
};

static const struct optspec options[] = {
	{ "cpu", 'C', required_argument, "CPU",
	  "pin the drainer to CPU, its memory on CPU's NUMA node "
	  "(default: not pinned)\n" },
	{ "output", 'o', required_argument, "FILE",
	  "the trace, '-' for stdout (default schedrec.srec); with "
	  "'-', COMMAND's stdout goes to stderr\n" },
	{ "events", 'e', required_argument, "LIST",
	  "events to record, comma-separated, or 'all' (default all): "
	  "switch waking wakeup wakeup_new migrate fork exec exit "
	  "rename, and stack, which 'all' leaves out: the kernel "
	  "stack of every thread going off-CPU (the trace then holds "
	  "/proc/kallsyms to name it).  Costly: a stack walk per "
	  "switch, measured at 10x schedrec's cost per event without "
	  "it (about 5800 more instructions per switch, as much as "
	  "the switch itself), and 70 to 100 more bytes per switch\n" },
	{ "duration", 'd', required_argument, "TIME",
	  "stop after TIME: 30, 1.5s, 500ms, 2m\n" },
	{ "pid", 'p', required_argument, "PID",
	  "keep only events of process PID's threads (and switches "
	  "and wakeups involving them)\n" },
	{ "tid", OPT_TID, required_argument, "TID",
	  "keep only events of thread TID\n" },
	{ "buf-kb", 'm', required_argument, "KB",
	  "per-CPU ring size in KiB, a power of two (default: the "
	  "module's buf_kb)\n" },
	{ "rotate", OPT_ROTATE, required_argument, "SIZE",
	  "write a series of files of at most SIZE bytes (K, M, G "
	  "suffixes; at least 256K): -o run.srec writes "
	  "run.0001.srec, run.0002.srec...\n" },
	{ "keep", OPT_KEEP, required_argument, "N",
	  "with --rotate, keep only the N newest files\n" },
	{ "compress", 'z', optional_argument, "[=N]",
	  "zlib-compress chunks, level N (default 1)\n" },
	{ "direct", OPT_DIRECT, no_argument, NULL,
	  "write FILE with O_DIRECT, past the page cache, in 1 MiB "
	  "blocks: for rates the page cache cannot take (with -m "
	  "65536, make bench drains 20 M records/s without loss this "
	  "way).  Up to a second of records waits in memory between "
	  "writes.  Where the file system refuses O_DIRECT, a "
	  "warning, and the page cache\n" },
	{ "wait", OPT_WAIT, required_argument, "=MODE",
	  "poll: sleep in poll() until a ring is a quarter full "
	  "(default); spin: never sleep, for an isolated CPU; "
	  "adaptive: spin, then short naps\n" },
	{ "dump", OPT_DUMP, no_argument, NULL,
	  "dump the flight recorder: the rings of a module recording "
	  "in overwrite mode, oldest first; recording pauses while it "
	  "reads\n" },
	{ "quiet", 'q', no_argument, NULL,
	  "no status line, no summary unless events were lost\n" },
	{ "help", 'h', no_argument, NULL, "this text\n" },
	{ 0 },
};

static const struct optspec *const tables[] = { options, NULL };

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: schedrec record [OPTIONS] [-- COMMAND [ARGS...]]\n"
		"       schedrec record --dump [-o FILE]\n"
		"\n"
		"Record scheduling events of every CPU into a trace file, until\n"
		"COMMAND exits, -d passes, or Ctrl-C (SIGINT, SIGTERM, SIGHUP).\n"
		"The module's settings are changed for the recording and put back\n"
		"afterwards.  Needs root and schedrec.ko loaded.\n"
		"\n"
		"Options:\n");
	optspec_help(out, tables);
	fprintf(out,
		"\n"
		"Exit status: 0 recorded, nothing lost; 1 recorded, but events were\n"
		"lost (the summary says which CPUs lost how many and when); 2 wrong\n"
		"usage; 3 could not record (module, permission, I/O).\n"
		"\n"
		"Examples:\n"
		"  schedrec record -C 1 -o run.srec -- sleep 1\n"
		"  schedrec record -C 1 -d 30 -o run.srec\n"
		"  schedrec record -C 1 -e all,stack -o run.srec -- sleep 1\n"
		"  schedrec record -C 1 -e switch,waking,exit -p 1 -d 5 -o - | gzip > init.srec.gz\n"
		"  schedrec record -C 1 -d 10 --rotate 1M --keep 4 -o /tmp/run.srec\n"
		"  schedrec record -C 1 -m 65536 --direct -d 5 -o /var/tmp/busy.srec\n"
		"  echo overwrite > /proc/schedrec/mode; echo 1 > /proc/schedrec/enable\n"
		"  schedrec record --dump -o crash.srec\n");
}

static int parse_events(const char *list, uint32_t *mask)
{
	char buf[256], *tok, *save = NULL;
	unsigned int id;

	if (strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			*mask |= SCHEDREC_EV_ALL_MASK;
			continue;
		}
		for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
			if (SCHEDREC_EV_IS_EVENT(id) &&
			    !strcmp(tok, event_names[id]))
				break;
		if (id > SCHEDREC_EV_LAST)
			return -EINVAL;
		*mask |= 1u << id;
	}
	return *mask ? 0 : -EINVAL;
}

/* "262144", "256K", "256M", "1G", "2T", also "256MiB" or "256MB" */
static int parse_size(const char *s, uint64_t *bytes)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	const char *unit;
	char *end;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	if (*end) {
		unit = strchr(units, toupper((unsigned char)*end));
		if (!unit)
			return -EINVAL;
		shift = 10 * (unit - units + 1);
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B"))
			end += strlen(end);
	}
	if (*end || v > (UINT64_MAX >> shift))
		return -EINVAL;
	*bytes = (uint64_t)v << shift;
	return 0;
}

/* -d: a duration as the reports take it ("1.5s", "2m"), or bare seconds */
static int parse_record_duration(const char *s, uint64_t *ns)
{
	if (parse_seconds(s, ns) && parse_duration(s, ns))
		return -EINVAL;
	return *ns ? 0 : -EINVAL;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || *v > max)
		return -EINVAL;
	return 0;
}

static void save_cmdline(struct recopt *o, int argc, char **argv)
{
	size_t len = 0;
	int i, n;

	for (i = 0; i < argc && len < sizeof(o->cmdline); i++) {
		n = snprintf(o->cmdline + len, sizeof(o->cmdline) - len, "%s%s",
			     i ? " " : "", argv[i]);
		if (n < 0)
			break;
		len += n;
	}
}

static int bad(const char *what, const char *value, const char *hint)
{
	tool_error("record", 0, "bad %s '%s': %s", what, value, hint);
	return -1;
}

/* An option getopt_long() returned: 0, 1 after --help, -1 after an error */
static int parse_option(struct recopt *o, int opt)
{
	unsigned long v;

	switch (opt) {
	case 'C':
		if (parse_uint(optarg, 65535, &v))
			return bad("CPU", optarg, "give a CPU number, e.g. -C 3");
		o->cpu = v;
		break;
	case 'o':
		o->output = optarg;
		break;
	case 'e':
		if (parse_events(optarg, &o->events))
			return bad("event list", optarg,
				   "names from switch waking wakeup wakeup_new migrate fork exec exit rename stack, comma-separated, or all");
		break;
	case 'd':
		if (parse_record_duration(optarg, &o->duration_ns))
			return bad("duration", optarg, "e.g. 30, 1.5s, 500ms, 2m");
		break;
	case 'p':
		if (parse_uint(optarg, 1u << 30, &v) || !v)
			return bad("process id", optarg, "give a PID, e.g. -p 4242");
		o->pid = v;
		break;
	case OPT_TID:
		if (parse_uint(optarg, 1u << 30, &v) || !v)
			return bad("thread id", optarg, "give a TID, e.g. --tid 4243");
		o->tid = v;
		break;
	case 'm':
		if (parse_uint(optarg, 262144, &v) || v < 4 ||
		    (v & (v - 1)))
			return bad("ring size", optarg, "a power of two from 4 to 262144 KiB");
		o->buf_kb = v;
		break;
	case 'z':
		o->zlib_level = 1;
		if (optarg && (parse_uint(optarg, 9, &v) || !v))
			return bad("compression level", optarg, "1 (fast) to 9 (small)");
		if (optarg)
			o->zlib_level = v;
		break;
	case OPT_WAIT:
		if (!strcmp(optarg, "poll"))
			o->wait = RECOPT_WAIT_POLL;
		else if (!strcmp(optarg, "spin"))
			o->wait = RECOPT_WAIT_SPIN;
		else if (!strcmp(optarg, "adaptive"))
			o->wait = RECOPT_WAIT_ADAPTIVE;
		else
			return bad("--wait mode", optarg, "poll, spin or adaptive");
		break;
	case OPT_DUMP:
		o->dump = true;
		break;
	case OPT_ROTATE:
		if (parse_size(optarg, &o->rotate_bytes) ||
		    o->rotate_bytes < RECOPT_ROTATE_MIN)
			return bad("--rotate size", optarg, "bytes with a K, M, G or T suffix, at least 256K, e.g. --rotate 256M");
		break;
	case OPT_KEEP:
		if (parse_uint(optarg, 1000000, &v) || !v)
			return bad("--keep count", optarg, "how many files to keep, at least 1, e.g. --keep 8");
		o->keep = v;
		break;
	case OPT_DIRECT:
		o->direct = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'h':
		print_help(stdout);
		return 1;
	default:
		fprintf(stderr, "run 'schedrec record --help' for the options\n");
		return -1;
	}
	return 0;
}

int recopt_parse(struct recopt *o, int argc, char **argv)
{
	struct option *longopts;
	char shortopts[32];
	int opt, ret = 0;

	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->output = "schedrec.srec";
	o->events = SCHEDREC_EV_ALL_MASK;
	save_cmdline(o, argc, argv);
	argv[0] = "schedrec record";	/* for getopt's messages */
	optind = 1;
	longopts = optspec_getopt(tables, "+", shortopts, sizeof(shortopts));
	if (!longopts) {
		tool_error("record", ENOMEM, "cannot start");
		return -1;
	}
	while ((opt = getopt_long(argc, argv, shortopts, longopts,
				  NULL)) != -1) {
		ret = parse_option(o, opt);
		if (ret)
			break;
	}
	free(longopts);
	if (ret)
		return ret;
	if (optind < argc)
		o->argv = argv + optind;
	if (o->dump && (o->argv || o->duration_ns || o->pid || o->tid ||
			o->buf_kb || o->rotate_bytes)) {
		tool_error("record", 0, "--dump takes only -o, -C, -z and -q: it saves what the rings already hold");
		return -1;
	}
	if (o->keep && !o->rotate_bytes) {
		tool_error("record", 0, "--keep counts the files of a rotation: give --rotate SIZE too");
		return -1;
	}
	if (o->rotate_bytes && !strcmp(o->output, "-")) {
		tool_error("record", 0, "--rotate writes a series of files: give -o FILE, not stdout");
		return -1;
	}
	if (o->direct && !strcmp(o->output, "-")) {
		tool_error("record", 0, "--direct writes a file past the page cache: give -o FILE, not stdout");
		return -1;
	}
	if (o->pid && o->tid) {
		tool_error("record", 0, "give -p or --tid, not both");
		return -1;
	}
	if (o->pid)
		snprintf(o->filter_text, sizeof(o->filter_text), "pid %u",
			 o->pid);
	else if (o->tid)
		snprintf(o->filter_text, sizeof(o->filter_text), "tid %u",
			 o->tid);
	return 0;
}
