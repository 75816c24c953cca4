/* SPDX-License-Identifier: GPL-2.0 */
/* The system's uapi types, plus the kernel's short ones. */
#include_next <linux/types.h>
#include "../kshim.h"
