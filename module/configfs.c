// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time configuration under /sys/kernel/config/ramdisk/: mkdir NAME
 * makes a configuration, `power` turns it into /dev/ramdiskN and back,
 * rmdir drops it. Attributes other than badblocks, fault_schedule,
 * mem_limit, spare_pages, rotational, power_domain and the latency,
 * bandwidth and power-cut ones are fixed while powered. The root's
 * power_cut_domain cuts every member of a power domain at once; its
 * checkpoint_domain takes a checkpoint of them all at one instant, and
 * its write_log_domain starts all their write logs so.
 *
 * A powered configuration pins its directory, so rmdir gets EBUSY until
 * `power` is 0 again. configfs decides rmdir before asking the module
 * (drop_item cannot refuse), and neither checks a capability: without the
 * pin, root without CAP_SYS_ADMIN could remove a disk by rmdir. This way
 * the capability-checked power store is the one path that removes a disk.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/configfs.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "badblocks.h"
#include "fault_schedule.h"
#include "cache.h"
#include "checkpoint.h"
#include "compat.h"
#include "ramdisk.h"
#include "store.h"
#include "write_log.h"

static struct configfs_subsystem rd_subsys;

struct rd_cfg_item {
	struct config_item item;
	struct rd_config cfg;
	/* the device while powered, else NULL; both under rd_lock */
	struct rd_device *dev;
	/*
	 * The power domain it is in, "" for none, and its place on
	 * rd_domain_members while in one; both under rd_lock. Not part of
	 * struct rd_config: the device never reads it, only the domain's cut.
	 */
	char power_domain[RD_DOMAIN_NAME_LEN];
	struct list_head domain_node;
};

/* Every item in a power domain, under rd_lock. */
static LIST_HEAD(rd_domain_members);

static struct rd_cfg_item *to_rd_cfg_item(struct config_item *item)
{
	return container_of(item, struct rd_cfg_item, item);
}

/* The most of a refused value a log line quotes. */
#define RD_CFG_QUOTE_MAX 64

/*
 * The directory and its files belong to uid 0, so mode bits let any root
 * process through, also one that gave up CAP_SYS_ADMIN (a container, a
 * sandboxed service). Making, changing or cutting a disk is administration:
 * every store and mkdir asks for the capability as well.
 */
static int rd_cfg_may_admin(const char *who, const char *what)
{
	if (capable(CAP_SYS_ADMIN))
		return 0;
	pr_warn_ratelimited("%s: %s needs CAP_SYS_ADMIN\n", who, what);
	return -EPERM;
}

static int rd_cfg_parse_size(const char *who, const char *attr, const char *page, u64 *val)
{
	if (rd_parse_size(page, val)) {
		pr_warn("%s: %s '%.*s' is not a size (digits with an optional K, M, G or T)\n", who,
			attr, rd_text_len(page, RD_CFG_QUOTE_MAX), page);
		return -EINVAL;
	}
	return 0;
}

static int rd_cfg_parse_uint(const char *who, const char *attr, const char *page, unsigned int *val)
{
	if (kstrtouint(page, 10, val)) {
		pr_warn("%s: %s '%.*s' is not a number\n", who, attr,
			rd_text_len(page, RD_CFG_QUOTE_MAX), page);
		return -EINVAL;
	}
	return 0;
}

static int rd_cfg_parse_u64(const char *who, const char *attr, const char *page, u64 *val)
{
	if (kstrtou64(page, 10, val)) {
		pr_warn("%s: %s '%.*s' is not a number\n", who, attr,
			rd_text_len(page, RD_CFG_QUOTE_MAX), page);
		return -EINVAL;
	}
	return 0;
}

static int rd_cfg_parse_int(const char *who, const char *attr, const char *page, int *val)
{
	if (kstrtoint(page, 10, val)) {
		pr_warn("%s: %s '%.*s' is not a number\n", who, attr,
			rd_text_len(page, RD_CFG_QUOTE_MAX), page);
		return -EINVAL;
	}
	return 0;
}

/*
 * Pushes one changed attribute to a powered device. An attribute without
 * one cannot change while the device is powered.
 */
typedef void rd_cfg_apply_fn(struct rd_device *dev, const struct rd_config *cfg);

static void rd_cfg_apply_mem_limit(struct rd_device *dev, const struct rd_config *cfg)
{
	rd_store_set_limit(dev->store, cfg->mem_limit);
}

static void rd_cfg_apply_spare_pages(struct rd_device *dev, const struct rd_config *cfg)
{
	rd_store_set_spares(dev->store, cfg->spare_pages);
}

static void rd_cfg_apply_write_log_limit(struct rd_device *dev, const struct rd_config *cfg)
{
	rd_wlog_set_limit(dev, cfg->write_log_limit);
}

/* power_cut reads the power_cut_* settings when it is written: nothing to push */
static void rd_cfg_apply_at_next_cut(struct rd_device *dev, const struct rd_config *cfg)
{
}

/* Checks and stores a changed configuration; called under rd_lock. */
static int rd_cfg_apply(struct rd_cfg_item *c, const char *attr, const struct rd_config *want,
			rd_cfg_apply_fn *apply)
{
	const char *who = config_item_name(&c->item);
	int err;

	if (c->dev && !apply) {
		pr_warn("%s: %s cannot change while powered (ramdisk%d); write 0 to power first\n",
			who, attr, c->dev->index);
		return -EBUSY;
	}
	err = rd_config_validate(want, who);
	if (err)
		return err;
	c->cfg = *want;
	if (c->dev)
		apply(c->dev, want);
	return 0;
}

/*
 * One file per attribute of struct rd_config: _parse reads the text,
 * rd_config_validate() judges the whole configuration, _apply pushes the
 * change to a powered device (NULL: the attribute cannot change while
 * powered).
 */
