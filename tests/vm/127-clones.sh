#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: clones: a device made from a checkpoint of another reads the checkpoint's data bit for bit, costs only the pages it writes, changes neither its origin nor the checkpoint, starts again from the checkpoint at power-on, is made while its origin writes, mounts an ext4 checkpointed under load; the checkpoint cannot be dropped nor the origin powered off while it exists; bad input is refused with the reason logged and nothing changed
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd md5sum cmp blkdiscard blockdev fio mkfs.ext4 e2fsck

load_module nr_devices=0
grep -q clone_of "$RD_CONFIGFS/features" || fail "features does not list clone_of"
cfs=$RD_CONFIGFS
stat() { sysfs_stat "$1" "$2"; }
sum() { md5sum <"$1" | cut -d' ' -f1; }

# An origin with 8 MiB of data (2,048 pages), a checkpoint of it, then 1 MiB
# of the origin overwritten: 256 pages the checkpoint alone holds.
rd_configure origin size=64M power=1
odev=$RD_DEV
onum=${odev#/dev/}
dd if=/dev/urandom of="$RD_TMP/base" bs=1M count=8 status=none
dd if="$RD_TMP/base" of="$odev" bs=1M oflag=direct status=none
base_sum=$(sum "$odev")
head -c 64M "$odev" >"$RD_TMP/base.orig"
printf '+base\n' >"$cfs/origin/checkpoints"
dd if=/dev/urandom of="$odev" bs=1M count=1 oflag=direct status=none
origin_sum=$(sum "$odev")
assert_eq "$(stat "$odev" allocated_pages)" 2304 "origin pages before the clone"
assert_eq "$(stat "$odev" checkpoint_pages)" 256 "origin checkpoint_pages before the clone"

echo "a clone reads the checkpoint, costs nothing until it writes, and has its origin's size"
rd_configure cl "clone_of=$onum base" power=1
cdev=$RD_DEV
assert_eq "$(cat "$cfs/cl/clone_of")" "$onum base" "clone_of read back"
assert_eq "$(blockdev --getsize64 "$cdev")" "$(blockdev --getsize64 "$odev")" "clone size"
assert_eq "$(cat "$cfs/cl/size")" "$(cat "$cfs/origin/size")" "clone's size attribute"
assert_eq "$(sum "$cdev")" "$base_sum" "clone data"
assert_eq "$(stat "$cdev" allocated_pages)" 0 "clone pages at first"
assert_eq "$(stat "$odev" allocated_pages)" 2304 "origin pages with a clone"
assert_eq "$(cat "$cfs/origin/checkpoints")" "base pages=2048 own=0" "base with a clone"

echo "a write and a discard on the clone change the clone alone"
dd if=/dev/urandom of="$RD_TMP/mib" bs=1M count=1 status=none
dd if="$RD_TMP/mib" of="$cdev" bs=1M seek=2 oflag=direct status=none
dd if="$RD_TMP/mib" of="$RD_TMP/base" bs=1M seek=2 conv=notrunc status=none
blkdiscard -o 4M -l 1M "$cdev"
dd if=/dev/zero of="$RD_TMP/base" bs=1M seek=4 count=1 conv=notrunc status=none
# one partial page: copied to be zeroed
blkdiscard -o $((6 * 1048576 + 512)) -l 512 "$cdev"
dd if=/dev/zero of="$RD_TMP/base" bs=512 seek=$((6 * 2048 + 1)) count=1 conv=notrunc status=none
truncate -s 64M "$RD_TMP/base"
cmp "$cdev" "$RD_TMP/base" || fail "clone data after its write and discards"
assert_eq "$(stat "$cdev" allocated_pages)" 257 "clone pages after writing 1 MiB and one partial page"
# the pages it let go of are the checkpoint's, counted by the origin
assert_eq "$(stat "$cdev" checkpoint_pages)" 0 "clone checkpoint_pages after its writes"
assert_eq "$(sum "$odev")" "$origin_sum" "origin data after the clone's writes"
assert_eq "$(stat "$odev" allocated_pages)" 2304 "origin pages after the clone's writes"

echo "the origin's writes leave the clone alone"
dd if=/dev/urandom of="$odev" bs=1M seek=3 count=1 oflag=direct status=none
cmp "$cdev" "$RD_TMP/base" || fail "clone data after the origin's write"
origin_sum=$(sum "$odev")

echo "while the clone exists: no drop of base, no power-off of the origin, no checkpoint of the clone"
rd_refused origin checkpoints -base "Device or resource busy" "checkpoint base is the start of 1 clone(s)"
rd_refused origin power 0 "Directory not empty" "has 1 clone(s) reading its checkpoints"
assert_eq "$(cat "$cfs/origin/power")" 1 "origin power after the refusal"
rd_refused cl checkpoints +mine "Operation not supported" "a clone takes no checkpoints"
rd_refused cl clone_of "$onum base" "Device or resource busy" "clone_of cannot change while powered"
# the origin may still take, roll back and drop other checkpoints
printf '+other\n' >"$cfs/origin/checkpoints"
# udev probes a disk after a writer closes it: a rollback wants it closed
udevadm settle
printf 'other\n' >"$cfs/origin/rollback"
printf -- '-other\n' >"$cfs/origin/checkpoints"
assert_eq "$(sum "$odev")" "$origin_sum" "origin data after its own rollback"
cmp "$cdev" "$RD_TMP/base" || fail "clone data after the origin's rollback"

echo "power-off and on: the clone starts again from the checkpoint"
rd_power_off cl || fail "cannot power the clone off"
rd_set cl power=1 || fail "cannot power the clone on again"
cdev=$(rd_dev cl)
assert_eq "$(sum "$cdev")" "$base_sum" "clone data after a power cycle"
assert_eq "$(stat "$cdev" allocated_pages)" 0 "clone pages after a power cycle"

echo "mem_limit bounds the clone's own pages"
rd_configure small "clone_of=$onum base" mem_limit=1M power=1
sdev=$RD_DEV
dd if=/dev/zero of="$sdev" bs=1M count=2 oflag=direct status=none 2>/dev/null &&
	fail "2 MiB went into a clone with mem_limit 1M"
assert_eq "$(stat "$sdev" allocated_pages)" 256 "pages of the clone at its mem_limit"
rd_unconfigure small

echo "bad input: refused, logged, nothing made"
rd_configure bad
rd_refused bad clone_of "$onum" "Invalid argument" "clone_of takes DISK CHECKPOINT"
rd_refused bad clone_of " base" "Invalid argument" "clone_of takes DISK CHECKPOINT"
rd_refused bad clone_of "$onum ba/se" "Invalid argument" "a checkpoint name has letters"
rd_refused bad clone_of "$(printf 'r%.0s' {1..40}) base" "Invalid argument" "a disk name of at most 31"
rd_refused bad clone_of "ram/disk0 base" "Invalid argument" "a disk name of at most 31 letters and digits"
assert_eq "$(cat "$cfs/bad/clone_of")" "" "clone_of after the refusals"
rd_set bad "clone_of=ramdisk99 base"
rd_refused bad power 1 "No such device" "clone_of names ramdisk99, which does not exist"
rd_set bad "clone_of=$onum nosuch"
rd_refused bad power 1 "No such file or directory" "has no checkpoint nosuch to clone"
rd_set bad "clone_of=$onum base" phys_addr=0x20000000 phys_size=16M
rd_refused bad power 1 "Invalid argument" "a clone lives in pages: phys_size must be 0"
rd_set bad phys_size=0 "clone_of=${cdev#/dev/} base"
rd_refused bad power 1 "No such file or directory" "has no checkpoint base to clone"
assert_eq "$(cat "$cfs/bad/power")" 0 "power after the refusals"
rd_set bad "clone_of="
assert_eq "$(cat "$cfs/bad/clone_of")" "" "clone_of cleared"
rd_unconfigure bad

echo "clones made and checked while the origin writes"
fio --name=origin-writes --filename="$odev" --rw=randwrite --bs=4k --size=16M --direct=1 \
	--time_based --runtime=600 --ioengine=psync >/dev/null 2>&1 &
fio_pid=$!
on_exit "kill $fio_pid 2>/dev/null"
# the base's data and the origin's writes lie in the first 16 MiB
base16=$(head -c 16M "$RD_TMP/base.orig" | md5sum | cut -d' ' -f1)
for i in $(seq 1 6); do
	rd_configure "busy$i" "clone_of=$onum base" power=1 >/dev/null
	assert_eq "$(head -c 16M "$RD_DEV" | md5sum | cut -d' ' -f1)" "$base16" \
		"clone $i made under the origin's writes"
	rd_unconfigure "busy$i"
done
kill "$fio_pid"
wait "$fio_pid" 2>/dev/null || true

echo "an ext4 checkpointed under load mounts on a clone, and the origin stays mounted"
rd_configure fs size=256M power=1
fdev=$RD_DEV
mkfs.ext4 -q "$fdev"
mkdir -p "$RD_TMP/fs" "$RD_TMP/clone"
mount "$fdev" "$RD_TMP/fs"
on_exit "umount $RD_TMP/fs"
for i in $(seq 1 20); do
	head -c 64k /dev/urandom >"$RD_TMP/fs/kept$i"
done
sync
md5sum "$RD_TMP"/fs/kept* | sed "s|$RD_TMP/fs/||" >"$RD_TMP/kept.md5"
(for i in $(seq 1 500); do head -c 8k /dev/urandom >"$RD_TMP/fs/busy$((i % 50))"; done) &
busy=$!
printf '+mid\n' >"$cfs/fs/checkpoints"
rd_configure fsclone "clone_of=${fdev#/dev/} mid" power=1
wait "$busy"
mount "$RD_DEV" "$RD_TMP/clone"
(cd "$RD_TMP/clone" && md5sum -c --quiet "$RD_TMP/kept.md5") || fail "synced files on the clone"
umount "$RD_TMP/clone"
e2fsck -fn "$RD_DEV" >"$RD_TMP/fsck" 2>&1 || fail "e2fsck of the clone: $(cat "$RD_TMP/fsck")"
mountpoint -q "$RD_TMP/fs" || fail "the origin's mount went away"
rd_unconfigure fsclone
umount "$RD_TMP/fs"
printf -- '-mid\n' >"$cfs/fs/checkpoints"

echo "once the clone is gone: base drops, the origin powers off, no page is left"
rd_unconfigure cl
printf -- '-base\n' >"$cfs/origin/checkpoints"
assert_eq "$(stat "$odev" checkpoint_pages)" 0 "origin checkpoint_pages after base went"
rd_unconfigure origin
rd_unconfigure fs
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "module pages at the end"
echo "clones pass"
