// SPDX-License-Identifier: GPL-2.0
/*
 * Golden tests of `schedrec report`: each NAME.case file of
 * tests/tools/golden describes a recording (tracegen.h) and commands to run
 * on it, with the exact output they must print.
 *
 *	# free text: what the case checks
 *	--- trace
 *	thread 100 100 app
 *	0ms cpu0 switch 0 R0 100
 *	--- run: report offcpu TRACE --tid 100
 *	...the exact expected stdout, every line up to the next "--- "...
 *	--- run (exit 2): report offcpu TRACE --range x
 *	--- stderr contains: bad --range
 *	--- svg contains: <svg
 *
 * A run's words are split on whitespace; double quotes group words ("^a
 * b"), with \" and \\ inside them.  The word TRACE becomes trace.srec, the
 * compiled trace, and SVG out.svg, a file for --svg (whole words only):
 * names relative to the directory the command runs in, so that a report
 * that prints its file name prints the same every time.  Each run is
 * one TAP test, "CASE: ARGS", and checks the exit status (default 0),
 * stdout (exactly the block's text, every line until the next "--- " line,
 * blank lines included: no text means empty stdout), and each "stderr
 * contains" and "svg contains" line after it (substrings of stderr, of the
 * SVG file).  The command runs in a fresh temporary directory, stdin
 * /dev/null, LC_ALL=C and TZ=UTC, and is killed after 20 s.  A case whose
 * trace does not compile fails every run; a case without a run fails once.
 * Stdout cannot hold a line that starts with "--- ", and its last line
 * must end with a newline.
 *
 * Environment: SCHEDREC_BIN, the schedrec to run (default
 * build/user/schedrec of this tree); SCHEDREC_GOLDEN_DIR, the cases
 * (default tests/tools/golden next to this file).  Both defaults come from
 * the path tests/tools was compiled from (run_util.h), so the binary runs
 * from any cwd.
 *
 * Writing a case: write the trace and the run lines with no expected text,
 * then run with UPDATE_GOLDEN=1: every run's stdout block is replaced with
 * what the command printed (nothing else in the file changes), and the
 * stdout comparison is skipped.  Read the result before committing it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "run_util.h"
#include "tracegen.h"

#define DIFF_CONTEXT		3
#define DIFF_LINES_MAX		40
#define STDERR_LINES_SHOWN	20
#define TRACE_NAME		"trace.srec"
#define SVG_NAME		"out.svg"

struct golden_run {
	unsigned int line;	/* of its "--- run" line */
	char *args;		/* as written */
	int exit_code;
	size_t body_start;	/* its stdout block in the case text */
	size_t body_end;
	char **stderr_needles;
	size_t nr_stderr;
	char **svg_needles;
	size_t nr_svg;
	struct run_result res;	/* what it printed */
	bool ran;		/* it ended by itself: out is all of it */
};

struct golden_case {
	char *path;
	const char *name;	/* the file name in path */
	char *text;
	size_t len;
	char *trace;		/* the trace block, NULL if none */
	unsigned int trace_line;
	struct golden_run *runs;
	size_t nr_runs;
	char error[512];	/* why the case file is malformed, "" if not */
};

struct config {
	const char *bin;
	char dir[4096];
	bool update;
};

static void *grow(void *array, size_t count, size_t size)
{
	array = realloc(array, (count + 1) * size);
	if (!array)
		ksft_exit_fail_msg("out of memory\n");
	return array;
}

static char *copy_string(const char *s, size_t len)
{
	char *copy = strndup(s, len);

	if (!copy)
		ksft_exit_fail_msg("out of memory\n");
	return copy;
}

static void read_config(struct config *cfg)
{
	const char *dir = getenv("SCHEDREC_GOLDEN_DIR");
	const char *update = getenv("UPDATE_GOLDEN");

	cfg->bin = schedrec_bin();
	if (dir && *dir)
		snprintf(cfg->dir, sizeof(cfg->dir), "%s", dir);
	else
		snprintf(cfg->dir, sizeof(cfg->dir), "%s/golden",
			 tools_test_dir());
	cfg->update = update && *update && strcmp(update, "0");
}

static __printf(3, 4) void case_error(struct golden_case *c,
				      unsigned int line, const char *fmt, ...);