#define RD_CFG_ATTR(_name, _mode, _fmt, _parse, _apply)                                   \
	static ssize_t rd_cfg_##_name##_show(struct config_item *item, char *page)        \
	{                                                                                 \
		struct rd_cfg_item *c = to_rd_cfg_item(item);                             \
		ssize_t ret;                                                              \
		mutex_lock(&rd_lock);                                                     \
		ret = scnprintf(page, PAGE_SIZE, _fmt "\n", c->cfg._name);                \
		mutex_unlock(&rd_lock);                                                   \
		return ret;                                                               \
	}                                                                                 \
	static ssize_t rd_cfg_##_name##_store(struct config_item *item, const char *page, \
					      size_t count)                               \
	{                                                                                 \
		struct rd_cfg_item *c = to_rd_cfg_item(item);                             \
		struct rd_config want;                                                    \
		int err;                                                                  \
		err = rd_cfg_may_admin(config_item_name(item), #_name);                   \
		if (err)                                                                  \
			return err;                                                       \
		mutex_lock(&rd_lock);                                                     \
		want = c->cfg;                                                            \
		err = _parse(config_item_name(item), #_name, page, &want._name);          \
		if (!err)                                                                 \
			err = rd_cfg_apply(c, #_name, &want, _apply);                     \
		mutex_unlock(&rd_lock);                                                   \
		return err ? err : count;                                                 \
	}                                                                                 \
	static struct configfs_attribute rd_cfg_attr_##_name = {                          \
		.ca_name = #_name,                                                        \
		.ca_mode = _mode,                                                         \
		.ca_owner = THIS_MODULE,                                                  \
		.show = rd_cfg_##_name##_show,                                            \
		.store = rd_cfg_##_name##_store,                                          \
	}

/*
 * The atomic write attributes exist on every kernel, but where the block
 * layer takes no atomic writes from a bio-based driver they refuse every
 * write with EOPNOTSUPP and a line saying why, and `features` leaves them
 * out. A missing file would answer ENOENT, which a tool cannot tell from
 * a typo or an older module, and which says nothing in the log.
 */
static int rd_cfg_parse_atomic(const char *who, const char *attr, const char *page,
			       unsigned int *val)
{
	if (!RD_COMPAT_ATOMIC_WRITES) {
		pr_warn("%s: %s is not supported: this kernel's block layer takes no atomic writes from a bio-based driver\n",
			who, attr);
		return -EOPNOTSUPP;
	}
	return rd_cfg_parse_uint(who, attr, page, val);
}

RD_CFG_ATTR(atomic_write_boundary, 0644, "%u", rd_cfg_parse_atomic, NULL);
RD_CFG_ATTR(atomic_write_unit_max, 0644, "%u", rd_cfg_parse_atomic, NULL);
RD_CFG_ATTR(atomic_write_unit_min, 0644, "%u", rd_cfg_parse_atomic, NULL);
RD_CFG_ATTR(bandwidth_mbps, 0644, "%u", rd_cfg_parse_uint, rd_dev_set_throttle);
RD_CFG_ATTR(block_size, 0644, "%u", rd_cfg_parse_uint, NULL);
RD_CFG_ATTR(cache_size, 0644, "%llu", rd_cfg_parse_size, NULL);
RD_CFG_ATTR(flush_latency_ns, 0644, "%u", rd_cfg_parse_uint, rd_dev_set_throttle);
RD_CFG_ATTR(io_min, 0644, "%u", rd_cfg_parse_uint, NULL);
RD_CFG_ATTR(io_opt, 0644, "%u", rd_cfg_parse_uint, NULL);
RD_CFG_ATTR(max_part, 0644, "%u", rd_cfg_parse_uint, NULL);
RD_CFG_ATTR(mem_limit, 0644, "%llu", rd_cfg_parse_size, rd_cfg_apply_mem_limit);
RD_CFG_ATTR(write_log_limit, 0644, "%llu", rd_cfg_parse_size, rd_cfg_apply_write_log_limit);
RD_CFG_ATTR(numa_node, 0644, "%d", rd_cfg_parse_int, NULL);
RD_CFG_ATTR(physical_block_size, 0644, "%u", rd_cfg_parse_uint, NULL);
RD_CFG_ATTR(power_cut_drop_percent, 0644, "%u", rd_cfg_parse_uint, rd_cfg_apply_at_next_cut);
RD_CFG_ATTR(power_cut_seed, 0644, "%llu", rd_cfg_parse_u64, rd_cfg_apply_at_next_cut);
RD_CFG_ATTR(read_latency_ns, 0644, "%u", rd_cfg_parse_uint, rd_dev_set_throttle);
RD_CFG_ATTR(size, 0644, "%llu", rd_cfg_parse_size, NULL);
RD_CFG_ATTR(spare_pages, 0644, "%u", rd_cfg_parse_uint, rd_cfg_apply_spare_pages);
RD_CFG_ATTR(write_latency_ns, 0644, "%u", rd_cfg_parse_uint, rd_dev_set_throttle);

/*
 * An attribute that takes one of a few words: _names[] maps each value of
 * the field to its word; _choices says them all in the refusal.
 */
#define RD_CFG_ENUM_ATTR(_name, _names, _choices, _apply)                                 \
	static ssize_t rd_cfg_##_name##_show(struct config_item *item, char *page)        \
	{                                                                                 \
		struct rd_cfg_item *c = to_rd_cfg_item(item);                             \
		unsigned int v;                                                           \
		mutex_lock(&rd_lock);                                                     \
		v = c->cfg._name;                                                         \
		mutex_unlock(&rd_lock);                                                   \
		return scnprintf(page, PAGE_SIZE, "%s\n", _names[v]);                     \
	}                                                                                 \
	static ssize_t rd_cfg_##_name##_store(struct config_item *item, const char *page, \
					      size_t count)                               \
	{                                                                                 \
		struct rd_cfg_item *c = to_rd_cfg_item(item);                             \
		struct rd_config want;                                                    \
		int v, err;                                                               \
		err = rd_cfg_may_admin(config_item_name(item), #_name);                   \
		if (err)                                                                  \
			return err;                                                       \
		v = sysfs_match_string(_names, page);                                     \
		if (v < 0) {                                                              \
			pr_warn("%s: %s '%.*s' is %s\n", config_item_name(item), #_name,  \
				rd_text_len(page, RD_CFG_QUOTE_MAX), page, _choices);     \
			return -EINVAL;                                                   \
		}                                                                         \
		mutex_lock(&rd_lock);                                                     \
		want = c->cfg;                                                            \
		want._name = v;                                                           \
		err = rd_cfg_apply(c, #_name, &want, _apply);                             \
		mutex_unlock(&rd_lock);                                                   \
		return err ? err : count;                                                 \
	}                                                                                 \
	static struct configfs_attribute rd_cfg_attr_##_name = {                          \
		.ca_name = #_name,                                                        \
		.ca_mode = 0644,                                                          \
		.ca_owner = THIS_MODULE,                                                  \
		.show = rd_cfg_##_name##_show,                                            \
		.store = rd_cfg_##_name##_store,                                          \
	}

static const char *const rd_cache_mode_names[] = {
	[RD_CACHE_WRITETHROUGH] = "writethrough",
	[RD_CACHE_WRITEBACK] = "writeback",
};

static const char *const rd_cut_unit_names[] = {
	[RD_CUT_PAGE] = "page",
	[RD_CUT_SECTOR] = "sector",
};

static const char *const rd_personality_names[] = {
	[RD_PERSONALITY_UNORDERED] = "unordered",
	[RD_PERSONALITY_PLP] = "plp",
	[RD_PERSONALITY_LYING_FLUSH] = "lying-flush",
	[RD_PERSONALITY_MISDIRECTED] = "misdirected",
	[RD_PERSONALITY_TORN_MEDIA_ERROR] = "torn-media-error",
};

RD_CFG_ENUM_ATTR(cache_mode, rd_cache_mode_names, "neither writethrough nor writeback", NULL);
RD_CFG_ENUM_ATTR(power_cut_personality, rd_personality_names,
		 "not one of unordered, plp, lying-flush, misdirected and torn-media-error",
		 rd_dev_set_personality);
RD_CFG_ENUM_ATTR(power_cut_unit, rd_cut_unit_names, "neither page nor sector",
		 rd_cfg_apply_at_next_cut);

/* Writing 1 loses what the volatile cache holds, as a power loss would. */
static ssize_t rd_cfg_power_cut_store(struct config_item *item, const char *page, size_t count)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	const char *who = config_item_name(item);
	bool cut;
	int err;

	err = rd_cfg_may_admin(who, "power_cut");
	if (err)
		return err;
	if (kstrtobool(page, &cut) || !cut) {
		pr_warn("%s: power_cut takes 1\n", who);
		return -EINVAL;
	}
	mutex_lock(&rd_lock);
	if (!c->dev) {
		pr_warn("%s: power_cut needs a powered device\n", who);
		err = -ENODEV;
	} else {
		rd_dev_power_cut(c->dev, &c->cfg);
	}
	mutex_unlock(&rd_lock);
	return err ? err : count;
}
CONFIGFS_ATTR_WO(rd_cfg_, power_cut);

/*
 * A power domain's name: letters, digits, '-', '_' and '.', so that it
 * reads back, and quotes in a log line, as written; "" is no domain.
 */
static int rd_cfg_parse_domain(const char *who, const char *page, char *name)
{
	int len = rd_text_len(page, PAGE_SIZE);
	int i;

	if (len >= RD_DOMAIN_NAME_LEN) {
		pr_warn("%s: power domain name '%.*s' is longer than %d characters\n", who,
			rd_text_len(page, RD_CFG_QUOTE_MAX), page, RD_DOMAIN_NAME_LEN - 1);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (!isalnum(page[i]) && page[i] != '-' && page[i] != '_' && page[i] != '.') {
			pr_warn("%s: power domain name '%.*s' has a character other than letters, digits, '-', '_' and '.'\n",
				who, len, page);
			return -EINVAL;
		}
	}
	memcpy(name, page, len);
	name[len] = '\0';
	return 0;
}

static ssize_t rd_cfg_power_domain_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	ssize_t ret;

	mutex_lock(&rd_lock);
	ret = scnprintf(page, PAGE_SIZE, "%s\n", c->power_domain);
	mutex_unlock(&rd_lock);
	return ret;
}

