#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl apply reads ramdisk.conf whole first: every bad line is one error naming FILE:LINE, exit status 2, and nothing is made; --dry-run makes nothing; what a section leaves out is wanted at the module's defaults, read from its defaults file; the example configuration reads
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
cfg=$RD_TMP/config/ramdisk
export RAMDISK_CONFIGFS=$cfg RAMDISKCTL_SYSFS=$RD_TMP/sys
mkdir -p "$cfg" "$RD_TMP/sys/block"
# a module with every attribute create writes but the zoned ones
echo "block_size,cache_mode,cache_size,index,max_part,mem_limit,numa_node,phys_size,power,read_latency_ns,rotational,size,spare_pages" >"$cfg/features"
# what a fresh configuration of that module shows; 7 spare pages, where
# the real module has 64, so that only a value read from here can match
printf '%s\n' block_size=512 cache_mode=writethrough cache_size=67108864 max_part=0 mem_limit=0 \
	numa_node=-1 phys_size=0 read_latency_ns=0 rotational=0 size=67108864 spare_pages=7 >"$cfg/defaults"
conf=$RD_TMP/ramdisk.conf

made() {
	find "$cfg" -mindepth 1 -type d | wc -l
}

# bad LINE_AND_MESSAGE CONTENTS: apply refuses the file with exit status 2,
# one line "ramdiskctl: apply: FILE:LINE_AND_MESSAGE", and makes nothing
bad() {
	printf '%b' "$2" >"$conf"
	expect_refusal 2 "ramdiskctl: apply: $conf:$1" "$ctl" apply "$conf"
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines for '$1'"
	assert_eq "$(made)" 0 "configurations made from a bad file"
}

echo "lines that are not the grammar"
bad "1: 'size' before any [NAME] section" 'size = 1M\n'
bad "2: 'size 1M': want [NAME] or KEY = VALUE" '[a]\nsize 1M\n'
bad "1: '[a': a section is [NAME]" '[a\nsize = 1M\n'
bad "2: no key before '='" '[a]\n= 1M\n'
bad "3: size has no value" '[a]\n# empty\nsize =\n'
echo "names, keys and sections"
bad "3: unknown key 'colour'" '[a]\nsize = 1M\ncolour = blue\n'
bad "2: unknown key 'name'" '[a]\nname = b\nsize = 1M\n'
bad "1: bad name 'ramdisk3': looks like a device name" '[ramdisk3]\nsize = 1M\n'
bad "1: bad name 'a b'" '[a b]\nsize = 1M\n'
bad "3: section [a] again (first at $conf:1)" '[a]\nsize = 1M\n[a]\nsize = 1M\n'
bad "3: size set again (first at line 2)" '[a]\nsize = 1M\nsize = 2M\n'
bad "3: format wipes the device" '[a]\nnvram = 512M:64M\nformat = yes\n'
echo "values, by create's own checks (geometry at the [NAME] line, with the whole section known)"
bad "2: bad size '1Q'" '[a]\nsize = 1Q\n'
bad "1: bad size '1000': not a multiple of the block size 4096" '[a]\nblock-size = 4096\nsize = 1000\n'
bad "1: bad block size 3000: want a power of two" '[a]\nsize = 1M\nblock-size = 3000\n'
bad "2: bad cache mode 'sometimes'" '[a]\ncache-mode = sometimes\nsize = 1M\n'
bad "2: unknown profile 'floppy'" '[a]\nprofile = floppy\nsize = 1M\n'
bad "2: bad rotational 'maybe': want yes or no" '[a]\nrotational = maybe\nsize = 1M\n'
bad "2: bad max-part '300': want 0 to 255" '[a]\nmax-part = 300\nsize = 1M\n'
echo "what only the whole section tells, at its [NAME] line"
bad "1: size is required" '[a]\nmem-limit = 1M\n'
bad "1: cache-size goes with cache-mode writeback" '[a]\nsize = 1M\ncache-size = 1M\n'
bad "1: [a]: mount needs fs" '[a]\nsize = 1M\nmount = /mnt/a\n'
bad "1: [a]: mkfs-options needs fs" '[a]\nsize = 1M\nmkfs-options = -q\n'
bad "3: bad mount 'mnt': want an absolute path" '[a]\nsize = 1M\nmount = mnt\nfs = ext4\n'
bad "3: bad fs 'ext4;reboot'" '[a]\nsize = 1M\nfs = ext4;reboot\n'
bad "4: [b]: fs ext4 cannot live on a zoned device" '[a]\nsize = 1M\n\n[b]\nsize = 128M\nzoned = yes\nfs = ext4\n'
echo "a good section before a bad one is not made: the whole file is read first"
bad "5: unknown key 'colour'" '[good]\nsize = 1M\n\n[bad]\ncolour = blue\nsize = 1M\n'

