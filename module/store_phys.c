// SPDX-License-Identifier: GPL-2.0
/*
 * Reserved-memory backing store: the device lives in a physical range the
 * kernel was told to leave alone (memmap=SIZE$OFFSET or memmap=SIZE!OFFSET),
 * so its data outlives the module and, when the firmware keeps RAM, a warm
 * reboot. Only such a range is accepted: RAM that the administrator took
 * from the kernel on its command line, never memory the firmware or another
 * driver owns (see rd_phys_check_range()).
 *
 * The first 4 KiB of the range hold a header that says what the rest is
 * and, for a zoned device, its zones (struct rd_phys_zones); the device's
 * data follows it. Nothing is written to the range before its
 * header has been found valid and matching, unless a format was asked for.
 *
 * Stores are plain cached stores: they survive rmmod and a warm reset of
 * the machine because the range is RAM that nobody else touches. A real
 * NVDIMM would need memcpy_flushcache() and a flush to be power-safe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/efi.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/path.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "copy.h"
#include "ramdisk.h"
#include "store.h"

#define RD_PHYS_MAGIC 0x314d5652414e4452ULL /* "RDNVRAM1" read as little-endian */
#define RD_PHYS_LAYOUT_VERSION 1
#define RD_PHYS_STATE_CLEAN 1
#define RD_PHYS_STATE_DIRTY 2

/* On-media header, little-endian, at the start of the range. */
struct rd_phys_header {
	__le64 magic;
	__le32 version;
	__le32 header_bytes; /* bytes covered by the checksum: sizeof(this) */
	u8 uuid[16];
	__le64 dev_size; /* bytes of data after the header page */
	__le32 block_size;
	__le32 state; /* RD_PHYS_STATE_* */
	__le64 format_count; /* times this range was formatted */
	__le32 reserved;
	__le32 crc; /* CRC-32 (zlib) of the bytes above */
} __packed;

/*
 * A zoned device's zones, in the header page after the header: the
 * geometry, under a checksum of its own, then one word a zone that
 * zones.c keeps up to date as write pointers move. The words have no
 * checksum (each write would have to renew it); zones.c checks each
 * when it reads them.
 */
#define RD_PHYS_ZONES_MAGIC 0x3153454e4f5a4452ULL /* "RDZONES1" read as little-endian */
#define RD_PHYS_ZONES_OFFSET 256

struct rd_phys_zones {
	__le64 magic;
	__le64 zone_size;
	__le64 zone_capacity;
	__le32 nr_zones;
	__le32 nr_conv;
	__le32 reserved;
	__le32 crc; /* CRC-32 (zlib) of the bytes above */
	__le32 words[];
} __packed;

static_assert(sizeof(struct rd_phys_header) <= RD_PHYS_ZONES_OFFSET);
static_assert(RD_PHYS_ZONES_OFFSET + sizeof(struct rd_phys_zones) +
		      RD_PHYS_ZONES_MAX * sizeof(__le32) <=
	      RD_PHYS_HEADER_BYTES);

struct rd_phys_store {
	struct rd_store base;
	void *map; /* the whole range, header first */
	void *data; /* map + RD_PHYS_HEADER_BYTES */
	struct resource *claim;
	u64 phys_addr;
	u64 phys_size;
	u64 dev_size;
	u8 uuid[16];
	/* the header said dirty at attach: the last user did not detach */
	bool was_dirty;
	/* a zoned device's zones in the header page, else NULL */
	struct rd_phys_zones *zones;
};

static struct rd_phys_store *to_phys_store(struct rd_store *store)
{
	return container_of(store, struct rd_phys_store, base);
}

static u32 rd_phys_header_crc(const struct rd_phys_header *h)
{
	return ~crc32_le(~0U, (const u8 *)h, offsetof(struct rd_phys_header, crc));
}

static void rd_phys_read(struct rd_store *store, u64 pos, struct page *dst, unsigned int off,
			 unsigned int len)
{
	struct rd_phys_store *ps = to_phys_store(store);

	rd_copy_to_page(dst, off, ps->data + pos, len);
}

