// SPDX-License-Identifier: GPL-2.0
/*
 * Reading what the module exposes about a device: its configuration from
 * configfs (or, for load-time devices that have none, from the block
 * layer's own sysfs files) and its statistics from the "ramdisk" group
 * under /sys/block/ramdiskN.
 */
#include "ramdiskctl.h"

#include "attr_file.h"

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void rd_device_init(struct rdctl_device *d)
{
	memset(d, 0, sizeof(*d));
	d->index = -1;
	d->max_part = -1;
	d->numa_node = -1;
}

/* Strictly "ramdisk" followed by a decimal number without leading zeros. */
static int parse_disk_name(const char *s)
{
	long n;
	char *end;

	if (strncmp(s, "ramdisk", 7))
		return -1;
	s += 7;
	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1]))
		return -1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n > INT_MAX)
		return -1;
	return (int)n;
}

int rd_parse_devname(const char *arg)
{
	if (!strncmp(arg, "/dev/", 5))
		arg += 5;
	return parse_disk_name(arg);
}

const char *rd_devpath(const struct rdctl_device *d, char *buf, size_t len)
{
	if (d->index < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "/dev/ramdisk%d", d->index);
	return buf;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void stat_path(char *buf, size_t len, int index, const char *file)
{
	path_fmt(buf, len, "%s/block/ramdisk%d/ramdisk/%s", sysfs_root(), index, file);
}

/*
 * The sysfs "backing" line: "pages" or "phys ADDR BYTES UUID". Root alone
 * may read it; anyone else keeps what configfs told, if anything.
 */
static void load_backing(struct rdctl_device *d, const char *path)
{
	char line[160], addr[32], uuid[40];
	unsigned long long bytes;

	if (attr_read_line(path, line, sizeof(line))) {
		if (errno == EACCES || errno == EPERM)
			d->backing_hidden = true;
		return;
	}
	if (sscanf(line, "phys %31s %llu %39s", addr, &bytes, uuid) == 3) {
		snprintf(d->backing, sizeof(d->backing), "phys@%.31s", addr);
		snprintf(d->backing_uuid, sizeof(d->backing_uuid), "%s", uuid);
		d->phys_size = bytes;
	} else {
		snprintf(d->backing, sizeof(d->backing), "%.40s", line);
	}
	d->has_backing = true;
}

/*
 * A powered device's zones, from its queue (the same for load-time and
 * configured devices) and its zone_conditions file.
 */
static void load_zones(struct rdctl_device *d)
{
	char path[PATH_MAX], model[32];
	uint64_t *c = d->zone_conditions;
	uint64_t sectors;

	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/queue/zoned", sysfs_root(), d->index);
	if (attr_read_line(path, model, sizeof(model)) || strcmp(model, "host-managed"))
		return;
	d->zoned = true;
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/queue/chunk_sectors", sysfs_root(),
		 d->index);
	if (!attr_read_u64(path, &sectors))
		d->zone_size = sectors * 512;
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/queue/nr_zones", sysfs_root(), d->index);
	(void)attr_read_u64(path, &d->nr_zones);
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/queue/max_open_zones", sysfs_root(),
		 d->index);
	(void)attr_read_u64(path, &d->zone_max_open);
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/queue/max_active_zones", sysfs_root(),
		 d->index);
	(void)attr_read_u64(path, &d->zone_max_active);
	stat_path(path, sizeof(path), d->index, "zone_conditions");
	if (!attr_read_line(path, model, sizeof(model)))
		d->has_zone_conditions =
			sscanf(model, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
			       &c[0], &c[1], &c[2], &c[3], &c[4]) == 5;
}

