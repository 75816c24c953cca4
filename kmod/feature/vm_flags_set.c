// SPDX-License-Identifier: GPL-2.0
/* Builds if vm_flags are set through vm_flags_set() (6.3 on, backported). */
#include <linux/mm.h>

void feature(struct vm_area_struct *vma);
void feature(struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_DONTEXPAND);
}
