// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/schedrec/cpu/N: the consumer side of one ring, through read(),
 * poll() and mmap().  One reader at a time; while it has the file open (or
 * mapped) the module cannot be unloaded and the rings cannot be resized.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "ring.h"
#include "state.h"

static int cpufile_open(struct inode *inode, struct file *file)
{
	unsigned int cpu = (unsigned long)schedrec_pde_data(inode);
	struct schedrec_ring *ring;
	int ret = 0;

	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	mutex_lock(&schedrec.lock);
	ring = schedrec_ring(cpu);
	if (test_and_set_bit(0, &ring->open_flag)) {
		ret = -EBUSY;
	} else {
		atomic_inc(&schedrec.readers);
		/* whatever the last reader wrote over them */
		schedrec_ring_ctrl_identify(ring);
	}
	mutex_unlock(&schedrec.lock);
	if (ret) {
		module_put(THIS_MODULE);
		return ret;
	}
	file->private_data = ring;
	return stream_open(inode, file);
}

static int cpufile_release(struct inode *inode, struct file *file)
{
	struct schedrec_ring *ring = file->private_data;

	mutex_lock(&schedrec.lock);
	clear_bit(0, &ring->open_flag);
	atomic_dec(&schedrec.readers);
	mutex_unlock(&schedrec.lock);
	module_put(THIS_MODULE);
	return 0;
}

/* Readable: a quarter full, or stopped with data left. */
static bool cpufile_readable(struct schedrec_ring *ring)
{
	u64 used = schedrec_ring_used(ring);

	return used >= ring->watermark || (used && !READ_ONCE(schedrec.enabled));
}

/*
 * Copy whole records from the reader position, skipping PAD, and consume
 * them.  Sizes are checked against the ring even though only the kernel
 * writes the data: a bad size stops the copy, it never reads out of bounds.
 */
static ssize_t cpufile_copy(struct schedrec_ring *ring, char __user *buf,
			    size_t count)
{
	/* pairs with ring_publish(): records up to head are complete */
	u64 head = smp_load_acquire(&ring->head);
	u64 pos = schedrec_ring_read_start(ring);
	size_t done = 0;
	ssize_t ret = 0;

	while (pos != head) {
		u64 off = pos & ring->mask;
		struct schedrec_header *hdr = ring->data + off;
		u16 size = READ_ONCE(hdr->size);

		if (size < sizeof(*hdr) || size % SCHEDREC_RECORD_ALIGN ||
		    size > ring->size - off || size > head - pos) {
			ret = -EIO;
			break;
		}
		if (hdr->type != SCHEDREC_REC_PAD) {
			if (size > count - done) {
				ret = done ? 0 : -EINVAL;
				break;
			}
			if (copy_to_user(buf + done, hdr, size)) {
				ret = -EFAULT;
				break;
			}
			done += size;
		}
		pos += size;
	}
	/* the copies are done before the producer may reuse the space */
	smp_store_release(&ring->ctrl->tail, pos);
	return done ? done : ret;
}

static ssize_t cpufile_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	struct schedrec_ring *ring = file->private_data;
	int ret;

	if (ring->mode == SCHEDREC_MODE_OVERWRITE && READ_ONCE(schedrec.enabled))
		return -EBUSY;
	while (!schedrec_ring_used(ring)) {
		if (!READ_ONCE(schedrec.enabled))
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(ring->wait,
					       cpufile_readable(ring) ||
					       !READ_ONCE(schedrec.enabled));
		if (ret)
			return ret;
	}
	return cpufile_copy(ring, buf, count);
}

static __poll_t cpufile_poll(struct file *file, struct poll_table_struct *wait)
{
	struct schedrec_ring *ring = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &ring->wait, wait);
	if (cpufile_readable(ring))
		mask |= EPOLLIN | EPOLLRDNORM;
	else if (!READ_ONCE(schedrec.enabled) && !schedrec_ring_used(ring))
		mask |= EPOLLHUP;
	return mask;
}

/*
 * Page 0 is the control page, pages 1.. the data.  Only a mapping of the
 * control page alone may be writable; data is mapped read-only and cannot
 * be made writable later.  Pages are inserted at mmap time, so there is no
 * fault handler to keep alive.
 */
static int cpufile_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct schedrec_ring *ring = file->private_data;
	unsigned long data_pages = ring->size >> PAGE_SHIFT;
	unsigned long pgoff = vma->vm_pgoff, pages = vma_pages(vma);
	unsigned long i;
	int ret;

	/*
	 * MAP_SHARED of a read-only open sets VM_MAYSHARE but not VM_SHARED;
	 * a MAP_PRIVATE mapping would copy the control page on write.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (pgoff > data_pages || pages > data_pages + 1 - pgoff)
		return -EINVAL;
	if (pgoff + pages > 1) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		schedrec_vm_flags_clear(vma, VM_MAYWRITE);
	}
	schedrec_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY);
	for (i = 0; i < pages; i++) {
		unsigned long page = pgoff + i;
		struct page *p = page ?
			vmalloc_to_page(ring->data + ((page - 1) << PAGE_SHIFT)) :
			virt_to_page(ring->ctrl);

		ret = vm_insert_page(vma, vma->vm_start + (i << PAGE_SHIFT), p);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct proc_ops cpufile_ops = {
	.proc_open = cpufile_open,
	.proc_release = cpufile_release,
	.proc_read = cpufile_read,
	.proc_poll = cpufile_poll,
	.proc_mmap = cpufile_mmap,
};

int schedrec_cpufiles_init(struct proc_dir_entry *dir)
{
	struct proc_dir_entry *cpu_dir = proc_mkdir("cpu", dir);
	unsigned int cpu;
	char name[16];

	if (!cpu_dir)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "%u", cpu);
		if (!proc_create_data(name, 0600, cpu_dir, &cpufile_ops,
				      (void *)(unsigned long)cpu))
			return -ENOMEM;
	}
	return 0;
}
