/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency and bandwidth emulation: a bio's data moves at submission, its
 * completion waits on an hrtimer until a slower device would have ended it.
 */
#ifndef RAMDISK_THROTTLE_H
#define RAMDISK_THROTTLE_H

#include <linux/types.h>

struct bio;
struct rd_config;
struct rd_device;
struct rd_throttle;

struct rd_throttle *rd_throttle_create(void);
/* waits for every delayed completion, then frees */
void rd_throttle_destroy(struct rd_throttle *t);
/* takes the settings of cfg; false when they are all 0 (no delay) */
bool rd_throttle_set(struct rd_throttle *t, const struct rd_config *cfg);
/*
 * Both end a bio of rd through rd's throttle, and fail one they delayed
 * (BLK_STS_IOERR, counted in cut_errors) if rd's power_gen has moved on
 * from power_gen, the generation the bio was submitted in, by the time
 * it ends.
 */
/* ends bio now or when its latency and the bandwidth allow */
void rd_throttle_end_bio(struct rd_device *rd, struct bio *bio, unsigned long power_gen);
/* ends bio delay_ns from now, whatever the settings (a fault's delay or timeout) */
void rd_throttle_end_bio_late(struct rd_device *rd, struct bio *bio, u64 delay_ns,
			      unsigned long power_gen);

#endif /* RAMDISK_THROTTLE_H */
