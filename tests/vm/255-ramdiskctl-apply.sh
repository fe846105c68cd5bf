#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl apply: ramdisk.conf made (fs, mount, image restored), idempotent, live changes made, data-losing ones refused unless --force; apply --down saves atomically and removes only declared devices; bad files change nothing
. "${0%/*}/../lib/common.sh"
require_cmd blkid mkfs.ext4 mountpoint

ctl=$RD_BIN/ramdiskctl
cfg=$RD_CONFIGFS
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
load_module nr_devices=0
on_exit "rd_unconfigure other"
on_exit "rd_unconfigure raw"
on_exit "rd_unconfigure scratch"

conf=$RD_TMP/ramdisk.conf
mnt=$RD_TMP/mnt/scratch
img=$RD_TMP/images/scratch.img

# write_conf SCRATCH_SIZE RAW_MEM_LIMIT: the two devices of this test
write_conf() {
	cat >"$conf" <<CONF
# a scratch file system that keeps its contents across apply --down / apply
[scratch]
size = $1
block-size = 4096
fs = ext4
mkfs-options = -q -E nodiscard
mount = $mnt
mount-options = noatime
image = $img

; a raw device for a crash test
[raw]
size = 32M
cache-mode = writeback
cache-size = 4M
mem-limit = $2
spare-pages = 0
profile = ssd
CONF
}

configured() {
	find "$cfg" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' '
}

echo "--- bad files: one line naming FILE:LINE, exit status 2, nothing made"
bad() {
	local message=$1
	printf '%b' "$2" >"$RD_TMP/bad.conf"
	expect_refusal 2 "$message" "$ctl" apply "$RD_TMP/bad.conf"
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines for '$message'"
	assert_eq "$(configured)" "" "configurations after a bad file"
}
bad "bad.conf:4: unknown key 'colour'" '[a]\nsize = 16M\n\ncolour = blue\n'
bad "bad.conf:2: bad size '16Q'" '[a]\nsize = 16Q\n'
bad "bad.conf:4: section [a] again (first at $RD_TMP/bad.conf:1)" '[a]\nsize = 16M\n# again\n[a]\nsize = 16M\n'
bad "bad.conf:1: 'size' before any [NAME] section" 'size = 16M\n'
bad "bad.conf:2: 'size 16M': want [NAME] or KEY = VALUE" '[a]\nsize 16M\n'
bad "bad.conf:3: size set again (first at line 2)" '[a]\nsize = 16M\nsize = 32M\n'
# a good section before the bad one is not made either: the whole file is read first
bad "bad.conf:5: bad cache mode 'sometimes'" '[good]\nsize = 16M\n\n[b]\ncache-mode = sometimes\nsize = 16M\n'
bad "bad.conf:1: [a]: mount needs fs" '[a]\nsize = 16M\nmount = /mnt\n'
expect_refusal 1 "apply: $RD_TMP/missing.conf: No such file or directory" "$ctl" apply "$RD_TMP/missing.conf"

echo "--- apply makes both devices, the file system and the mount"
write_conf 64M 8M
run_cmd 0 "$ctl" apply "$conf"
echo "$out"
grep -q '^scratch: created /dev/ramdisk' <<<"$out" || fail "no 'created' line: $out"
grep -q "^scratch: made ext4 on " <<<"$out" || fail "no mkfs line: $out"
grep -q "^scratch: mounted .* on $mnt\$" <<<"$out" || fail "no mount line: $out"
assert_eq "$(configured)" "raw scratch " "configurations"
scratch=$(rd_dev scratch)
raw=$(rd_dev raw)
assert_eq "$(cat "$cfg/scratch/size")" $((64 << 20)) "scratch size"
assert_eq "$(cat "$cfg/scratch/block_size")" 4096 "scratch block size"
assert_eq "$(cat "$cfg/raw/cache_mode")" writeback "raw cache mode"
assert_eq "$(cat "$cfg/raw/cache_size")" $((4 << 20)) "raw cache size"
assert_eq "$(cat "$cfg/raw/mem_limit")" $((8 << 20)) "raw mem_limit"
assert_eq "$(cat "$cfg/raw/spare_pages")" 0 "raw spare_pages"
assert_eq "$(cat "$cfg/raw/read_latency_ns")" 90000 "raw profile ssd"
mountpoint -q "$mnt" || fail "$mnt is not mounted"
assert_eq "$(findmnt -n -o SOURCE,FSTYPE "$mnt" | tr -s ' ')" "$scratch ext4" "what is mounted on $mnt"
findmnt -n -o OPTIONS "$mnt" | grep -q noatime || fail "mount-options not used"
assert_eq "$(blkid -p -s TYPE -o value "$raw" || :)" "" "raw got a file system"

echo "--- apply again: nothing changes, nothing said"
echo hello >"$mnt/file"
sync
uuid=$(blkid -p -s UUID -o value "$scratch")
run_cmd 0 "$ctl" apply "$conf"
assert_eq "$out" "" "output of a second apply"
assert_eq "$err" "" "errors of a second apply"
assert_eq "$(cat "$mnt/file")" hello "file after a second apply"
assert_eq "$(blkid -p -s UUID -o value "$scratch")" "$uuid" "fs UUID after a second apply"
assert_eq "$(grep -c " $mnt " /proc/mounts)" 1 "mounts of $mnt"