/* The case file is malformed: remember the first reason. */
static void case_error(struct golden_case *c, unsigned int line,
		       const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (c->error[0])
		return;
	snprintf(c->error, sizeof(c->error), "%s:%u: ", c->name, line);
	len = strlen(c->error);
	va_start(ap, fmt);
	vsnprintf(c->error + len, sizeof(c->error) - len, fmt, ap);
	va_end(ap);
}

/* @s without the whitespace around it, as a new string. */
static char *trimmed(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && strchr(" \t\r", s[len - 1]))
		len--;
	return copy_string(s, len);
}

/* "run: ARGS" or "run (exit N): ARGS", after the "--- ". */
static void parse_run_marker(struct golden_case *c, unsigned int line,
			     const char *s, size_t len, size_t body_start)
{
	struct golden_run *run;
	const char *end = s + len, *p = s + 3;
	char *args;
	int code = 0, used = 0;

	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '(') {
		if (sscanf(p, "(exit %d)%n", &code, &used) != 1 || !used ||
		    code < 0 || code > 255) {
			case_error(c, line, "bad run line: want '--- run (exit N): ARGS'");
			return;
		}
		p += used;
	}
	if (p >= end || *p != ':') {
		case_error(c, line, "bad run line: want '--- run: ARGS' or '--- run (exit N): ARGS'");
		return;
	}
	args = trimmed(p + 1, end - p - 1);
	if (!*args) {
		free(args);
		case_error(c, line, "a run without arguments");
		return;
	}
	c->runs = grow(c->runs, c->nr_runs, sizeof(*c->runs));
	run = &c->runs[c->nr_runs++];
	memset(run, 0, sizeof(*run));
	run->line = line;
	run->args = args;
	run->exit_code = code;
	run->body_start = body_start;
	run->body_end = body_start;
}

static void add_needle(struct golden_case *c, unsigned int line,
		       const char *s, size_t len, bool svg)
{
	struct golden_run *run = c->nr_runs ? &c->runs[c->nr_runs - 1] : NULL;
	char *needle = trimmed(s, len);

	if (!run || !*needle) {
		if (run)
			case_error(c, line, "a 'contains' line without text");
		else
			case_error(c, line, "a 'contains' line before any run");
		free(needle);
		return;
	}
	if (svg) {
		run->svg_needles = grow(run->svg_needles, run->nr_svg,
					sizeof(char *));
		run->svg_needles[run->nr_svg++] = needle;
	} else {
		run->stderr_needles = grow(run->stderr_needles,
					   run->nr_stderr, sizeof(char *));
		run->stderr_needles[run->nr_stderr++] = needle;
	}
}

enum block {
	BLOCK_NONE,		/* the free text at the top */
	BLOCK_TRACE,
	BLOCK_RUN,		/* expected stdout */
	BLOCK_CONTAINS,		/* nothing may follow but blank lines */
};