/* Statistics of a powered device; missing files stay unknown. */
static void load_stats(struct rdctl_device *d)
{
	char path[PATH_MAX];

	stat_path(path, sizeof(path), d->index, "");
	if (!exists(path))
		return;
	d->has_stats = true;
	stat_path(path, sizeof(path), d->index, "allocated_pages");
	d->has_allocated = !attr_read_u64(path, &d->allocated_pages);
	stat_path(path, sizeof(path), d->index, "allocated_bytes");
	d->has_allocated &= !attr_read_u64(path, &d->allocated_bytes);
	stat_path(path, sizeof(path), d->index, "index_bytes");
	d->has_index_bytes = !attr_read_u64(path, &d->index_bytes);
	stat_path(path, sizeof(path), d->index, "reads");
	d->has_reads = !attr_read_u64_pair(path, &d->reads, &d->read_bytes);
	stat_path(path, sizeof(path), d->index, "writes");
	d->has_writes = !attr_read_u64_pair(path, &d->writes, &d->write_bytes);
	stat_path(path, sizeof(path), d->index, "discards");
	d->has_discards = !attr_read_u64_pair(path, &d->discards, &d->discard_bytes);
	stat_path(path, sizeof(path), d->index, "write_zeroes");
	d->has_write_zeroes = !attr_read_u64_pair(path, &d->write_zeroes, &d->write_zeroes_bytes);
	stat_path(path, sizeof(path), d->index, "flushes");
	d->has_flushes = !attr_read_u64(path, &d->flushes);
	stat_path(path, sizeof(path), d->index, "alloc_failures");
	d->has_alloc_failures = !attr_read_u64(path, &d->alloc_failures);
	/* a module older than bad blocks has neither file: nothing to show */
	stat_path(path, sizeof(path), d->index, "badblock_read_errors");
	d->has_badblock_errors = !attr_read_u64(path, &d->badblock_read_errors);
	stat_path(path, sizeof(path), d->index, "badblock_write_errors");
	d->has_badblock_errors &= !attr_read_u64(path, &d->badblock_write_errors);
	/* nor one older than fault schedules these */
	stat_path(path, sizeof(path), d->index, "fault_errors");
	d->has_fault_counts = !attr_read_u64(path, &d->fault_errors);
	stat_path(path, sizeof(path), d->index, "fault_drops");
	d->has_fault_counts &= !attr_read_u64(path, &d->fault_drops);
	stat_path(path, sizeof(path), d->index, "fault_delays");
	d->has_fault_counts &= !attr_read_u64(path, &d->fault_delays);
	stat_path(path, sizeof(path), d->index, "spare_pages");
	d->has_spare = !attr_read_u64(path, &d->spare_pages);
	/* nor one older than checkpoints this one */
	stat_path(path, sizeof(path), d->index, "checkpoint_pages");
	d->has_checkpoint_pages = !attr_read_u64(path, &d->checkpoint_pages);
	stat_path(path, sizeof(path), d->index, "backing");
	load_backing(d, path);
	load_zones(d);
	stat_path(path, sizeof(path), d->index, "dirty_bytes");
	d->has_dirty = !attr_read_u64(path, &d->dirty_bytes);
	stat_path(path, sizeof(path), d->index, "power_cuts");
	d->has_power_cuts = !attr_read_u64(path, &d->power_cuts);
	/* the live mode; a load-time device has no configuration to read it from */
	if (!d->has_cache_mode) {
		stat_path(path, sizeof(path), d->index, "cache_mode");
		d->has_cache_mode = !attr_read_line(path, d->cache_mode, sizeof(d->cache_mode));
		/* and no latency or bandwidth emulation either */
		if (d->has_cache_mode && !d->configured)
			d->has_throttle = true;
	}
	/* The live limit; configfs holds the same value for named devices. */
	if (!d->has_mem_limit) {
		stat_path(path, sizeof(path), d->index, "mem_limit");
		d->has_mem_limit = !attr_read_u64(path, &d->mem_limit);
	}
}

static void config_path(char *buf, size_t len, const char *name, const char *attr)
{
	path_fmt(buf, len, "%s/%s/%s", rd_configfs_root(), name, attr);
}

/*
 * The checkpoints of a powered configuration: the lines of its checkpoints
 * file, one a checkpoint; unknown for a module without them.
 */
