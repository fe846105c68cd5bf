#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: checkpoints: taking one copies no data, a write or discard after it costs the pages it changes (checkpoint_pages, mem_limit), rollback brings the data back bit for bit and frees them, an open or mounted device is not rolled back, a checkpoint taken under a busy ext4 rolls back to a state ext4 recovers, bad input is refused with the list unchanged; with hold_keys no static key switches under its I/O
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd md5sum blkdiscard mkfs.ext4 e2fsck

# hold_keys: the first checkpoint below is taken under a busy ext4, and
# a thread per vCPU must not see its static key patched in
# (Documentation/development.md); rd_keys_held proves none was.
rd_keys_watch
load_module nr_devices=0 hold_keys=1
grep -q checkpoints "$RD_CONFIGFS/features" || fail "features does not list checkpoints"
rd_configure ck size=64M power=1
dev=$RD_DEV
ckpts=$RD_CONFIGFS/ck/checkpoints
stat() { sysfs_stat "$dev" "$1"; }
sum() { md5sum <"$dev" | cut -d' ' -f1; }
# ck_write TEXT ATTR: writes TEXT to the attribute, failing the test on a refusal
ck_write() {
	printf '%s\n' "$1" >"$RD_CONFIGFS/ck/$2" || fail "$2 refused '$1'"
}
# refused ATTR TEXT ERRNO MESSAGE: the write fails with ERRNO's text, the
# kernel log says MESSAGE, and the list of checkpoints is as before
refused() {
	local before status=0 log_lines
	before=$(cat "$ckpts")
	log_lines=$(dmesg | wc -l)
	(printf '%s\n' "$2" >"$RD_CONFIGFS/ck/$1") 2>"$RD_TMP/werr" || status=$?
	[ "$status" != 0 ] || fail "$1 took '$2'"
	grep -q "$3" "$RD_TMP/werr" || fail "$1 '$2': $(cat "$RD_TMP/werr"), want $3"
	dmesg | tail -n +$((log_lines + 1)) | grep -qF "$4" || fail "$1 '$2': no '$4' in the kernel log"
	assert_eq "$(cat "$ckpts")" "$before" "checkpoints after the refused '$2'"
}

# 8 MiB of data: 2048 pages.
dd if=/dev/urandom of="$RD_TMP/data" bs=1M count=8 status=none
dd if="$RD_TMP/data" of="$dev" bs=1M oflag=direct status=none
base_sum=$(sum)
assert_eq "$(stat allocated_pages)" 2048 "pages after 8 MiB"

# A checkpoint shares every page: nothing is copied.
ck_write +base checkpoints
assert_eq "$(cat "$ckpts")" "base pages=2048 own=0" "checkpoints after +base"
assert_eq "$(stat allocated_pages)" 2048 "pages after +base"
assert_eq "$(stat checkpoint_pages)" 0 "checkpoint_pages after +base"
assert_eq "$(sum)" "$base_sum" "data after +base"

# Overwriting 1 MiB costs 256 new pages; the old ones are the checkpoint's alone.
dd if=/dev/urandom of="$dev" bs=1M count=1 oflag=direct status=none
assert_eq "$(stat allocated_pages)" 2304 "pages after overwriting 1 MiB"
assert_eq "$(stat checkpoint_pages)" 256 "checkpoint_pages after overwriting 1 MiB"
# Overwriting the same MiB again copies nothing more.
dd if=/dev/urandom of="$dev" bs=1M count=1 oflag=direct status=none
assert_eq "$(stat allocated_pages)" 2304 "pages after overwriting it again"
# A discarded MiB stays for the checkpoint; a partial page is copied to be zeroed.
blkdiscard -o 4M -l 1M "$dev"
blkdiscard -o $((6 * 1048576 + 512)) -l 512 "$dev"
assert_eq "$(stat allocated_pages)" 2305 "pages after the discards"
assert_eq "$(stat checkpoint_pages)" 513 "checkpoint_pages after the discards"
assert_eq "$(cat "$ckpts")" "base pages=2048 own=513" "checkpoints after the changes"
[ "$(sum)" != "$base_sum" ] || fail "the data did not change"

# A second checkpoint shares the changed data; a write to it now copies
# for both.
ck_write +second checkpoints
second_sum=$(sum)
dd if=/dev/urandom of="$dev" bs=4k count=1 oflag=direct status=none
assert_eq "$(stat allocated_pages)" 2306 "pages after a write under two checkpoints"
printf 'base pages=2048 own=513\nsecond pages=1792 own=1\n' >"$RD_TMP/want"
assert_eq "$(cat "$ckpts")" "$(cat "$RD_TMP/want")" "two checkpoints"

# No rollback under an opener, nor under a mounted file system.
exec 3<"$dev"
refused rollback base "Device or resource busy" "ck: rollback refused: the device is open"
exec 3<&-

# Rollback: the data of the checkpoint, bit for bit, and the pages written
# since are freed.
ck_write base rollback
assert_eq "$(sum)" "$base_sum" "data after rolling back to base"
# base's 2048 pages and second's 257 that base lacks; the device holds base's
assert_eq "$(stat allocated_pages)" 2305 "pages after rolling back to base"
assert_eq "$(stat checkpoint_pages)" 257 "checkpoint_pages after rolling back to base"
ck_write second rollback
assert_eq "$(sum)" "$second_sum" "data after rolling back to second"
ck_write -second checkpoints
ck_write base rollback
assert_eq "$(sum)" "$base_sum" "data after rolling back to base again"
assert_eq "$(stat allocated_pages)" 2048 "pages after dropping second"
assert_eq "$(stat checkpoint_pages)" 0 "checkpoint_pages with the device at base"
ck_write -base checkpoints
assert_eq "$(cat "$ckpts")" "" "checkpoints after dropping both"
assert_eq "$(stat allocated_pages)" 2048 "pages after dropping base"
assert_eq "$(sum)" "$base_sum" "data after dropping base"