/* Split the case text into its blocks. */
static void parse_case(struct golden_case *c)
{
	static const char stderr_mark[] = "stderr contains:";
	static const char svg_mark[] = "svg contains:";
	enum block block = BLOCK_NONE;
	size_t pos = 0, trace_start = 0;
	unsigned int line = 0;

	while (pos < c->len && !c->error[0]) {
		const char *s = c->text + pos, *eol = memchr(s, '\n',
							     c->len - pos);
		size_t len = eol ? (size_t)(eol - s) : c->len - pos;
		size_t next = pos + len + !!eol;
		const char *m = s + 4;
		size_t mlen = len > 4 ? len - 4 : 0;

		line++;
		if (len < 4 || strncmp(s, "--- ", 4)) {
			if (block == BLOCK_CONTAINS && strspn(s, " \t\r") < len)
				case_error(c, line, "text after a 'contains' line: a run's stdout goes right after its run line");
			pos = next;
			continue;
		}
		/* a marker ends the block before it */
		if (block == BLOCK_TRACE)
			c->trace = copy_string(c->text + trace_start,
					       pos - trace_start);
		else if (block == BLOCK_RUN)
			c->runs[c->nr_runs - 1].body_end = pos;
		if (mlen >= 5 && !strncmp(m, "trace", 5) &&
		    strspn(m + 5, " \t\r") == mlen - 5) {
			if (c->trace_line)
				case_error(c, line, "a second trace block (the first is on line %u)",
					   c->trace_line);
			c->trace_line = line;
			trace_start = next;
			block = BLOCK_TRACE;
		} else if (mlen >= 3 && !strncmp(m, "run", 3)) {
			parse_run_marker(c, line, m, mlen, next);
			block = BLOCK_RUN;
		} else if (mlen >= sizeof(stderr_mark) - 1 &&
			   !strncmp(m, stderr_mark, sizeof(stderr_mark) - 1)) {
			add_needle(c, line, m + sizeof(stderr_mark) - 1,
				   mlen - (sizeof(stderr_mark) - 1), false);
			block = BLOCK_CONTAINS;
		} else if (mlen >= sizeof(svg_mark) - 1 &&
			   !strncmp(m, svg_mark, sizeof(svg_mark) - 1)) {
			add_needle(c, line, m + sizeof(svg_mark) - 1,
				   mlen - (sizeof(svg_mark) - 1), true);
			block = BLOCK_CONTAINS;
		} else {
			case_error(c, line, "unknown block '%.*s': want '--- trace', '--- run: ARGS', '--- run (exit N): ARGS', '--- stderr contains: TEXT' or '--- svg contains: TEXT'",
				   (int)len, s);
		}
		pos = next;
	}
	if (block == BLOCK_TRACE && !c->trace)
		c->trace = copy_string(c->text + trace_start,
				       c->len - trace_start);
	else if (block == BLOCK_RUN)
		c->runs[c->nr_runs - 1].body_end = c->len;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Every *.case of @dir, sorted by name; NULL with errno if unreadable. */
static struct golden_case *load_cases(const char *dir, size_t *count)
{
	struct golden_case *cases;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".case"))
			continue;
		names = grow(names, n, sizeof(*names));
		names[n++] = copy_string(de->d_name, len);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), compare_names);
	cases = calloc(n + 1, sizeof(*cases));
	if (!cases)
		ksft_exit_fail_msg("out of memory\n");
	for (i = 0; i < n; i++) {
		struct golden_case *c = &cases[i];

		if (asprintf(&c->path, "%s/%s", dir, names[i]) < 0)
			ksft_exit_fail_msg("out of memory\n");
		c->name = strrchr(c->path, '/') + 1;
		free(names[i]);
		c->text = read_file(c->path, &c->len);
		if (!c->text) {
			snprintf(c->error, sizeof(c->error), "%s: %s",
				 c->path, strerror(errno));
			continue;
		}
		if (strlen(c->text) != c->len)
			case_error(c, 1, "a NUL byte in the file");
		else
			parse_case(c);
	}
	free(names);
	*count = n;
	return cases;
}

static void free_case(struct golden_case *c)
{
	size_t i, j;

	for (i = 0; i < c->nr_runs; i++) {
		struct golden_run *run = &c->runs[i];

		for (j = 0; j < run->nr_stderr; j++)
			free(run->stderr_needles[j]);
		for (j = 0; j < run->nr_svg; j++)
			free(run->svg_needles[j]);
		free(run->stderr_needles);
		free(run->svg_needles);
		free(run->args);
		run_result_free(&run->res);
	}
	free(c->runs);
	free(c->trace);
	free(c->text);
	free(c->path);
}

