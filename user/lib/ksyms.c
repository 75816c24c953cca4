// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel addresses to names, from a /proc/kallsyms snapshot; see ksyms.h.
 *
 * A line of /proc/kallsyms is "ffffffff81234560 T name", with a tab and
 * "[module]" after the name for a module's symbol.  Only text symbols are
 * kept; their names go into one pool, referred to by offset, so the index
 * takes 24 bytes a symbol plus the names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

struct ksym_entry {
	uint64_t addr;
	uint32_t name;		/* offsets in the pool */
	uint32_t module;
	uint32_t line;		/* of the text: of equal addresses, the
				 * first listed is the one named
				 */
};

struct ksyms {
	struct ksym_entry *syms;
	size_t count;
	size_t capacity;
	char *pool;		/* names, NUL-terminated; "" at 0 */
	size_t pool_len;
	size_t pool_size;
	bool hidden;
};

/* Frames of the tracing machinery, by name prefix: see ksyms.h. */
static const char *const tracing_prefixes[] = {
	"__traceiter_", "__probestub_", "__bpf_trace_",
};

/* Scheduler frames that every voluntary sleep goes through. */
static const char *const sched_wrappers[] = {
	"schedule", "__schedule_loop",
};

/* Append @len bytes of @str to the pool; its offset, or 0 if no room. */
static uint32_t pool_add(struct ksyms *ks, const char *str, size_t len)
{
	size_t size = ks->pool_size;
	uint32_t off = ks->pool_len;
	char *bigger;

	if (len >= UINT32_MAX - ks->pool_len)
		return 0;
	while (size - ks->pool_len < len + 1)
		size = size ? 2 * size : 64 << 10;
	if (size != ks->pool_size) {
		bigger = realloc(ks->pool, size);
		if (!bigger)
			return 0;
		ks->pool = bigger;
		ks->pool_size = size;
	}
	memcpy(ks->pool + off, str, len);
	ks->pool[off + len] = '\0';
	ks->pool_len += len + 1;
	return off;
}

static int add_symbol(struct ksyms *ks, uint64_t addr, uint32_t name,
		      uint32_t module, uint32_t line)
{
	struct ksym_entry *e;

	if (ks->count == ks->capacity) {
		size_t capacity = ks->capacity ? 2 * ks->capacity : 4096;

		e = realloc(ks->syms, capacity * sizeof(*e));
		if (!e)
			return -1;
		ks->syms = e;
		ks->capacity = capacity;
	}
	e = &ks->syms[ks->count++];
	e->addr = addr;
	e->name = name;
	e->module = module;
	e->line = line;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One line's fields, pointing into the text; false if it does not parse. */
struct kallsyms_line {
	uint64_t addr;
	char type;
	const char *name;
	size_t name_len;
	const char *module;	/* without the brackets; NULL if none */
	size_t module_len;
};

static bool parse_line(const char *p, const char *end,
		       struct kallsyms_line *l)
{
	unsigned int digits = 0;
	int d;

	memset(l, 0, sizeof(*l));
	for (; p < end && (d = hex_digit(*p)) >= 0; p++, digits++)
		l->addr = l->addr << 4 | d;
	if (!digits || digits > 16 || end - p < 4 || p[0] != ' ' ||
	    p[2] != ' ')
		return false;
	l->type = p[1];
	l->name = p += 3;
	while (p < end && *p != '\t' && *p != ' ')
		p++;
	l->name_len = p - l->name;
	if (!l->name_len)
		return false;
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (end - p >= 2 && *p == '[' && end[-1] == ']') {
		l->module = p + 1;
		l->module_len = end - p - 2;
	}
	return true;
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int compare_entry(const void *a, const void *b)
{
	const struct ksym_entry *ea = a, *eb = b;

	if (ea->addr != eb->addr)
		return ea->addr < eb->addr ? -1 : 1;
	return (ea->line > eb->line) - (ea->line < eb->line);
}

/* The text's lines into @ks; -1 when out of memory. */
static int parse_text(struct ksyms *ks, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *eol;
	size_t shown = 0, zero = 0;
	uint32_t module = 0, line = 0, name;
	const char *last_module = NULL;
	size_t last_module_len = 0;
	struct kallsyms_line l;

	for (; p < end; p = eol + 1, line++) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (!parse_line(p, eol, &l) || !is_text(l.type))
			continue;
		if (!l.addr) {
			zero++;
			continue;
		}
		shown++;
		/* a module's symbols come together: keep its name once */
		if (!l.module) {
			module = 0;
		} else if (!last_module || l.module_len != last_module_len ||
			   memcmp(l.module, last_module, l.module_len)) {
			module = pool_add(ks, l.module, l.module_len);
			if (!module)
				return -1;
			last_module = l.module;
			last_module_len = l.module_len;
		}
		name = pool_add(ks, l.name, l.name_len);
		if (!name || add_symbol(ks, l.addr, name, module, line))
			return -1;
	}
	ks->hidden = zero && !shown;
	return 0;
}

struct ksyms *ksyms_parse(const char *text, size_t len)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));

	if (!ks)
		return NULL;
	/* offset 0 is "", the module of the kernel's own symbols */
	if (pool_add(ks, "", 0) || !ks->pool ||
	    (text && parse_text(ks, text, len))) {
		ksyms_free(ks);
		return NULL;
	}
	if (ks->count)
		qsort(ks->syms, ks->count, sizeof(*ks->syms), compare_entry);
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->pool);
	free(ks);
}

