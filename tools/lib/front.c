// SPDX-License-Identifier: GPL-2.0
/* What schedrec report and schedrec export share; see front.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front.h"
#include "table.h"
#include "timefmt.h"
#include "toolerr.h"
#include "tracepass.h"

const struct optspec front_select_options[] = {
	{ "range", FRONT_OPT_RANGE, required_argument, "START:END",
	  "only the window [START, END) in seconds since the start; a "
	  "side may be empty (12.5:13, :5, 3:)\n" },
	{ "pid", FRONT_OPT_PID, required_argument, "PID[,PID]",
	  "only the threads of these processes (10-12 for a range)\n" },
	{ "tid", FRONT_OPT_TID, required_argument, "TID[,TID]",
	  "only these threads (ranges too)\n" },
	{ "comm", FRONT_OPT_COMM, required_argument, "REGEX",
	  "only threads whose name (at the time) matches this POSIX "
	  "extended regex\n" },
	{ 0 },
};

const struct optspec front_reading_options[] = {
	{ "strict", FRONT_OPT_STRICT, no_argument, NULL,
	  "a corrupt chunk in the trace is an error that ends the "
	  "reading (exit status 1), a damaged header section one that "
	  "refuses the trace (3): not a warning and a skip\n" },
	{ "quiet", 'q', no_argument, NULL,
	  "no warnings or progress on stderr\n" },
	{ "help", 'h', no_argument, NULL, "this text\n" },
	{ 0 },
};

void front_vusage_error(const char *verb, const char *name, const char *fmt,
			va_list ap)
{
	fprintf(stderr, "schedrec %s %s: ", verb, name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void front_usage_error(const struct front *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	front_vusage_error(f->verb, f->name, fmt, ap);
	va_end(ap);
}

struct option *front_getopt(const struct optspec *const *common,
			    const struct optspec *own, char *shortopts,
			    size_t size)
{
	const struct optspec *tables[8];
	size_t n;

	for (n = 0; common[n]; n++) {
		if (n + 2 >= ARRAY_SIZE(tables)) {
			errno = EINVAL;
			return NULL;
		}
		tables[n] = common[n];
	}
	tables[n++] = own;
	tables[n] = NULL;
	return optspec_getopt(tables, ":", shortopts, size);
}

int front_parse(struct front *f, int key, char *const argv[])
{
	static const char *const names[] = {
		[FRONT_OPT_RANGE - FRONT_OPT_RANGE] = "range",
		[FRONT_OPT_PID - FRONT_OPT_RANGE] = "pid",
		[FRONT_OPT_TID - FRONT_OPT_RANGE] = "tid",
		[FRONT_OPT_COMM - FRONT_OPT_RANGE] = "comm",
		[FRONT_OPT_CPU - FRONT_OPT_RANGE] = "cpu",
	};
	char err[512];

	switch (key) {
	case '?':
	case ':':
		front_usage_error(f, key == '?' ?
				  "unknown option '%s'; see schedrec %s %s --help" :
				  "option '%s' needs a value; see schedrec %s %s --help",
				  argv[optind - 1], f->verb, f->name);
		return -EINVAL;
	case FRONT_OPT_RANGE:
	case FRONT_OPT_PID:
	case FRONT_OPT_TID:
	case FRONT_OPT_COMM:
	case FRONT_OPT_CPU:
		if (select_parse(&f->sel, names[key - FRONT_OPT_RANGE], optarg,
				 err, sizeof(err))) {
			front_usage_error(f, "%s", err);
			return -EINVAL;
		}
		f->select_threads |= key == FRONT_OPT_PID ||
				     key == FRONT_OPT_TID ||
				     key == FRONT_OPT_COMM;
		return 0;
	case FRONT_OPT_STRICT:
		f->strict = true;
		return 0;
	case 'q':
		f->quiet = true;
		return 0;
	}
	return -ENOENT;
}

int front_paths(struct front *f, int argc, char *const argv[])
{
	bool stdin_seen = false;
	unsigned int i;

	if (optind == argc) {
		front_usage_error(f, "which trace? give a .srec file (or - for standard input)");
		return -EINVAL;
	}
	f->paths = argv + optind;
	f->nr_paths = argc - optind;
	f->path = f->paths[0];
	for (i = 0; i < f->nr_paths; i++) {
		if (strcmp(f->paths[i], "-"))
			continue;
		if (stdin_seen) {
			front_usage_error(f, "- (standard input) is given twice: it can be read once");
			return -EINVAL;
		}
		stdin_seen = true;
	}
	return 0;
}

/* The reader's diagnostics: errors always, warnings unless -q. */
static void print_diag(void *arg, enum srec_diag_level level,
		       uint64_t offset, const char *msg)
{
	struct front *f = arg;

	(void)offset;
	if (f->quiet && level == SREC_DIAG_WARNING)
		return;
	progress_clear(&f->progress);
	fprintf(stderr, "schedrec %s: %s: %s: %s\n", f->verb,
		level == SREC_DIAG_ERROR ? "error" : "warning",
		trace_path(f->reader, f->paths), msg);
}