static void free_args(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/*
 * Split @s into words (double quotes group, \" and \\ inside them), the
 * words TRACE and SVG replaced; NULL-terminated, argv[0] @bin.  NULL with
 * @why on error.
 */
static char **split_args(const char *s, const char *bin, const char *trace,
			 const char *svg, bool *uses_trace, char *why,
			 size_t why_size)
{
	struct text word = { 0 };
	bool in_word = false, quoted = false;
	char **argv = NULL;
	size_t n = 0;

	argv = grow(argv, n, sizeof(*argv));
	argv[n++] = copy_string(bin, strlen(bin));
	*uses_trace = false;
	for (;; s++) {
		if (!quoted && (!*s || *s == ' ' || *s == '\t')) {
			if (in_word) {
				const char *arg = word.data ? word.data : "";

				if (!strcmp(arg, "TRACE"))
					*uses_trace = true;
				arg = !strcmp(arg, "TRACE") ? trace :
				      !strcmp(arg, "SVG") ? svg : arg;
				argv = grow(argv, n, sizeof(*argv));
				argv[n++] = copy_string(arg, strlen(arg));
				word.len = 0;
				in_word = false;
			}
			if (!*s)
				break;
			continue;
		}
		if (!*s) {
			snprintf(why, why_size, "unterminated quote");
			text_free(&word);
			argv[n] = NULL;
			free_args(argv);
			return NULL;
		}
		in_word = true;
		if (*s == '"') {
			quoted = !quoted;
			text_add(&word, "", 0);
			continue;
		}
		if (quoted && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		text_add(&word, s, 1);
	}
	text_free(&word);
	argv = grow(argv, n, sizeof(*argv));
	argv[n] = NULL;
	return argv;
}

struct lines {
	const char **start;
	size_t *len;
	size_t count;
	bool last_unterminated;	/* no newline after the last line */
};

static void split_lines(const char *s, size_t len, struct lines *l)
{
	size_t pos = 0;

	memset(l, 0, sizeof(*l));
	while (pos < len) {
		const char *eol = memchr(s + pos, '\n', len - pos);
		size_t n = eol ? (size_t)(eol - s - pos) : len - pos;

		l->start = grow(l->start, l->count, sizeof(*l->start));
		l->len = grow(l->len, l->count, sizeof(*l->len));
		l->start[l->count] = s + pos;
		l->len[l->count++] = n;
		l->last_unterminated = !eol;
		pos += n + 1;
	}
}

static bool same_line(const struct lines *a, size_t i, const struct lines *b,
		      size_t j)
{
	return a->len[i] == b->len[j] &&
	       !memcmp(a->start[i], b->start[j], a->len[i]);
}

static void print_lines(char mark, const struct lines *l, size_t from,
			size_t to, size_t limit)
{
	size_t i;

	for (i = from; i < to && i < from + limit; i++)
		ksft_print_msg("%c%.*s\n", mark, (int)l->len[i], l->start[i]);
	if (to > from + limit)
		ksft_print_msg("... %zu more lines\n", to - from - limit);
}

/* Where @want and @got differ, as one unified-diff hunk. */
static void print_diff(const char *want, size_t want_len, const char *got,
		       size_t got_len)
{
	struct lines w, g;
	size_t prefix = 0, suffix = 0, ctx;

	split_lines(want, want_len, &w);
	split_lines(got, got_len, &g);
	while (prefix < w.count && prefix < g.count &&
	       same_line(&w, prefix, &g, prefix))
		prefix++;
	while (suffix < w.count - prefix && suffix < g.count - prefix &&
	       same_line(&w, w.count - 1 - suffix, &g, g.count - 1 - suffix))
		suffix++;
	ctx = prefix < DIFF_CONTEXT ? prefix : DIFF_CONTEXT;
	ksft_print_msg("stdout differs (- expected, + got):\n");
	ksft_print_msg("@@ -%zu,%zu +%zu,%zu @@\n", prefix - ctx + 1,
		       w.count - prefix - suffix + ctx, prefix - ctx + 1,
		       g.count - prefix - suffix + ctx);
	print_lines(' ', &w, prefix - ctx, prefix, DIFF_CONTEXT);
	print_lines('-', &w, prefix, w.count - suffix, DIFF_LINES_MAX);
	print_lines('+', &g, prefix, g.count - suffix, DIFF_LINES_MAX);
	print_lines(' ', &w, w.count - suffix, w.count, DIFF_CONTEXT);
	if (w.last_unterminated != g.last_unterminated)
		ksft_print_msg("\\ no newline at the end of the %s\n",
			       g.last_unterminated ? "output" : "expected");
	if (!w.count)
		ksft_print_msg("(the expected stdout is empty)\n");
	if (!g.count)
		ksft_print_msg("(the command printed nothing on stdout)\n");
	free(w.start);
	free(w.len);
	free(g.start);
	free(g.len);
}

static void print_stderr(const struct text *err)
{
	struct lines l;

	if (!err->len) {
		ksft_print_msg("stderr: (empty)\n");
		return;
	}
	split_lines(err->data, err->len, &l);
	ksft_print_msg("stderr:\n");
	print_lines(' ', &l, 0, l.count, STDERR_LINES_SHOWN);
	free(l.start);
	free(l.len);
}

/* The expected stdout: the block, its last line ended by a newline. */
static void expected_stdout(const struct golden_case *c,
			    const struct golden_run *run, struct text *want)
{
	size_t len = run->body_end - run->body_start;

	text_add(want, c->text + run->body_start, len);
	if (len && want->data[len - 1] != '\n')
		text_add(want, "\n", 1);
}

/* Compare what @run did with what the case says; true if it matches. */
static bool check_run(const struct golden_case *c,
		      const struct golden_run *run, int status,
		      const char *svg, const struct config *cfg)
{
	struct text want = { 0 };
	bool ok = true;
	size_t i;

	if (!WIFEXITED(status) || WEXITSTATUS(status) != run->exit_code) {
		if (WIFEXITED(status))
			ksft_print_msg("exit status %d, expected %d\n",
				       WEXITSTATUS(status), run->exit_code);
		else
			ksft_print_msg("killed by signal %d (%s), expected exit status %d\n",
				       WTERMSIG(status),
				       strsignal(WTERMSIG(status)),
				       run->exit_code);
		print_stderr(&run->res.err);
		ok = false;
	}
	expected_stdout(c, run, &want);
	text_add(&want, "", 0);
	if (!cfg->update && (want.len != run->res.out.len ||
			     memcmp(want.data, run->res.out.data, want.len))) {
		print_diff(want.data, want.len, run->res.out.data,
			   run->res.out.len);
		ok = false;
	}
	text_free(&want);
	for (i = 0; i < run->nr_stderr; i++) {
		if (strstr(run->res.err.data, run->stderr_needles[i]))
			continue;
		ksft_print_msg("stderr does not contain '%s'\n",
			       run->stderr_needles[i]);
		print_stderr(&run->res.err);
		ok = false;
	}
	if (run->nr_svg) {
		size_t len;
		char *data = read_file(svg, &len);

		for (i = 0; i < run->nr_svg; i++) {
			if (data && strstr(data, run->svg_needles[i]))
				continue;
			if (data)
				ksft_print_msg("the SVG does not contain '%s'\n",
					       run->svg_needles[i]);
			else
				ksft_print_msg("no SVG written: %s\n",
					       strerror(errno));
			ok = false;
		}
		free(data);
	}
	return ok;
}

/* UPDATE_GOLDEN: the case file with every run's stdout block as it ran. */
static void update_case(const struct golden_case *c)
{
	struct text t = { 0 };
	size_t pos = 0, i;
	char *tmp;
	int fd;

	text_add(&t, "", 0);
	for (i = 0; i < c->nr_runs; i++) {
		const struct golden_run *run = &c->runs[i];

		text_add(&t, c->text + pos, run->body_start - pos);
		if (run->ran) {
			const struct text *out = &run->res.out;

			text_add(&t, out->data, out->len);
			if (out->len && out->data[out->len - 1] != '\n') {
				/* a block cannot say so: it will differ */
				ksft_print_msg("%s:%u: stdout does not end with a newline\n",
					       c->name, run->line);
				text_add(&t, "\n", 1);
			}
		} else {
			text_add(&t, c->text + run->body_start,
				 run->body_end - run->body_start);
		}
		pos = run->body_end;
	}
	text_add(&t, c->text + pos, c->len - pos);
	if (t.len == c->len && !memcmp(t.data, c->text, t.len)) {
		text_free(&t);
		return;
	}
	if (asprintf(&tmp, "%s.tmp", c->path) < 0)
		ksft_exit_fail_msg("out of memory\n");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, t.data, t.len) != (ssize_t)t.len ||
	    close(fd) || rename(tmp, c->path)) {
		ksft_print_msg("cannot update %s: %s\n", c->path,
			       strerror(errno));
		unlink(tmp);
	} else {
		ksft_print_msg("updated %s\n", c->path);
	}
	free(tmp);
	text_free(&t);
}

