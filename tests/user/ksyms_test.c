// SPDX-License-Identifier: GPL-2.0
/*
 * user/lib/ksyms on a made-up /proc/kallsyms: lookups exactly on a
 * symbol, between two, below the first and too far past the last; data
 * symbols ignored; module symbols named with their module; of two names
 * of one address the first listed; a snapshot whose addresses are all 0 is
 * "hidden"; lines that do not parse are skipped; formats with and without
 * offset and module, and of return addresses; and the trimming of a
 * scheduler stack to the frames below it, as a folded stack needs them.
 */
#include <string.h>

#include "kselftest_harness.h"

#include "ksyms.h"

static const char text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T schedule\n"
	"ffffffff81000200 t __schedule\n"
	"ffffffff81000400 T io_schedule\n"
	"ffffffff81000500 T __traceiter_sched_switch\n"
	"ffffffff81001000 t do_nanosleep\n"
	"ffffffff81001000 t do_nanosleep_alias\n"
	"ffffffff81001200 T hrtimer_nanosleep\n"
	"ffffffff81001400 T __x64_sys_clock_nanosleep\n"
	"ffffffff81001600 W weak_text\n"
	"ffffffff81001700 T do_syscall_64\n"
	"ffffffff81002000 D jiffies\n"
	"ffffffff81002100 b some_bss\n"
	"not a line at all\n"
	"ffffffff8100zz00 T bad_address\n"
	"ffffffff81003000 T\n"
	"ffffffffc0001000 t probe_switch\t[schedrec]\n"
	"ffffffffc0001100 t probe_stack\t[schedrec]\n"
	"ffffffffc0002000 t ext4_file_read_iter\t[ext4]\n"
	"ffffffffc0002400 T ext4_read_folio\t[ext4]";	/* no final newline */

FIXTURE(ks) {
	struct ksyms *ks;
};

FIXTURE_SETUP(ks)
{
	self->ks = ksyms_parse(text, strlen(text));
	ASSERT_NE(NULL, self->ks);
}

FIXTURE_TEARDOWN(ks)
{
	ksyms_free(self->ks);
}

/* Text symbols only; the broken lines are not in. */
TEST_F(ks, counts)
{
	EXPECT_EQ(15u, ksyms_count(self->ks));
	EXPECT_FALSE(ksyms_hidden(self->ks));
}

static const char *name_of(const struct ksyms *ks, uint64_t addr,
			   uint64_t *offset)
{
	struct ksym sym;

	return ksyms_lookup(ks, addr, &sym, offset) ? sym.name : NULL;
}

TEST_F(ks, lookup)
{
	struct ksym sym;
	uint64_t off = 99;

	/* exactly on a symbol */
	EXPECT_STREQ("hrtimer_nanosleep",
		     name_of(self->ks, 0xffffffff81001200ull, &off));
	EXPECT_EQ(0u, off);
	/* between two: the one below */
	EXPECT_STREQ("hrtimer_nanosleep",
		     name_of(self->ks, 0xffffffff8100133full, &off));
	EXPECT_EQ(0x13fu, off);
	/* two names of one address: the first listed */
	EXPECT_STREQ("do_nanosleep",
		     name_of(self->ks, 0xffffffff81001010ull, &off));
	EXPECT_EQ(0x10u, off);
	/* weak text is text */
	EXPECT_STREQ("weak_text",
		     name_of(self->ks, 0xffffffff81001604ull, NULL));
	/* data is not: an address there is the text symbol's before it */
	EXPECT_STREQ("do_syscall_64",
		     name_of(self->ks, 0xffffffff81002008ull, &off));
	EXPECT_EQ(0x908u, off);
	/* below the first symbol */
	EXPECT_EQ(NULL, name_of(self->ks, 0xffffffff80ffffffull, NULL));
	EXPECT_EQ(NULL, name_of(self->ks, 0, NULL));
	/* a module's symbol, with its module; the kernel's have "" */
	ASSERT_TRUE(ksyms_lookup(self->ks, 0xffffffffc0002410ull, &sym,
				 &off));
	EXPECT_STREQ("ext4_read_folio", sym.name);
	EXPECT_STREQ("ext4", sym.module);
	EXPECT_EQ(0xffffffffc0002400ull, sym.addr);
	EXPECT_EQ(0x10u, off);
	ASSERT_TRUE(ksyms_lookup(self->ks, 0xffffffff81000000ull, &sym,
				 NULL));
	EXPECT_STREQ("", sym.module);
	/* past the last symbol: named within KSYMS_SPAN_MAX only */
	EXPECT_STREQ("ext4_read_folio",
		     name_of(self->ks, 0xffffffffc0002400ull +
			     KSYMS_SPAN_MAX - 1, NULL));
	EXPECT_EQ(NULL, name_of(self->ks, 0xffffffffc0002400ull +
				KSYMS_SPAN_MAX, NULL));
}

TEST_F(ks, format)
{
	char buf[128];
	int len;

	len = ksyms_format(self->ks, 0xffffffffc0002010ull,
			   KSYMS_F_OFFSET | KSYMS_F_MODULE, buf, sizeof(buf));
	EXPECT_STREQ("ext4_file_read_iter+0x10 [ext4]", buf);
	EXPECT_EQ((int)strlen(buf), len);
	ksyms_format(self->ks, 0xffffffffc0002010ull, 0, buf, sizeof(buf));
	EXPECT_STREQ("ext4_file_read_iter", buf);
	/* on the symbol: no +0x0 */
	ksyms_format(self->ks, 0xffffffff81001200ull, KSYMS_F_OFFSET, buf,
		     sizeof(buf));
	EXPECT_STREQ("hrtimer_nanosleep", buf);
	/* unknown: the address */
	ksyms_format(self->ks, 0x1234, KSYMS_F_OFFSET, buf, sizeof(buf));
	EXPECT_STREQ("0x1234", buf);
	/* a return address right after a call that ends a function */
	ksyms_format(self->ks, 0xffffffff81001200ull,
		     KSYMS_F_OFFSET | KSYMS_F_RETURN, buf, sizeof(buf));
	EXPECT_STREQ("do_nanosleep+0x200", buf);
	/* truncated like snprintf, the length still whole */
	len = ksyms_format(self->ks, 0xffffffff81001210ull, KSYMS_F_OFFSET,
			   buf, 8);
	EXPECT_STREQ("hrtimer", buf);
	EXPECT_EQ((int)strlen("hrtimer_nanosleep+0x10"), len);
}