static void load_checkpoints(struct rdctl_device *d, const char *name)
{
	char path[PATH_MAX];
	FILE *f;
	int c;

	config_path(path, sizeof(path), name, "checkpoints");
	f = fopen(path, "re");
	if (!f)
		return;
	d->checkpoints = 0;
	while ((c = getc(f)) != EOF)
		d->checkpoints += c == '\n';
	d->has_checkpoints = !ferror(f);
	fclose(f);
}

/* The four latency and bandwidth attributes of a configuration, or none. */
static void load_throttle(struct rdctl_device *d, const char *name)
{
	static const char *const attrs[] = { "read_latency_ns", "write_latency_ns",
					     "flush_latency_ns", "bandwidth_mbps" };
	uint64_t *values[] = { &d->read_latency_ns, &d->write_latency_ns, &d->flush_latency_ns,
			       &d->bandwidth_mbps };
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		config_path(path, sizeof(path), name, attrs[i]);
		if (attr_read_u64(path, values[i]))
			return;
	}
	d->has_throttle = true;
}

/* A configuration's zones; a module without them has no zoned file. */
static void load_zone_config(struct rdctl_device *d, const char *name)
{
	static const char *const attrs[] = { "zone_size", "zone_capacity", "zone_nr_conv",
					     "zone_max_open", "zone_max_active" };
	uint64_t *values[] = { &d->zone_size, &d->zone_capacity, &d->zone_nr_conv,
			       &d->zone_max_open, &d->zone_max_active };
	char path[PATH_MAX];
	uint64_t zoned;

	config_path(path, sizeof(path), name, "zoned");
	if (attr_read_u64(path, &zoned) || !zoned)
		return;
	d->zoned = true;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		config_path(path, sizeof(path), name, attrs[i]);
		(void)attr_read_u64(path, values[i]);
	}
	if (d->zone_size && d->has_size)
		d->nr_zones = d->size / d->zone_size;
}

