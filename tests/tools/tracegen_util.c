// SPDX-License-Identifier: GPL-2.0
/*
 * tracegen: a readable description of a recording to a .srec file; the
 * language is described in tracegen.h.
 *
 * The description is parsed whole first (records built in memory, in the
 * order of the lines), checked, then written: sorted by time, cut into
 * passes, one chunk per CPU and pass, as schedrec record's drainer would.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "srecchunk.h"
#include "srecwriter.h"
#include "taskstate.h"
#include "tracegen.h"
#include "uapi/schedrec.h"
#include "util.h"

#define NSEC_PER_SEC		1000000000ull
#define DEFAULT_CPUS		2
#define DEFAULT_START_NS	(1000 * NSEC_PER_SEC)
#define DEFAULT_PRIO		120
#define DEFAULT_BUF_KB		1024
#define MAX_WORDS		16
#define SEQ_JUMP_MAX		(1ull << 32)

union tg_record {
	struct schedrec_header hdr;
	struct schedrec_switch sw;
	struct schedrec_wakeup wakeup;
	struct schedrec_migrate migrate;
	struct schedrec_task task;
	struct schedrec_lost lost;
	/* STACK: struct schedrec_stack and its addresses */
	unsigned char stack[SCHEDREC_STACK_MAX_SIZE];
};

/* One record, its time relative to start until it is written. */
struct tg_event {
	union tg_record rec;
	unsigned int cpu;
	unsigned int line;
	uint64_t filtered;	/* records filtered just before this one */
	size_t order;		/* index in the description */
};

struct tg_cpu {
	uint64_t seq;		/* the next sequence number */
	uint64_t skipped;	/* numbers skipped since the last record */
	uint64_t filtered;	/* records filtered since the last record */
	uint64_t last_ts;	/* of the CPU's last line */
	unsigned int last_line;	/* 0: none yet */
	uint32_t current;	/* the task the last switch put on the CPU */
	/* a stack line waiting for its switch: its line (0: none) */
	unsigned int stack_line;
	uint32_t stack_tid;
	uint64_t stack_ts;
};

struct tracegen {
	unsigned int nr_cpus;
	unsigned int cpus_line;		/* line of `cpus`, 0 if none */
	unsigned int first_cpu_line;	/* first line naming a CPU, or 0 */
	uint64_t start_ns;
	uint64_t end_ns;		/* relative */
	unsigned int end_line;		/* 0: `end` not given */
	uint32_t drainer_pid;
	uint32_t drainer_tid;
	uint32_t drainer_cpu;
	bool filtered;
	bool notrailer;
	char online[64];		/* `online`, "": 0-(nr_cpus - 1) */
	uint64_t damage;		/* `damage`: bit 1 << section type */
	int zlib_level;			/* `zlib`, 0: raw chunks */
	uint32_t pass_records;		/* `pass`, at least this many a pass */
	bool stacks;			/* a stack line was given */
	uint32_t event_off;		/* `noevent`: left out of the mask */
	char *ksyms;			/* the kallsyms text of `ksym` lines */
	size_t ksyms_len;
	size_t ksyms_cap;
	bool ksyms_shown;		/* an address of them is not 0 */
	struct srec_thread *threads;
	size_t nr_threads;
	size_t threads_cap;
	struct tg_event *events;
	size_t nr_events;
	size_t events_cap;
	struct tg_cpu *cpus;
	/* `event` lines: types of a newer module, in the event table */
	struct srec_event new_events[TRACEGEN_NEW_EVENTS];
	unsigned int nr_new_events;
	unsigned int line;		/* being parsed; 0 after parsing */
	char *err;
	size_t err_size;
};

/* The words of an event line after TIME cpuN EVENT. */
struct tg_line {
	uint64_t ts;
	unsigned int cpu;
	const char *event;
	char **args;
	int nr_args;
};

static __printf(2, 3) int fail(struct tracegen *tg, const char *fmt, ...);

/* Set the error message, "line N: " first while parsing; returns -1. */
static int fail(struct tracegen *tg, const char *fmt, ...)
{
	size_t len = 0;
	va_list ap;

	if (!tg->err_size)
		return -1;
	tg->err[0] = '\0';
	if (tg->line)
		snprintf(tg->err, tg->err_size, "line %u: ", tg->line);
	len = strlen(tg->err);
	va_start(ap, fmt);
	vsnprintf(tg->err + len, tg->err_size - len, fmt, ap);
	va_end(ap);
	return -1;
}

static bool parse_u64(const char *s, uint64_t *value)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*value = v;
	return true;
}

static bool parse_u32(const char *s, uint32_t *value)
{
	uint64_t v;

	if (!parse_u64(s, &v) || v > UINT32_MAX)
		return false;
	*value = v;
	return true;
}

static bool parse_prio(const char *s, int16_t *prio)
{
	bool negative = *s == '-';
	uint64_t v;

	if (!parse_u64(s + negative, &v) || v > (negative ? 32768 : 32767))
		return false;
	*prio = negative ? (int16_t)-(int64_t)v : (int16_t)v;
	return true;
}

/* "12.5ms" to 12500000: a number, decimals allowed, and a unit. */
static bool parse_time(const char *s, uint64_t *ns)
{
	static const struct {
		const char *name;
		uint64_t scale;
	} units[] = {
		{ "ns", 1 },
		{ "us", 1000 },
		{ "ms", 1000000 },
		{ "s", NSEC_PER_SEC },
	};
	const char *p = s, *fraction = NULL;
	uint64_t whole = 0, scale = 0, value, digit_scale;
	size_t i;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return false;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		fraction = ++p;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(p, units[i].name))
			scale = units[i].scale;
	if (!scale || whole > UINT64_MAX / scale)
		return false;
	value = whole * scale;
	digit_scale = scale / 10;
	for (; fraction && isdigit((unsigned char)*fraction); fraction++) {
		uint64_t add = (uint64_t)(*fraction - '0') * digit_scale;

		/* digits below the nanosecond must be zeros */
		if (!digit_scale && *fraction != '0')
			return false;
		if (value > UINT64_MAX - add)
			return false;
		value += add;
		digit_scale /= 10;
	}
	*ns = value;
	return true;
}

