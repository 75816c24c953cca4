/* SPDX-License-Identifier: GPL-2.0 */
/* The module's global state and the entry points of its /proc files. */
#ifndef _SCHEDREC_STATE_H
#define _SCHEDREC_STATE_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/types.h>

#define SCHEDREC_BUF_KB_MIN	4
#define SCHEDREC_BUF_KB_MAX	262144

struct schedrec_state {
	struct mutex lock;	/* serialises every control change */
	bool enabled;		/* written under lock, read anywhere */
	u32 mode;		/* enum schedrec_mode for the next enable */
	u32 events;		/* event mask, bit (1 << id) */
	unsigned int buf_kb;	/* per-CPU ring size */
	atomic_t readers;	/* CPU files open */
};

extern struct schedrec_state schedrec;

bool schedrec_buf_kb_valid(unsigned int kb);
int schedrec_control_init(struct proc_dir_entry *dir);
int schedrec_cpufiles_init(struct proc_dir_entry *dir);
int schedrec_set_enabled(bool on);

#endif /* _SCHEDREC_STATE_H */
