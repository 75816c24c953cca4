// SPDX-License-Identifier: GPL-2.0
/*
 * The control files of /proc/schedrec: enable, events, mode, buf_kb, stats,
 * format and sync.  Every write is parsed completely before anything changes, so
 * a refused write (-EINVAL, -EBUSY) leaves the module as it was.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "probes.h"
#include "ring.h"
#include "state.h"

#define CONTROL_WRITE_MAX	256

static const char *const mode_names[] = {
	[SCHEDREC_MODE_STREAM] = "stream",
	[SCHEDREC_MODE_OVERWRITE] = "overwrite",
};

int schedrec_set_enabled(bool on)
{
	int ret;

	lockdep_assert_held(&schedrec.lock);
	if (schedrec.enabled && on)
		return 0;
	if (!schedrec.enabled && !on) {
		/*
		 * Stopped already: write the LOST records still owed where a
		 * reader has made room since, so a drainer that empties the
		 * rings after the stop can account for every lost event.
		 */
		schedrec_rings_stop();
		return 0;
	}
	if (on) {
		schedrec_rings_reset(schedrec.mode);
		WRITE_ONCE(schedrec.enabled, true);
		ret = schedrec_probes_set(schedrec.events);
		if (ret) {
			schedrec_probes_set(0);
			WRITE_ONCE(schedrec.enabled, false);
		}
		return ret;
	}
	ret = schedrec_probes_set(0);
	WRITE_ONCE(schedrec.enabled, false);
	schedrec_rings_stop();
	return ret;
}

/*
 * Copy a write from userspace as a NUL-terminated string, all of it: a
 * write that is empty, too long for any control file, or holds a NUL is
 * refused, so what is parsed is the whole of what was written.
 */
static char *control_copy(const char __user *ubuf, size_t count)
{
	char *buf;

	if (!count || count >= CONTROL_WRITE_MAX)
		return ERR_PTR(-EINVAL);
	buf = memdup_user_nul(ubuf, count);
	if (!IS_ERR(buf) && strlen(buf) != count) {
		kfree(buf);
		return ERR_PTR(-EINVAL);
	}
	return buf;
}

/* A whole write as a decimal number (a newline may end it), or -EINVAL. */
static int control_uint(const char __user *ubuf, size_t count,
			unsigned int *val)
{
	char *buf = control_copy(ubuf, count);
	int ret;

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = kstrtouint(buf, 10, val) ? -EINVAL : 0;
	kfree(buf);
	return ret;
}

static int enable_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", READ_ONCE(schedrec.enabled));
	return 0;
}

static ssize_t enable_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret;

	ret = control_uint(ubuf, count, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	mutex_lock(&schedrec.lock);
	ret = schedrec_set_enabled(val);
	mutex_unlock(&schedrec.lock);
	return ret ? ret : count;
}

static int event_id(const char *name)
{
	unsigned int id;

	/* a tracepoint names its first event: sched_switch is switch */
	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
		if (SCHEDREC_EV_IS_EVENT(id) &&
		    (!strcmp(name, schedrec_event_names[id]) ||
		     !strcmp(name, schedrec_event_tracepoints[id])))
			return id;
	return -EINVAL;
}

/*
 * Tokens, left to right: "all", "none", a hex mask, "+name", "-name", or a
 * bare name.  The first bare name starts from an empty mask, so
 * "switch waking" means exactly those two.  "all" is every event but the
 * optional ones (stack), which only their name enables.
 */
static int events_parse(char *buf, u32 *mask)
{
	bool bare_seen = false;
	u32 val = *mask;
	char *token;
	int id, n = 0;

	while ((token = strsep(&buf, " ,\t\n")) != NULL) {
		if (!*token)
			continue;
		n++;
		if (!strcmp(token, "all")) {
			val = SCHEDREC_EV_ALL_MASK;
		} else if (!strcmp(token, "none")) {
			val = 0;
		} else if (!strncmp(token, "0x", 2)) {
			if (kstrtou32(token, 16, &val) ||
			    (val & ~SCHEDREC_EV_VALID_MASK))
				return -EINVAL;
		} else if (*token == '+' || *token == '-') {
			id = event_id(token + 1);
			if (id < 0)
				return id;
			if (*token == '+')
				val |= BIT(id);
			else
				val &= ~BIT(id);
		} else {
			id = event_id(token);
			if (id < 0)
				return id;
			if (!bare_seen)
				val = 0;
			val |= BIT(id);
			bare_seen = true;
		}
	}
	if (!n)
		return -EINVAL;
	*mask = val;
	return 0;
}

static int events_show(struct seq_file *m, void *v)
{
	u32 mask = READ_ONCE(schedrec.events);
	unsigned int id;

	for (id = SCHEDREC_EV_FIRST; id <= SCHEDREC_EV_LAST; id++)
		if (SCHEDREC_EV_IS_EVENT(id))
			seq_printf(m, "%2u %-10s %-20s %s\n", id,
				   schedrec_event_names[id],
				   schedrec_event_tracepoints[id],
				   mask & BIT(id) ? "on" : "off");
	seq_printf(m, "mask 0x%x\n", mask);
	return 0;
}

