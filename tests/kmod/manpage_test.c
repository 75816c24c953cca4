// SPDX-License-Identifier: GPL-2.0
/*
 * The examples of schedrec-record(1) run as they are written: each block
 * between .EX and .EE of the page (man/ next to this binary, where
 * tests/kmod/Makefile copies doc/man) runs as a shell script, as root, in
 * a scratch directory, and must succeed; the module is put back to its
 * state afterwards.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "harness.h"
#include "procfile.h"

#define SCRATCH		"/tmp/manpage_test"
#define SCRIPT_MAX	4096

/* The page @name in man/ next to this binary. */
static FILE *open_page(const char *name)
{
	char path[PATH_MAX], *slash;

	if (sr_self_exe(path, sizeof(path)))
		return NULL;
	slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	snprintf(slash, sizeof(path) - (slash - path), "/man/%s", name);
	return fopen(path, "r");
}

/* A roff line as a shell line: "\-" is "-", "\e" is "\". */
static void unescape(char *line)
{
	char *in = line, *out = line;

	while (*in) {
		if (in[0] == '\\' && (in[1] == '-' || in[1] == 'e')) {
			*out++ = in[1] == '-' ? '-' : '\\';
			in += 2;
			continue;
		}
		*out++ = *in++;
	}
	*out = '\0';
}

static void print_script(int n, const char *script)
{
	const char *end;

	fprintf(stderr, "# example %d:\n", n);
	for (; *script; script = end + 1) {
		end = strchrnul(script, '\n');
		fprintf(stderr, "#   %.*s\n", (int)(end - script), script);
		if (!*end)
			break;
	}
}

/* Run @script with sh -e in SCRATCH; its exit status. */
static int run_script(const char *script)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (chdir(SCRATCH))
			_exit(126);
		execl("/bin/sh", "sh", "-e", "-c", script, NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

FIXTURE(examples) {
	int unused;
};

FIXTURE_SETUP(examples)
{
	ASSERT_EQ(0, sr_module_ensure());
	ASSERT_EQ(0, sr_reset());
	mkdir(SCRATCH, 0755);
}

FIXTURE_TEARDOWN(examples)
{
	sr_reset();
	if (system("rm -rf " SCRATCH " /tmp/run.*.srec"))
		TH_LOG("could not remove the examples' files");
}

TEST_F_TIMEOUT(examples, record_page, 120)
{
	char line[1024], script[SCRIPT_MAX];
	bool inside = false;
	int blocks = 0, status;
	FILE *page;

	page = open_page("schedrec-record.1");
	ASSERT_NE(NULL, page) TH_LOG("no man/schedrec-record.1 next to the test");
	while (fgets(line, sizeof(line), page)) {
		if (!strncmp(line, ".EX", 3)) {
			inside = true;
			script[0] = '\0';
			continue;
		}
		if (!inside)
			continue;
		if (!strncmp(line, ".EE", 3)) {
			inside = false;
			blocks++;
			print_script(blocks, script);
			status = run_script(script);
			EXPECT_EQ(0, status) TH_LOG("example %d:\n%s", blocks,
						    script);
			ASSERT_EQ(0, sr_reset());
			continue;
		}
		unescape(line);
		ASSERT_GT(sizeof(script) - strlen(script), strlen(line));
		strcat(script, line);
	}
	fclose(page);
	EXPECT_LE(5, blocks);
}

TEST_HARNESS_MAIN