/*
 * Joins, moves to, or with "" leaves a power domain, powered or not. A
 * member pins its directory, as power does: rmdir gets EBUSY until it has
 * left, so that no domain loses a member behind its user's back (configfs
 * decides rmdir before asking the module, so this is the only way to
 * refuse it).
 */
static ssize_t rd_cfg_power_domain_store(struct config_item *item, const char *page, size_t count)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	const char *who = config_item_name(item);
	char name[RD_DOMAIN_NAME_LEN];
	int err;

	err = rd_cfg_may_admin(who, "power_domain");
	if (err)
		return err;
	err = rd_cfg_parse_domain(who, page, name);
	if (err)
		return err;
	mutex_lock(&rd_lock);
	if (!c->power_domain[0] && name[0]) {
		err = configfs_depend_item_unlocked(&rd_subsys, &c->item);
		if (err) {
			pr_warn("%s: the directory is being removed: %d\n", who, err);
			goto out_unlock;
		}
		list_add_tail(&c->domain_node, &rd_domain_members);
	} else if (c->power_domain[0] && !name[0]) {
		list_del(&c->domain_node);
		configfs_undepend_item(&c->item);
	}
	strscpy(c->power_domain, name, sizeof(c->power_domain));
out_unlock:
	mutex_unlock(&rd_lock);
	return err ? err : count;
}
CONFIGFS_ATTR(rd_cfg_, power_domain);

static int rd_cfg_parse_phys(const char *who, const char *attr, const char *page, u64 *val)
{
	if (!rd_parse_phys(page, val))
		return 0;
	pr_warn("%s: %s '%.*s' is not an address or size (0x hex, or digits with an optional K, M, G or T)\n",
		who, attr, rd_text_len(page, RD_CFG_QUOTE_MAX), page);
	return -EINVAL;
}

static int rd_cfg_parse_bool(const char *who, const char *attr, const char *page, bool *val)
{
	if (kstrtobool(page, val)) {
		pr_warn("%s: %s '%.*s' is neither 0 nor 1\n", who, attr,
			rd_text_len(page, RD_CFG_QUOTE_MAX), page);
		return -EINVAL;
	}
	return 0;
}

RD_CFG_ATTR(format, 0644, "%d", rd_cfg_parse_bool, NULL);
RD_CFG_ATTR(rotational, 0644, "%d", rd_cfg_parse_bool, rd_dev_set_rotational);

/*
 * The zone attributes, like the atomic write ones, exist on every kernel
 * and refuse every write where the block layer cannot host a zoned
 * bio-based device (compat.h), and `features` leaves them out there.
 */
static int rd_cfg_zones_supported(const char *who, const char *attr)
{
	if (RD_COMPAT_ZONED)
		return 0;
	pr_warn("%s: %s is not supported: this kernel's block layer has no zone write plugging for a bio-based driver (6.10)\n",
		who, attr);
	return -EOPNOTSUPP;
}