static int rd_phys_write(struct rd_store *store, u64 pos, struct page *src, unsigned int off,
			 unsigned int len, bool nowait)
{
	struct rd_phys_store *ps = to_phys_store(store);

	rd_copy_from_page(ps->data + pos, src, off, len);
	return 0;
}

static int rd_phys_discard(struct rd_store *store, u64 pos, u64 len, bool nowait)
{
	struct rd_phys_store *ps = to_phys_store(store);

	while (len) {
		u64 chunk = min_t(u64, len, SZ_1M);

		memset(ps->data + pos, 0, chunk);
		pos += chunk;
		len -= chunk;
		if (!nowait)
			cond_resched();
	}
	return 0;
}

/* Every byte of the range holds data: one extent, the whole device. */
static u64 rd_phys_next_extent(struct rd_store *store, u64 pos, u64 *len)
{
	struct rd_phys_store *ps = to_phys_store(store);

	if (pos >= ps->dev_size)
		return RD_STORE_NO_EXTENT;
	*len = ps->dev_size - pos;
	return pos;
}

static void rd_phys_write_header(struct rd_phys_store *ps, u32 block_size, u32 state,
				 u64 format_count)
{
	struct rd_phys_header h = {
		.magic = cpu_to_le64(RD_PHYS_MAGIC),
		.version = cpu_to_le32(RD_PHYS_LAYOUT_VERSION),
		.header_bytes = cpu_to_le32(sizeof(h)),
		.dev_size = cpu_to_le64(ps->dev_size),
		.block_size = cpu_to_le32(block_size),
		.state = cpu_to_le32(state),
		.format_count = cpu_to_le64(format_count),
	};

	memcpy(h.uuid, ps->uuid, sizeof(h.uuid));
	h.crc = cpu_to_le32(rd_phys_header_crc(&h));
	memcpy(ps->map, &h, sizeof(h));
}

/* Orderly detach: the header says clean, with everything else as it was. */
static void rd_phys_destroy(struct rd_store *store)
{
	struct rd_phys_store *ps = to_phys_store(store);
	struct rd_phys_header h;

	memcpy(&h, ps->map, sizeof(h));
	h.state = cpu_to_le32(RD_PHYS_STATE_CLEAN);
	h.crc = cpu_to_le32(rd_phys_header_crc(&h));
	memcpy(ps->map, &h, sizeof(h));
	memunmap(ps->map);
	release_mem_region(ps->phys_addr, ps->phys_size);
	kfree(ps);
}

static const struct rd_store_ops rd_phys_ops = {
	.read = rd_phys_read,
	.write = rd_phys_write,
	.discard = rd_phys_discard,
	.next_extent = rd_phys_next_extent,
	.destroy = rd_phys_destroy,
};

struct rd_phys_cover {
	u64 start;
	u64 covered_end; /* first byte not yet known to be reserved */
};

/* Called for each memory resource inside the range, in address order. */
static int rd_phys_cover_one(struct resource *res, void *arg)
{
	struct rd_phys_cover *c = arg;

	if (res->desc != IORES_DESC_RESERVED && res->desc != IORES_DESC_PERSISTENT_MEMORY_LEGACY)
		return 0;
	if (res->start <= c->covered_end && res->end + 1 > c->covered_end)
		c->covered_end = res->end + 1;
	return 0;
}

/*
 * The first MiB holds the BIOS data areas, the legacy video hole and option
 * ROMs, and the kernel turns its first page Reserved by itself: none of it
 * is ever what memmap= set aside.
 */
#define RD_PHYS_LOW_FIRMWARE SZ_1M

/* What one EFI memory descriptor is when it overlaps [start, end) and is not the OS's. */
static const char *rd_phys_efi_one(const efi_memory_desc_t *md, u64 start, u64 end)
{
	u64 md_start = md->phys_addr;
	u64 md_end = md_start + (md->num_pages << EFI_PAGE_SHIFT);

	if (md_end <= start || md_start >= end)
		return NULL;
	if (md->attribute & EFI_MEMORY_RUNTIME)
		return "EFI runtime memory, or boot data the kernel keeps";
	if (md->attribute & EFI_MEMORY_SP)
		return "EFI specific-purpose memory";
	if (md->type != EFI_CONVENTIONAL_MEMORY && md->type != EFI_LOADER_CODE &&
	    md->type != EFI_LOADER_DATA && md->type != EFI_BOOT_SERVICES_CODE &&
	    md->type != EFI_BOOT_SERVICES_DATA)
		return "not memory for the OS in the EFI memory map";
	return NULL;
}

