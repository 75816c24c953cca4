/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option tables: each option of a command written once, with its name,
 * its key, its argument and its help; getopt_long()'s table, its short
 * options and the option list of --help are made from it.  The bash
 * completion reads that list (completion/schedrec.bash), the manual
 * pages are checked against it (tests/install/man_options.sh).
 */
#ifndef SCHEDREC_OPTSPEC_H
#define SCHEDREC_OPTSPEC_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

struct optspec {
	const char *name;	/* --NAME; NULL ends a table */
	/*
	 * what getopt_long() returns for it: a letter is also -KEY; 0 for
	 * an option another table parses, listed here for what it means
	 * in this one (a report's --cpu)
	 */
	int key;
	int has_arg;		/* no_argument, required_argument, ... */
	const char *arg;	/* in --help: "FILE" (after a space), "[=N]" */
	const char *help;	/* lines, each ending in '\n' */
};

/*
 * getopt_long()'s table of @tables (a NULL-terminated list), and in
 * @shortopts its short options after @prefix ("+", ":" or ""); free()
 * the table.  NULL on ENOMEM, or if @size is too small (EINVAL).
 */
struct option *optspec_getopt(const struct optspec *const *tables,
			      const char *prefix, char *shortopts,
			      size_t size);

/*
 * The options of @tables as --help lists them: a line per option,
 * "  -o, --output FILE  help" (long-only options indented under the
 * long names of the others), help aligned in one column, continued
 * below it; an option too wide for that column begins its help on
 * the same line, three spaces after.
 */
void optspec_help(FILE *f, const struct optspec *const *tables);

/* The entry of @table named @name, NULL if none. */
const struct optspec *optspec_find(const struct optspec *table,
				   const char *name);

/*
 * The entry of @table that the word @word is ("-h", "--help"), NULL if
 * none: for a command that looks at one word, where getopt_long()'s
 * state would outlive it into the verb's own parse.
 */
const struct optspec *optspec_word(const struct optspec *table,
				   const char *word);

#endif