static int rd_cfg_parse_zoned(const char *who, const char *attr, const char *page, bool *val)
{
	return rd_cfg_zones_supported(who, attr) ?: rd_cfg_parse_bool(who, attr, page, val);
}

static int rd_cfg_parse_zone_bytes(const char *who, const char *attr, const char *page, u64 *val)
{
	return rd_cfg_zones_supported(who, attr) ?: rd_cfg_parse_size(who, attr, page, val);
}

static int rd_cfg_parse_zone_uint(const char *who, const char *attr, const char *page,
				  unsigned int *val)
{
	return rd_cfg_zones_supported(who, attr) ?: rd_cfg_parse_uint(who, attr, page, val);
}

RD_CFG_ATTR(zoned, 0644, "%d", rd_cfg_parse_zoned, NULL);
RD_CFG_ATTR(zone_capacity, 0644, "%llu", rd_cfg_parse_zone_bytes, NULL);
RD_CFG_ATTR(zone_max_active, 0644, "%u", rd_cfg_parse_zone_uint, NULL);
RD_CFG_ATTR(zone_max_open, 0644, "%u", rd_cfg_parse_zone_uint, NULL);
RD_CFG_ATTR(zone_nr_conv, 0644, "%u", rd_cfg_parse_zone_uint, NULL);
RD_CFG_ATTR(zone_size, 0644, "%llu", rd_cfg_parse_zone_bytes, NULL);

/*
 * A physical address is root's alone (0600), as /proc/iomem shows
 * addresses to the administrator alone: it would help an attack on the
 * kernel. phys_size tells no address and stays readable by everybody.
 */
RD_CFG_ATTR(phys_addr, 0600, "0x%llx", rd_cfg_parse_phys, NULL);

static ssize_t rd_cfg_phys_size_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	ssize_t ret;

	mutex_lock(&rd_lock);
	ret = scnprintf(page, PAGE_SIZE, "%llu\n", c->cfg.phys_size);
	mutex_unlock(&rd_lock);
	return ret;
}

/* The device is the range less its header page, so size follows phys_size. */
static ssize_t rd_cfg_phys_size_store(struct config_item *item, const char *page, size_t count)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	struct rd_config want;
	int err;

	err = rd_cfg_may_admin(config_item_name(item), "phys_size");
	if (err)
		return err;
	mutex_lock(&rd_lock);
	want = c->cfg;
	err = rd_cfg_parse_phys(config_item_name(item), "phys_size", page, &want.phys_size);
	if (!err && want.phys_size > RD_PHYS_HEADER_BYTES)
		want.size = want.phys_size - RD_PHYS_HEADER_BYTES;
	if (!err)
		err = rd_cfg_apply(c, "phys_size", &want, NULL);
	mutex_unlock(&rd_lock);
	return err ? err : count;
}
CONFIGFS_ATTR(rd_cfg_, phys_size);

/*
 * A list the item owns, edited line by line by its own parser (_show_list and
 * _store_list, given the list, the name for messages and the text), also while
 * powered: a fault is injected into a running device. The list outlives
 * power cycles.
 */
#define RD_CFG_LIST_ATTR(_name, _field, _show_list, _store_list)                          \
	static ssize_t rd_cfg_##_name##_show(struct config_item *item, char *page)        \
	{                                                                                 \
		return _show_list(to_rd_cfg_item(item)->cfg._field, page, PAGE_SIZE);     \
	}                                                                                 \
	static ssize_t rd_cfg_##_name##_store(struct config_item *item, const char *page, \
					      size_t count)                               \
	{                                                                                 \
		struct rd_cfg_item *c = to_rd_cfg_item(item);                             \
		int err;                                                                  \
		err = rd_cfg_may_admin(config_item_name(item), #_name);                   \
		if (err)                                                                  \
			return err;                                                       \
		mutex_lock(&rd_lock);                                                     \
		err = _store_list(c->cfg._field, config_item_name(item), page);           \
		mutex_unlock(&rd_lock);                                                   \
		return err ? err : count;                                                 \
	}                                                                                 \
	CONFIGFS_ATTR(rd_cfg_, _name)

/* Bad sector ranges, one per line; a write adds (+), takes out (-) or clears them. */
RD_CFG_LIST_ATTR(badblocks, badblocks, rd_bb_show, rd_bb_store);
/* Fault rules, one per line; a write appends one or clears them all. */
RD_CFG_LIST_ATTR(fault_schedule, fault_sched, rd_fault_sched_show, rd_fault_sched_store);

/*
 * A command to the powered device: a write runs _run(device, who, text,
 * configuration) under rd_lock; a read is _show, or none (NULL). The
 * commands go with the device at power-off.
 */
#define RD_CFG_COMMAND_ATTR(_name, _mode, _show, _run)                                    \
	static ssize_t rd_cfg_##_name##_store(struct config_item *item, const char *page, \
					      size_t count)                               \
	{                                                                                 \
		return rd_cfg_command(to_rd_cfg_item(item), #_name, page, count, _run);   \
	}                                                                                 \
	static struct configfs_attribute rd_cfg_attr_##_name = {                          \
		.ca_name = #_name,                                                        \
		.ca_mode = _mode,                                                         \
		.ca_owner = THIS_MODULE,                                                  \
		.show = _show,                                                            \
		.store = rd_cfg_##_name##_store,                                          \
	}

typedef int rd_cfg_command_fn(struct rd_device *dev, const char *who, const char *page,
			      const struct rd_config *cfg);

static ssize_t rd_cfg_command(struct rd_cfg_item *c, const char *attr, const char *page,
			      size_t count, rd_cfg_command_fn *run)
{
	const char *who = config_item_name(&c->item);
	int err;

	err = rd_cfg_may_admin(who, attr);
	if (err)
		return err;
	mutex_lock(&rd_lock);
	if (!c->dev) {
		pr_warn("%s: %s needs a powered device\n", who, attr);
		err = -ENODEV;
	} else {
		err = run(c->dev, who, page, &c->cfg);
	}
	mutex_unlock(&rd_lock);
	return err ? err : count;
}

/*
 * Checkpoints of the powered device: a write takes (+NAME) or drops
 * (-NAME) one, a read lists them. A read counts each checkpoint's pages,
 * a walk over every page of up to RD_MAX_CHECKPOINTS of them under
 * rd_lock, which holds off every configuration change and power-on
 * meanwhile: root's alone (0600), so that no user can keep the lock busy
 * by reading in a loop.
 */
