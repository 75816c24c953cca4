// SPDX-License-Identifier: GPL-2.0
/* Builds if procfs has pde_data() (5.17 on; PDE_DATA() before). */
#include <linux/proc_fs.h>

void *feature(const struct inode *inode);
void *feature(const struct inode *inode)
{
	return pde_data(inode);
}
