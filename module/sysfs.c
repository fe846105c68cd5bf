// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics in /sys/block/ramdiskN/ramdisk/: one line per file, counts
 * first and bytes second where a file has both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>

#include "cache.h"
#include "ramdisk.h"
#include "store.h"
#include "zones.h"

static struct rd_device *dev_to_rd(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static void rd_stats_sum(struct rd_device *rd, struct rd_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct rd_stats *s = per_cpu_ptr(rd->stats, cpu);

		sum->reads += s->reads;
		sum->read_bytes += s->read_bytes;
		sum->writes += s->writes;
		sum->write_bytes += s->write_bytes;
		sum->discards += s->discards;
		sum->discard_bytes += s->discard_bytes;
		sum->write_zeroes += s->write_zeroes;
		sum->write_zeroes_bytes += s->write_zeroes_bytes;
		sum->flushes += s->flushes;
		sum->cut_errors += s->cut_errors;
		sum->badblock_read_errors += s->badblock_read_errors;
		sum->badblock_write_errors += s->badblock_write_errors;
		sum->fault_errors += s->fault_errors;
		sum->fault_delays += s->fault_delays;
		sum->fault_drops += s->fault_drops;
	}
}

/* A file showing "COUNT BYTES" for one kind of bio. */
#define RD_STAT_PAIR_ATTR(_name, _count, _bytes)                                                  \
	static ssize_t _name##_show(struct device *dev, struct device_attribute *attr, char *buf) \
	{                                                                                         \
		struct rd_stats sum;                                                              \
		rd_stats_sum(dev_to_rd(dev), &sum);                                               \
		return sysfs_emit(buf, "%llu %llu\n", sum._count, sum._bytes);                    \
	}                                                                                         \
	static DEVICE_ATTR_RO(_name)

RD_STAT_PAIR_ATTR(reads, reads, read_bytes);
RD_STAT_PAIR_ATTR(writes, writes, write_bytes);
RD_STAT_PAIR_ATTR(discards, discards, discard_bytes);
RD_STAT_PAIR_ATTR(write_zeroes, write_zeroes, write_zeroes_bytes);

/* A file showing one count. */
#define RD_STAT_ATTR(_name)                                                                       \
	static ssize_t _name##_show(struct device *dev, struct device_attribute *attr, char *buf) \
	{                                                                                         \
		struct rd_stats sum;                                                              \
		rd_stats_sum(dev_to_rd(dev), &sum);                                               \
		return sysfs_emit(buf, "%llu\n", sum._name);                                      \
	}                                                                                         \
	static DEVICE_ATTR_RO(_name)

RD_STAT_ATTR(flushes);
RD_STAT_ATTR(cut_errors);
RD_STAT_ATTR(badblock_read_errors);
RD_STAT_ATTR(badblock_write_errors);
RD_STAT_ATTR(fault_errors);
RD_STAT_ATTR(fault_delays);
RD_STAT_ATTR(fault_drops);

static ssize_t name_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_rd(dev)->name);
}
static DEVICE_ATTR_RO(name);

static ssize_t allocated_pages_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&dev_to_rd(dev)->store->nr_pages));
}
static DEVICE_ATTR_RO(allocated_pages);

static ssize_t allocated_bytes_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	long pages = atomic_long_read(&dev_to_rd(dev)->store->nr_pages);

	return sysfs_emit(buf, "%llu\n", (u64)pages << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(allocated_bytes);

static ssize_t mem_limit_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", rd_store_limit_bytes(dev_to_rd(dev)->store));
}
static DEVICE_ATTR_RO(mem_limit);

static ssize_t alloc_failures_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&dev_to_rd(dev)->store->alloc_failures));
}
static DEVICE_ATTR_RO(alloc_failures);

/* Memory the index of the pages takes, on top of allocated_bytes. */
static ssize_t index_bytes_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct rd_store *store = dev_to_rd(dev)->store;

	return sysfs_emit(buf, "%ld\n",
			  store->ops->index_bytes ? store->ops->index_bytes(store) : 0);
}
static DEVICE_ATTR_RO(index_bytes);

/*
 * Of allocated_pages, those that only checkpoints hold: the old versions
 * of pages written since, and pages discarded since.
 */
static ssize_t checkpoint_pages_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct rd_store *store = dev_to_rd(dev)->store;

	return sysfs_emit(buf, "%ld\n",
			  store->ops->checkpoint_pages ? store->ops->checkpoint_pages(store) : 0);
}
static DEVICE_ATTR_RO(checkpoint_pages);

/* Pages allocated ahead of first writes, on top of allocated_pages. */
static ssize_t spare_pages_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", rd_store_spares(dev_to_rd(dev)->store));
}
static DEVICE_ATTR_RO(spare_pages);

static ssize_t cache_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_rd(dev)->cache ? "writeback" : "writethrough");
}
static DEVICE_ATTR_RO(cache_mode);

/* Pages held by the volatile write cache, on top of allocated_pages. */
static ssize_t cache_pages_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", rd_cache_pages(dev_to_rd(dev)->cache));
}
static DEVICE_ATTR_RO(cache_pages);