static int need_time(struct tracegen *tg, const char *s, uint64_t *ns)
{
	if (parse_time(s, ns))
		return 0;
	return fail(tg, "bad time '%s': want a number and a unit (ns, us, ms or s), e.g. 12.5ms, to the nanosecond",
		    s);
}

static int need_u32(struct tracegen *tg, const char *what, const char *s,
		    uint32_t *value)
{
	if (parse_u32(s, value))
		return 0;
	return fail(tg, "bad %s '%s': want a decimal number", what, s);
}

static int need_count(struct tracegen *tg, const char *s, uint64_t *count)
{
	if (parse_u64(s, count) && *count)
		return 0;
	return fail(tg, "bad COUNT '%s': want a decimal number above 0", s);
}

static int need_prio(struct tracegen *tg, const char *s, int16_t *prio)
{
	if (parse_prio(s, prio))
		return 0;
	return fail(tg, "bad priority '%s'", s);
}

/* The CPUs are fixed from the first line that names one. */
static int use_cpus(struct tracegen *tg)
{
	if (tg->cpus)
		return 0;
	tg->first_cpu_line = tg->line;
	tg->cpus = calloc(tg->nr_cpus, sizeof(*tg->cpus));
	return tg->cpus ? 0 : fail(tg, "out of memory");
}

static int need_cpu_number(struct tracegen *tg, const char *s,
			   unsigned int *cpu)
{
	uint32_t v;

	if (!parse_u32(s, &v))
		return fail(tg, "bad CPU '%s': want a decimal number", s);
	if (v >= tg->nr_cpus)
		return fail(tg, "CPU %u out of range: the trace has %u CPUs (cpus %u)",
			    v, tg->nr_cpus, tg->nr_cpus);
	*cpu = v;
	return use_cpus(tg);
}

/* The name @s into @comm, each \xNN in it the byte it says. */
static int need_comm(struct tracegen *tg, const char *s,
		     char comm[SCHEDREC_COMM_LEN])
{
	unsigned int byte;
	size_t n = 0;
	const char *p;
	int used;

	for (p = s; *p; n++) {
		if (n == SCHEDREC_COMM_LEN - 1)
			return fail(tg, "comm '%s' is longer than %d characters",
				    s, SCHEDREC_COMM_LEN - 1);
		if (p[0] == '\\' && p[1] == 'x' &&
		    sscanf(p + 2, "%2x%n", &byte, &used) == 1 && used == 2 &&
		    byte) {
			comm[n] = (char)byte;
			p += 4;
		} else {
			comm[n] = *p++;
		}
	}
	return 0;
}

static int bad_usage(struct tracegen *tg, const char *usage)
{
	return fail(tg, "wrong arguments: want %s", usage);
}

/* The next record of @l's CPU, its header filled in. */
static union tg_record *add_record(struct tracegen *tg,
				   const struct tg_line *l, uint8_t type,
				   uint16_t size)
{
	struct tg_cpu *c = &tg->cpus[l->cpu];
	struct tg_event *ev;

	if (tg->nr_events == tg->events_cap) {
		size_t cap = tg->events_cap ? 2 * tg->events_cap : 64;
		struct tg_event *events;

		events = realloc(tg->events, cap * sizeof(*events));
		if (!events) {
			fail(tg, "out of memory");
			return NULL;
		}
		tg->events = events;
		tg->events_cap = cap;
	}
	ev = &tg->events[tg->nr_events];
	memset(ev, 0, sizeof(*ev));
	ev->cpu = l->cpu;
	ev->line = tg->line;
	ev->order = tg->nr_events++;
	ev->filtered = c->filtered;
	ev->rec.hdr.ts = l->ts;
	ev->rec.hdr.seq = (uint32_t)c->seq;
	ev->rec.hdr.size = size;
	ev->rec.hdr.type = type;
	c->seq++;
	c->skipped = 0;
	c->filtered = 0;
	return &ev->rec;
}