echo "what this module lacks is refused before anything is made"
printf '[a]\nsize = 1M\n\n[z]\nsize = 128M\nzoned = yes\n' >"$conf"
expect_refusal 1 "apply: $conf:4: zoned: this ramdisk module has no zoned attribute" "$ctl" apply "$conf"
assert_eq "$(made)" 0 "configurations made for a module without zones"

echo "no file, and usage"
expect_refusal 1 "apply: $RD_TMP/none.conf: No such file or directory" "$ctl" apply "$RD_TMP/none.conf"
expect_refusal 2 "--down takes no --force" "$ctl" apply --down --force "$conf"
expect_refusal 2 "unexpected argument 'two'" "$ctl" apply one two
expect_refusal 2 "unknown option --up" "$ctl" apply --up

echo "comments only: nothing to do, not even the module is needed"
printf '# nothing yet\n; nor here\n\n' >"$conf"
RAMDISK_CONFIGFS=$RD_TMP/none run_cmd 0 "$ctl" apply "$conf"
assert_eq "$out$err" "" "output for a file of comments"

echo "--dry-run says what it would make and makes nothing"
printf '[a]\nsize = 1M\nfs = ext4\nmount = %s\nimage = %s\n\n[b]\nsize = 2M\ncache-mode = writeback\n' \
	"$RD_TMP/mnt/a" "$RD_TMP/a.img" >"$conf"
run_cmd 0 "$ctl" apply --dry-run "$conf"
assert_eq "$out" "$(printf '%s\n' "a: would create it" "a: would make ext4 unless its image holds one" \
	"a: would mount it on $RD_TMP/mnt/a" "b: would create it")" "apply --dry-run"
assert_eq "$(made)" 0 "configurations made by --dry-run"
[ ! -e "$RD_TMP/mnt" ] || fail "--dry-run made the mount point"
run_cmd 0 "$ctl" apply --down --dry-run "$conf"
assert_eq "$out" "" "apply --down --dry-run of devices that are not there"

echo "what a section leaves out is wanted at the module's defaults, as its defaults file says"
# a powered device, a, with the attributes that matter here
mkdir -p "$cfg/a" "$RD_TMP/sys/block/ramdisk0"
printf '%s\n' 1048576 >"$cfg/a/size"
printf '%s\n' 512 >"$cfg/a/block_size"
printf '%s\n' 64 >"$cfg/a/spare_pages"
printf '%s\n' 1 >"$cfg/a/power"
printf '%s\n' 0 >"$cfg/a/index"
printf '[a]\nsize = 1M\n' >"$conf"
run_cmd 0 "$ctl" apply --dry-run "$conf"
assert_eq "$out" "a: would set spare_pages 64 -> 7" "apply --dry-run of a device off its defaults"
printf '[a]\nsize = 1M\nspare-pages = 64\n' >"$conf"
run_cmd 0 "$ctl" apply --dry-run "$conf"
assert_eq "$out" "" "apply --dry-run of a device as declared"
echo "a module without the defaults file: refused, nothing changed"
mv "$cfg/defaults" "$RD_TMP/defaults"
printf '[a]\nsize = 1M\n' >"$conf"
expect_refusal 1 "ramdiskctl: apply: the ramdisk module has no $cfg/defaults: is it older than this tool?" \
	"$ctl" apply "$conf"
assert_eq "$(cat "$cfg/a/spare_pages")" 64 "spare_pages after the refusal"
mv "$RD_TMP/defaults" "$cfg/defaults"
rm -r "$cfg/a"

echo "the example configuration reads, and so does it uncommented"
run_cmd 0 "$ctl" apply --dry-run "$RD_TOP/Documentation/examples/ramdisk.conf"
assert_eq "$out" "" "apply --dry-run of the commented example"
sed 's/^#\([a-z[]\)/\1/' "$RD_TOP/Documentation/examples/ramdisk.conf" >"$conf"
run_cmd 0 "$ctl" apply --dry-run "$conf"
grep -q "^scratch: would create it" <<<"$out" || fail "the uncommented example: $out"
grep -q "^crashtest: would create it" <<<"$out" || fail "the uncommented example: $out"
echo "apply's file checks passed"