/*
 * On an EFI boot, what the EFI memory map says of [start, end): NULL when
 * no descriptor over it is anything but memory the OS may use. The kernel
 * keeps some boot-services data (ESRT, BGRT, the TPM log, ...) by turning
 * it Reserved in its own map while the firmware's e820 map still says RAM,
 * exactly as memmap=$ does; efi_mem_reserve() tags those descriptors
 * EFI_MEMORY_RUNTIME. Boot-services memory under memmap=$ is tagged the
 * same way (efi_reserve_boot_services() cannot free it) and is refused
 * with it: the two cannot be told apart. The map is not required to cover
 * the range: after kexec it may hold the runtime regions alone, and the
 * firmware's e820 map has already shown that all of it is RAM.
 */
static const char *rd_phys_efi_owner(u64 start, u64 end)
{
	const char *why = NULL;
	efi_memory_desc_t *md;

	if (!IS_ENABLED(CONFIG_EFI) || !efi_enabled(EFI_MEMMAP))
		return NULL;
	for_each_efi_memory_desc(md) {
		why = rd_phys_efi_one(md, start, end);
		if (why)
			break;
	}
	return why;
}

/*
 * The firmware's own memory map, as /sys/firmware/memmap shows it: on x86
 * the e820 table the boot loader handed over, which memmap= on the command
 * line does not change. The kernel keeps it to itself (on 7.x its one
 * exported reader, e820__mapped_raw_any(), is exported to KVM alone), so it
 * is read through sysfs, as the administrator reads it: from init's root
 * and mount namespace (rd_fw_root()), never the caller's, where a chroot
 * or a mount namespace may hide the files or put others in their place.
 */
#define RD_FW_MEMMAP "/sys/firmware/memmap"
/* More entries than any e820 table holds (E820_MAX_ENTRIES) */
#define RD_FW_MAX_ENTRIES 4096
/* RAM entries a range may span; sanitized maps merge neighbours into one */
#define RD_FW_MAX_PIECES 16

struct rd_fw_entry {
	u64 start;
	u64 end; /* exclusive */
	char type[48];
};

/*
 * The root of init, PID 1 of the initial PID namespace, which a path
 * lookup from it resolves in init's mount namespace: the system's view,
 * whatever the caller's root and namespaces. Not init_task's (PID 0), as
 * the firmware loader takes: 6.1 and 6.12 share it with PID 1, but on 7.3
 * it stayed at the initramfs PID 1 switched away from, where no sysfs is
 * mounted (test 330). The caller puts the path.
 */
static int rd_fw_root(struct path *root)
{
	struct task_struct *init;
	int err = -ESRCH;

	rcu_read_lock();
	init = get_pid_task(find_pid_ns(1, &init_pid_ns), PIDTYPE_PID);
	rcu_read_unlock();
	if (!init)
		return err;
	task_lock(init);
	if (init->fs) {
		get_fs_root(init->fs, root);
		err = 0;
	}
	task_unlock(init);
	put_task_struct(init);
	return err;
}

/* Reads entry i of the firmware map under root; -ENOENT past its last entry. */
static int rd_fw_read_entry(const struct path *root, unsigned int i, struct rd_fw_entry *e)
{
	static const char *const attrs[] = { "start", "end", "type" };
	char path[64], buf[48];
	u64 val[2];
	unsigned int a;

	for (a = 0; a < ARRAY_SIZE(attrs); a++) {
		struct file *f;
		loff_t pos = 0;
		ssize_t n;

		snprintf(path, sizeof(path), RD_FW_MEMMAP "/%u/%s", i, attrs[a]);
		f = file_open_root(root, path, O_RDONLY, 0);
		if (IS_ERR(f))
			return PTR_ERR(f);
		n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
		filp_close(f, NULL);
		if (n < 0)
			return n;
		buf[n] = '\0';
		if (a == 2)
			strscpy(e->type, strim(buf), sizeof(e->type));
		else if (kstrtoull(strim(buf), 0, &val[a]))
			return -EINVAL;
	}
	if (val[1] < val[0])
		return -EINVAL;
	e->start = val[0];
	e->end = val[1] == U64_MAX ? U64_MAX : val[1] + 1;
	return 0;
}