static int parse_state(struct tracegen *tg, const char *s, uint32_t *state,
		       uint8_t *flags)
{
	static const struct {
		const char *name;
		uint32_t state;
		uint8_t flags;
	} states[] = {
		{ "R", TASKSTATE_RUNNING, SCHEDREC_F_PREEMPT },
		{ "R0", TASKSTATE_RUNNING, 0 },
		{ "S", TASKSTATE_INTERRUPTIBLE, 0 },
		{ "D", TASKSTATE_UNINTERRUPTIBLE, 0 },
		{ "I", TASKSTATE_IDLE, 0 },
		{ "T", TASKSTATE_STOPPED, 0 },
		{ "t", TASKSTATE_TRACED, 0 },
		{ "P", TASKSTATE_PARKED, 0 },
		{ "Z", TASKSTATE_DEAD, 0 },
		{ "X", TASKSTATE_DEAD, 0 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		if (!strcmp(s, states[i].name)) {
			*state = states[i].state;
			*flags = states[i].flags;
			return 0;
		}
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    isxdigit((unsigned char)s[2])) {
		errno = 0;
		v = strtoull(s + 2, &end, 16);
		if (!errno && !*end && v <= UINT32_MAX) {
			*state = v;
			*flags = 0;
			return 0;
		}
	}
	return fail(tg, "bad STATE '%s': want R, R0, S, D, I, T, t, P, Z, X or 0x...",
		    s);
}

static int stack_unfollowed(struct tracegen *tg, unsigned int cpu)
{
	return fail(tg, "the stack on line %u must be followed on cpu%u by the switch of tid %u at the same time, as the module writes it",
		    tg->cpus[cpu].stack_line, cpu, tg->cpus[cpu].stack_tid);
}

/* A switch: the one a stack line before it waits for, if any. */
static int check_stack_switch(struct tracegen *tg, const struct tg_line *l,
			      uint32_t prev_tid)
{
	struct tg_cpu *c = &tg->cpus[l->cpu];

	if (!c->stack_line)
		return 0;
	if (c->stack_ts != l->ts || c->stack_tid != prev_tid)
		return stack_unfollowed(tg, l->cpu);
	c->stack_line = 0;
	return 0;
}

static int event_switch(struct tracegen *tg, struct tg_line *l)
{
	static const char usage[] = "TIME cpuN switch PREV STATE NEXT [prio P Q]";
	struct schedrec_switch sw = {
		.prev_prio = DEFAULT_PRIO,
		.next_prio = DEFAULT_PRIO,
	};
	union tg_record *rec;
	uint8_t flags;

	if (l->nr_args != 3 && (l->nr_args != 6 || strcmp(l->args[3], "prio")))
		return bad_usage(tg, usage);
	if (need_u32(tg, "PREV", l->args[0], &sw.prev_tid) ||
	    parse_state(tg, l->args[1], &sw.prev_state, &flags) ||
	    need_u32(tg, "NEXT", l->args[2], &sw.next_tid))
		return -1;
	if (l->nr_args == 6 && (need_prio(tg, l->args[4], &sw.prev_prio) ||
				need_prio(tg, l->args[5], &sw.next_prio)))
		return -1;
	if (check_stack_switch(tg, l, sw.prev_tid))
		return -1;
	rec = add_record(tg, l, SCHEDREC_EV_SWITCH, sizeof(sw));
	if (!rec)
		return -1;
	sw.hdr = rec->hdr;
	sw.hdr.flags = flags;
	rec->sw = sw;
	tg->cpus[l->cpu].current = sw.next_tid;
	return 0;
}

/* "ffffffff81100000" or "0x..." to a number: 1 to 16 hex digits. */
static bool parse_hex(const char *s, size_t len, uint64_t *value)
{
	uint64_t v = 0;
	size_t i;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (!len || len > 16)
		return false;
	for (i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		v = v << 4 | (isdigit((unsigned char)s[i]) ? s[i] - '0' :
			      (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	*value = v;
	return true;
}

/*
 * stack TID ADDR[,ADDR...] (or -, none): the STACK record the module
 * writes right before the switch of TID, which must follow on this CPU
 * at the same time.
 */
static int event_stack(struct tracegen *tg, struct tg_line *l)
{
	static const char usage[] = "TIME cpuN stack TID ADDR[,ADDR...] (hex, innermost first; - for none)";
	struct tg_cpu *c = &tg->cpus[l->cpu];
	uint64_t ips[SCHEDREC_STACK_MAX_DEPTH];
	const char *p, *comma;
	struct schedrec_stack *st;
	union tg_record *rec;
	unsigned int nr = 0;
	uint32_t tid;

	if (l->nr_args != 2)
		return bad_usage(tg, usage);
	if (need_u32(tg, "TID", l->args[0], &tid))
		return -1;
	if (!tid)
		return fail(tg, "the idle task (tid 0) has no stack records");
	for (p = l->args[1]; strcmp(p, "-"); p = comma + 1) {
		comma = strchr(p, ',');
		if (!comma)
			comma = p + strlen(p);
		if (nr == SCHEDREC_STACK_MAX_DEPTH)
			return fail(tg, "more than %d addresses in a stack",
				    SCHEDREC_STACK_MAX_DEPTH);
		if (!parse_hex(p, comma - p, &ips[nr]))
			return fail(tg, "bad ADDR '%.*s': want hex digits (0x optional), at most 16",
				    (int)(comma - p), p);
		nr++;
		if (!*comma)
			break;
	}
	rec = add_record(tg, l, SCHEDREC_EV_STACK, SCHEDREC_STACK_SIZE(nr));
	if (!rec)
		return -1;
	st = (struct schedrec_stack *)rec->stack;
	st->tid = tid;
	st->nr = nr;
	memcpy(st->ips, ips, nr * sizeof(*ips));
	c->stack_line = tg->line;
	c->stack_tid = tid;
	c->stack_ts = l->ts;
	tg->stacks = true;
	return 0;
}

static int event_wakeup(struct tracegen *tg, struct tg_line *l, uint8_t type)
{
	static const char usage[] = "TIME cpuN waking|wakeup|wakeup_new TID [waker W] [irq] [target C] [prio P]";
	struct schedrec_wakeup wk = {
		.target_cpu = l->cpu,
		.waker_tid = tg->cpus[l->cpu].current,
		.prio = DEFAULT_PRIO,
	};
	union tg_record *rec;
	uint8_t flags = 0;
	unsigned int cpu;
	int i;

	if (l->nr_args < 1)
		return bad_usage(tg, usage);
	if (need_u32(tg, "TID", l->args[0], &wk.tid))
		return -1;
	for (i = 1; i < l->nr_args; i++) {
		const char *opt = l->args[i];

		if (!strcmp(opt, "irq")) {
			flags |= SCHEDREC_F_IRQ;
			continue;
		}
		if (i + 1 >= l->nr_args || (strcmp(opt, "waker") &&
					    strcmp(opt, "target") &&
					    strcmp(opt, "prio")))
			return fail(tg, "unexpected '%s': want %s", opt, usage);
		i++;
		if (!strcmp(opt, "waker")) {
			if (need_u32(tg, "waker", l->args[i], &wk.waker_tid))
				return -1;
		} else if (!strcmp(opt, "target")) {
			if (need_cpu_number(tg, l->args[i], &cpu))
				return -1;
			wk.target_cpu = cpu;
		} else if (need_prio(tg, l->args[i], &wk.prio)) {
			return -1;
		}
	}
	rec = add_record(tg, l, type, sizeof(wk));
	if (!rec)
		return -1;
	wk.hdr = rec->hdr;
	wk.hdr.flags = flags;
	rec->wakeup = wk;
	return 0;
}

static int event_waking(struct tracegen *tg, struct tg_line *l)
{
	return event_wakeup(tg, l, SCHEDREC_EV_WAKING);
}

static int event_wakeup_old(struct tracegen *tg, struct tg_line *l)
{
	return event_wakeup(tg, l, SCHEDREC_EV_WAKEUP);
}

static int event_wakeup_new(struct tracegen *tg, struct tg_line *l)
{
	return event_wakeup(tg, l, SCHEDREC_EV_WAKEUP_NEW);
}

static int event_migrate(struct tracegen *tg, struct tg_line *l)
{
	static const char usage[] = "TIME cpuN migrate TID FROM TO [prio P]";
	struct schedrec_migrate mig = { .prio = DEFAULT_PRIO };
	union tg_record *rec;
	unsigned int from, to;

	if (l->nr_args != 3 && (l->nr_args != 5 || strcmp(l->args[3], "prio")))
		return bad_usage(tg, usage);
	if (need_u32(tg, "TID", l->args[0], &mig.tid) ||
	    need_cpu_number(tg, l->args[1], &from) ||
	    need_cpu_number(tg, l->args[2], &to))
		return -1;
	if (l->nr_args == 5 && need_prio(tg, l->args[4], &mig.prio))
		return -1;
	mig.orig_cpu = from;
	mig.dest_cpu = to;
	rec = add_record(tg, l, SCHEDREC_EV_MIGRATE, sizeof(mig));
	if (!rec)
		return -1;
	mig.hdr = rec->hdr;
	rec->migrate = mig;
	return 0;
}

/*
 * fork CHILD TGID PARENT COMM, exec TID TGID OLDTID COMM (@other: the
 * third number), exit and rename TID TGID COMM.
 */
static int event_task(struct tracegen *tg, struct tg_line *l, uint8_t type,
		      bool other, const char *usage)
{
	struct schedrec_task task = { 0 };
	union tg_record *rec;
	int nr = other ? 4 : 3;

	if (l->nr_args != nr)
		return bad_usage(tg, usage);
	if (need_u32(tg, "TID", l->args[0], &task.tid) ||
	    need_u32(tg, "TGID", l->args[1], &task.tgid) ||
	    (other && need_u32(tg, "tid", l->args[2], &task.other_tid)) ||
	    need_comm(tg, l->args[nr - 1], task.comm))
		return -1;
	rec = add_record(tg, l, type, sizeof(task));
	if (!rec)
		return -1;
	task.hdr = rec->hdr;
	rec->task = task;
	return 0;
}

static int event_fork(struct tracegen *tg, struct tg_line *l)
{
	return event_task(tg, l, SCHEDREC_EV_FORK, true,
			  "TIME cpuN fork CHILD TGID PARENT COMM");
}

static int event_exec(struct tracegen *tg, struct tg_line *l)
{
	return event_task(tg, l, SCHEDREC_EV_EXEC, true,
			  "TIME cpuN exec TID TGID OLDTID COMM");
}

static int event_exit(struct tracegen *tg, struct tg_line *l)
{
	return event_task(tg, l, SCHEDREC_EV_EXIT, false,
			  "TIME cpuN exit TID TGID COMM");
}

static int event_rename(struct tracegen *tg, struct tg_line *l)
{
	return event_task(tg, l, SCHEDREC_EV_RENAME, false,
			  "TIME cpuN rename TID TGID COMM");
}

static int event_lost(struct tracegen *tg, struct tg_line *l)
{
	struct schedrec_lost lost = { 0 };
	uint64_t count, first_ts, last_ts;
	union tg_record *rec;

	if (l->nr_args != 3)
		return bad_usage(tg, "TIME cpuN lost COUNT FIRST LAST");
	if (need_count(tg, l->args[0], &count) ||
	    need_time(tg, l->args[1], &first_ts) ||
	    need_time(tg, l->args[2], &last_ts))
		return -1;
	if (first_ts > last_ts || last_ts > l->ts)
		return fail(tg, "want FIRST <= LAST <= TIME: the events were lost before the LOST record");
	lost.count = count;
	lost.first_ts = first_ts;
	lost.last_ts = last_ts;
	/* the dropped events took their numbers before the LOST record */
	tg->cpus[l->cpu].seq += count;
	rec = add_record(tg, l, SCHEDREC_REC_LOST, sizeof(lost));
	if (!rec)
		return -1;
	lost.hdr = rec->hdr;
	rec->lost = lost;
	return 0;
}

/* gap and filter: numbers skipped, no record. */
static int skip_numbers(struct tracegen *tg, struct tg_line *l, bool filter)
{
	struct tg_cpu *c = &tg->cpus[l->cpu];
	uint64_t count;

	if (l->nr_args != 1)
		return bad_usage(tg, filter ? "TIME cpuN filter COUNT" :
				 "TIME cpuN gap COUNT");
	if (need_count(tg, l->args[0], &count))
		return -1;
	if (count >= SEQ_JUMP_MAX - c->skipped)
		return fail(tg, "a jump of 2^32 sequence numbers or more needs a LOST record");
	c->seq += count;
	c->skipped += count;
	if (filter)
		c->filtered += count;
	return 0;
}

static int event_gap(struct tracegen *tg, struct tg_line *l)
{
	return skip_numbers(tg, l, false);
}

static int event_filter(struct tracegen *tg, struct tg_line *l)
{
	return skip_numbers(tg, l, true);
}

static const struct {
	const char *name;
	int (*parse)(struct tracegen *tg, struct tg_line *l);
} events[] = {
	{ "switch", event_switch },
	{ "waking", event_waking },
	{ "wakeup", event_wakeup_old },
	{ "wakeup_new", event_wakeup_new },
	{ "migrate", event_migrate },
	{ "fork", event_fork },
	{ "exec", event_exec },
	{ "exit", event_exit },
	{ "rename", event_rename },
	{ "lost", event_lost },
	{ "gap", event_gap },
	{ "filter", event_filter },
	{ "stack", event_stack },
};

static int parse_event(struct tracegen *tg, char **words, int nr_words)
{
	struct tg_line l = { 0 };
	struct tg_cpu *c;
	uint32_t cpu;
	size_t i;

	if (need_time(tg, words[0], &l.ts))
		return -1;
	if (nr_words < 3)
		return fail(tg, "an event line is TIME cpuN EVENT ...");
	if (strncmp(words[1], "cpu", 3) || !parse_u32(words[1] + 3, &cpu))
		return fail(tg, "bad CPU '%s': want cpuN", words[1]);
	if (cpu >= tg->nr_cpus)
		return fail(tg, "%s out of range: the trace has %u CPUs (cpus %u)",
			    words[1], tg->nr_cpus, tg->nr_cpus);
	if (use_cpus(tg))
		return -1;
	c = &tg->cpus[cpu];
	if (c->last_line && l.ts < c->last_ts)
		return fail(tg, "time goes back on cpu%u: %s (%llu ns) is before %llu ns (line %u)",
			    cpu, words[0], (unsigned long long)l.ts,
			    (unsigned long long)c->last_ts, c->last_line);
	l.cpu = cpu;
	l.event = words[2];
	l.args = words + 3;
	l.nr_args = nr_words - 3;
	if (c->stack_line && strcmp(l.event, "switch"))
		return stack_unfollowed(tg, cpu);
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (strcmp(l.event, events[i].name))
			continue;
		if (events[i].parse(tg, &l))
			return -1;
		c->last_ts = l.ts;
		c->last_line = tg->line;
		return 0;
	}
	return fail(tg, "unknown event '%s'", l.event);
}

static int statement_thread(struct tracegen *tg, char **words, int nr_words)
{
	bool again = nr_words == 5 && !strcmp(words[4], "again");
	struct srec_thread thread = { 0 };
	size_t i;

	if (nr_words != 4 && !again)
		return bad_usage(tg, "thread TID TGID COMM [again]");
	if (need_u32(tg, "TID", words[1], &thread.tid) ||
	    need_u32(tg, "TGID", words[2], &thread.tgid) ||
	    need_comm(tg, words[3], thread.comm))
		return -1;
	for (i = 0; i < tg->nr_threads && !again; i++)
		if (tg->threads[i].tid == thread.tid)
			return fail(tg, "thread %u is already in the snapshot",
				    thread.tid);
	if (tg->nr_threads == tg->threads_cap) {
		size_t cap = tg->threads_cap ? 2 * tg->threads_cap : 16;
		struct srec_thread *threads;

		threads = realloc(tg->threads, cap * sizeof(*threads));
		if (!threads)
			return fail(tg, "out of memory");
		tg->threads = threads;
		tg->threads_cap = cap;
	}
	tg->threads[tg->nr_threads++] = thread;
	return 0;
}

static int statement_cpus(struct tracegen *tg, char **words, int nr_words)
{
	uint32_t n;

	if (nr_words != 2)
		return bad_usage(tg, "cpus N");
	if (tg->cpus_line)
		return fail(tg, "cpus given twice (first on line %u)",
			    tg->cpus_line);
	if (tg->first_cpu_line)
		return fail(tg, "cpus must come before line %u, the first that names a CPU",
			    tg->first_cpu_line);
	if (need_u32(tg, "cpus", words[1], &n))
		return -1;
	if (!n || n > SREC_CPUS_MAX)
		return fail(tg, "cpus %u: want 1 to %u", n, SREC_CPUS_MAX);
	tg->nr_cpus = n;
	tg->cpus_line = tg->line;
	return 0;
}

/* zlib LEVEL, pass N: how the chunks are written. */
static int statement_chunks(struct tracegen *tg, char **words, int nr_words)
{
	bool zlib = words[0][0] == 'z';
	uint32_t n;

	if (nr_words != 2)
		return bad_usage(tg, zlib ? "zlib LEVEL" : "pass N");
	if (need_u32(tg, words[0], words[1], &n))
		return -1;
	if (zlib && (n < 1 || n > 9))
		return fail(tg, "zlib %u: want a level of 1 to 9", n);
	if (!zlib && (n < 1 || n > TRACEGEN_PASS_MAX))
		return fail(tg, "pass %u: want 1 to %u records", n,
			    TRACEGEN_PASS_MAX);
	if (zlib)
		tg->zlib_level = n;
	else
		tg->pass_records = n;
	return 0;
}

static int statement_drainer(struct tracegen *tg, char **words, int nr_words)
{
	unsigned int cpu;

	if (nr_words != 4)
		return bad_usage(tg, "drainer PID TID CPU");
	if (need_u32(tg, "PID", words[1], &tg->drainer_pid) ||
	    need_u32(tg, "TID", words[2], &tg->drainer_tid) ||
	    need_cpu_number(tg, words[3], &cpu))
		return -1;
	tg->drainer_cpu = cpu;
	return 0;
}

/* event ID SIZE NAME [off]: a type this ABI does not have. */
static int statement_event(struct tracegen *tg, char **words, int nr_words)
{
	bool off = nr_words == 5 && !strcmp(words[4], "off");
	struct srec_event *ev;
	uint32_t id, size;

	if (nr_words != 4 && !off)
		return bad_usage(tg, "event ID SIZE NAME [off]");
	if (need_u32(tg, "ID", words[1], &id) ||
	    need_u32(tg, "SIZE", words[2], &size))
		return -1;
	if (id <= SCHEDREC_REC_MAX || id > UINT16_MAX)
		return fail(tg, "event ID %u: want one this ABI does not have, %u to %u",
			    id, SCHEDREC_REC_MAX + 1, UINT16_MAX);
	if (!size || size % SCHEDREC_RECORD_ALIGN || size > UINT16_MAX)
		return fail(tg, "event SIZE %u: want a multiple of %u", size,
			    SCHEDREC_RECORD_ALIGN);
	if (tg->nr_new_events == TRACEGEN_NEW_EVENTS)
		return fail(tg, "at most %u event lines", TRACEGEN_NEW_EVENTS);
	ev = &tg->new_events[tg->nr_new_events++];
	*ev = (struct srec_event){
		.id = id, .size = size, .flags = off ? 0 : SREC_EVENT_F_ENABLED,
	};
	snprintf(ev->name, sizeof(ev->name), "%s", words[3]);
	snprintf(ev->tracepoint, sizeof(ev->tracepoint), "%s", words[3]);
	return 0;
}

/* noevent NAME: an event of this ABI left out of the header's mask. */
static int statement_noevent(struct tracegen *tg, char **words, int nr_words)
{
	static const char *const names[] = SCHEDREC_EVENT_NAMES;
	size_t id;

	if (nr_words != 2)
		return bad_usage(tg, "noevent NAME");
	for (id = 0; id < ARRAY_SIZE(names); id++)
		if (names[id] && !strcmp(words[1], names[id])) {
			tg->event_off |= 1u << id;
			return 0;
		}
	return fail(tg, "noevent %s: not an event of this ABI", words[1]);
}

/*
 * ksym ADDR TYPE NAME [[MODULE]]: a line of the kallsyms snapshot, written
 * as /proc/kallsyms has it.
 */
static int statement_ksym(struct tracegen *tg, char **words, int nr_words)
{
	static const char usage[] = "ksym ADDR TYPE NAME [[MODULE]]";
	size_t need, mod_len = 0;
	uint64_t addr;
	char *text;
	int len;

	if (nr_words != 4 && nr_words != 5)
		return bad_usage(tg, usage);
	if (!parse_hex(words[1], strlen(words[1]), &addr))
		return fail(tg, "bad ADDR '%s': want hex digits (0x optional), at most 16",
			    words[1]);
	if (strlen(words[2]) != 1 || !isalpha((unsigned char)words[2][0]))
		return fail(tg, "bad TYPE '%s': want one letter, as kallsyms has (t, T, d...)",
			    words[2]);
	if (nr_words == 5) {
		mod_len = strlen(words[4]);
		if (mod_len < 3 || words[4][0] != '[' ||
		    words[4][mod_len - 1] != ']')
			return fail(tg, "bad MODULE '%s': want [name], as kallsyms has",
				    words[4]);
	}
	need = 16 + 3 + strlen(words[3]) + 1 + mod_len + 2;
	if (tg->ksyms_len + need > tg->ksyms_cap) {
		size_t cap = tg->ksyms_cap ? 2 * tg->ksyms_cap : 4096;

		while (cap < tg->ksyms_len + need)
			cap *= 2;
		text = realloc(tg->ksyms, cap);
		if (!text)
			return fail(tg, "out of memory");
		tg->ksyms = text;
		tg->ksyms_cap = cap;
	}
	len = snprintf(tg->ksyms + tg->ksyms_len, need, "%016llx %c %s%s%s\n",
		       (unsigned long long)addr, words[2][0], words[3],
		       mod_len ? "\t" : "", mod_len ? words[4] : "");
	tg->ksyms_len += len;
	tg->ksyms_shown |= addr != 0;
	return 0;
}

/* `damage`: the sections it names, by the word for them. */
static const struct {
	const char *word;
	uint16_t type;
} damage_words[] = {
	{ "file", SREC_SEC_FILE },
	{ "events", SREC_SEC_EVENTS },
	{ "threads", SREC_SEC_THREADS },
	{ "ksyms", SREC_SEC_KSYMS },
	{ "trailer", SREC_SEC_TRAILER },
};

static int statement_damage(struct tracegen *tg, char **words, int nr_words)
{
	size_t i;

	for (i = 0; nr_words == 2 && i < ARRAY_SIZE(damage_words); i++) {
		if (!strcmp(words[1], damage_words[i].word)) {
			tg->damage |= 1ull << damage_words[i].type;
			return 0;
		}
	}
	return bad_usage(tg, "damage file|events|threads|ksyms|trailer");
}

static int parse_statement(struct tracegen *tg, char **words, int nr_words)
{
	const char *what = words[0];

	if (isdigit((unsigned char)what[0]))
		return parse_event(tg, words, nr_words);
	if (!strcmp(what, "thread"))
		return statement_thread(tg, words, nr_words);
	if (!strcmp(what, "cpus"))
		return statement_cpus(tg, words, nr_words);
	if (!strcmp(what, "drainer"))
		return statement_drainer(tg, words, nr_words);
	if (!strcmp(what, "ksym"))
		return statement_ksym(tg, words, nr_words);
	if (!strcmp(what, "event"))
		return statement_event(tg, words, nr_words);
	if (!strcmp(what, "noevent"))
		return statement_noevent(tg, words, nr_words);
	if (!strcmp(what, "zlib") || !strcmp(what, "pass"))
		return statement_chunks(tg, words, nr_words);
	if (!strcmp(what, "start") || !strcmp(what, "end")) {
		bool start = what[0] == 's';

		if (nr_words != 2)
			return bad_usage(tg, start ? "start TIME" : "end TIME");
		if (start)
			return need_time(tg, words[1], &tg->start_ns);
		tg->end_line = tg->line;
		return need_time(tg, words[1], &tg->end_ns);
	}
	if (!strcmp(what, "damage"))
		return statement_damage(tg, words, nr_words);
	if (!strcmp(what, "online")) {
		if (nr_words != 2)
			return bad_usage(tg, "online LIST");
		if (strspn(words[1], "0123456789,-") != strlen(words[1]) ||
		    strlen(words[1]) >= sizeof(tg->online))
			return fail(tg, "online %s: want a CPU list such as 0,2-3",
				    words[1]);
		strcpy(tg->online, words[1]);
		return 0;
	}
	if (!strcmp(what, "filtered") || !strcmp(what, "notrailer")) {
		if (nr_words != 1)
			return fail(tg, "%s takes no argument", what);
		if (what[0] == 'f')
			tg->filtered = true;
		else
			tg->notrailer = true;
		return 0;
	}
	return fail(tg, "unknown statement '%s'", what);
}

/* Split @line (modified) into words, a comment cut off; -1 if too many. */
static int split_words(char *line, char **words)
{
	char *hash = strchr(line, '#'), *p = line;
	int n = 0;

	if (hash)
		*hash = '\0';
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return n;
		if (n == MAX_WORDS)
			return -1;
		words[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int parse_text(struct tracegen *tg, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *words[MAX_WORDS], *line;
		int n, ret = 0;

		tg->line++;
		line = strndup(p, len);
		if (!line)
			return fail(tg, "out of memory");
		n = split_words(line, words);
		if (n < 0)
			ret = fail(tg, "more than %d words", MAX_WORDS);
		else if (n)
			ret = parse_statement(tg, words, n);
		free(line);
		if (ret)
			return ret;
		p += len + !!eol;
	}
	return 0;
}

/* After parsing: what no single line could check; times made absolute. */
static int finish(struct tracegen *tg)
{
	uint64_t last = 0;
	unsigned int last_line = 0, cpu;
	size_t i;

	for (cpu = 0; tg->cpus && cpu < tg->nr_cpus; cpu++) {
		if (tg->cpus[cpu].stack_line) {
			tg->line = tg->cpus[cpu].stack_line;
			return stack_unfollowed(tg, cpu);
		}
	}
	for (i = 0; i < tg->nr_events; i++) {
		if (tg->events[i].rec.hdr.ts >= last) {
			last = tg->events[i].rec.hdr.ts;
			last_line = tg->events[i].line;
		}
	}
	if (tg->end_line && tg->end_ns < last) {
		tg->line = tg->end_line;
		return fail(tg, "end (%llu ns) is before the event on line %u (%llu ns)",
			    (unsigned long long)tg->end_ns, last_line,
			    (unsigned long long)last);
	}
	if (!tg->end_line)
		tg->end_ns = last;
	tg->line = 0;
	if (tg->end_ns >= UINT64_MAX - tg->start_ns)
		return fail(tg, "start + end does not fit in 64 bits of ns");
	for (i = 0; i < tg->nr_events; i++) {
		union tg_record *rec = &tg->events[i].rec;

		rec->hdr.ts += tg->start_ns;
		if (rec->hdr.type == SCHEDREC_REC_LOST) {
			rec->lost.first_ts += tg->start_ns;
			rec->lost.last_ts += tg->start_ns;
		}
	}
	return 0;
}

static int write_header(struct tracegen *tg, struct srecwriter *w)
{
	struct srecwriter_header hdr = {
		.start_mono_ns = tg->start_ns,
		.start_real_ns = TRACEGEN_REALTIME_NS,
		.drainer_cpu = tg->drainer_cpu,
		.drainer_pid = tg->drainer_pid,
		.drainer_tid = tg->drainer_tid,
		.event_mask = SCHEDREC_EV_ALL_MASK,
		.mode = SCHEDREC_MODE_STREAM,
		.buf_kb = DEFAULT_BUF_KB,
		.flags = SREC_FILE_F_FROM_START |
			 (tg->filtered ? SREC_FILE_F_FILTERED : 0),
		.release = "6.12.0-tracegen",
		.version = "#1 SMP PREEMPT_DYNAMIC tracegen",
		.machine = "x86_64",
		.hostname = "tracegen",
		.cmdline = "schedrec record (tracegen)",
		.filter = tg->filtered ? "tracegen" : "",
		.threads = tg->threads,
		.nr_threads = tg->nr_threads,
	};
	struct srec_event events[SCHEDREC_REC_MAX + TRACEGEN_NEW_EVENTS];
	uLongf packed = compressBound(tg->ksyms_len);
	void *ksyms = NULL;
	char online[64];
	int ret;

	if (tg->online[0])
		snprintf(online, sizeof(online), "%s", tg->online);
	else if (tg->nr_cpus == 1)
		snprintf(online, sizeof(online), "0");
	else
		snprintf(online, sizeof(online), "0-%u", tg->nr_cpus - 1);
	hdr.online = online;
	/* STACK is optional: enabled only in traces that have stacks */
	if (tg->stacks)
		hdr.event_mask |= 1u << SCHEDREC_EV_STACK;
	hdr.event_mask &= ~tg->event_off;
	if (tg->nr_new_events) {
		hdr.nr_events = srecchunk_abi_events(events, hdr.event_mask);
		memcpy(events + hdr.nr_events, tg->new_events,
		       tg->nr_new_events * sizeof(*events));
		hdr.nr_events += tg->nr_new_events;
		hdr.events = events;
	}
	if (tg->ksyms_len) {
		ksyms = malloc(packed);
		if (!ksyms || compress2(ksyms, &packed,
					(const Bytef *)tg->ksyms,
					tg->ksyms_len, Z_BEST_SPEED) != Z_OK) {
			free(ksyms);
			return -ENOMEM;
		}
		hdr.ksyms = ksyms;
		hdr.ksyms_len = packed;
		hdr.ksyms_raw_len = tg->ksyms_len;
		hdr.ksyms_flags = tg->ksyms_shown ? 0 : SREC_KSYMS_F_HIDDEN;
	}
	ret = srecwriter_write_header(w, &hdr);
	free(ksyms);
	return ret;
}

static int by_time(const void *a, const void *b)
{
	const struct tg_event *x = a, *y = b;

	if (x->rec.hdr.ts != y->rec.hdr.ts)
		return x->rec.hdr.ts < y->rec.hdr.ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Append the records of the pass [@first, @end) of the CPU of @first as
 * one chunk, marking them done; @buf holds a whole pass.
 */
static int append_cpu(struct srecwriter *w, struct tg_event *first,
		      struct tg_event *end, bool *done, unsigned char *buf)
{
	unsigned int cpu = first->cpu;
	uint64_t filtered = 0;
	struct tg_event *ev;
	size_t len = 0;

	for (ev = first; ev < end; ev++, done++) {
		if (*done || ev->cpu != cpu)
			continue;
		*done = true;
		memcpy(buf + len, &ev->rec, ev->rec.hdr.size);
		len += ev->rec.hdr.size;
		filtered += ev->filtered;
	}
	if (filtered)
		srecwriter_filtered(w, cpu, filtered);
	return srecwriter_append(w, cpu, buf, len);
}

/*
 * The drainer's passes: each starts with srecwriter_round(F), F later
 * than every record it then appends (and no later than any record of the
 * next pass), as the fenced clock of schedrec record guarantees.  The
 * writer turns that into SYNC sections of horizon F two passes back.
 */
static int write_passes(struct tracegen *tg, struct srecwriter *w)
{
	struct tg_event *ev = tg->events;
	size_t n = tg->nr_events, first, end, i;
	unsigned char *buf = NULL;
	bool *done = NULL;
	int ret = 0;

	if (!n)
		return 0;
	qsort(ev, n, sizeof(*ev), by_time);
	buf = malloc(n * sizeof(union tg_record));
	done = calloc(n, sizeof(*done));
	if (!buf || !done) {
		ret = -ENOMEM;
		goto out;
	}
	for (first = 0; !ret && first < n; first = end) {
		/* a pass never ends between two records of the same time */
		for (end = first + 1; end < n; end++)
			if (end - first >= tg->pass_records &&
			    ev[end].rec.hdr.ts != ev[end - 1].rec.hdr.ts)
				break;
		ret = srecwriter_round(w, end < n ? ev[end].rec.hdr.ts :
				       ev[end - 1].rec.hdr.ts + 1);
		for (i = first; !ret && i < end; i++)
			if (!done[i])
				ret = append_cpu(w, &ev[i], &ev[end], &done[i],
						 buf);
	}
out:
	free(buf);
	free(done);
	return ret;
}

static int write_trace(struct tracegen *tg, int fd)
{
	struct srecwriter_options opt = {
		.nr_cpus = tg->nr_cpus, .zlib_level = tg->zlib_level,
	};
	struct srecwriter_trailer trailer = {
		.end_mono_ns = tg->start_ns + tg->end_ns,
		.end_real_ns = TRACEGEN_REALTIME_NS + tg->end_ns,
	};
	struct srecwriter *w;
	unsigned int cpu;
	int ret;

	ret = srecwriter_open(&w, fd, &opt);
	if (ret)
		return fail(tg, "cannot set up the writer: %s", strerror(-ret));
	ret = write_header(tg, w);
	if (!ret)
		ret = write_passes(tg, w);
	/* records filtered after the last record of a CPU: in the trailer */
	for (cpu = 0; !ret && tg->cpus && cpu < tg->nr_cpus; cpu++)
		if (tg->cpus[cpu].filtered)
			srecwriter_filtered(w, cpu, tg->cpus[cpu].filtered);
	if (!ret && !tg->notrailer)
		ret = srecwriter_write_trailer(w, &trailer);
	if (ret)
		fail(tg, "writing the trace: %s", *srecwriter_error(w) ?
		     srecwriter_error(w) : strerror(-ret));
	srecwriter_close(w);
	return ret ? -1 : 0;
}

/*
 * `damage`: flip a bit of the first data byte of the first section of
 * each type named, whose data checksum then fails.  The file is read back
 * to find them, so it must be one that can be.
 */
static int damage_sections(struct tracegen *tg, int fd)
{
	uint64_t left = tg->damage;
	struct srec_frame frame;
	unsigned char byte;
	off_t pos = 0, at;

	while (left && pread(fd, &frame, sizeof(frame), pos) ==
		       sizeof(frame)) {
		at = pos + sizeof(frame) + frame.head_len;
		if (frame.type < 64 && (left & (1ull << frame.type)) &&
		    frame.data_len) {
			if (pread(fd, &byte, 1, at) != 1)
				break;
			byte ^= 1;
			if (pwrite(fd, &byte, 1, at) != 1)
				break;
			left &= ~(1ull << frame.type);
		}
		pos = at + (frame.data_len + SREC_ALIGN - 1) / SREC_ALIGN *
		      SREC_ALIGN;
	}
	if (!left)
		return 0;
	return fail(tg, "damage: a section to damage is not in the output, or it cannot be read back");
}

int tracegen_write(const char *text, int fd, char *err, size_t err_size)
{
	struct tracegen tg = {
		.nr_cpus = DEFAULT_CPUS,
		.start_ns = DEFAULT_START_NS,
		.drainer_cpu = UINT32_MAX,
		.pass_records = TRACEGEN_PASS_RECORDS,
		.err = err,
		.err_size = err_size,
	};
	int ret;

	if (err_size)
		err[0] = '\0';
	ret = parse_text(&tg, text);
	if (!ret)
		ret = finish(&tg);
	if (!ret)
		ret = write_trace(&tg, fd);
	if (!ret && tg.damage)
		ret = damage_sections(&tg, fd);
	free(tg.threads);
	free(tg.ksyms);
	free(tg.events);
	free(tg.cpus);
	return ret;
}

int tracegen_write_file(const char *text, const char *path, char *err,
			size_t err_size)
{
	int fd, ret;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, err_size, "cannot create %s: %s", path,
			 strerror(errno));
		return -1;
	}
	ret = tracegen_write(text, fd, err, err_size);
	if (close(fd) && !ret) {
		snprintf(err, err_size, "cannot write %s: %s", path,
			 strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(path);
	return ret;
}
