#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl error paths on real devices: exists, busy, load-time, no such device, refused values, not root
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
cfg=$RD_CONFIGFS

# expect_status WANT PATTERN CMD...: exit status WANT and PATTERN on stderr.
expect_status() {
	local want=$1 pattern=$2 status=0
	shift 2
	"$@" >"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
	echo "$* -> $status: $(cat "$RD_TMP/err")"
	assert_eq "$status" "$want" "exit status of $*"
	grep -q -- "$pattern" "$RD_TMP/err" || fail "$*: stderr lacks '$pattern'"
	assert_eq "$(wc -l <"$RD_TMP/err")" 1 "stderr lines of $*"
}

# Nothing half-made: no directory other than the ones we expect.
configs() {
	find "$cfg" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' '
}

load_module nr_devices=2

dev=$("$ctl" create --name keep --size 8M)
on_exit "$ctl" remove keep
assert_eq "$dev" /dev/ramdisk2 "device after two load-time ones"

# exists (4): untouched afterwards.
expect_status 4 "keep already exists" "$ctl" create --name keep --size 16M
assert_eq "$(cat "$cfg/keep/size")" $((8 << 20)) "size of keep after a refused create"

# busy (5): open, then mounted if we can; the device stays powered.
udevadm settle 2>/dev/null || true
exec 3<"$dev"
expect_status 5 "busy" "$ctl" remove keep
assert_eq "$(cat "$cfg/keep/power")" 1 "keep power while busy"
[ -b "$dev" ] || fail "$dev went away while busy"
exec 3<&-
if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q "$dev"
	mkdir "$RD_TMP/mnt"
	mount "$dev" "$RD_TMP/mnt"
	on_exit umount "$RD_TMP/mnt"
	expect_status 5 "is busy: open or mounted" "$ctl" remove /dev/ramdisk2
	umount "$RD_TMP/mnt"
fi

# Load-time devices: refused, not removed.
expect_status 1 "goes away only with rmmod" "$ctl" remove /dev/ramdisk0
expect_status 1 "goes away only with rmmod" "$ctl" remove ramdisk1
for d in /dev/ramdisk0 /dev/ramdisk1; do
	[ -b "$d" ] || fail "load-time $d went away"
done

# No such device (7).
expect_status 7 "no such ramdisk device" "$ctl" remove nosuch
expect_status 7 "no such ramdisk device" "$ctl" remove /dev/ramdisk9
expect_status 7 "no such ramdisk device" "$ctl" info ramdisk9
expect_status 7 "no such ramdisk device" "$ctl" info /dev/sda

# Bad sizes never reach the module (2), and leave nothing.
expect_status 2 "not a multiple of the block size" "$ctl" create --size 1000
expect_status 2 "not a multiple of the block size 4096" "$ctl" create --size 6K --block-size 4096
expect_status 2 "bad size" "$ctl" create --size 12Q
assert_eq "$(configs)" "keep " "configurations after bad sizes"

# A value only the module can judge: it says EINVAL (exit 2), and the
# half-made configuration is removed again.
if [ ! -d /sys/devices/system/node/node999 ]; then
	expect_status 2 "refused numa_node=999" "$ctl" create --size 1M --numa-node 999
	assert_eq "$(configs)" "keep " "configurations after a refused numa_node"
fi
# Not root (6): as nobody, nothing created, nothing removed.
if command -v setpriv >/dev/null; then
	as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	expect_status 6 "are you root" "${as_nobody[@]}" "$ctl" create --size 1M
	expect_status 6 "are you root" "${as_nobody[@]}" "$ctl" remove keep
	assert_eq "$(cat "$cfg/keep/power")" 1 "keep power after remove as nobody"
	"${as_nobody[@]}" "$ctl" list >/dev/null || fail "list as nobody"
	assert_eq "$(configs)" "keep " "configurations after create as nobody"
fi

"$ctl" remove keep
assert_eq "$(configs)" "" "configurations at the end"