/* No map to judge [start, end) by: -ENODATA for the EFI one, else /sys's. */
static int rd_fw_unreadable(u64 start, u64 end, int err, const char *who)
{
	pr_warn("%s: refusing phys range 0x%llx-0x%llx: cannot read the firmware's memory map (%s: %d), so cannot tell memory set aside with memmap= from firmware memory\n",
		who, start, end - 1, err == -ENODATA ? "EFI memory map" : RD_FW_MEMMAP, err);
	return -EOPNOTSUPP;
}

/*
 * Whether [start, end) is RAM the administrator took from the kernel with
 * memmap=: every byte of it RAM in the firmware's memory map, and on an EFI
 * boot in the EFI memory map too. Logs why it refuses.
 */
static int rd_phys_check_firmware(u64 start, u64 end, const char *who)
{
	struct rd_fw_entry e;
	struct {
		u64 start, end;
	} ram[RD_FW_MAX_PIECES];
	unsigned int i, nr_ram = 0;
	const char *owner = NULL;
	struct path root;
	u64 covered;
	int err = 0;

	if (efi_enabled(EFI_BOOT) && !efi_enabled(EFI_MEMMAP))
		return rd_fw_unreadable(start, end, -ENODATA, who);
	err = rd_fw_root(&root);
	if (err)
		return rd_fw_unreadable(start, end, err, who);
	for (i = 0; !err && i < RD_FW_MAX_ENTRIES; i++) {
		err = rd_fw_read_entry(&root, i, &e);
		if (err == -ENOENT && i > 0) {
			/*
			 * The first gap ends the list. Entries after one left by
			 * a memory hot-remove go unread, which can only refuse a
			 * range, never accept one: RAM must be found to cover it.
			 */
			err = 0;
			break;
		}
		if (err || e.end <= start || e.start >= end)
			continue;
		if (strcmp(e.type, "System RAM")) {
			owner = e.type;
			break;
		}
		if (nr_ram == RD_FW_MAX_PIECES) {
			err = -E2BIG;
			break;
		}
		ram[nr_ram].start = max(e.start, start);
		ram[nr_ram].end = min(e.end, end);
		nr_ram++;
	}
	path_put(&root);
	if (err)
		return rd_fw_unreadable(start, end, err, who);
	if (!owner && start < RD_PHYS_LOW_FIRMWARE)
		owner = "the first MiB";
	if (!owner)
		owner = rd_phys_efi_owner(start, end);
	if (owner) {
		pr_warn("%s: phys range 0x%llx-0x%llx is firmware memory (%s); only RAM set aside with memmap=SIZE$OFFSET or memmap=SIZE!OFFSET is accepted\n",
			who, start, end - 1, owner);
		return -EINVAL;
	}
	/* Walk the RAM pieces from start; a byte none of them holds is in no entry. */
	covered = start;
	for (i = 0; i < nr_ram && covered < end; i++) {
		unsigned int j;

		for (j = 0; j < nr_ram; j++)
			if (ram[j].start <= covered && ram[j].end > covered)
				covered = ram[j].end;
	}
	if (covered < end) {
		pr_warn("%s: phys range 0x%llx-0x%llx is not memory: 0x%llx is in no entry of the firmware's memory map (device memory, or none)\n",
			who, start, end - 1, covered);
		return -EINVAL;
	}
	return 0;
}

/*
 * The range must be RAM that the administrator set aside on the kernel
 * command line for this purpose, and nothing else:
 *
 * - raw physical memory is what /dev/mem gives, so a locked-down kernel
 *   refuses it for the same reason (LOCKDOWN_DEV_MEM);
 * - no page of it System RAM;
 * - RAM in the firmware's memory map and, on an EFI boot, in the EFI
 *   memory map (rd_phys_check_firmware());
 * - all of it inside reserved (memmap=$) or legacy persistent (memmap=!)
 *   entries of the kernel's memory map.
 *
 * After the claim, rd_phys_check_claim() makes sure no other driver
 * registered anything over it.
 */
