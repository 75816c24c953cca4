/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels schedrec builds against, behind one
 * name each, so the code that uses them reads the same on every kernel.
 */
#ifndef _SCHEDREC_COMPAT_H
#define _SCHEDREC_COMPAT_H

#include <linux/mm.h>
#include <linux/version.h>

/* vm_flags became read-only with setters in 6.3 */
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define schedrec_vm_flags_set(vma, flags)	vm_flags_set(vma, flags)
#define schedrec_vm_flags_clear(vma, flags)	vm_flags_clear(vma, flags)
#else
static inline void schedrec_vm_flags_set(struct vm_area_struct *vma,
					 unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void schedrec_vm_flags_clear(struct vm_area_struct *vma,
					   unsigned long flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#endif /* _SCHEDREC_COMPAT_H */
