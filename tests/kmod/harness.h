/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's kselftest harness, included with the one warning its own
 * code triggers under -Wextra (an unused signal handler argument) silenced,
 * so that the tests themselves build with -Wall -Wextra -Werror.
 */
#ifndef SCHEDREC_TEST_HARNESS_H
#define SCHEDREC_TEST_HARNESS_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* SCHEDREC_TEST_HARNESS_H */