static ssize_t events_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char *buf = control_copy(ubuf, count);
	u32 mask;
	int ret;

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&schedrec.lock);
	mask = schedrec.events;
	ret = events_parse(buf, &mask);
	if (!ret && schedrec.enabled)
		ret = schedrec_probes_set(mask);
	if (!ret)
		WRITE_ONCE(schedrec.events, mask);
	mutex_unlock(&schedrec.lock);
	kfree(buf);
	return ret ? ret : count;
}

static int mode_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", mode_names[READ_ONCE(schedrec.mode)]);
	return 0;
}

static ssize_t mode_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char *buf = control_copy(ubuf, count);
	int mode, ret = 0;

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mode = sysfs_match_string(mode_names, buf);
	kfree(buf);
	if (mode < 0)
		return -EINVAL;
	mutex_lock(&schedrec.lock);
	if (schedrec.enabled)
		ret = -EBUSY;
	else
		WRITE_ONCE(schedrec.mode, mode);
	mutex_unlock(&schedrec.lock);
	return ret ? ret : count;
}

static int buf_kb_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(schedrec.buf_kb));
	return 0;
}

static ssize_t buf_kb_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int kb;
	int ret;

	ret = control_uint(ubuf, count, &kb);
	if (ret)
		return ret;
	if (!schedrec_buf_kb_valid(kb))
		return -EINVAL;
	mutex_lock(&schedrec.lock);
	if (schedrec.enabled || atomic_read(&schedrec.readers))
		ret = -EBUSY;
	else if (kb != schedrec.buf_kb)
		ret = schedrec_rings_alloc((u64)kb * 1024);
	if (!ret)
		WRITE_ONCE(schedrec.buf_kb, kb);
	mutex_unlock(&schedrec.lock);
	return ret ? ret : count;
}

static int stats_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	mutex_lock(&schedrec.lock);
	seq_printf(m, "enabled=%d mode=%s buf_kb=%u events=0x%x\n",
		   schedrec.enabled, mode_names[schedrec.mode],
		   schedrec.buf_kb, schedrec.events);
	for_each_possible_cpu(cpu) {
		struct schedrec_ring *ring = schedrec_ring(cpu);
		u64 peak = READ_ONCE(ring->peak);
		u64 permyriad = div64_u64(peak * 10000, ring->size);

		seq_printf(m,
			   "cpu%u written=%llu lost=%llu overwritten=%llu bytes=%llu head=%llu tail=%llu peak=%llu peak_pct=%llu.%02llu\n",
			   cpu, READ_ONCE(ring->written), READ_ONCE(ring->lost),
			   READ_ONCE(ring->overwritten),
			   READ_ONCE(ring->bytes),
			   READ_ONCE(ring->head),
			   schedrec_ring_read_start(ring), peak,
			   permyriad / 100, permyriad % 100);
	}
	mutex_unlock(&schedrec.lock);
	return 0;
}

/* @count: for an array, the field holding its length; else NULL */
struct format_field {
	const char *name;
	unsigned int offset;
	unsigned int size;
	const char *count;
};

#define FIELD(type, member) \
	{ #member, offsetof(struct type, member), \
	  sizeof_field(struct type, member) }

static const struct format_field header_fields[] = {
	FIELD(schedrec_header, ts), FIELD(schedrec_header, seq),
	FIELD(schedrec_header, size), FIELD(schedrec_header, type),
	FIELD(schedrec_header, flags), { NULL }
};

static const struct format_field switch_fields[] = {
	FIELD(schedrec_switch, prev_tid), FIELD(schedrec_switch, next_tid),
	FIELD(schedrec_switch, prev_state), FIELD(schedrec_switch, prev_prio),
	FIELD(schedrec_switch, next_prio), { NULL }
};

static const struct format_field wakeup_fields[] = {
	FIELD(schedrec_wakeup, tid), FIELD(schedrec_wakeup, target_cpu),
	FIELD(schedrec_wakeup, waker_tid), FIELD(schedrec_wakeup, prio),
	{ NULL }
};

static const struct format_field migrate_fields[] = {
	FIELD(schedrec_migrate, tid), FIELD(schedrec_migrate, orig_cpu),
	FIELD(schedrec_migrate, dest_cpu), FIELD(schedrec_migrate, prio),
	{ NULL }
};

static const struct format_field task_fields[] = {
	FIELD(schedrec_task, tid), FIELD(schedrec_task, tgid),
	FIELD(schedrec_task, other_tid), FIELD(schedrec_task, comm),
	{ NULL }
};