/* How far the reader is (srecreader_progress_fn). */
static void show_progress(void *arg, unsigned int file, uint64_t offset)
{
	struct front *f = arg;

	progress_update(&f->progress, file, offset);
}

int front_open(struct front *f)
{
	struct srecreader_options opt = {
		.strict = f->strict, .diag = print_diag, .diag_arg = f,
	};
	struct schedmodel_window window;
	char err[512], label[64];

	if (!f->quiet && isatty(STDERR_FILENO) &&
	    !(f->streams && isatty(STDOUT_FILENO))) {
		snprintf(label, sizeof(label), "schedrec %s %s", f->verb,
			 f->name);
		progress_start(&f->progress, label, f->paths, f->nr_paths);
		opt.progress = show_progress;
		opt.progress_arg = f;
	}
	f->reader = trace_open(f->verb, f->paths, f->nr_paths, &opt);
	if (!f->reader)
		return EXIT_FAIL;
	f->info = srecreader_info(f->reader);
	if (select_check_cpus(&f->sel, f->info->file.nr_cpus, err,
			      sizeof(err))) {
		front_usage_error(f, "%s", err);
		return EXIT_USAGE;
	}
	select_window(&f->sel, &window);
	f->model = schedmodel_new(f->info, &window);
	if (!f->model) {
		tool_error(f->verb, ENOMEM, "cannot start");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void front_pass_over(struct front *f)
{
	progress_clear(&f->progress);
}

bool front_output_is_input(const struct front *f, const char *option,
			   const char *path)
{
	struct stat out, in;
	unsigned int i;

	if (stat(path, &out))
		return false;
	for (i = 0; i < f->nr_paths; i++) {
		if (!stat(f->paths[i], &in) && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino) {
			front_usage_error(f, "%s %s is the trace being read: writing there would destroy it; give another file",
					  option, path);
			return true;
		}
	}
	return false;
}

int front_flush_error(FILE *f)
{
	int before = errno;

	errno = 0;
	if (fflush(f))
		return errno ? -errno : -EIO;
	/* nothing was left to write: an earlier write failed, if any */
	errno = before;
	return stream_error(f);
}

bool front_window_after_end(const struct front *f)
{
	const struct schedmodel *m = f->model;
	uint64_t start, end;
	char a[SECONDS_LEN], b[SECONDS_LEN];
	int digits;

	schedmodel_window_abs(m, &start, &end);
	/* without --range, only a recording of no time: nothing to say */
	if (start < schedmodel_end(m) || !f->sel.has_start)
		return false;
	/* to the ns where microseconds would show them equal */
	for (digits = 6; digits <= 9; digits += 3) {
		format_seconds(a, schedmodel_rel(m, start), digits);
		format_seconds(b, schedmodel_rel(m, schedmodel_end(m)), digits);
		if (strcmp(a, b))
			break;
	}
	front_usage_error(f, "--range starts at %s s, but the recording ends at %s s",
			  a, b);
	return true;
}

/* A warning when --pid, --tid or --comm matched no thread. */
static void warn_unmatched(const struct front *f)
{
	struct task *const *tasks;
	size_t n, i;

	if (f->quiet || !f->select_threads)
		return;
	n = schedmodel_tasks(f->model, &tasks);
	for (i = 0; i < n; i++)
		if (select_task(&f->sel, tasks[i]))
			return;
	fprintf(stderr, "schedrec %s: warning: %s: no thread in the window matches --pid, --tid or --comm\n",
		f->verb, f->paths[0]);
}

/*
 * Whether the window reaches past where a CPU's records end in a file cut
 * short: a pass that stopped at the end of --range did not hear the reader
 * say so, but read less than the window's recording all the same.
 */
static bool window_cut(const struct front *f)
{
	const struct sched_loss *losses;
	size_t n, i;

	n = schedmodel_losses(f->model, &losses);
	for (i = 0; i < n; i++)
		if (losses[i].cut)
			return true;
	return false;
}

int front_pass_status(const struct front *f, int err, const char *doing)
{
	const struct srecreader_status *s = srecreader_status(f->reader);
	const char *why = srecreader_error(f->reader);
	int status = EXIT_OK;

	if (err) {
		fprintf(stderr, "schedrec %s: %s: %s; %s what was read before\n",
			f->verb, f->paths[0], *why ? why : strerror(-err),
			doing);
		status = EXIT_LOST;
	} else if (s->truncated || s->corrupt || s->resyncs ||
		   s->disagrees || s->trailing || (s->over && !s->trailer) ||
		   *why) {
		/* a window may end before an error: it was said all the same */
		status = EXIT_LOST;
	} else if (window_cut(f)) {
		if (!f->quiet)
			fprintf(stderr, "schedrec %s: warning: %s: the file is cut short inside the window (no trailer): what its CPUs ran after their last records is not known\n",
				f->verb, f->paths[0]);
		status = EXIT_LOST;
	}
	warn_unmatched(f);
	return status;
}