static int rd_phys_check_range(u64 addr, u64 size, const char *who)
{
	struct rd_phys_cover cover = { .start = addr, .covered_end = addr };
	int err;

	err = security_locked_down(LOCKDOWN_DEV_MEM);
	if (err) {
		pr_warn("%s: refusing phys range 0x%llx+%llu: the kernel is locked down, and raw physical memory is refused as /dev/mem is\n",
			who, addr, size);
		return err;
	}
	if (!IS_ALIGNED(addr, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE)) {
		pr_warn("%s: phys_addr 0x%llx and phys_size %llu must be multiples of %lu\n", who,
			addr, size, PAGE_SIZE);
		return -EINVAL;
	}
	if (size < 2 * PAGE_SIZE || addr + size < addr) {
		pr_warn("%s: phys range 0x%llx+%llu is too small or wraps around\n", who, addr,
			size);
		return -EINVAL;
	}
	if (region_intersects(addr, size, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		pr_warn("%s: phys range 0x%llx-0x%llx is System RAM in use by the kernel; reserve it with memmap=SIZE$OFFSET\n",
			who, addr, addr + size - 1);
		return -EINVAL;
	}
	err = rd_phys_check_firmware(addr, addr + size, who);
	if (err)
		return err;
	walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_MEM, addr, addr + size - 1, &cover,
			    rd_phys_cover_one);
	if (cover.covered_end < addr + size) {
		pr_warn("%s: phys range 0x%llx-0x%llx is not reserved memory (0x%llx is not; see /proc/iomem)\n",
			who, addr, addr + size - 1, cover.covered_end);
		return -EINVAL;
	}
	return 0;
}

/*
 * The claim succeeded, so nothing busy overlaps the range and it lies
 * whole inside the resource that is now its parent. That must be the
 * memory map's own entry, at the top of /proc/iomem: a resource between
 * the two is something a driver registered there (a pmem region, a PCI
 * window), and it is that driver's. The parent of our own claim is read
 * without resource_lock, which modules cannot take; the memory map's
 * entries are never freed.
 */
static int rd_phys_check_claim(struct rd_phys_store *ps, const char *who)
{
	struct resource *owner = ps->claim->parent;

	if (owner && owner->parent == &iomem_resource &&
	    (owner->desc == IORES_DESC_RESERVED ||
	     owner->desc == IORES_DESC_PERSISTENT_MEMORY_LEGACY))
		return 0;
	pr_warn("%s: phys range 0x%llx-0x%llx lies inside '%s', which another driver registered (see /proc/iomem)\n",
		who, ps->phys_addr, ps->phys_addr + ps->phys_size - 1,
		owner && owner->name ? owner->name : "?");
	return -EBUSY;
}

/*
 * Decides what the header allows: 0 to attach with the data as it is, 1
 * when the range is blank and may be formatted, -EINVAL when it must be
 * left alone. Logs why it refuses.
 */
static int rd_phys_check_header(struct rd_phys_store *ps, const struct rd_config *cfg,
				const char *who, u64 *format_count)
{
	struct rd_phys_header h;

	memcpy(&h, ps->map, sizeof(h));
	*format_count = 0;
	if (le64_to_cpu(h.magic) != RD_PHYS_MAGIC)
		return 1;
	*format_count = le64_to_cpu(h.format_count);
	if (le32_to_cpu(h.crc) != rd_phys_header_crc(&h) ||
	    le32_to_cpu(h.header_bytes) != sizeof(h)) {
		pr_warn("%s: the header at 0x%llx fails its checksum; refusing to attach (format=1 overwrites it)\n",
			who, ps->phys_addr);
		return -EINVAL;
	}
	if (le32_to_cpu(h.version) != RD_PHYS_LAYOUT_VERSION) {
		pr_warn("%s: the header at 0x%llx has layout version %u, this module knows %u\n",
			who, ps->phys_addr, le32_to_cpu(h.version), RD_PHYS_LAYOUT_VERSION);
		return -EINVAL;
	}
	if (le64_to_cpu(h.dev_size) != ps->dev_size ||
	    le32_to_cpu(h.block_size) != cfg->block_size) {
		pr_warn("%s: the header at 0x%llx describes %llu bytes in %u-byte blocks, the configuration %llu bytes in %u-byte blocks; refusing to attach\n",
			who, ps->phys_addr, le64_to_cpu(h.dev_size), le32_to_cpu(h.block_size),
			ps->dev_size, cfg->block_size);
		return -EINVAL;
	}
	memcpy(ps->uuid, h.uuid, sizeof(ps->uuid));
	ps->was_dirty = le32_to_cpu(h.state) != RD_PHYS_STATE_CLEAN;
	return 0;
}