static const struct format_field lost_fields[] = {
	FIELD(schedrec_lost, count), FIELD(schedrec_lost, first_ts),
	FIELD(schedrec_lost, last_ts), { NULL }
};

/* @ips is an array of @nr entries of 8 bytes: "ips:24:8[nr]" */
static const struct format_field stack_fields[] = {
	FIELD(schedrec_stack, tid), FIELD(schedrec_stack, nr),
	{ "ips", offsetof(struct schedrec_stack, ips), sizeof(__u64), "nr" },
	{ NULL }
};

static void format_fields(struct seq_file *m, const struct format_field *f)
{
	for (; f && f->name; f++) {
		seq_printf(m, " %s:%u:%u", f->name, f->offset, f->size);
		if (f->count)
			seq_printf(m, "[%s]", f->count);
	}
	seq_putc(m, '\n');
}

/* The fields of every record type after the header, indexed by type. */
static const struct format_field *const record_fields[] = {
	[SCHEDREC_EV_SWITCH] = switch_fields,
	[SCHEDREC_EV_WAKING] = wakeup_fields,
	[SCHEDREC_EV_WAKEUP] = wakeup_fields,
	[SCHEDREC_EV_WAKEUP_NEW] = wakeup_fields,
	[SCHEDREC_EV_MIGRATE] = migrate_fields,
	[SCHEDREC_EV_FORK] = task_fields,
	[SCHEDREC_EV_EXEC] = task_fields,
	[SCHEDREC_EV_EXIT] = task_fields,
	[SCHEDREC_EV_RENAME] = task_fields,
	[SCHEDREC_REC_LOST] = lost_fields,
	[SCHEDREC_REC_PAD] = NULL,
	[SCHEDREC_EV_STACK] = stack_fields,
};

static int format_show(struct seq_file *m, void *v)
{
	unsigned int type;

	seq_printf(m, "abi_version %u\n", SCHEDREC_ABI_VERSION);
	seq_puts(m, "clock CLOCK_MONOTONIC\n");
	seq_printf(m, "page_size %lu\n", PAGE_SIZE);
	seq_printf(m, "record_align %u\n", SCHEDREC_RECORD_ALIGN);
	seq_printf(m, "flag preempt 0x%x\nflag irq 0x%x\n",
		   SCHEDREC_F_PREEMPT, SCHEDREC_F_IRQ);
	seq_printf(m, "stack_max_depth %u\n", SCHEDREC_STACK_MAX_DEPTH);
	seq_printf(m, "header size=%zu", sizeof(struct schedrec_header));
	format_fields(m, header_fields);
	/* a size of 0 in the ABI's table: the record says its own */
	for (type = SCHEDREC_EV_FIRST; type <= SCHEDREC_REC_MAX; type++) {
		seq_printf(m, "record %u %s %s ", type,
			   schedrec_event_names[type],
			   SCHEDREC_EV_IS_EVENT(type) ?
			   schedrec_event_tracepoints[type] : "-");
		if (schedrec_record_sizes[type])
			seq_printf(m, "size=%u", schedrec_record_sizes[type]);
		else
			seq_puts(m, "size=variable");
		format_fields(m, record_fields[type]);
	}
	return 0;
}

/*
 * sync: a write of "1" returns once every probe that was running when it
 * began has finished (probes run inside RCU read-side sections: IRQs off,
 * in a tracepoint's preempt-disabled call).  A reader that reads the clock,
 * writes 1 here, then loads each ring's head knows that every record
 * stamped before that clock reading is below the head it loaded.
 */
static ssize_t sync_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret = control_uint(ubuf, count, &val);

	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;
	synchronize_rcu();
	return count;
}

static const struct proc_ops sync_ops = {
	.proc_write = sync_write,
};

#define CONTROL_OPS(name)						\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return single_open(file, name##_show, NULL);			\
}									\
static const struct proc_ops name##_ops = {				\
	.proc_open = name##_open,					\
	.proc_read = seq_read,						\
	.proc_write = name##_write,					\
	.proc_lseek = seq_lseek,					\
	.proc_release = single_release,					\
}

#define stats_write NULL
#define format_write NULL
CONTROL_OPS(enable);
CONTROL_OPS(events);
CONTROL_OPS(mode);
CONTROL_OPS(buf_kb);
CONTROL_OPS(stats);
CONTROL_OPS(format);

int schedrec_control_init(struct proc_dir_entry *dir)
{
	if (!proc_create("enable", 0600, dir, &enable_ops) ||
	    !proc_create("events", 0600, dir, &events_ops) ||
	    !proc_create("mode", 0600, dir, &mode_ops) ||
	    !proc_create("buf_kb", 0600, dir, &buf_kb_ops) ||
	    !proc_create("stats", 0400, dir, &stats_ops) ||
	    !proc_create("format", 0400, dir, &format_ops) ||
	    !proc_create("sync", 0200, dir, &sync_ops))
		return -ENOMEM;
	return 0;
}