static ssize_t rd_cfg_checkpoints_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	ssize_t len = 0;

	mutex_lock(&rd_lock);
	if (c->dev)
		len = rd_checkpoint_show(c->dev, page, PAGE_SIZE);
	mutex_unlock(&rd_lock);
	return len;
}

static int rd_cfg_run_checkpoints(struct rd_device *dev, const char *who, const char *page,
				  const struct rd_config *cfg)
{
	return rd_checkpoint_command(dev, who, page);
}
RD_CFG_COMMAND_ATTR(checkpoints, 0600, rd_cfg_checkpoints_show, rd_cfg_run_checkpoints);

/*
 * Not while the write log records: its entries would go on from data the
 * device no longer holds, a history that never happened. A log that
 * stopped ends before the rollback, and stays true. The write log is
 * above the checkpoints (it takes one to start), so the check is here.
 */
static int rd_cfg_run_rollback(struct rd_device *dev, const char *who, const char *page,
			       const struct rd_config *cfg)
{
	if (rd_wlog_recording(dev)) {
		pr_warn("%s: rollback refused: the write log is recording; stop or clear it first\n",
			who);
		return -EBUSY;
	}
	return rd_checkpoint_rollback(dev, who, page);
}
RD_CFG_COMMAND_ATTR(rollback, 0200, NULL, rd_cfg_run_rollback);

/*
 * The write log of the powered device (write_log.h): a read gives its
 * state, a write starts, marks, stops or clears it.
 */
static ssize_t rd_cfg_write_log_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	ssize_t len;

	mutex_lock(&rd_lock);
	len = scnprintf(page, PAGE_SIZE, "%s\n", c->dev ? rd_wlog_state_name(c->dev) : "off");
	mutex_unlock(&rd_lock);
	return len;
}

static int rd_cfg_run_write_log(struct rd_device *dev, const char *who, const char *page,
				const struct rd_config *cfg)
{
	return rd_wlog_command(dev, who, page, cfg->write_log_limit);
}
RD_CFG_COMMAND_ATTR(write_log, 0644, rd_cfg_write_log_show, rd_cfg_run_write_log);

/* "DISK CHECKPOINT", or nothing: not a clone */
static ssize_t rd_cfg_clone_of_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	ssize_t len = 0;

	mutex_lock(&rd_lock);
	if (c->cfg.clone_disk[0])
		len = scnprintf(page, PAGE_SIZE, "%s %s\n", c->cfg.clone_disk,
				c->cfg.clone_checkpoint);
	mutex_unlock(&rd_lock);
	return len;
}

static ssize_t rd_cfg_clone_of_store(struct config_item *item, const char *page, size_t count)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	const char *who = config_item_name(item);
	struct rd_config want;
	int err;

	err = rd_cfg_may_admin(who, "clone_of");
	if (err)
		return err;
	mutex_lock(&rd_lock);
	want = c->cfg;
	err = rd_checkpoint_parse_clone_of(who, page, want.clone_disk, sizeof(want.clone_disk),
					   want.clone_checkpoint);
	if (!err)
		err = rd_cfg_apply(c, "clone_of", &want, NULL);
	mutex_unlock(&rd_lock);
	return err ? err : count;
}
CONFIGFS_ATTR(rd_cfg_, clone_of);

static ssize_t rd_cfg_index_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	int index;

	mutex_lock(&rd_lock);
	index = c->dev ? c->dev->index : -1;
	mutex_unlock(&rd_lock);
	return scnprintf(page, PAGE_SIZE, "%d\n", index);
}
CONFIGFS_ATTR_RO(rd_cfg_, index);

static ssize_t rd_cfg_power_show(struct config_item *item, char *page)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	int on;

	mutex_lock(&rd_lock);
	on = !!c->dev;
	mutex_unlock(&rd_lock);
	return scnprintf(page, PAGE_SIZE, "%d\n", on);
}

/*
 * A clone's configuration takes its origin's geometry on a copy, kept
 * only once the device is made: a refused power-on changes no attribute.
 */
static int rd_cfg_power_on(struct rd_cfg_item *c)
{
	const char *who = config_item_name(&c->item);
	struct rd_config want = c->cfg;
	struct rd_device *dev;
	int err;

	if (want.clone_disk[0]) {
		err = rd_dev_clone_config(&want, who);
		if (err)
			return err;
	}
	err = rd_config_validate(&want, who);
	if (err)
		return err;
	/*
	 * Pinned before the disk exists: once added, udev may open it, and
	 * an open disk could not be taken back if pinning failed.
	 */
	err = configfs_depend_item_unlocked(&rd_subsys, &c->item);
	if (err) {
		pr_warn("%s: the directory is being removed: %d\n", who, err);
		return err;
	}
	dev = rd_dev_create(&want, who);
	if (IS_ERR(dev)) {
		pr_warn("%s: cannot create the device: %ld\n", who, PTR_ERR(dev));
		err = PTR_ERR(dev);
		goto unpin;
	}
	c->dev = dev;
	c->cfg = want;
	/* a format is done once; the next power-on attaches what is there */
	c->cfg.format = false;
	return 0;

unpin:
	configfs_undepend_item(&c->item);
	return err;
}

static int rd_cfg_power_off(struct rd_cfg_item *c)
{
	int index = c->dev->index;
	int err;

	if (c->dev->clones) {
		pr_warn("%s: ramdisk%d has %u clone(s) reading its checkpoints, it stays powered\n",
			config_item_name(&c->item), index, c->dev->clones);
		return -ENOTEMPTY;
	}

	err = rd_dev_remove(c->dev);
	if (err) {
		pr_warn("%s: ramdisk%d is open or mounted, it stays powered\n",
			config_item_name(&c->item), index);
		return err;
	}
	c->dev = NULL;
	configfs_undepend_item(&c->item);
	return 0;
}

static ssize_t rd_cfg_power_store(struct config_item *item, const char *page, size_t count)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	bool on;
	int err;

	err = rd_cfg_may_admin(config_item_name(item), "power");
	if (err)
		return err;
	if (kstrtobool(page, &on)) {
		pr_warn("%s: power '%.*s' is neither 0 nor 1\n", config_item_name(item),
			rd_text_len(page, RD_CFG_QUOTE_MAX), page);
		return -EINVAL;
	}
	mutex_lock(&rd_lock);
	if (on && !c->dev)
		err = rd_cfg_power_on(c);
	else if (!on && c->dev)
		err = rd_cfg_power_off(c);
	mutex_unlock(&rd_lock);
	return err ? err : count;
}
CONFIGFS_ATTR(rd_cfg_, power);

