// SPDX-License-Identifier: GPL-2.0
/*
 * report: the host half of `make bench`.  Reads the guest console that
 * schedbench wrote "@@bench ..." lines to, pairs every round's three runs
 * of a workload, writes one CSV row per (round, workload) and prints the
 * summary as markdown.
 *
 * Added cost per event, per round and tracer:
 *
 *   raw:      (t_traced - t_base) / events
 *   adjusted: (t_traced - (t_base + slope * (sw_traced - sw_base))) / events
 *
 * where sw is the number of context switches the run made (/proc/stat) and
 * slope the base runs' time per switch, fitted by least squares over every
 * round.  hackbench makes a different number of switches each run (6.7k
 * to 19.9k for the same arguments), each costing far more than either tracer
 * adds, so the raw difference mostly measures that; the adjustment compares
 * the traced run with a base run of the same number of switches.  For
 * `perf bench sched pipe` the switch count hardly varies and both agree.
 *
 * A round where a tracer lost events, a reader hit an error or the readers'
 * count disagrees with the tracer's is flagged and left out of the summary.
 *
 * With schedbench -s, each round also has a schedrec+stack run: schedrec
 * with the stack event too.  Its STACK records belong to their switches,
 * so its events are counted without them (the run's event count scaled by
 * the share of non-STACK records its readers saw), and a third table says
 * what the stacks cost: the ratio of its added ns per event to plain
 * schedrec's, and the difference in added ns per context switch.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define MAX_RUNS	8192
#define MAX_ROUNDS	1024
#define MAX_WORKLOADS	8
#define NAME_LEN	32
#define TARGET_RATIO	0.5
#define RUN_KEYS	16	/* and read_stacks, which older logs lack */
#define MIN_R2		0.5	/* below, no correction for switch counts */
#define MAX_IQR		0.5	/* wider ratio spread: inconclusive */

enum bench_mode {
	MODE_BASE, MODE_FTRACE, MODE_SCHEDREC,
	MODE_SCHEDREC_STACK,	/* optional: schedbench -s */
	MODE_COUNT
};

static const char *const mode_names[MODE_COUNT] = {
	"base", "ftrace", "schedrec", "schedrec+stack"
};

/* schedrec's switch and waking records: what is not a stack's */
#define SCHEDREC_EVENT_BYTES	32

struct run {
	int round;
	int pos;
	int mode;
	char workload[NAME_LEN];
	double ns, switches, events, lost, total_events, total_lost;
	double stat_bytes, read_records, read_bytes;
	double read_other, read_missed, read_bad, read_stacks;
};

/* One round of one workload, as written to the CSV. */
struct round_result {
	int round;
	char order[3 * NAME_LEN];
	const struct run *run[MODE_COUNT];
	double raw_cost[MODE_COUNT];	/* added ns per event */
	double cost[MODE_COUNT];	/* the same, switch-count adjusted */
	double slowdown[MODE_COUNT];	/* t / t_base - 1 */
	double bytes_per_event[MODE_COUNT];
	double raw_ratio;		/* schedrec cost / ftrace cost */
	double ratio;
	/* with a schedrec+stack run, else NAN */
	double stack_ratio;		/* its cost / schedrec's */
	double stack_per_switch;	/* added ns per switch, beyond
					 * schedrec's
					 */
	double stack_bytes;		/* mean STACK record */
	char flag[128];
};

struct summary {
	double min, p25, median, p75, max;
	int n;
};

struct fit {
	double slope, intercept, r2;
	int n;
};

struct workload_summary {
	const char *name;
	int rounds, used;
	struct fit base_fit;
	bool adjusted;		/* base_fit used to correct the base runs */
	struct summary base_ms, base_switches;
	struct summary events[MODE_COUNT];
	struct summary slowdown[MODE_COUNT];
	struct summary raw_cost[MODE_COUNT], cost[MODE_COUNT];
	struct summary bytes[MODE_COUNT];
	struct summary raw_ratio, ratio;
	double lost[MODE_COUNT];
	bool stack;		/* the rounds have schedrec+stack runs */
	struct summary stack_ratio, stack_per_switch, stack_bytes;
};

static struct run runs[MAX_RUNS];
static int nr_runs;
static char info[512];
static const char *clock_note = "";
static char workloads[MAX_WORKLOADS][NAME_LEN];
static int nr_workloads;