# Bad input, with the list unchanged.
ck_write +keep checkpoints
refused checkpoints "base" "Invalid argument" "checkpoints takes +NAME (take one) or -NAME (drop it)"
refused checkpoints "+" "Invalid argument" "a checkpoint name has 1 to 31 characters"
refused checkpoints "+$(printf 'x%.0s' {1..32})" "Invalid argument" "a checkpoint name has 1 to 31 characters"
refused checkpoints "+a/b" "Invalid argument" "a checkpoint name has letters, digits"
refused checkpoints "+keep" "File exists" "checkpoint keep exists already"
refused checkpoints "-nothing" "No such file" "there is no checkpoint nothing"
refused rollback "nothing" "No such file" "there is no checkpoint nothing"
for i in $(seq 2 16); do ck_write "+c$i" checkpoints; done
refused checkpoints "+c17" "No space left" "a device has at most 16 checkpoints"
for i in $(seq 2 16); do ck_write "-c$i" checkpoints; done
ck_write -keep checkpoints

# mem_limit counts the checkpoint's pages: with room for 16 more pages,
# overwriting 128 KiB (32 pages) fails, and the data stays readable.
ck_write +limit checkpoints
rd_set ck mem_limit=$(((2048 + 16) * 4096)) || fail "mem_limit"
status=0
dd if=/dev/urandom of="$dev" bs=128k count=1 oflag=direct status=none 2>"$RD_TMP/dd.err" || status=$?
[ "$status" != 0 ] || fail "a write past mem_limit under a checkpoint succeeded"
[ "$(stat allocated_pages)" -le 2064 ] || fail "allocated_pages $(stat allocated_pages) over mem_limit"
rd_set ck mem_limit=0 || fail "mem_limit=0"
ck_write limit rollback
assert_eq "$(sum)" "$base_sum" "data after rolling back past the failed write"
ck_write -limit checkpoints

# ext4: a checkpoint taken while files are being written and synced
# rolls back to a state ext4 recovers (the journal replays at mount) and
# e2fsck finds clean; the files synced before it are there.
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
mkfs.ext4 -q -F "$dev"
mount "$dev" "$mnt"
on_exit "umount $mnt 2>/dev/null || true"
for i in $(seq 1 20); do head -c 65536 /dev/urandom >"$mnt/before$i"; done
sync -f "$mnt"
md5sum "$mnt"/before* | sed "s|$mnt/||" >"$RD_TMP/before.md5"
(for i in $(seq 1 200); do head -c 16384 /dev/urandom >"$mnt/during$i"; [ $((i % 20)) != 0 ] || sync -f "$mnt"; done) &
writer=$!
sleep 0.5
ck_write +busy checkpoints
wait "$writer"
refused rollback busy "Device or resource busy" "ck: rollback refused: the device is open"
umount "$mnt"
ck_write busy rollback
mount "$dev" "$mnt"
(cd "$mnt" && md5sum -c --quiet "$RD_TMP/before.md5") || fail "files synced before the checkpoint differ after the rollback"
umount "$mnt"
e2fsck -fn "$dev" >"$RD_TMP/fsck" 2>&1 || { cat "$RD_TMP/fsck"; fail "e2fsck after the rollback"; }

# writeback: a checkpoint holds what a reader saw (the cache is written
# back first); a rollback forgets the writes cached since, counting no
# power cut.
rd_configure wb size=16M cache_mode=writeback power=1
wb=$RD_DEV
dd if=/dev/urandom of="$wb" bs=1M count=2 oflag=direct status=none
[ "$(sysfs_stat "$wb" dirty_bytes)" != 0 ] || fail "writeback: nothing cached"
wb_sum=$(md5sum <"$wb" | cut -d' ' -f1)
printf '+cached\n' >"$RD_CONFIGFS/wb/checkpoints" || fail "writeback: +cached"
assert_eq "$(sysfs_stat "$wb" dirty_bytes)" 0 "writeback: dirty bytes after the checkpoint"
dd if=/dev/urandom of="$wb" bs=1M count=1 oflag=direct status=none
[ "$(sysfs_stat "$wb" dirty_bytes)" != 0 ] || fail "writeback: nothing cached after the checkpoint"
printf 'cached\n' >"$RD_CONFIGFS/wb/rollback" || fail "writeback: rollback"
assert_eq "$(sysfs_stat "$wb" dirty_bytes)" 0 "writeback: dirty bytes after the rollback"
assert_eq "$(sysfs_stat "$wb" power_cuts)" 0 "writeback: power cuts after the rollback"
assert_eq "$(md5sum <"$wb" | cut -d' ' -f1)" "$wb_sum" "writeback: data after the rollback"
rd_set wb power=0 || fail "writeback: power=0"

# Powering off with checkpoints frees them with the device.
rd_set ck power=0 || fail "power=0"
assert_eq "$(cat "$ckpts")" "" "checkpoints of an unpowered device"
refused checkpoints "+off" "No such device" "checkpoints needs a powered device"
refused rollback "off" "No such device" "rollback needs a powered device"
rd_keys_held
echo "PASS: checkpoints share pages, roll back exactly and refuse what they must"
