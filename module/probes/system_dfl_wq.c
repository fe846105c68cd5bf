// SPDX-License-Identifier: GPL-2.0
/* 6.17: system_dfl_wq names the unbound system workqueue; 7.x warns on system_unbound_wq */
#include <linux/module.h>
#include <linux/workqueue.h>

struct workqueue_struct *rd_probe(void);

struct workqueue_struct *rd_probe(void)
{
	return system_dfl_wq;
}

MODULE_LICENSE("GPL");