static int mode_id(const char *name)
{
	int m;

	for (m = 0; m < MODE_COUNT; m++)
		if (!strcmp(name, mode_names[m]))
			return m;
	return -1;
}

static void workload_note(const char *name)
{
	int w;

	for (w = 0; w < nr_workloads; w++)
		if (!strcmp(workloads[w], name))
			return;
	if (nr_workloads < MAX_WORKLOADS)
		snprintf(workloads[nr_workloads++], NAME_LEN, "%s", name);
}

static double *run_field(struct run *r, const char *key)
{
	static const struct {
		const char *key;
		size_t offset;
	} fields[] = {
#define RUN_FIELD(name) { #name, offsetof(struct run, name) }
		RUN_FIELD(ns), RUN_FIELD(switches), RUN_FIELD(events),
		RUN_FIELD(lost), RUN_FIELD(total_events),
		RUN_FIELD(total_lost), RUN_FIELD(stat_bytes),
		RUN_FIELD(read_records), RUN_FIELD(read_bytes),
		RUN_FIELD(read_other), RUN_FIELD(read_missed),
		RUN_FIELD(read_bad), RUN_FIELD(read_stacks),
#undef RUN_FIELD
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(key, fields[i].key))
			return (double *)((char *)r + fields[i].offset);
	return NULL;
}

/* Parse "@@bench run key=value ..."; returns false on a mangled line. */
static bool run_parse(char *line, struct run *r)
{
	int seen = 0;
	char *tok;

	memset(r, 0, sizeof(*r));
	r->mode = -1;
	for (tok = strtok(line, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');
		double *field;

		if (!eq)
			continue;
		*eq = '\0';
		seen++;
		field = run_field(r, tok);
		if (field)
			*field = strtod(eq + 1, NULL);
		else if (!strcmp(tok, "round"))
			r->round = atoi(eq + 1);
		else if (!strcmp(tok, "workload"))
			snprintf(r->workload, NAME_LEN, "%s", eq + 1);
		else if (!strcmp(tok, "mode"))
			r->mode = mode_id(eq + 1);
		else if (!strcmp(tok, "pos"))
			r->pos = atoi(eq + 1);
		else
			seen--;
	}
	return seen >= RUN_KEYS && r->mode >= 0 && r->workload[0] && r->ns;
}

static int console_read(const char *path)
{
	char line[4096];
	int mangled = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "@@bench ");

		line[strcspn(line, "\r\n")] = '\0';
		if (!p)
			continue;
		p += strlen("@@bench ");
		if (!strncmp(p, "info ", 5)) {
			snprintf(info, sizeof(info), "%s", p + 5);
		} else if (!strncmp(p, "run ", 4)) {
			if (nr_runs == MAX_RUNS ||
			    !run_parse(p + 4, &runs[nr_runs])) {
				mangled++;
				continue;
			}
			workload_note(runs[nr_runs].workload);
			nr_runs++;
		}
	}
	fclose(f);
	if (mangled)
		fprintf(stderr, "report: %d run lines could not be parsed (kernel messages in the middle of a line?)\n",
			mangled);
	return 0;
}

static const struct run *run_find(const char *workload, int round, int mode)
{
	int i;

	for (i = 0; i < nr_runs; i++)
		if (runs[i].round == round && runs[i].mode == mode &&
		    !strcmp(runs[i].workload, workload))
			return &runs[i];
	return NULL;
}

static void flag_add(struct round_result *rr, const char *mode,
		     const char *what)
{
	size_t len = strlen(rr->flag);

	snprintf(rr->flag + len, sizeof(rr->flag) - len, "%s%s-%s",
		 len ? ";" : "", mode, what);
}

/* Records every reader got must be every event the tracer kept. */
static void run_check(struct round_result *rr, int mode)
{
	const struct run *r = rr->run[mode];

	if (r->lost || r->total_lost || r->read_missed)
		flag_add(rr, mode_names[mode], "lost");
	if (r->read_bad)
		flag_add(rr, mode_names[mode], "unparsed");
	if (r->read_records != r->total_events - r->total_lost)
		flag_add(rr, mode_names[mode], "count-mismatch");
	if (!r->events)
		flag_add(rr, mode_names[mode], "no-events");
}