static u32 rd_phys_zones_crc(const struct rd_phys_zones *z)
{
	return ~crc32_le(~0U, (const u8 *)z, offsetof(struct rd_phys_zones, crc));
}

/* A new device's zones: every word 0 (empty); no magic when not zoned. */
static void rd_phys_format_zones(struct rd_phys_store *ps, const struct rd_config *cfg)
{
	struct rd_phys_zones *z = ps->map + RD_PHYS_ZONES_OFFSET;

	memset(z, 0, RD_PHYS_HEADER_BYTES - RD_PHYS_ZONES_OFFSET);
	if (!cfg->zoned)
		return;
	z->magic = cpu_to_le64(RD_PHYS_ZONES_MAGIC);
	z->zone_size = cpu_to_le64(cfg->zone_size);
	z->zone_capacity = cpu_to_le64(cfg->zone_capacity ?: cfg->zone_size);
	z->nr_zones = cpu_to_le32(div64_u64(ps->dev_size, cfg->zone_size));
	z->nr_conv = cpu_to_le32(cfg->zone_nr_conv);
	z->crc = cpu_to_le32(rd_phys_zones_crc(z));
	ps->zones = z;
}

/*
 * Whether the range's zones, or their absence, match the configuration:
 * a zoned device attaches only with the geometry it was formatted with,
 * and neither kind as the other. Logs why it refuses.
 */
static int rd_phys_check_zones(struct rd_phys_store *ps, const struct rd_config *cfg,
			       const char *who)
{
	struct rd_phys_zones *z = ps->map + RD_PHYS_ZONES_OFFSET;
	bool zoned = le64_to_cpu(z->magic) == RD_PHYS_ZONES_MAGIC;
	u64 cap = cfg->zone_capacity ?: cfg->zone_size;
	u64 nr_zones = cfg->zoned ? div64_u64(ps->dev_size, cfg->zone_size) : 0;

	if (zoned && !cfg->zoned) {
		pr_warn("%s: the range at 0x%llx holds a zoned device; refusing to attach it without zones (zoned=1 with its zone settings, or format=1)\n",
			who, ps->phys_addr);
		return -EINVAL;
	}
	if (!zoned && cfg->zoned) {
		pr_warn("%s: the range at 0x%llx holds a device without zones; refusing to attach it as a zoned one (format=1 makes one)\n",
			who, ps->phys_addr);
		return -EINVAL;
	}
	if (!zoned)
		return 0;
	if (le32_to_cpu(z->crc) != rd_phys_zones_crc(z)) {
		pr_warn("%s: the zone geometry at 0x%llx fails its checksum; refusing to attach (format=1 overwrites it)\n",
			who, ps->phys_addr);
		return -EINVAL;
	}
	if (le64_to_cpu(z->zone_size) != cfg->zone_size || le64_to_cpu(z->zone_capacity) != cap ||
	    le32_to_cpu(z->nr_zones) != nr_zones || le32_to_cpu(z->nr_conv) != cfg->zone_nr_conv) {
		pr_warn("%s: the range at 0x%llx holds %u zones of %llu bytes (capacity %llu, %u conventional), the configuration %llu of %llu (capacity %llu, %u conventional); refusing to attach\n",
			who, ps->phys_addr, le32_to_cpu(z->nr_zones), le64_to_cpu(z->zone_size),
			le64_to_cpu(z->zone_capacity), le32_to_cpu(z->nr_conv), nr_zones,
			cfg->zone_size, cap, cfg->zone_nr_conv);
		return -EINVAL;
	}
	ps->zones = z;
	return 0;
}