/* A trace error: its line number made that of the case file. */
static void print_trace_error(const struct golden_case *c, const char *err)
{
	unsigned int line;
	int used = 0;

	if (sscanf(err, "line %u: %n", &line, &used) == 1 && used)
		ksft_print_msg("%s:%u: %s\n", c->name, c->trace_line + line,
			       err + used);
	else
		ksft_print_msg("%s: trace block: %s\n", c->name, err);
}

static void run_one(struct golden_case *c, struct golden_run *run,
		    const char *tmpdir, const char *trace_err,
		    const struct config *cfg)
{
	char svg[4200], why[512];
	bool uses_trace;
	char **argv;
	int status;

	if (trace_err) {
		print_trace_error(c, trace_err);
		ksft_test_result_fail("%s: %s\n", c->name, run->args);
		return;
	}
	snprintf(svg, sizeof(svg), "%s/%s", tmpdir, SVG_NAME);
	unlink(svg);
	argv = split_args(run->args, cfg->bin, TRACE_NAME, SVG_NAME,
			  &uses_trace, why, sizeof(why));
	if (!argv || (uses_trace && !c->trace)) {
		ksft_print_msg("%s:%u: %s\n", c->name, run->line,
			       argv ? "TRACE without a trace block" : why);
		free_args(argv);
		ksft_test_result_fail("%s: %s\n", c->name, run->args);
		return;
	}
	status = run_command(argv, tmpdir, &run->res);
	free_args(argv);
	run->ran = status >= 0;
	if (!run->ran) {
		ksft_print_msg("%s:%u: %s\n", c->name, run->line,
			       run->res.why);
		print_stderr(&run->res.err);
		ksft_test_result_fail("%s: %s\n", c->name, run->args);
		return;
	}
	if (check_run(c, run, status, svg, cfg))
		ksft_test_result_pass("%s: %s\n", c->name, run->args);
	else
		ksft_test_result_fail("%s: %s\n", c->name, run->args);
}