/*
 * The events of a run that are not STACK records, which belong to their
 * switches: the tracer's count, less the STACK share its readers saw.
 */
static double run_events(const struct run *r)
{
	if (!r->read_stacks || !r->read_records)
		return r->events;
	return r->events * (1 - r->read_stacks / r->read_records);
}

static bool round_build(const char *workload, int round,
			struct round_result *rr)
{
	const struct run *base, *f, *s, *st;
	int m, k;

	memset(rr, 0, sizeof(*rr));
	rr->round = round;
	for (m = 0; m < MODE_COUNT; m++) {
		rr->run[m] = run_find(workload, round, m);
		if (!rr->run[m] && m != MODE_SCHEDREC_STACK)
			return false;
		rr->slowdown[m] = rr->raw_cost[m] = rr->cost[m] = NAN;
		rr->bytes_per_event[m] = NAN;
	}
	rr->stack_ratio = rr->stack_per_switch = rr->stack_bytes = NAN;
	base = rr->run[MODE_BASE];
	f = rr->run[MODE_FTRACE];
	s = rr->run[MODE_SCHEDREC];
	st = rr->run[MODE_SCHEDREC_STACK];
	for (m = 0; m < MODE_COUNT; m++) {
		const struct run *r = rr->run[m];

		if (!r)
			continue;
		rr->slowdown[m] = r->ns / base->ns - 1;
		if (m == MODE_BASE)
			continue;
		run_check(rr, m);
		rr->raw_cost[m] = (r->ns - base->ns) / run_events(r);
	}
	/* the modes in the order they ran */
	for (m = 0; m < MODE_COUNT; m++) {
		for (k = 0; k < MODE_COUNT; k++) {
			size_t len = strlen(rr->order);

			if (!rr->run[k] || rr->run[k]->pos != m)
				continue;
			snprintf(rr->order + len, sizeof(rr->order) - len,
				 "%s%s", len ? "-" : "", mode_names[k]);
		}
	}
	/* ftrace: data bytes of the pages read; schedrec: ring bytes used */
	rr->bytes_per_event[MODE_FTRACE] = f->read_bytes / f->read_records;
	rr->bytes_per_event[MODE_SCHEDREC] =
		s->stat_bytes / (s->total_events - s->total_lost);
	rr->raw_ratio = rr->raw_cost[MODE_SCHEDREC] /
			rr->raw_cost[MODE_FTRACE];
	if (st) {
		double events = st->total_events - st->total_lost -
				st->read_stacks;

		rr->bytes_per_event[MODE_SCHEDREC_STACK] =
			st->stat_bytes / events;
		rr->stack_bytes = (st->read_bytes - SCHEDREC_EVENT_BYTES *
				   (st->read_records - st->read_stacks)) /
				  st->read_stacks;
	}
	return true;
}

static void round_adjust(struct round_result *rr, double slope)
{
	const struct run *base = rr->run[MODE_BASE];
	int m;

	double per_switch[MODE_COUNT];

	for (m = MODE_FTRACE; m < MODE_COUNT; m++) {
		const struct run *r = rr->run[m];
		double base_ns;

		if (!r)
			continue;
		base_ns = base->ns + slope * (r->switches - base->switches);
		rr->cost[m] = (r->ns - base_ns) / run_events(r);
		per_switch[m] = (r->ns - base_ns) / r->switches;
	}
	rr->ratio = rr->cost[MODE_SCHEDREC] / rr->cost[MODE_FTRACE];
	if (rr->run[MODE_SCHEDREC_STACK]) {
		rr->stack_ratio = rr->cost[MODE_SCHEDREC_STACK] /
				  rr->cost[MODE_SCHEDREC];
		rr->stack_per_switch = per_switch[MODE_SCHEDREC_STACK] -
				       per_switch[MODE_SCHEDREC];
	}
}

/* Least squares y = intercept + slope * x. */
static struct fit fit_line(const double *x, const double *y, int n)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
	struct fit fit = { 0, 0, 0, n };
	int i;

	if (n < 3)
		return fit;
	for (i = 0; i < n; i++) {
		mx += x[i] / n;
		my += y[i] / n;
	}
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx <= 0 || syy <= 0)
		return fit;
	fit.slope = sxy / sxx;
	fit.intercept = my - fit.slope * mx;
	fit.r2 = sxy * sxy / (sxx * syy);
	return fit;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile by linear interpolation between closest ranks. */
