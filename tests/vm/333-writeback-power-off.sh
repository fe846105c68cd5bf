#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: an orderly power-off (power=0, ramdiskctl remove) of a writeback device writes its cache back: reserved memory keeps what was cached under a clean header
#
# rmmod reaches a writeback device only through power=0: load-time devices
# are writethrough, and a powered configuration holds the module.
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd udevadm

cfg=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
phys=$((512 << 20))

head -c 8192 /dev/urandom >"$RD_TMP/a"
head -c 8192 /dev/urandom >"$RD_TMP/c"

# nv_up [format]: powers the reserved-memory item "nv" on in writeback
# mode; sets $dev
nv_up() {
	rd_configure nv "phys_addr=$(printf '0x%x' "$phys")" phys_size=64M cache_mode=writeback \
		format="${1:-0}" power=1
	dev=$RD_DEV
}

# cached FILE OFFSET: writes FILE there without a flush; it stays dirty
cached() {
	dd if="$1" of="$dev" bs=4096 seek=$(($2 / 4096)) oflag=direct status=none ||
		fail "write at $2"
	[ "$(sysfs_stat "$dev" dirty_bytes)" -gt 0 ] || fail "the write at $2 is not in the cache"
}

# holds FILE OFFSET WHAT
holds() {
	dd if="$dev" of="$RD_TMP/got" bs=4096 skip=$(($2 / 4096)) count=2 iflag=direct status=none
	cmp -s "$1" "$RD_TMP/got" || fail "$3"
}

load_module nr_devices=0

# configfs power=0
nv_up 1
cached "$RD_TMP/a" 0
echo 0 >"$cfg/nv/power"
dmesg -c >/dev/null
nv_up
holds "$RD_TMP/a" 0 "data cached at power=0 was lost"
dmesg | grep -q "last detach was not orderly" && fail "power=0 left the header not orderly"

# ramdiskctl remove
cached "$RD_TMP/c" 131072
"$ctl" remove nv || fail "ramdiskctl remove"
nv_up
holds "$RD_TMP/a" 0 "data written back at power=0 was lost later"
holds "$RD_TMP/c" 131072 "data cached at ramdiskctl remove was lost"

# A RAM device: power=0 with dirty data frees every page, cache and store.
echo 0 >"$cfg/nv/power"
rmdir "$cfg/nv"
rd_configure ram size=16M cache_mode=writeback power=1
dev=$RD_DEV
cached "$RD_TMP/a" 0
echo 0 >"$cfg/ram/power"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "pages left after power=0"
echo "ok"
