/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modversion: which schedrec.ko is loaded, and does it speak our ABI?
 *
 * The module's own version is /sys/module/schedrec/version (its
 * MODULE_VERSION, taken from the tree's VERSION file).  Its ABI version is
 * the first line of /proc/schedrec/format, "abi_version N": that line keeps
 * its place and form in every ABI version, so a tool of any version can
 * read it before it touches anything else (doc/procfs.md).
 *
 *	struct modversion mv;
 *
 *	modversion_read(&mv, NULL, NULL);
 *	if (modversion_check(&mv, SCHEDREC_ABI_VERSION) == -EPROTO)
 *		modversion_mismatch(msg, sizeof(msg), &mv, "0.1.0",
 *				    SCHEDREC_ABI_VERSION);
 */
#ifndef SCHEDREC_MODVERSION_H
#define SCHEDREC_MODVERSION_H

#include <stdbool.h>
#include <stddef.h>

#define MODVERSION_SYS_DIR	"/sys/module/schedrec"

struct modversion {
	bool loaded;		/* the /proc directory exists */
	unsigned int abi;	/* from format; 0 when it could not be read */
	int abi_error;		/* 0, -errno of reading format, or -EPROTO
				 * when its first line is not "abi_version N"
				 */
	char version[64];	/* the module's version, "" if unknown */
};

/*
 * Fill @mv from @proc_dir (NULL: SCHEDREC_PROC_DIR) and @sys_dir (NULL:
 * MODVERSION_SYS_DIR); tests point them at directories of their own.
 */
void modversion_read(struct modversion *mv, const char *proc_dir,
		     const char *sys_dir);

/*
 * 0 if the module is loaded and speaks @tool_abi; -ENOENT if it is not
 * loaded; -EPROTO if it speaks another ABI, or does not say which; else
 * the error of reading its format file (-EACCES: not root).
 */
int modversion_check(const struct modversion *mv, unsigned int tool_abi);

/*
 * For -EPROTO: a sentence naming both versions and what to do, into @buf.
 * @tool_version is this tool's version, @tool_abi the ABI it speaks.
 */
void modversion_mismatch(char *buf, size_t size, const struct modversion *mv,
			 const char *tool_version, unsigned int tool_abi);

#endif /* SCHEDREC_MODVERSION_H */
