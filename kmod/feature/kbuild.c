// SPDX-License-Identifier: GPL-2.0
/* Always builds: the probes below compile at all, so a "no" means no. */
#include <linux/module.h>
