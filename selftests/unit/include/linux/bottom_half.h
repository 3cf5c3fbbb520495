/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: softirq masking, counted so a test can see its state. */
#ifndef _SHIM_LINUX_BOTTOM_HALF_H
#define _SHIM_LINUX_BOTTOM_HALF_H

#include <linux/types.h>

void local_bh_disable(void);
void local_bh_enable(void);
bool in_softirq(void);

#endif