/* Bytes written but not yet durable: what a power cut would lose. */
static ssize_t dirty_bytes_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", rd_cache_dirty_bytes(dev_to_rd(dev)->cache));
}
static DEVICE_ATTR_RO(dirty_bytes);

static ssize_t power_cuts_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", rd_cache_power_cuts(dev_to_rd(dev)->cache));
}
static DEVICE_ATTR_RO(power_cuts);

static ssize_t misdirected_bytes_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", rd_cache_misdirected_bytes(dev_to_rd(dev)->cache));
}
static DEVICE_ATTR_RO(misdirected_bytes);

static ssize_t torn_blocks_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", rd_cache_torn_blocks(dev_to_rd(dev)->cache));
}
static DEVICE_ATTR_RO(torn_blocks);

/*
 * "pages", or "phys ADDR BYTES UUID" for a device in reserved memory.
 * Root alone reads it (0400): a physical address helps an attack on the
 * kernel, and /proc/iomem shows addresses to the administrator alone too.
 */
static ssize_t backing_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	const struct rd_store *store = dev_to_rd(dev)->store;

	if (!rd_store_is_phys(store))
		return sysfs_emit(buf, "pages\n");
	return rd_store_phys_describe(store, buf, PAGE_SIZE);
}
static DEVICE_ATTR_ADMIN_RO(backing);

/*
 * A zoned device's zones: how many are in each condition (empty,
 * implicitly open, explicitly open, closed, full, in that order), and
 * counts since it was made.
 */
static ssize_t zone_conditions_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct rd_zone_stats s;

	rd_zones_stats(dev_to_rd(dev)->zones, &s);
	return sysfs_emit(buf, "%u %u %u %u %u\n", s.empty, s.imp_open, s.exp_open, s.closed,
			  s.full);
}
static DEVICE_ATTR_RO(zone_conditions);

#define RD_ZONE_STAT_ATTR(_name)                                                              \
	static ssize_t zone_##_name##_show(struct device *dev, struct device_attribute *attr, \
					   char *buf)                                         \
	{                                                                                     \
		struct rd_zone_stats s;                                                       \
		rd_zones_stats(dev_to_rd(dev)->zones, &s);                                    \
		return sysfs_emit(buf, "%llu\n", s._name);                                    \
	}                                                                                     \
	static DEVICE_ATTR_RO(zone_##_name)

RD_ZONE_STAT_ATTR(resets);
RD_ZONE_STAT_ATTR(appends);
RD_ZONE_STAT_ATTR(implicit_closes);
RD_ZONE_STAT_ATTR(wp_errors);
RD_ZONE_STAT_ATTR(wp_rollbacks);
RD_ZONE_STAT_ATTR(resource_errors);

static struct attribute *rd_stat_attrs[] = {
	&dev_attr_alloc_failures.attr,
	&dev_attr_allocated_bytes.attr,
	&dev_attr_allocated_pages.attr,
	&dev_attr_backing.attr,
	&dev_attr_badblock_read_errors.attr,
	&dev_attr_badblock_write_errors.attr,
	&dev_attr_cache_mode.attr,
	&dev_attr_cache_pages.attr,
	&dev_attr_checkpoint_pages.attr,
	&dev_attr_cut_errors.attr,
	&dev_attr_dirty_bytes.attr,
	&dev_attr_discards.attr,
	&dev_attr_fault_delays.attr,
	&dev_attr_fault_drops.attr,
	&dev_attr_fault_errors.attr,
	&dev_attr_flushes.attr,
	&dev_attr_mem_limit.attr,
	&dev_attr_misdirected_bytes.attr,
	&dev_attr_name.attr,
	&dev_attr_power_cuts.attr,
	&dev_attr_reads.attr,
	&dev_attr_spare_pages.attr,
	&dev_attr_torn_blocks.attr,
	&dev_attr_index_bytes.attr,
	&dev_attr_write_zeroes.attr,
	&dev_attr_writes.attr,
	&dev_attr_zone_appends.attr,
	&dev_attr_zone_conditions.attr,
	&dev_attr_zone_implicit_closes.attr,
	&dev_attr_zone_resets.attr,
	&dev_attr_zone_resource_errors.attr,
	&dev_attr_zone_wp_errors.attr,
	&dev_attr_zone_wp_rollbacks.attr,
	NULL,
};

/* The zone files are a zoned device's only. */
static umode_t rd_stat_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	struct rd_device *rd = dev_to_rd(kobj_to_dev(kobj));

	if (!rd->zones &&
	    (attr == &dev_attr_zone_appends.attr || attr == &dev_attr_zone_conditions.attr ||
	     attr == &dev_attr_zone_implicit_closes.attr || attr == &dev_attr_zone_resets.attr ||
	     attr == &dev_attr_zone_resource_errors.attr || attr == &dev_attr_zone_wp_errors.attr ||
	     attr == &dev_attr_zone_wp_rollbacks.attr))
		return 0;
	return attr->mode;
}

static const struct attribute_group rd_stat_group = {
	.name = RAMDISK_SYSFS_STATS,
	.attrs = rd_stat_attrs,
	.is_visible = rd_stat_visible,
};

const struct attribute_group *rd_disk_attr_groups[] = {
	&rd_stat_group,
	NULL,
};