/* Alphabetical: the `features` file lists them in this order. */
static struct configfs_attribute *rd_cfg_attrs[] = {
	&rd_cfg_attr_atomic_write_boundary,
	&rd_cfg_attr_atomic_write_unit_max,
	&rd_cfg_attr_atomic_write_unit_min,
	&rd_cfg_attr_badblocks,
	&rd_cfg_attr_bandwidth_mbps,
	&rd_cfg_attr_block_size,
	&rd_cfg_attr_cache_mode,
	&rd_cfg_attr_cache_size,
	&rd_cfg_attr_checkpoints,
	&rd_cfg_attr_clone_of,
	&rd_cfg_attr_fault_schedule,
	&rd_cfg_attr_flush_latency_ns,
	&rd_cfg_attr_format,
	&rd_cfg_attr_index,
	&rd_cfg_attr_io_min,
	&rd_cfg_attr_io_opt,
	&rd_cfg_attr_max_part,
	&rd_cfg_attr_mem_limit,
	&rd_cfg_attr_numa_node,
	&rd_cfg_attr_phys_addr,
	&rd_cfg_attr_phys_size,
	&rd_cfg_attr_physical_block_size,
	&rd_cfg_attr_power,
	&rd_cfg_attr_power_cut,
	&rd_cfg_attr_power_cut_drop_percent,
	&rd_cfg_attr_power_cut_personality,
	&rd_cfg_attr_power_cut_seed,
	&rd_cfg_attr_power_cut_unit,
	&rd_cfg_attr_power_domain,
	&rd_cfg_attr_read_latency_ns,
	&rd_cfg_attr_rollback,
	&rd_cfg_attr_rotational,
	&rd_cfg_attr_size,
	&rd_cfg_attr_spare_pages,
	&rd_cfg_attr_write_latency_ns,
	&rd_cfg_attr_write_log,
	&rd_cfg_attr_write_log_limit,
	&rd_cfg_attr_zone_capacity,
	&rd_cfg_attr_zone_max_active,
	&rd_cfg_attr_zone_max_open,
	&rd_cfg_attr_zone_nr_conv,
	&rd_cfg_attr_zone_size,
	&rd_cfg_attr_zoned,
	NULL,
};

/* An item as mkdir makes it: the defaults, no bad blocks, no fault rules. */
static struct rd_cfg_item *rd_cfg_item_alloc(void)
{
	struct rd_cfg_item *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	rd_config_init_default(&c->cfg);
	INIT_LIST_HEAD(&c->domain_node);
	c->cfg.badblocks = rd_bb_create();
	if (!c->cfg.badblocks)
		goto out_free_item;
	c->cfg.fault_sched = rd_fault_sched_create();
	if (!c->cfg.fault_sched)
		goto out_destroy_badblocks;
	return c;

out_destroy_badblocks:
	rd_bb_destroy(c->cfg.badblocks);
out_free_item:
	kfree(c);
	return NULL;
}

static void rd_cfg_item_free(struct rd_cfg_item *c)
{
	rd_fault_sched_destroy(c->cfg.fault_sched);
	rd_bb_destroy(c->cfg.badblocks);
	kfree(c);
}

static void rd_cfg_release(struct config_item *item)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);

	/* rd_cfg_drop_item() keeps a device's item: this cannot be one */
	if (WARN_ON_ONCE(c->dev))
		return;
	rd_cfg_item_free(c);
}

static struct configfs_item_operations rd_cfg_item_ops = {
	.release = rd_cfg_release,
};