static double percentile(const double *sorted, int n, double p)
{
	double rank = p * (n - 1);
	int lo = (int)rank;

	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (rank - lo) * (sorted[lo + 1] - sorted[lo]);
}

/* Summary of the finite values among @v (which it sorts). */
static struct summary summarize(double *v, int n)
{
	struct summary s = { NAN, NAN, NAN, NAN, NAN, 0 };
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	s.n = k;
	if (!k)
		return s;
	qsort(v, k, sizeof(*v), double_cmp);
	s.min = v[0];
	s.p25 = percentile(v, k, 0.25);
	s.median = percentile(v, k, 0.5);
	s.p75 = percentile(v, k, 0.75);
	s.max = v[k - 1];
	return s;
}

static void csv_header(FILE *csv)
{
	fprintf(csv, "workload,round,order,base_ns,ftrace_ns,schedrec_ns,"
		"base_switches,ftrace_switches,schedrec_switches,"
		"ftrace_events,schedrec_events,ftrace_total_events,"
		"schedrec_total_events,ftrace_lost,schedrec_lost,"
		"ftrace_cost_ns,schedrec_cost_ns,ratio,"
		"ftrace_raw_cost_ns,schedrec_raw_cost_ns,raw_ratio,"
		"ftrace_bytes_per_event,schedrec_bytes_per_event,"
		"ftrace_slowdown,schedrec_slowdown,"
		"stack_ns,stack_cost_ns,stack_ratio,stack_ns_per_switch,"
		"stack_bytes_per_event,stack_record_bytes,flag\n");
}

static void csv_row(FILE *csv, const char *workload,
		    const struct round_result *rr)
{
	const struct run *b = rr->run[MODE_BASE];
	const struct run *f = rr->run[MODE_FTRACE];
	const struct run *s = rr->run[MODE_SCHEDREC];
	const struct run *st = rr->run[MODE_SCHEDREC_STACK];

	fprintf(csv, "%s,%d,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,"
		"%.0f,%.0f,%.0f,%.2f,%.2f,%.4f,%.2f,%.2f,%.4f,%.2f,%.2f,"
		"%.4f,%.4f,%.0f,%.2f,%.4f,%.2f,%.2f,%.2f,%s\n",
		workload, rr->round, rr->order, b->ns, f->ns, s->ns,
		b->switches, f->switches, s->switches,
		f->events, s->events, f->total_events, s->total_events,
		f->total_lost, s->total_lost,
		rr->cost[MODE_FTRACE], rr->cost[MODE_SCHEDREC], rr->ratio,
		rr->raw_cost[MODE_FTRACE], rr->raw_cost[MODE_SCHEDREC],
		rr->raw_ratio,
		rr->bytes_per_event[MODE_FTRACE],
		rr->bytes_per_event[MODE_SCHEDREC],
		rr->slowdown[MODE_FTRACE], rr->slowdown[MODE_SCHEDREC],
		st ? st->ns : NAN, rr->cost[MODE_SCHEDREC_STACK],
		rr->stack_ratio, rr->stack_per_switch,
		rr->bytes_per_event[MODE_SCHEDREC_STACK], rr->stack_bytes,
		rr->flag[0] ? rr->flag : "ok");
}

static void workload_summarize(const char *name, FILE *csv,
			       struct workload_summary *ws)
{
	static struct round_result rr[MAX_ROUNDS];
	static double x[MAX_ROUNDS], y[MAX_ROUNDS];
	static double v[MAX_ROUNDS];
	int round, max_round = -1, n = 0, i, m;

	memset(ws, 0, sizeof(*ws));
	ws->name = name;
	for (i = 0; i < nr_runs; i++)
		if (!strcmp(runs[i].workload, name) && runs[i].round > max_round)
			max_round = runs[i].round;
	for (round = 0; round <= max_round && n < MAX_ROUNDS; round++)
		if (round_build(name, round, &rr[n]))
			n++;
	ws->rounds = n;