echo "--- a live attribute: --dry-run says, apply does"
write_conf 64M 16M
run_cmd 0 "$ctl" apply --dry-run "$conf"
assert_eq "$out" "raw: would set mem_limit 8388608 -> 16777216" "dry run"
assert_eq "$(cat "$cfg/raw/mem_limit")" $((8 << 20)) "mem_limit after a dry run"
run_cmd 0 "$ctl" apply "$conf"
assert_eq "$out" "raw: mem_limit 8388608 -> 16777216" "live change"
assert_eq "$(cat "$cfg/raw/mem_limit")" $((16 << 20)) "mem_limit after apply"

echo "--- a size change loses data: refused, nothing changed; --force makes it"
write_conf 128M 32M
expect_refusal 10 "scratch: size 67108864 -> 134217728 would lose the data on $scratch" "$ctl" apply "$conf"
grep -q "nothing was changed" <<<"$err" || fail "refusal does not say nothing changed: $err"
assert_eq "$(cat "$cfg/scratch/size")" $((64 << 20)) "scratch size after the refusal"
assert_eq "$(cat "$cfg/raw/mem_limit")" $((16 << 20)) "raw mem_limit after the refusal"
assert_eq "$(cat "$mnt/file")" hello "file after the refusal"
run_cmd 0 "$ctl" apply --force "$conf"
echo "$out"
grep -q "^scratch: unmounted $mnt\$" <<<"$out" || fail "no unmount line: $out"
assert_eq "$(cat "$cfg/scratch/size")" $((128 << 20)) "scratch size after --force"
assert_eq "$(cat "$cfg/raw/mem_limit")" $((32 << 20)) "raw mem_limit after --force"
scratch=$(rd_dev scratch)
assert_eq "$(findmnt -n -o SOURCE "$mnt")" "$scratch" "mounted after --force"
[ ! -e "$mnt/file" ] || fail "the old file system survived a forced re-make"

echo "--- a different fs over a formatted device: refused"
sed 's/^fs = ext4/fs = xfs/; s/^mkfs-options.*//' "$conf" >"$RD_TMP/xfs.conf"
expect_refusal 10 "scratch: fs xfs over the ext4 it holds would lose the data" "$ctl" apply "$RD_TMP/xfs.conf"
assert_eq "$(blkid -p -s TYPE -o value "$scratch")" ext4 "fs after the refusal"

echo "--- apply --down: unmount, save, remove; undeclared devices stay"
"$ctl" create --name other --size 16M >/dev/null
echo persist >"$mnt/keep"
uuid=$(blkid -p -s UUID -o value "$scratch")
run_cmd 0 "$ctl" apply --down "$conf"
echo "$out"
assert_eq "$out" "$(printf '%s\n' "raw: removed" "scratch: unmounted $mnt" "scratch: saved $img" "scratch: removed")" \
	"apply --down output"
assert_eq "$(configured)" "other " "configurations after apply --down"
mountpoint -q "$mnt" && fail "$mnt still mounted"
[ -s "$img" ] || fail "no image at $img"
assert_eq "$(ls "${img%/*}")" "${img##*/}" "files beside the image"
run_cmd 0 "$ctl" apply --down "$conf"
assert_eq "$out" "" "a second apply --down"

echo "--- apply again: restored from the image, not made again (the reboot cycle)"
run_cmd 0 "$ctl" apply "$conf"
echo "$out"
grep -q "^scratch: restored $img\$" <<<"$out" || fail "no restore line: $out"
grep -q "made ext4" <<<"$out" && fail "mkfs over a restored image: $out"
assert_eq "$(cat "$mnt/keep")" persist "file after the reboot cycle"
assert_eq "$(blkid -p -s UUID -o value "$(rd_dev scratch)")" "$uuid" "fs UUID after the reboot cycle"

echo "--- a save that fails keeps the previous image and the device"
cp "$img" "$RD_TMP/img.before"
echo more >"$mnt/more"
status=0
(
	trap '' XFSZ
	ulimit -f 16
	"$ctl" apply --down "$conf"
) >"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
cat "$RD_TMP/err"
[ "$status" != 0 ] || fail "apply --down succeeded under a 16K file size limit"
grep -q "scratch: kept: its data could not be saved" "$RD_TMP/err" || fail "no 'kept' message"
cmp "$img" "$RD_TMP/img.before" || fail "the failed save changed the image"
assert_eq "$(ls "${img%/*}")" "${img##*/}" "files beside the image after a failed save"
assert_eq "$(configured)" "other scratch " "configurations after a failed save"
run_cmd 0 "$ctl" apply --down "$conf"
cmp -s "$img" "$RD_TMP/img.before" && fail "the image did not change after a good save"

echo "--- a bad image: the device is removed again, the image left as it was"
head -c 100000 "$img" >"$RD_TMP/img.cut"
cp "$RD_TMP/img.cut" "$img"
run_cmd 8 "$ctl" apply "$conf"
grep -q "removed again, so that $img stays as it is" <<<"$err" || fail "no 'removed again': $err"
cmp "$img" "$RD_TMP/img.cut" || fail "apply changed a bad image"
assert_eq "$(configured)" "other raw " "configurations after a bad image"
run_cmd 0 "$ctl" apply --down "$conf"
cmp "$img" "$RD_TMP/img.cut" || fail "apply --down saved over the image of a device it did not have"
"$ctl" remove other
echo "apply checks passed"