static const struct config_item_type rd_cfg_type = {
	.ct_item_ops = &rd_cfg_item_ops,
	.ct_attrs = rd_cfg_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_item *rd_cfg_make_item(struct config_group *group, const char *name)
{
	struct rd_cfg_item *c;
	int err;

	err = rd_cfg_may_admin(name, "mkdir");
	if (err)
		return ERR_PTR(err);
	if (strlen(name) >= RD_NAME_LEN) {
		pr_warn("%s: the name is longer than %d characters\n", name, RD_NAME_LEN - 1);
		return ERR_PTR(-ENAMETOOLONG);
	}
	c = rd_cfg_item_alloc();
	if (!c)
		return ERR_PTR(-ENOMEM);
	config_item_init_type_name(&c->item, name, &rd_cfg_type);
	return &c->item;
}

/*
 * A powered item is pinned (rd_cfg_power_on()), so configfs refuses its
 * rmdir and only unpowered ones reach here. Should a powered one come all
 * the same, and its device refuse to go (open, or read by clones), the
 * item is not released: the device reads its bad blocks and fault rules
 * on every bio. The directory is gone by now, so the device can never be
 * powered off; it keeps the item's reference, and a reference on the
 * module so that its code stays too. A leak, on a path that cannot be
 * taken, in place of a use after free.
 */
static void rd_cfg_drop_item(struct config_group *group, struct config_item *item)
{
	struct rd_cfg_item *c = to_rd_cfg_item(item);
	bool orphaned = false;

	mutex_lock(&rd_lock);
	/* pinned while in a domain, as while powered: cannot be one either */
	if (WARN_ON_ONCE(c->power_domain[0]))
		list_del_init(&c->domain_node);
	if (WARN_ONCE(c->dev, "ramdisk: %s: rmdir of a powered configuration\n",
		      config_item_name(item)) &&
	    rd_cfg_power_off(c)) {
		__module_get(THIS_MODULE);
		orphaned = true;
	}
	mutex_unlock(&rd_lock);
	if (!orphaned)
		config_item_put(item);
}

/*
 * Whether this kernel lets the attribute do anything: see
 * rd_cfg_parse_atomic() and rd_cfg_zones_supported().
 */
static bool rd_cfg_attr_supported(const struct configfs_attribute *attr)
{
	if (attr == &rd_cfg_attr_atomic_write_boundary ||
	    attr == &rd_cfg_attr_atomic_write_unit_max ||
	    attr == &rd_cfg_attr_atomic_write_unit_min)
		return RD_COMPAT_ATOMIC_WRITES;
	if (attr == &rd_cfg_attr_zoned || attr == &rd_cfg_attr_zone_capacity ||
	    attr == &rd_cfg_attr_zone_max_active || attr == &rd_cfg_attr_zone_max_open ||
	    attr == &rd_cfg_attr_zone_nr_conv || attr == &rd_cfg_attr_zone_size)
		return RD_COMPAT_ZONED;
	return true;
}

static ssize_t rd_features_show(struct config_item *item, char *page)
{
	ssize_t len = 0;
	int i;

	for (i = 0; rd_cfg_attrs[i]; i++) {
		if (!rd_cfg_attr_supported(rd_cfg_attrs[i]))
			continue;
		len += scnprintf(page + len, PAGE_SIZE - len, "%s%s", len ? "," : "",
				 rd_cfg_attrs[i]->ca_name);
	}
	len += scnprintf(page + len, PAGE_SIZE - len, "\n");
	return len;
}
CONFIGFS_ATTR_RO(rd_, features);

/*
 * "attr=value" a line, for each attribute of a fresh item that every user
 * may read, as that item shows it: read from an item made for the read
 * and never linked, so the tools take the defaults from the module
 * instead of copying them, and a user without CAP_SYS_ADMIN, who may not
 * mkdir an item to look (ramdiskctl apply --dry-run), can read them.
 */
static ssize_t rd_defaults_show(struct config_item *item, char *page)
{
	struct configfs_attribute *attr;
	struct rd_cfg_item *fresh;
	ssize_t len = 0, n;
	char *value;
	int i;

	fresh = rd_cfg_item_alloc();
	if (!fresh)
		return -ENOMEM;
	value = (char *)__get_free_page(GFP_KERNEL);
	if (!value) {
		len = -ENOMEM;
		goto out_free_item;
	}
	for (i = 0; rd_cfg_attrs[i]; i++) {
		attr = rd_cfg_attrs[i];
		if (!attr->show || !(attr->ca_mode & 0004))
			continue;
		n = attr->show(&fresh->item, value);
		if (n < 0) {
			len = n;
			break;
		}
		while (n && value[n - 1] == '\n')
			n--;
		/* one line each: a list a fresh item shows is empty */
		if (WARN_ON_ONCE(memchr(value, '\n', n)))
			continue;
		len += scnprintf(page + len, PAGE_SIZE - len, "%s=%.*s\n", attr->ca_name, (int)n,
				 value);
	}
	free_page((unsigned long)value);
out_free_item:
	rd_cfg_item_free(fresh);
	return len;
}
CONFIGFS_ATTR_RO(rd_, defaults);

static int rd_cut_member_cmp(const void *a, const void *b)
{
	const struct rd_cut_member *x = a, *y = b;

	return x->rd->index - y->rd->index;
}

/*
 * The powered members of power domain name, sorted by index (the one
 * order every domain's command locks its members in), in a new array;
 * under rd_lock. With all, every member must be powered. -EINVAL when no
 * configuration is in the domain, -ENODEV when not enough are powered.
 */
static int rd_domain_powered(const char *who, const char *name, bool all, struct rd_cut_member **mp,
			     unsigned int *np)
{
	unsigned int members = 0, n = 0;
	struct rd_cut_member *m;
	struct rd_cfg_item *c;

	lockdep_assert_held(&rd_lock);
	list_for_each_entry(c, &rd_domain_members, domain_node) {
		if (strcmp(c->power_domain, name))
			continue;
		members++;
		if (c->dev)
			n++;
		else if (all)
			pr_warn("%s: %s of power domain '%s' is not powered\n", who,
				config_item_name(&c->item), name);
	}
	if (!members) {
		pr_warn("%s: no configuration is in power domain '%s'\n", who, name);
		return -EINVAL;
	}
	if (!n) {
		pr_warn("%s: no device of power domain '%s' is powered\n", who, name);
		return -ENODEV;
	}
	if (all && n != members)
		return -ENODEV;
	m = kcalloc(n, sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	n = 0;
	list_for_each_entry(c, &rd_domain_members, domain_node) {
		if (strcmp(c->power_domain, name) || !c->dev)
			continue;
		m[n].rd = c->dev;
		m[n].cfg = &c->cfg;
		n++;
	}
	sort(m, n, sizeof(*m), rd_cut_member_cmp, NULL);
	*mp = m;
	*np = n;
	return 0;
}

/*
 * Writing a power domain's name cuts the power of all its members at one
 * instant (rd_dev_power_cut_members()), each as its own power_cut_*
 * attributes say. A member that is powered off is passed over: a disk
 * without power has nothing volatile left to lose.
 */
static ssize_t rd_power_cut_domain_store(struct config_item *item, const char *page, size_t count)
{
	const char *who = "power_cut_domain";
	char name[RD_DOMAIN_NAME_LEN];
	struct rd_cut_member *m;
	unsigned int n;
	int err;

	err = rd_cfg_may_admin(who, "a power domain's cut");
	if (err)
		return err;
	err = rd_cfg_parse_domain(who, page, name);
	if (err)
		return err;
	if (!name[0]) {
		pr_warn("power_cut_domain: takes the name of a power domain\n");
		return -EINVAL;
	}
	mutex_lock(&rd_lock);
	err = rd_domain_powered(who, name, false, &m, &n);
	if (!err) {
		rd_dev_power_cut_members(m, n);
		kfree(m);
	}
	mutex_unlock(&rd_lock);
	return err ? err : count;
}
CONFIGFS_ATTR_WO(rd_, power_cut_domain);

typedef int rd_domain_command_fn(const struct rd_cut_member *m, unsigned int n, const char *who,
				 const char *cmd, size_t len);

/*
 * A root command of a power domain: "DOMAIN COMMAND", DOMAIN up to the
 * first blank and COMMAND the rest of the line, which run is given (len
 * characters, not terminated) with every member, sorted by index, under
 * rd_lock. Every member must be powered: a command of part of a group is
 * not one of the group.
 */
static ssize_t rd_domain_command(const char *who, const char *what, void (*usage)(void),
				 const char *page, size_t count, rd_domain_command_fn *run)
{
	char text[RD_DOMAIN_NAME_LEN], domain[RD_DOMAIN_NAME_LEN];
	/* the domain ends at the first blank, or at the end of the line */
	size_t len = strcspn(page, "\n"), sp = strcspn(page, "\n\t ");
	struct rd_cut_member *m;
	unsigned int n;
	int err;

	err = rd_cfg_may_admin(who, what);
	if (err)
		return err;
	if (!sp || sp + 1 >= len || (page[len] && page[len + 1])) {
		usage();
		return -EINVAL;
	}
	if (sp >= RD_DOMAIN_NAME_LEN) {
		pr_warn("%s: a power domain name has at most %d characters\n", who,
			RD_DOMAIN_NAME_LEN - 1);
		return -EINVAL;
	}
	memcpy(text, page, sp);
	text[sp] = '\0';
	err = rd_cfg_parse_domain(who, text, domain);
	if (err)
		return err;
	mutex_lock(&rd_lock);
	err = rd_domain_powered(who, domain, true, &m, &n);
	if (!err) {
		err = run(m, n, who, page + sp + 1, len - sp - 1);
		kfree(m);
	}
	mutex_unlock(&rd_lock);
	return err ? err : count;
}

/* The members' devices, in a new array. */
static struct rd_device **rd_domain_devices(const struct rd_cut_member *m, unsigned int n)
{
	struct rd_device **rd = kcalloc(n, sizeof(*rd), GFP_KERNEL);
	unsigned int i;

	for (i = 0; rd && i < n; i++)
		rd[i] = m[i].rd;
	return rd;
}

static void rd_checkpoint_domain_usage(void)
{
	pr_warn("checkpoint_domain: takes 'DOMAIN +NAME' (take checkpoint NAME of every member) or 'DOMAIN -NAME' (drop it)\n");
}

static int rd_checkpoint_domain_run(const struct rd_cut_member *m, unsigned int n, const char *who,
				    const char *cmd, size_t len)
{
	char name[RD_CHECKPOINT_NAME_LEN];
	struct rd_device **rd;
	int err;

	if (cmd[0] != '+' && cmd[0] != '-') {
		rd_checkpoint_domain_usage();
		return -EINVAL;
	}
	err = rd_checkpoint_name_parse(who, cmd + 1, len - 1, name);
	if (err)
		return err;
	rd = rd_domain_devices(m, n);
	if (!rd)
		return -ENOMEM;
	if (cmd[0] == '+')
		err = rd_checkpoint_take_members(rd, n, who, name, NULL, NULL);
	else
		err = rd_checkpoint_drop_members(rd, n, who, name);
	kfree(rd);
	return err;
}

/*
 * "DOMAIN +NAME" takes checkpoint NAME of every member of a power domain
 * at one instant (rd_checkpoint_take_members()), so that clones of them
 * all make one state of the stack on top; "DOMAIN -NAME" drops it from
 * every member.
 */
static ssize_t rd_checkpoint_domain_store(struct config_item *item, const char *page, size_t count)
{
	return rd_domain_command("checkpoint_domain", "a power domain's checkpoint",
				 rd_checkpoint_domain_usage, page, count, rd_checkpoint_domain_run);
}
CONFIGFS_ATTR_WO(rd_, checkpoint_domain);

static void rd_write_log_domain_usage(void)
{
	pr_warn("write_log_domain: takes 'DOMAIN start CHECKPOINT', 'DOMAIN stop' or 'DOMAIN clear'\n");
}

static int rd_write_log_domain_run(const struct rd_cut_member *m, unsigned int n, const char *who,
				   const char *cmd, size_t len)
{
	char name[RD_CHECKPOINT_NAME_LEN];
	struct rd_device **rd;
	unsigned int i, stopped = 0;
	u64 *limits;
	int err;

	if (len > 6 && !strncmp(cmd, "start ", 6)) {
		err = rd_checkpoint_name_parse(who, cmd + 6, len - 6, name);
		if (err)
			return err;
		rd = rd_domain_devices(m, n);
		limits = kcalloc(n, sizeof(*limits), GFP_KERNEL);
		err = rd && limits ? 0 : -ENOMEM;
		for (i = 0; !err && i < n; i++)
			limits[i] = m[i].cfg->write_log_limit;
		if (!err)
			err = rd_wlog_start_members(rd, limits, n, who, name);
		kfree(limits);
		kfree(rd);
		return err;
	}
	/* stop and clear need no instant: each member's log ends as it would alone */
	if (len == 4 && !strncmp(cmd, "stop", 4)) {
		for (i = 0; i < n; i++) {
			if (!rd_wlog_recording(m[i].rd))
				continue;
			err = rd_wlog_command(m[i].rd, who, "stop", m[i].cfg->write_log_limit);
			if (err)
				return err;
			stopped++;
		}
		if (!stopped) {
			pr_warn("%s: no member's write log is recording\n", who);
			return -EINVAL;
		}
		return 0;
	}
	if (len == 5 && !strncmp(cmd, "clear", 5)) {
		for (i = 0; i < n; i++)
			rd_wlog_command(m[i].rd, who, "clear", m[i].cfg->write_log_limit);
		return 0;
	}
	rd_write_log_domain_usage();
	return -EINVAL;
}

/*
 * "DOMAIN start CHECKPOINT" starts the write log of every member of a
 * power domain at one instant, with a checkpoint of them all; the logs'
 * entries merged by their order are the group's write log. "DOMAIN stop"
 * and "DOMAIN clear" stop or clear every member's.
 */
static ssize_t rd_write_log_domain_store(struct config_item *item, const char *page, size_t count)
{
	return rd_domain_command("write_log_domain", "a power domain's write log",
				 rd_write_log_domain_usage, page, count, rd_write_log_domain_run);
}
CONFIGFS_ATTR_WO(rd_, write_log_domain);

static struct configfs_attribute *rd_root_attrs[] = {
	&rd_attr_defaults,	    &rd_attr_features,	       &rd_attr_power_cut_domain,
	&rd_attr_checkpoint_domain, &rd_attr_write_log_domain, NULL,
};

static struct configfs_group_operations rd_root_group_ops = {
	.make_item = rd_cfg_make_item,
	.drop_item = rd_cfg_drop_item,
};

static const struct config_item_type rd_root_type = {
	.ct_group_ops = &rd_root_group_ops,
	.ct_attrs = rd_root_attrs,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem rd_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = RAMDISK_NAME,
			.ci_type = &rd_root_type,
		},
	},
};

int rd_configfs_register(void)
{
	int err;

	config_group_init(&rd_subsys.su_group);
	mutex_init(&rd_subsys.su_mutex);
	err = configfs_register_subsystem(&rd_subsys);
	if (err)
		pr_err("cannot register the configfs subsystem: %d\n", err);
	return err;
}

void rd_configfs_unregister(void)
{
	configfs_unregister_subsystem(&rd_subsys);
}