size_t ksyms_count(const struct ksyms *ks)
{
	return ks->count;
}

bool ksyms_hidden(const struct ksyms *ks)
{
	return ks->hidden;
}

/* Index of the last symbol at or below @addr, or -1. */
static long find_at_or_below(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

bool ksyms_lookup(const struct ksyms *ks, uint64_t addr, struct ksym *sym,
		  uint64_t *offset)
{
	long i = find_at_or_below(ks, addr);
	const struct ksym_entry *e;

	if (i < 0 || addr - ks->syms[i].addr >= KSYMS_SPAN_MAX)
		return false;
	/* of several names of this address, the first in the text */
	while (i > 0 && ks->syms[i - 1].addr == ks->syms[i].addr)
		i--;
	e = &ks->syms[i];
	sym->addr = e->addr;
	sym->name = ks->pool + e->name;
	sym->module = ks->pool + e->module;
	if (offset)
		*offset = addr - e->addr;
	return true;
}

/* The symbol of return address @addr: that of the call just before it. */
static bool lookup_return(const struct ksyms *ks, uint64_t addr,
			  struct ksym *sym)
{
	return addr && ksyms_lookup(ks, addr - 1, sym, NULL);
}

int ksyms_format(const struct ksyms *ks, uint64_t addr, unsigned int flags,
		 char *buf, size_t size)
{
	char offset[24] = "", module[64] = "";
	struct ksym sym;
	bool found;

	if (flags & KSYMS_F_RETURN)
		found = lookup_return(ks, addr, &sym);
	else
		found = ksyms_lookup(ks, addr, &sym, NULL);
	if (!found)
		return snprintf(buf, size, "0x%" PRIx64, addr);
	if (flags & KSYMS_F_OFFSET && addr != sym.addr)
		snprintf(offset, sizeof(offset), "+0x%" PRIx64,
			 addr - sym.addr);
	if (flags & KSYMS_F_MODULE && sym.module[0])
		snprintf(module, sizeof(module), " [%s]", sym.module);
	return snprintf(buf, size, "%s%s%s", sym.name, offset, module);
}

static bool is_tracing(const struct ksym *sym)
{
	size_t i;

	if (!strcmp(sym->module, "schedrec"))
		return true;
	for (i = 0; i < sizeof(tracing_prefixes) / sizeof(*tracing_prefixes);
	     i++)
		if (!strncmp(sym->name, tracing_prefixes[i],
			     strlen(tracing_prefixes[i])))
			return true;
	return false;
}

static bool is_sched_wrapper(const struct ksym *sym)
{
	size_t i;

	for (i = 0; i < sizeof(sched_wrappers) / sizeof(*sched_wrappers); i++)
		if (!strcmp(sym->name, sched_wrappers[i]))
			return true;
	return false;
}

size_t ksyms_sched_frames(const struct ksyms *ks, const __u64 *ips,
			  size_t nr)
{
	struct ksym sym;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!lookup_return(ks, ips[i], &sym) ||
		    strcmp(sym.name, "__schedule"))
			continue;
		for (i++; i < nr && lookup_return(ks, ips[i], &sym) &&
		     is_sched_wrapper(&sym); i++)
			;
		return i;
	}
	for (i = 0; i < nr && lookup_return(ks, ips[i], &sym) &&
	     is_tracing(&sym); i++)
		;
	return i;
}

size_t ksyms_stack_names(const struct ksyms *ks,
			 const struct schedrec_stack *st, const char **names,
			 size_t max)
{
	size_t i = ksyms_sched_frames(ks, st->ips, st->nr), n = 0;
	struct ksym sym;

	for (; i < st->nr && n < max; i++)
		names[n++] = lookup_return(ks, st->ips[i], &sym) ? sym.name :
			     KSYMS_UNKNOWN;
	return n;
}