static void run_case(struct golden_case *c, const struct config *cfg)
{
	char tmpdir[4096], trace[4200], err[512];
	const char *trace_err = NULL;
	const char *base = getenv("TMPDIR");
	bool made;
	size_t i;

	if (c->error[0] || !c->nr_runs) {
		ksft_print_msg("%s\n", c->error[0] ? c->error :
			       "no '--- run' block");
		if (!c->nr_runs)
			ksft_test_result_fail("%s\n", c->name);
		for (i = 0; i < c->nr_runs; i++)
			ksft_test_result_fail("%s: %s\n", c->name,
					      c->runs[i].args);
		return;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/golden.XXXXXX",
		 base && *base ? base : "/tmp");
	made = mkdtemp(tmpdir);
	if (!made) {
		snprintf(err, sizeof(err), "cannot make a directory %.300s: %s",
			 tmpdir, strerror(errno));
		trace_err = err;
	} else if (c->trace) {
		snprintf(trace, sizeof(trace), "%s/%s", tmpdir, TRACE_NAME);
		if (tracegen_write_file(c->trace, trace, err, sizeof(err)))
			trace_err = err;
	}
	for (i = 0; i < c->nr_runs; i++)
		run_one(c, &c->runs[i], tmpdir, trace_err, cfg);
	if (cfg->update && !trace_err)
		update_case(c);
	if (made)
		remove_tree(tmpdir);
}

int main(void)
{
	struct golden_case *cases;
	struct config cfg;
	size_t n = 0, i;
	unsigned int plan = 0;

	read_config(&cfg);
	setenv("LC_ALL", "C", 1);
	setenv("TZ", "UTC", 1);
	/* offcpu's fast switch path checked against the general one */
	setenv("SCHEDREC_MODEL_CHECK", "1", 1);
	ksft_print_header();
	cases = load_cases(cfg.dir, &n);
	if (!cases)
		ksft_exit_fail_msg("cannot read the cases in %s: %s\n",
				   cfg.dir, strerror(errno));
	if (!n) {
		free(cases);
		ksft_exit_fail_msg("no *.case file in %s\n", cfg.dir);
	}
	/* one test per run; a case with none fails once */
	for (i = 0; i < n; i++)
		plan += cases[i].nr_runs + !cases[i].nr_runs;
	ksft_set_plan(plan);
	ksft_print_msg("schedrec: %s\n", cfg.bin);
	ksft_print_msg("cases: %s%s\n", cfg.dir, cfg.update ?
		       " (UPDATE_GOLDEN: rewriting stdout blocks)" : "");
	for (i = 0; i < n; i++) {
		run_case(&cases[i], &cfg);
		free_case(&cases[i]);
	}
	free(cases);
	ksft_finished();
	return 0;
}