__le32 *rd_store_phys_zone_words(struct rd_store *store, bool *unclean)
{
	struct rd_phys_store *ps;

	if (!rd_store_is_phys(store))
		return NULL;
	ps = to_phys_store(store);
	if (!ps->zones)
		return NULL;
	*unclean = ps->was_dirty;
	return ps->zones->words;
}

struct rd_store *rd_store_phys_create(const struct rd_config *cfg, const char *who)
{
	struct rd_phys_store *ps;
	u64 format_count;
	int err, blank;

	err = rd_phys_check_range(cfg->phys_addr, cfg->phys_size, who);
	if (err)
		return ERR_PTR(err);

	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return ERR_PTR(-ENOMEM);
	ps->phys_addr = cfg->phys_addr;
	ps->phys_size = cfg->phys_size;
	ps->dev_size = cfg->phys_size - RD_PHYS_HEADER_BYTES;

	/* The claim is what keeps two devices (or a driver) off one range. */
	ps->claim = request_mem_region(ps->phys_addr, ps->phys_size, RAMDISK_NAME);
	if (!ps->claim) {
		pr_warn("%s: phys range 0x%llx-0x%llx overlaps another device or driver (see /proc/iomem)\n",
			who, ps->phys_addr, ps->phys_addr + ps->phys_size - 1);
		err = -EBUSY;
		goto out_free;
	}
	err = rd_phys_check_claim(ps, who);
	if (err)
		goto out_release;
	ps->map = memremap(ps->phys_addr, ps->phys_size, MEMREMAP_WB);
	if (!ps->map) {
		pr_warn("%s: cannot map phys range 0x%llx-0x%llx\n", who, ps->phys_addr,
			ps->phys_addr + ps->phys_size - 1);
		err = -ENOMEM;
		goto out_release;
	}
	ps->data = ps->map + RD_PHYS_HEADER_BYTES;

	blank = rd_phys_check_header(ps, cfg, who, &format_count);
	if (blank < 0 && !cfg->format) {
		err = blank;
		goto out_unmap;
	}
	if (blank > 0 && !cfg->format) {
		pr_warn("%s: no ramdisk header at 0x%llx; refusing to attach (format=1 makes one)\n",
			who, ps->phys_addr);
		err = -EINVAL;
		goto out_unmap;
	}
	if (!cfg->format) {
		err = rd_phys_check_zones(ps, cfg, who);
		if (err)
			goto out_unmap;
	}
	if (cfg->format) {
		/* a format means an empty device: zeros, under a new identity */
		rd_phys_discard(&ps->base, 0, ps->dev_size, false);
		rd_phys_format_zones(ps, cfg);
		uuid_gen((uuid_t *)ps->uuid);
		format_count++;
		pr_info("%s: formatted phys range 0x%llx-0x%llx (%llu data bytes)\n", who,
			ps->phys_addr, ps->phys_addr + ps->phys_size - 1, ps->dev_size);
	} else {
		pr_info("%s: attached phys range 0x%llx-0x%llx, uuid %pU%s\n", who, ps->phys_addr,
			ps->phys_addr + ps->phys_size - 1, ps->uuid,
			ps->was_dirty ? ", last detach was not orderly" : "");
	}
	/* dirty until an orderly detach says otherwise */
	rd_phys_write_header(ps, cfg->block_size, RD_PHYS_STATE_DIRTY, format_count);

	ps->base.ops = &rd_phys_ops;
	atomic_long_set(&ps->base.nr_pages, 0);
	atomic_long_set(&ps->base.alloc_failures, 0);
	return &ps->base;

out_unmap:
	memunmap(ps->map);
out_release:
	release_mem_region(ps->phys_addr, ps->phys_size);
out_free:
	kfree(ps);
	return ERR_PTR(err);
}

bool rd_store_is_phys(const struct rd_store *store)
{
	return store->ops == &rd_phys_ops;
}

int rd_store_phys_describe(const struct rd_store *store, char *buf, size_t len)
{
	const struct rd_phys_store *ps = container_of(store, struct rd_phys_store, base);

	return scnprintf(buf, len, "phys 0x%llx %llu %pU\n", ps->phys_addr, ps->phys_size,
			 ps->uuid);
}