/* Every address 0: kptr_restrict hid them. */
TEST(hidden)
{
	static const char zeros[] =
		"0000000000000000 T _stext\n"
		"0000000000000000 t do_nanosleep\n"
		"0000000000000000 t ext4_read_folio\t[ext4]\n";
	struct ksyms *ks = ksyms_parse(zeros, strlen(zeros));
	char buf[64];

	ASSERT_NE(NULL, ks);
	EXPECT_TRUE(ksyms_hidden(ks));
	EXPECT_EQ(0u, ksyms_count(ks));
	ksyms_format(ks, 0xffffffff81001000ull, 0, buf, sizeof(buf));
	EXPECT_STREQ("0xffffffff81001000", buf);
	ksyms_free(ks);

	/* no text at all: nothing, not hidden */
	ks = ksyms_parse(NULL, 0);
	ASSERT_NE(NULL, ks);
	EXPECT_FALSE(ksyms_hidden(ks));
	EXPECT_EQ(0u, ksyms_count(ks));
	ksyms_free(ks);
}

/* A STACK record of @nr return addresses (each 5 bytes into its call). */
struct stack_buf {
	struct schedrec_stack st;
	__u64 ips[SCHEDREC_STACK_MAX_DEPTH];
};

static void make_stack(struct stack_buf *b, const uint64_t *calls,
		       unsigned int nr)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	b->st.nr = nr;
	for (i = 0; i < nr; i++)
		b->st.ips[i] = calls[i] + 5;
}

/* A nanosleep as the probe sees it, from the probe down to the syscall. */
TEST_F(ks, trim_sleep)
{
	static const uint64_t calls[] = {
		0xffffffffc0001040ull,	/* probe_switch [schedrec] */
		0xffffffff81000510ull,	/* __traceiter_sched_switch */
		0xffffffff81000280ull,	/* __schedule */
		0xffffffff81000120ull,	/* schedule */
		0xffffffff81001080ull,	/* do_nanosleep */
		0xffffffff81001220ull,	/* hrtimer_nanosleep */
		0xffffffff81001410ull,	/* __x64_sys_clock_nanosleep */
		0xffffffff81001730ull,	/* do_syscall_64 */
		0x1000,			/* not kernel text */
	};
	static const char *const want[] = {
		"do_nanosleep", "hrtimer_nanosleep",
		"__x64_sys_clock_nanosleep", "do_syscall_64", KSYMS_UNKNOWN,
	};
	const char *names[SCHEDREC_STACK_MAX_DEPTH];
	struct stack_buf b;
	size_t n, i;

	make_stack(&b, calls, ARRAY_SIZE(calls));
	EXPECT_EQ(4u, ksyms_sched_frames(self->ks, b.st.ips, b.st.nr));
	n = ksyms_stack_names(self->ks, &b.st, names, ARRAY_SIZE(names));
	ASSERT_EQ(ARRAY_SIZE(want), n);
	for (i = 0; i < n; i++)
		EXPECT_STREQ(want[i], names[i]) TH_LOG("frame %zu", i);
	/* at most @max names */
	EXPECT_EQ(2u, ksyms_stack_names(self->ks, &b.st, names, 2));
	EXPECT_STREQ("hrtimer_nanosleep", names[1]);
}

/* io_schedule says why: it stays; schedule after __schedule goes. */
TEST_F(ks, trim_keeps_reasons)
{
	static const uint64_t calls[] = {
		0xffffffff81000280ull,	/* __schedule */
		0xffffffff81000480ull,	/* io_schedule */
		0xffffffffc0002100ull,	/* ext4_file_read_iter [ext4] */
	};
	const char *names[4];
	struct stack_buf b;

	make_stack(&b, calls, ARRAY_SIZE(calls));
	ASSERT_EQ(2u, ksyms_stack_names(self->ks, &b.st, names, 4));
	EXPECT_STREQ("io_schedule", names[0]);
	EXPECT_STREQ("ext4_file_read_iter", names[1]);
}

/* No __schedule: only the tracing frames at the top go. */
TEST_F(ks, trim_without_schedule)
{
	static const uint64_t calls[] = {
		0xffffffffc0001140ull,	/* probe_stack [schedrec] */
		0xffffffff81000510ull,	/* __traceiter_sched_switch */
		0xffffffff81001080ull,	/* do_nanosleep */
		0xffffffff81000510ull,	/* __traceiter, below: kept */
	};
	struct stack_buf b;

	make_stack(&b, calls, ARRAY_SIZE(calls));
	EXPECT_EQ(2u, ksyms_sched_frames(self->ks, b.st.ips, b.st.nr));
	/* an empty stack, or one no name covers */
	EXPECT_EQ(0u, ksyms_sched_frames(self->ks, b.st.ips, 0));
	b.st.ips[0] = 0x10;
	EXPECT_EQ(0u, ksyms_sched_frames(self->ks, b.st.ips, b.st.nr));
}

TEST_HARNESS_MAIN