	/* the base runs' time per context switch, over every round */
	for (i = 0; i < n; i++) {
		x[i] = rr[i].run[MODE_BASE]->switches;
		y[i] = rr[i].run[MODE_BASE]->ns;
	}
	ws->base_fit = fit_line(x, y, n);
	/* a fit that explains little would only add its own noise */
	ws->adjusted = ws->base_fit.slope > 0 && ws->base_fit.r2 >= MIN_R2;
	for (i = 0; i < n; i++) {
		round_adjust(&rr[i], ws->adjusted ? ws->base_fit.slope : 0);
		csv_row(csv, name, &rr[i]);
		for (m = MODE_FTRACE; m < MODE_COUNT; m++)
			if (rr[i].run[m])
				ws->lost[m] += rr[i].run[m]->total_lost;
		if (rr[i].run[MODE_SCHEDREC_STACK])
			ws->stack = true;
	}

	/* flagged rounds are in the CSV, not in the summary */
	for (i = 0, m = 0; i < n; i++)
		if (!rr[i].flag[0])
			rr[m++] = rr[i];
	n = m;
	ws->used = n;
#define SUMMARIZE(dest, expr) do {					\
		for (i = 0; i < n; i++)					\
			v[i] = (expr);					\
		dest = summarize(v, n);					\
	} while (0)
	SUMMARIZE(ws->base_ms, rr[i].run[MODE_BASE]->ns / 1e6);
	SUMMARIZE(ws->base_switches, rr[i].run[MODE_BASE]->switches);
	for (m = MODE_FTRACE; m < MODE_COUNT; m++) {
		SUMMARIZE(ws->events[m], rr[i].run[m] ?
			  run_events(rr[i].run[m]) : NAN);
		SUMMARIZE(ws->slowdown[m], rr[i].slowdown[m] * 100);
		SUMMARIZE(ws->raw_cost[m], rr[i].raw_cost[m]);
		SUMMARIZE(ws->cost[m], rr[i].cost[m]);
		SUMMARIZE(ws->bytes[m], rr[i].bytes_per_event[m]);
	}
	/* a ratio means something only when ftrace's cost came out positive */
	SUMMARIZE(ws->ratio, rr[i].cost[MODE_FTRACE] > 0 ?
		  rr[i].ratio : NAN);
	SUMMARIZE(ws->raw_ratio, rr[i].raw_cost[MODE_FTRACE] > 0 ?
		  rr[i].raw_ratio : NAN);
	SUMMARIZE(ws->stack_ratio, rr[i].cost[MODE_SCHEDREC] > 0 ?
		  rr[i].stack_ratio : NAN);
	SUMMARIZE(ws->stack_per_switch, rr[i].stack_per_switch);
	SUMMARIZE(ws->stack_bytes, rr[i].stack_bytes);
#undef SUMMARIZE
}

/*
 * The target holds when the median per-round ratio is at most
 * TARGET_RATIO, provided the ratios say something: most rounds gave one,
 * a quarter of them at most came out negative, and the middle half spans
 * less than MAX_IQR.
 */
static const char *target_verdict(const struct workload_summary *s)
{
	if (s->ratio.n * 2 <= s->used || s->ratio.p25 < 0 ||
	    s->ratio.p75 - s->ratio.p25 > MAX_IQR)
		return "inconclusive (spread)";
	return s->ratio.median <= TARGET_RATIO ? "met" : "NOT met";
}

/* What the stack event adds to schedrec, when schedbench ran with -s. */
static void print_stack_table(const struct workload_summary *ws, int count)
{
	int w;

	for (w = 0; w < count && !ws[w].stack; w++)
		;
	if (w == count)
		return;
	printf("\n| workload | schedrec+stack / schedrec, added ns per event, median [p25–p75] | min–max | stack: added ns per context switch, median [p25–p75] | stack record, bytes |\n");
	printf("|---|---|---|---|---|\n");
	for (w = 0; w < count; w++) {
		const struct workload_summary *s = &ws[w];

		if (!s->stack)
			continue;
		printf("| %s | %.2f [%.2f–%.2f] (%d rounds) | %.2f–%.2f | %.0f [%.0f–%.0f] | %.0f |\n",
		       s->name, s->stack_ratio.median, s->stack_ratio.p25,
		       s->stack_ratio.p75, s->stack_ratio.n,
		       s->stack_ratio.min, s->stack_ratio.max,
		       s->stack_per_switch.median, s->stack_per_switch.p25,
		       s->stack_per_switch.p75, s->stack_bytes.median);
	}
	printf("\nschedrec+stack counts its events without its STACK records, which belong to their switches: its ns per event is what a switch or waking costs with stacks on. The per-switch column is its added time per context switch (/proc/stat) minus plain schedrec's, in the same round.\n");
}

