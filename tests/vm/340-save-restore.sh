#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: sparse save and restore: round trip, speed, bad images refused before writing; a writeback device saves what a read returns, flushed or not, and stays as durable as it was
. "${0%/*}/../lib/common.sh"
require_cmd udevadm

ctl=$RD_BIN/ramdiskctl
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
load_module nr_devices=2 size=4G

# A few scattered runs of data, one of them not page-aligned.
for off in 0 7 1000 4095; do
	head -c 64K /dev/urandom | dd of=/dev/ramdisk0 bs=64K seek="$off" oflag=direct status=none
done
printf 'tail' | dd of=/dev/ramdisk0 bs=1 seek=$(((4 << 30) - 100)) conv=notrunc status=none
sync

start=$(date +%s%N)
"$ctl" save /dev/ramdisk0 "$RD_TMP/img"
ms=$((($(date +%s%N) - start) / 1000000))
echo "saved a 4 GiB device holding $(sysfs_stat ramdisk0 allocated_bytes) bytes in ${ms} ms"
# well under a second on hardware; emulation is several times slower
[ "$ms" -lt 3000 ] || fail "save took ${ms} ms"
size=$(stat -c %s "$RD_TMP/img")
[ "$size" -lt $((1 << 20)) ] || fail "image of $size bytes is not compact"

# The target holds other data first: restore must leave only the image's.
head -c 1M /dev/urandom | dd of=/dev/ramdisk1 bs=1M seek=100 oflag=direct status=none
"$ctl" restore "$RD_TMP/img" /dev/ramdisk1
"$ctl" save /dev/ramdisk1 "$RD_TMP/img2"
assert_eq "$(sha256sum <"$RD_TMP/img2")" "$(sha256sum <"$RD_TMP/img")" "image of the restored device"
assert_eq "$(sysfs_stat ramdisk1 allocated_pages)" "$(sysfs_stat ramdisk0 allocated_pages)" \
	"pages of the restored device"
for off in 0 7 1000 4095; do
	a=$(dd if=/dev/ramdisk0 bs=64K skip="$off" count=1 iflag=direct 2>/dev/null | sha256sum)
	b=$(dd if=/dev/ramdisk1 bs=64K skip="$off" count=1 iflag=direct 2>/dev/null | sha256sum)
	assert_eq "$b" "$a" "64K at block $off after restore"
done

# Bad images change nothing on the target.
marker() { dd if=/dev/ramdisk1 bs=64K skip=7 count=1 iflag=direct 2>/dev/null | sha256sum; }
before=$(marker)
expect_status() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	assert_eq "$rc" "$want" "exit status of $*"
}
head -c $((size - 30)) "$RD_TMP/img" >"$RD_TMP/truncated"
expect_status 8 "$ctl" restore "$RD_TMP/truncated" /dev/ramdisk1
head -c 70000 "$RD_TMP/img" >"$RD_TMP/truncated2"
expect_status 8 "$ctl" restore "$RD_TMP/truncated2" /dev/ramdisk1
cp "$RD_TMP/img" "$RD_TMP/corrupt"
# Flip every bit of one data byte: writing a constant would change
# nothing when the random data already held it.
byte=$(od -An -tu1 -j5000 -N1 "$RD_TMP/img" | tr -d ' ')
printf %b "\\0$(printf %03o $((byte ^ 255)))" |
	dd of="$RD_TMP/corrupt" bs=1 seek=5000 conv=notrunc status=none
cmp -s "$RD_TMP/img" "$RD_TMP/corrupt" && fail "byte 5000 of the copy did not change"
expect_status 8 "$ctl" restore "$RD_TMP/corrupt" /dev/ramdisk1
rd_configure small size=1G power=1
expect_status 9 "$ctl" restore "$RD_TMP/img" "$RD_DEV"
assert_eq "$(marker)" "$before" "target after refused restores"

# A writeback device: the image holds what a read returns, including
# writes not yet flushed, and saving flushes nothing (a power cut after
# the save still loses them).
# power_up NAME MODE: a 16M device; sets $powered to its path
power_up() {
	rd_configure "$1" size=16M cache_mode="$2" power=1
	powered=$RD_DEV
}
power_up wb writeback
wb=$powered
power_up wt writethrough
wt=$powered
udevadm settle
# From files, not pipes: dd given a short block from a pipe drops
# O_DIRECT for it and fsyncs the device, which would flush the cache.
head -c 64K /dev/urandom >"$RD_TMP/64k"
head -c 4K /dev/urandom >"$RD_TMP/4k"
dd if="$RD_TMP/64k" of="$wb" bs=64K seek=1 oflag=direct status=none
sync "$wb"
# un-flushed: a run of its own, and 4K over the flushed run
dd if="$RD_TMP/64k" of="$wb" bs=64K seek=100 oflag=direct status=none
dd if="$RD_TMP/4k" of="$wb" bs=4K seek=17 oflag=direct status=none
dirty=$(sysfs_stat "$wb" dirty_bytes)
assert_eq "$dirty" $((68 << 10)) "dirty bytes before the save"
"$ctl" save "$wb" "$RD_TMP/wb.img"
assert_eq "$(sysfs_stat "$wb" dirty_bytes)" "$dirty" "dirty bytes after the save"
"$ctl" restore "$RD_TMP/wb.img" "$wt"
assert_eq "$(sha256sum <"$wt")" "$(sha256sum <"$wb")" "device restored from a writeback device's image"
echo 1 >"$RD_CONFIGFS/wb/power_cut"
dd if="$wb" bs=64K skip=100 count=1 iflag=direct status=none | cmp -s - <(head -c 64K /dev/zero) ||
	fail "the un-flushed run survived a power cut after the save"
echo "save/restore checks passed"
