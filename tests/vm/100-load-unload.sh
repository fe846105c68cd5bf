#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: load and unload twice; defaults: one sparse 1 GiB device, 512-byte blocks, no partitions; configfs's defaults file is what a fresh configuration shows, to any user
. "${0%/*}/../lib/common.sh"
require_root

cfg=$RD_CONFIGFS
params=/sys/module/ramdisk/parameters

for round in 1 2; do
	echo "round $round: load with defaults"
	load_module
	[ -b /dev/ramdisk0 ] || fail "round $round: /dev/ramdisk0 missing"
	[ ! -e /dev/ramdisk1 ] || fail "round $round: a second device exists"
	assert_eq "$(cat /sys/block/ramdisk0/size)" $((1 << 21)) "size in sectors"
	assert_eq "$(cat /sys/block/ramdisk0/queue/logical_block_size)" 512 "logical block size"
	assert_eq "$(cat /sys/block/ramdisk0/queue/rotational)" 0 "rotational"
	assert_eq "$(cat /sys/block/ramdisk0/queue/write_cache)" "write through" "write cache"
	assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 0 "pages allocated before any write"
	assert_eq "$(sysfs_stat ramdisk0 name)" "" "name of a load-time device"
	assert_eq "$(sysfs_stat ramdisk0 mem_limit)" 0 "mem_limit"
	assert_eq "$(sysfs_stat ramdisk0 reads)" "0 0" "reads before any I/O"
	assert_eq "$(sysfs_stat ramdisk0 writes)" "0 0" "writes before any I/O"
	assert_eq "$(cat $params/size)" $((1 << 30)) "size parameter"
	assert_eq "$(cat $params/nr_devices)" 1 "nr_devices parameter"
	assert_eq "$(cat $params/block_size)" 512 "block_size parameter"
	assert_eq "$(cat $params/max_part)" 0 "max_part parameter"
	assert_eq "$(cat $params/mem_limit)" 0 "mem_limit parameter"
	# the atomic write attributes where the block layer takes atomic
	# writes from a bio-based driver (6.11 on; 122-atomic-writes.sh)
	atomic=
	IFS=. read -r major minor _ <<<"$RD_KVER"
	((major > 6 || (major == 6 && minor >= 11))) &&
		atomic=atomic_write_boundary,atomic_write_unit_max,atomic_write_unit_min,
	# and the zone ones where it has zone write plugging (6.10 on; 131-zoned.sh)
	zones=
	((major > 6 || (major == 6 && minor >= 10))) &&
		zones=,zone_capacity,zone_max_active,zone_max_open,zone_nr_conv,zone_size,zoned
	assert_eq "$(cat "$cfg/features")" "${atomic}badblocks,bandwidth_mbps,block_size,cache_mode,cache_size,checkpoints,clone_of,fault_schedule,flush_latency_ns,format,index,io_min,io_opt,max_part,mem_limit,numa_node,phys_addr,phys_size,physical_block_size,power,power_cut,power_cut_drop_percent,power_cut_personality,power_cut_seed,power_cut_unit,power_domain,read_latency_ns,rollback,rotational,size,spare_pages,write_latency_ns,write_log,write_log_limit${zones}" \
		"configfs features"
	# Load-time devices are not in configfs.
	assert_eq "$(find "$cfg" -mindepth 1 -maxdepth 1 -type d | wc -l)" 0 "configfs directories"
	# The major is dynamic: whatever register_blkdev handed out, under a
	# name of its own (brd's major is "ramdisk").
	major=$(awk '$2 == "ramdisk-ko" {print $1}' /proc/devices)
	[ -n "$major" ] || fail "no ramdisk-ko entry in /proc/devices"
	assert_eq "$(stat -c %t /dev/ramdisk0)" "$(printf %x "$major")" "major of /dev/ramdisk0"

	# A sparse read of the whole first MiB returns zeros and allocates nothing.
	assert_eq "$(head -c 1M /dev/ramdisk0 | tr -d '\0' | wc -c)" 0 "non-zero bytes in a fresh device"
	assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" 0 "pages allocated by reads"

	unload_module
	grep -q '^ramdisk ' /proc/modules && fail "round $round: module still loaded"
	[ ! -e /sys/block/ramdisk0 ] || fail "round $round: ramdisk0 survived rmmod"
	[ ! -d "$cfg" ] || fail "round $round: $cfg survived rmmod"
done

echo "nr_devices=4 size=8M block_size=4096"
load_module nr_devices=4 size=8M block_size=4096
for i in 0 1 2 3; do
	assert_eq "$(cat /sys/block/ramdisk$i/size)" $((8 << 11)) "ramdisk$i size in sectors"
	assert_eq "$(cat /sys/block/ramdisk$i/queue/logical_block_size)" 4096 "ramdisk$i block size"
done
[ ! -e /dev/ramdisk4 ] || fail "ramdisk4 exists with nr_devices=4"
unload_module

echo "nr_devices=0: configfs only"
load_module nr_devices=0
[ ! -e /sys/block/ramdisk0 ] || fail "ramdisk0 exists with nr_devices=0"
[ -f "$cfg/features" ] || fail "configfs missing with nr_devices=0"
echo "defaults: what a fresh configuration shows, every file any user may read, to any user"
mkdir "$cfg/fresh"
want=$(for f in "$cfg/fresh"/*; do
	(($(stat -c '0%a' "$f") & 4)) || continue
	printf '%s=%s\n' "${f##*/}" "$(cat "$f")"
done | sort)
rmdir "$cfg/fresh"
grep -qx 'block_size=512' <<<"$want" || fail "a fresh configuration without block_size 512: $want"
assert_eq "$(sort "$cfg/defaults")" "$want" "defaults against a fresh configuration"
as_nobody=$(setpriv --reuid=65534 --regid=65534 --clear-groups cat "$cfg/defaults") ||
	fail "nobody cannot read $cfg/defaults"
assert_eq "$as_nobody" "$(cat "$cfg/defaults")" "defaults as nobody reads them"
unload_module
echo ok