static void print_tables(const struct workload_summary *ws, int count)
{
	int w, m;

	printf("## schedrec vs ftrace: added cost per scheduling event\n\n");
	printf("Guest: %s\n\n", info[0] ? info : "(no info line)");
	if (clock_note[0])
		printf("Clock: %s\n\n", clock_note);
	printf("| workload | tracer | rounds used | base run, ms | events per run | slowdown vs base | added ns/event, median [p25–p75] | unadjusted ns/event, median [p25–p75] | bytes/event | lost+overrun, all rounds |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
	for (w = 0; w < count; w++) {
		const struct workload_summary *s = &ws[w];

		for (m = MODE_FTRACE; m < MODE_COUNT; m++)
			if (m != MODE_SCHEDREC_STACK || s->stack)
				printf("| %s | %s | %d of %d | %.0f | %.0f | %+.1f%% | %.0f [%.0f–%.0f] | %.0f [%.0f–%.0f] | %.1f | %.0f |\n",
				       m == MODE_FTRACE ? s->name : "",
				       mode_names[m], s->used, s->rounds,
				       s->base_ms.median, s->events[m].median,
				       s->slowdown[m].median,
				       s->cost[m].median, s->cost[m].p25,
				       s->cost[m].p75, s->raw_cost[m].median,
				       s->raw_cost[m].p25, s->raw_cost[m].p75,
				       s->bytes[m].median, s->lost[m]);
	}
	printf("\n| workload | ratio schedrec/ftrace per round, median [p25–p75] | min–max | unadjusted ratio, median [p25–p75] | base: ns per switch (r², correction), switches per run | target ≤ %.2f |\n",
	       TARGET_RATIO);
	printf("|---|---|---|---|---|---|\n");
	for (w = 0; w < count; w++) {
		const struct workload_summary *s = &ws[w];

		printf("| %s | %.2f [%.2f–%.2f] (%d rounds) | %.2f–%.2f | %.2f [%.2f–%.2f] (%d rounds) | %.0f (%.2f, %s), %.0f | %s |\n",
		       s->name, s->ratio.median, s->ratio.p25, s->ratio.p75,
		       s->ratio.n, s->ratio.min, s->ratio.max,
		       s->raw_ratio.median, s->raw_ratio.p25,
		       s->raw_ratio.p75, s->raw_ratio.n, s->base_fit.slope,
		       s->base_fit.r2, s->adjusted ? "applied" : "not applied",
		       s->base_switches.median, target_verdict(s));
	}
	print_stack_table(ws, count);
	printf("\nAdded ns/event compares each traced run with the same round's base run corrected to the traced run's number of context switches (base time per switch fitted over all rounds, applied only when the fit has r² ≥ %.1f); the unadjusted columns skip that correction. Bytes/event: schedrec, ring bytes used (PAD included) per record; ftrace, data bytes of the ring-buffer pages read (event headers and time extends included) per event.\n\n", MIN_R2);
}

int main(int argc, char **argv)
{
	static struct workload_summary ws[MAX_WORKLOADS];
	int w, flagged = 0;
	FILE *csv;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: report CONSOLE_LOG OUT_CSV [CLOCK_NOTE]\n");
		return 2;
	}
	if (argc == 4)
		clock_note = argv[3];
	if (console_read(argv[1]))
		return 1;
	if (!nr_runs) {
		fprintf(stderr, "report: no runs in %s\n", argv[1]);
		return 1;
	}
	csv = fopen(argv[2], "w");
	if (!csv) {
		perror(argv[2]);
		return 1;
	}
	csv_header(csv);
	for (w = 0; w < nr_workloads; w++) {
		workload_summarize(workloads[w], csv, &ws[w]);
		flagged += ws[w].rounds - ws[w].used;
	}
	fclose(csv);
	print_tables(ws, nr_workloads);
	if (flagged)
		printf("%d round(s) flagged (lost events, reader errors or counts that disagree) and left out; see the flag column of %s.\n",
		       flagged, argv[2]);
	return 0;
}
