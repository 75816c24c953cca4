/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms: names for the kernel addresses of STACK records, from the
 * /proc/kallsyms snapshot a trace carries (srecreader_info()->kallsyms).
 *
 *	struct ksyms *ks = ksyms_parse(info->kallsyms, info->kallsyms_len);
 *	const char *names[SCHEDREC_STACK_MAX_DEPTH];
 *	size_t i, n = ksyms_stack_names(ks, stack, names, ARRAY_SIZE(names));
 *
 *	for (i = n; i-- > 0; )		(outermost first, as folded stacks go)
 *		printf("%s%s", names[i], i ? ";" : "\n");
 *	ksyms_free(ks);
 *
 * The text is parsed once into an array of the text symbols (types t, T,
 * w and W) sorted by address, their names in one pool: memory grows with
 * the number of symbols, and a lookup is a binary search.  kallsyms gives
 * no sizes, so a symbol covers the addresses up to the next one, and at
 * most KSYMS_SPAN_MAX bytes: past that an address has no name.
 */
#ifndef SCHEDREC_KSYMS_H
#define SCHEDREC_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/schedrec.h"

/* The farthest an address can be from the symbol it is named after. */
#define KSYMS_SPAN_MAX		(1u << 20)

/* The name of an address no symbol covers, in folded stacks. */
#define KSYMS_UNKNOWN		"[unknown]"

struct ksyms;

/*
 * Parse the text of /proc/kallsyms, @len bytes (no NUL needed; NULL or 0:
 * no symbols).  Lines that do not parse are skipped.  Returns NULL only
 * when out of memory.
 */
struct ksyms *ksyms_parse(const char *text, size_t len);
void ksyms_free(struct ksyms *ks);

/* Text symbols kept (those at address 0 are not). */
size_t ksyms_count(const struct ksyms *ks);

/*
 * Whether the snapshot had symbols but every address was 0: the kernel
 * hid them from its reader (kptr_restrict), and nothing can be named.
 */
bool ksyms_hidden(const struct ksyms *ks);

struct ksym {
	uint64_t addr;		/* where the symbol starts */
	const char *name;
	const char *module;	/* "" for the kernel itself */
};

/*
 * The symbol covering @addr, into *@sym, and @addr's offset from its start
 * into *@offset (if not NULL): true, or false if none does (below the
 * first symbol, too far past the last one, or no symbols).  Of several
 * names of one address, the one listed first in the text.  The strings
 * live as long as @ks.
 */
bool ksyms_lookup(const struct ksyms *ks, uint64_t addr, struct ksym *sym,
		  uint64_t *offset);

/* ksyms_format() flags */
#define KSYMS_F_OFFSET		0x1	/* "name+0x1a" */
#define KSYMS_F_MODULE		0x2	/* "name [ext4]" for a module's */
#define KSYMS_F_RETURN		0x4	/* @addr is a return address: name
					 * the call before it (@addr - 1),
					 * which a call that ends a function
					 * needs; the offset stays @addr's
					 */

/*
 * @addr as text into @buf of @size bytes: its name, with what @flags add,
 * or "0x" and its hex digits when no symbol covers it.  Returns the length
 * of the whole text, as snprintf() does.
 */
int ksyms_format(const struct ksyms *ks, uint64_t addr, unsigned int flags,
		 char *buf, size_t size);

/*
 * Where the frames that say why a thread left the CPU start in a STACK
 * record's @ips (@nr of them, innermost first): the index of the first
 * frame below the scheduler.  What is dropped:
 *  - every frame up to and including the innermost __schedule: the
 *    tracepoint's and the probe's (__traceiter_sched_switch, a static
 *    call's target, __bpf_trace_*, frames of the [schedrec] module);
 *  - then, right after it, schedule and __schedule_loop, which every
 *    voluntary sleep goes through: they name no reason.
 * Kept: every other wrapper, since it says something (io_schedule,
 * schedule_timeout, schedule_hrtimeout_range_clock, schedule_preempt_
 * disabled, preempt_schedule_irq, schedule_rtlock...).  Without a
 * __schedule frame (no names, or a stack from elsewhere), only leading
 * frames of the tracing machinery are dropped: __traceiter_*,
 * __probestub_*, __bpf_trace_*, and those of the [schedrec] module.
 */
size_t ksyms_sched_frames(const struct ksyms *ks, const __u64 *ips,
			  size_t nr);

/*
 * The names of @st's frames below the scheduler (ksyms_sched_frames()),
 * innermost first, at most @max of them into @names: symbol names without
 * offset or module, KSYMS_UNKNOWN for an address no symbol covers.  Every
 * address of a STACK record is a return address, named as KSYMS_F_RETURN
 * says (so is it in ksyms_sched_frames()).
 * Returns how many.  @st must be whole: st->nr addresses follow it (the
 * reader checks that of every STACK record it hands out).
 */
size_t ksyms_stack_names(const struct ksyms *ks,
			 const struct schedrec_stack *st, const char **names,
			 size_t max);

#endif /* SCHEDREC_KSYMS_H */
