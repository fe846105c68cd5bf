// SPDX-License-Identifier: GPL-2.0
/*
 * Latency and bandwidth emulation. A bio ends at the later of its
 * submission time plus the latency of its kind and the time the device's
 * bandwidth, shared by all bios in submission order, finishes moving its
 * bytes. Each delayed bio has its own hrtimer, so bios in flight together
 * overlap their latencies as on a real device with a queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>

#include "compat.h"
#include "ramdisk.h"
#include "throttle.h"

struct rd_throttle {
	/* nanoseconds and MB/s; read without a lock, change while in use */
	unsigned int read_ns;
	unsigned int write_ns;
	unsigned int flush_ns;
	unsigned int bandwidth_mbps;
	spinlock_t lock;
	/* when the emulated transfer of the bios so far ends, under lock */
	u64 busy_until_ns;
	atomic_t in_flight;
	bool ever_delayed;
};

struct rd_delayed_bio {
	struct hrtimer timer;
	struct bio *bio;
	struct rd_device *rd;
	/* the device's power_gen when the bio was submitted */
	unsigned long power_gen;
};

/*
 * A power cut since the bio was submitted came before its completion: a
 * disk that loses power never acknowledges a command it had not answered
 * yet, and the cut may have dropped the data of this very write. The
 * device outlives its delayed bios (rd_throttle_destroy()).
 */
static enum hrtimer_restart rd_delayed_bio_end(struct hrtimer *timer)
{
	struct rd_delayed_bio *d = container_of(timer, struct rd_delayed_bio, timer);
	struct rd_device *rd = d->rd;
	struct rd_throttle *t = rd->throttle;

	if (!d->bio->bi_status && READ_ONCE(rd->power_gen) != d->power_gen) {
		this_cpu_inc(rd->stats->cut_errors);
		d->bio->bi_status = BLK_STS_IOERR;
	}
	bio_endio(d->bio);
	kfree(d);
	if (atomic_dec_and_test(&t->in_flight))
		wake_up_var(&t->in_flight);
	return HRTIMER_NORESTART;
}

static u64 rd_bio_latency_ns(const struct rd_throttle *t, const struct bio *bio)
{
	u64 ns = 0;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		ns = READ_ONCE(t->read_ns);
		break;
	case REQ_OP_WRITE:
		if (bio->bi_iter.bi_size)
			ns = READ_ONCE(t->write_ns);
		if (bio->bi_opf & REQ_PREFLUSH)
			ns += READ_ONCE(t->flush_ns);
		break;
	case REQ_OP_FLUSH:
		ns = READ_ONCE(t->flush_ns);
		break;
	default:
		break;
	}
	return ns;
}

/*
 * Ends bio at end (ktime_get_ns() time), or now when end is not later than
 * now; failed then if a power cut came after power_gen.
 */
static void rd_throttle_end_at(struct rd_device *rd, struct bio *bio, unsigned long power_gen,
			       u64 now, u64 end)
{
	struct rd_throttle *t = rd->throttle;
	struct rd_delayed_bio *d;

	if (end <= now)
		goto out_end_now;
	d = kmalloc(sizeof(*d), bio->bi_opf & REQ_NOWAIT ? GFP_NOWAIT : GFP_NOIO);
	/* without memory for the timer the bio ends early rather than fails */
	if (!d)
		goto out_end_now;
	d->bio = bio;
	d->rd = rd;
	d->power_gen = power_gen;
	atomic_inc(&t->in_flight);
	WRITE_ONCE(t->ever_delayed, true);
	rd_compat_hrtimer_setup(&d->timer, rd_delayed_bio_end, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_start(&d->timer, ns_to_ktime(end), HRTIMER_MODE_ABS);
	return;

out_end_now:
	bio_endio(bio);
}

void rd_throttle_end_bio(struct rd_device *rd, struct bio *bio, unsigned long power_gen)
{
	struct rd_throttle *t = rd->throttle;
	unsigned int mbps = READ_ONCE(t->bandwidth_mbps);
	u64 now = ktime_get_ns();
	u64 end = now + rd_bio_latency_ns(t, bio);

	if (mbps && bio_has_data(bio)) {
		/* 1 MB/s moves one byte per 1000 ns */
		u64 transfer = div_u64((u64)bio->bi_iter.bi_size * 1000, mbps);
		u64 done;

		spin_lock(&t->lock);
		done = max(now, t->busy_until_ns) + transfer;
		t->busy_until_ns = done;
		spin_unlock(&t->lock);
		end = max(end, done);
	}
	rd_throttle_end_at(rd, bio, power_gen, now, end);
}

/*
 * A bad block's timeout: the bio waits as a command the disk never
 * answered, then ends with the status it already has.
 */
void rd_throttle_end_bio_late(struct rd_device *rd, struct bio *bio, u64 delay_ns,
			      unsigned long power_gen)
{
	u64 now = ktime_get_ns();

	rd_throttle_end_at(rd, bio, power_gen, now, now + delay_ns);
}

bool rd_throttle_set(struct rd_throttle *t, const struct rd_config *cfg)
{
	WRITE_ONCE(t->read_ns, cfg->read_latency_ns);
	WRITE_ONCE(t->write_ns, cfg->write_latency_ns);
	WRITE_ONCE(t->flush_ns, cfg->flush_latency_ns);
	WRITE_ONCE(t->bandwidth_mbps, cfg->bandwidth_mbps);
	return cfg->read_latency_ns || cfg->write_latency_ns || cfg->flush_latency_ns ||
	       cfg->bandwidth_mbps;
}

struct rd_throttle *rd_throttle_create(void)
{
	struct rd_throttle *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	spin_lock_init(&t->lock);
	atomic_set(&t->in_flight, 0);
	return t;
}

void rd_throttle_destroy(struct rd_throttle *t)
{
	wait_var_event(&t->in_flight, !atomic_read(&t->in_flight));
	/*
	 * A timer callback may still be returning after its decrement; it runs
	 * with interrupts or bottom halves off, which RCU waits for, so a grace
	 * period lets it leave this module.
	 */
	if (READ_ONCE(t->ever_delayed))
		synchronize_rcu();
	kfree(t);
}