int rd_load_configured(struct rdctl_device *d, const char *name)
{
	char path[PATH_MAX];
	int64_t index = -1;

	rd_device_init(d);
	if (strlen(name) >= sizeof(d->name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	config_path(path, sizeof(path), name, "");
	if (!exists(path))
		return -1;
	strcpy(d->name, name);
	d->configured = true;
	config_path(path, sizeof(path), name, "size");
	d->has_size = !attr_read_u64(path, &d->size);
	config_path(path, sizeof(path), name, "block_size");
	d->has_block_size = !attr_read_u64(path, &d->block_size);
	config_path(path, sizeof(path), name, "max_part");
	d->has_max_part = !attr_read_s64(path, &d->max_part);
	config_path(path, sizeof(path), name, "mem_limit");
	d->has_mem_limit = !attr_read_u64(path, &d->mem_limit);
	config_path(path, sizeof(path), name, "numa_node");
	d->has_node = !attr_read_s64(path, &d->numa_node);
	config_path(path, sizeof(path), name, "phys_size");
	if (!attr_read_u64(path, &d->phys_size)) {
		char addr[32];

		config_path(path, sizeof(path), name, "phys_addr");
		if (!d->phys_size) {
			snprintf(d->backing, sizeof(d->backing), "pages");
		} else if (!attr_read_line(path, addr, sizeof(addr))) {
			snprintf(d->backing, sizeof(d->backing), "phys@%.31s", addr);
		} else {
			/* the address is root's; the kind is not */
			snprintf(d->backing, sizeof(d->backing), "phys");
			d->backing_hidden = true;
		}
		d->has_backing = true;
	}
	config_path(path, sizeof(path), name, "cache_mode");
	d->has_cache_mode = !attr_read_line(path, d->cache_mode, sizeof(d->cache_mode));
	/* a module without clones has no such file: the device is no clone */
	config_path(path, sizeof(path), name, "clone_of");
	if (attr_read_line(path, d->clone_of, sizeof(d->clone_of)))
		d->clone_of[0] = '\0';
	load_throttle(d, name);
	load_zone_config(d, name);
	config_path(path, sizeof(path), name, "index");
	if (!attr_read_s64(path, &index) && index >= 0 && index <= INT_MAX)
		d->index = (int)index;
	if (d->index >= 0) {
		load_stats(d);
		load_checkpoints(d, name);
	}
	return 0;
}

int rd_load_index(struct rdctl_device *d, int index)
{
	char path[PATH_MAX], name[RD_NAME_BUF];
	uint64_t sectors;

	rd_device_init(d);
	stat_path(path, sizeof(path), index, "name");
	if (attr_read_line(path, name, sizeof(name)))
		return -1;
	if (*name)
		return rd_load_configured(d, name);

	/* A load-time device: the block layer knows its shape. */
	d->index = index;
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/size", sysfs_root(), index);
	if (!attr_read_u64(path, &sectors) && sectors <= UINT64_MAX / 512) {
		d->size = sectors * 512;
		d->has_size = true;
	}
	path_fmt(path, sizeof(path), "%s/block/ramdisk%d/queue/logical_block_size", sysfs_root(),
		 index);
	d->has_block_size = !attr_read_u64(path, &d->block_size);
	path_fmt(path, sizeof(path), "%s/module/ramdisk/parameters/max_part", sysfs_root());
	d->has_max_part = !attr_read_s64(path, &d->max_part);
	load_stats(d);
	return 0;
}

int rd_resolve(const char *arg, struct rdctl_device *d)
{
	int index = rd_parse_devname(arg);

	if (index >= 0 && !rd_load_index(d, index))
		return RC_OK;
	/* A configuration may itself be called "ramdisk7"; try the name. */
	if (*arg && !strchr(arg, '/') && *arg != '.' && !rd_load_configured(d, arg))
		return RC_OK;
	if (errno == EACCES)
		return report_errno(errno, "%s", arg);
	warnx("%s: no such ramdisk device or configuration", arg);
	return RC_NO_DEVICE;
}

static int compare_devices(const void *a, const void *b)
{
	const struct rdctl_device *x = a, *y = b;

	if ((x->index < 0) != (y->index < 0))
		return x->index < 0 ? 1 : -1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int append(struct rdctl_device **list, size_t *count, size_t *cap,
		  const struct rdctl_device *d)
{
	if (*count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct rdctl_device *n = realloc(*list, ncap * sizeof(*n));

		if (!n)
			return -1;
		*list = n;
		*cap = ncap;
	}
	(*list)[(*count)++] = *d;
	return 0;
}

/* Configurations: every directory in the configfs tree. */
static int list_configured(struct rdctl_device **list, size_t *count, size_t *cap)
{
	struct rdctl_device d;
	struct dirent *e;
	DIR *dir;

	dir = opendir(rd_configfs_root());
	if (!dir)
		return -1;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		if (rd_load_configured(&d, e->d_name))
			continue;
		if (append(list, count, cap, &d)) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return 0;
}

/* Load-time devices: ramdiskN disks whose "name" statistic is empty. */
static int list_load_time(struct rdctl_device **list, size_t *count, size_t *cap)
{
	char path[PATH_MAX], name[RD_NAME_BUF];
	struct rdctl_device d;
	struct dirent *e;
	DIR *dir;
	int index;

	path_fmt(path, sizeof(path), "%s/block", sysfs_root());
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(dir))) {
		index = parse_disk_name(e->d_name);
		if (index < 0)
			continue;
		stat_path(path, sizeof(path), index, "name");
		if (attr_read_line(path, name, sizeof(name)) || *name)
			continue;
		if (rd_load_index(&d, index))
			continue;
		if (append(list, count, cap, &d)) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return 0;
}

int rd_list_all(struct rdctl_device **list, size_t *count)
{
	size_t cap = 0;

	*list = NULL;
	*count = 0;
	if (list_configured(list, count, &cap) || list_load_time(list, count, &cap)) {
		free(*list);
		*list = NULL;
		return -1;
	}
	if (*count)
		qsort(*list, *count, sizeof(**list), compare_devices);
	return 0;
}
