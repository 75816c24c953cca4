// SPDX-License-Identifier: GPL-2.0
/*
 * schedrec: record every scheduling event into per-CPU lock-free rings,
 * exported through /proc/schedrec.  Module parameters, load and unload.
 */
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/proc_fs.h>

#include "probes.h"
#include "ring.h"
#include "state.h"

static unsigned int buf_kb = 1024;
module_param(buf_kb, uint, 0444);
MODULE_PARM_DESC(buf_kb, "per-CPU ring size in KiB, a power of two (4..262144, default 1024)");

struct schedrec_state schedrec = {
	.lock = __MUTEX_INITIALIZER(schedrec.lock),
	.mode = SCHEDREC_MODE_STREAM,
	.events = SCHEDREC_EV_ALL_MASK,
	.readers = ATOMIC_INIT(0),
};

static struct proc_dir_entry *proc_dir;

bool schedrec_buf_kb_valid(unsigned int kb)
{
	return kb >= SCHEDREC_BUF_KB_MIN && kb <= SCHEDREC_BUF_KB_MAX &&
	       is_power_of_2(kb) && (u64)kb * 1024 >= PAGE_SIZE;
}

static int __init schedrec_init(void)
{
	int ret;

	if (!schedrec_buf_kb_valid(buf_kb)) {
		pr_err("schedrec: buf_kb=%u: must be a power of two from %u to %u\n",
		       buf_kb, SCHEDREC_BUF_KB_MIN, SCHEDREC_BUF_KB_MAX);
		return -EINVAL;
	}
	ret = schedrec_probes_init();
	if (ret)
		return ret;
	ret = schedrec_rings_alloc((u64)buf_kb * 1024);
	if (ret)
		return ret;
	schedrec.buf_kb = buf_kb;
	ret = schedrec_rings_hotplug_init();
	if (ret)
		goto fail;
	proc_dir = proc_mkdir("schedrec", NULL);
	if (!proc_dir) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = schedrec_control_init(proc_dir);
	if (!ret)
		ret = schedrec_cpufiles_init(proc_dir);
	if (ret)
		goto fail;
	return 0;
fail:
	proc_remove(proc_dir);
	schedrec_rings_hotplug_exit();
	schedrec_rings_free();
	return ret;
}

static void __exit schedrec_exit(void)
{
	/* no CPU file is open: each holds a module reference */
	proc_remove(proc_dir);
	mutex_lock(&schedrec.lock);
	schedrec_set_enabled(false);
	mutex_unlock(&schedrec.lock);
	schedrec_rings_hotplug_exit();
	schedrec_rings_free();
}

module_init(schedrec_init);
module_exit(schedrec_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-CPU lock-free recorder of scheduling events");
/* /sys/module/schedrec/version; SCHEDREC_VERSION comes from VERSION */
MODULE_VERSION(SCHEDREC_VERSION);
