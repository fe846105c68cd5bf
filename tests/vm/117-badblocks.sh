#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: badblocks: reads and writes of bad ranges fail with their errno after moving the sectors before the first bad one, writes heal non-sticky ranges, '-' and clear remove, bad input is refused with the list unchanged, the counters count
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd

load_module nr_devices=0
grep -q badblocks "$RD_CONFIGFS/features" || fail "features does not list badblocks: $(cat "$RD_CONFIGFS/features")"
rd_configure bb size=16M power=1
dev=$RD_DEV
rd=${dev#/dev/}
bb=$RD_CONFIGFS/bb/badblocks

# bb_add LINE...: writes each line to the list, failing the test on a refusal
bb_add() {
	local line
	for line in "$@"; do
		printf '%s\n' "$line" >"$bb" || fail "badblocks refused '$line'"
	done
}

# io_errno CMD...: runs a dd that must fail, prints the error text it gave
io_errno() {
	local status=0
	"$@" status=none 2>"$RD_TMP/dd.err" && status=1
	[ "$status" = 0 ] || fail "'$*' succeeded over a bad range"
	sed 's/^.*: //' "$RD_TMP/dd.err" | tail -n 1
}

# Known data on the first MiB: each 512-byte sector is distinct.
head -c 1M /dev/urandom >"$RD_TMP/old"
dd if="$RD_TMP/old" of="$dev" bs=1M oflag=direct status=none
assert_eq "$(cat "$bb")" "" "the list of a new device"

# A read of a bad range fails with the errno its error stands for.
bb_add "+8-15 rw=read" "+16-23 rw=read error=medium" "+24-31 rw=both error=nospc"
assert_eq "$(cat "$bb")" "+8-15 rw=read error=eio sticky=1
+16-23 rw=read error=medium sticky=1
+24-31 rw=both error=nospc sticky=1" "the list as written"
assert_eq "$(io_errno dd if="$dev" of=/dev/null bs=4096 skip=1 count=1 iflag=direct)" \
	"Input/output error" "read of an eio range"
assert_eq "$(io_errno dd if="$dev" of=/dev/null bs=4096 skip=2 count=1 iflag=direct)" \
	"No data available" "read of a medium-error range"
assert_eq "$(io_errno dd if="$dev" of=/dev/null bs=4096 skip=3 count=1 iflag=direct)" \
	"No space left on device" "read of a nospc range"
assert_eq "$(sysfs_stat "$rd" badblock_read_errors)" 3 "badblock_read_errors"
# A read that stops short of the range, and a read-only range written, pass.
dd if="$dev" of=/dev/null bs=4096 count=1 iflag=direct status=none || fail "read before the bad ranges"
bb_add "clear"
assert_eq "$(cat "$bb")" "" "the list after clear"
dd if="$dev" of=/dev/null bs=1M count=1 iflag=direct status=none || fail "read after clear"

# A write over a bad sector writes the whole sectors before it and none
# from it on; the write fails with the range's errno.
bb_add "+68-68 rw=write error=medium"
head -c 8192 /dev/urandom >"$RD_TMP/new"
assert_eq "$(io_errno dd if="$RD_TMP/new" of="$dev" bs=8192 seek=4 count=1 oflag=direct)" \
	"No data available" "write over a medium-error sector"
assert_eq "$(sysfs_stat "$rd" badblock_write_errors)" 1 "badblock_write_errors"
dd if="$dev" of="$RD_TMP/got" bs=512 skip=64 count=16 iflag=direct status=none ||
	fail "reading back around a write-only bad sector"
cmp -n 2048 "$RD_TMP/got" "$RD_TMP/new" || fail "the four sectors before the bad one were not written"
cmp -i 2048:$((68 * 512)) -n 6144 "$RD_TMP/got" "$RD_TMP/old" ||
	fail "sectors from the bad one on were written"
# A write that only touches sectors before the range succeeds.
dd if="$RD_TMP/new" of="$dev" bs=2048 seek=16 count=1 oflag=direct status=none ||
	fail "a write ending before the bad sector"
bb_add "clear"

# A range that heals (sticky=0): a read fails until a write covers it,
# sector by sector; a sticky one stays after a write.
bb_add "+128-135 rw=read sticky=0" "+256-263 rw=read sticky=1"
io_errno dd if="$dev" of=/dev/null bs=4096 skip=16 count=1 iflag=direct >/dev/null
dd if="$RD_TMP/new" of="$dev" bs=2048 seek=32 count=1 oflag=direct status=none ||
	fail "a write over a read-only bad range"
assert_eq "$(cat "$bb")" "+132-135 rw=read error=eio sticky=0
+256-263 rw=read error=eio sticky=1" "the list after a write healed half a range"
dd if="$dev" of=/dev/null bs=2048 skip=32 count=1 iflag=direct status=none ||
	fail "read of healed sectors"
dd if="$RD_TMP/new" of="$dev" bs=4096 seek=32 count=1 oflag=direct status=none ||
	fail "a write over a sticky read-only bad range"
assert_eq "$(cat "$bb")" "+132-135 rw=read error=eio sticky=0
+256-263 rw=read error=eio sticky=1" "a sticky range after a write"
io_errno dd if="$dev" of=/dev/null bs=4096 skip=32 count=1 iflag=direct >/dev/null
bb_add "clear"

# '-' takes sectors out of every range, splitting one; '+' over a range
# replaces what it covers.
bb_add "+100-199" "-120-129"
assert_eq "$(cat "$bb")" "+100-119 rw=both error=eio sticky=1
+130-199 rw=both error=eio sticky=1" "the list after '-' split a range"
bb_add "+110-139 rw=write error=nospc sticky=0"
assert_eq "$(cat "$bb")" "+100-109 rw=both error=eio sticky=1
+110-139 rw=write error=nospc sticky=0
+140-199 rw=both error=eio sticky=1" "the list after '+' over two ranges"
bb_add "-0-1000"
assert_eq "$(cat "$bb")" "" "the list after '-' over all of it"
# A line read back is a line that may be written.
bb_add "+7 error=timeout"
line=$(cat "$bb")
bb_add "clear" "$line"
assert_eq "$(cat "$bb")" "$line" "a line written back"

# A timeout holds the bio about a second, then fails it with ETIMEDOUT.
start=$(date +%s%N)
assert_eq "$(io_errno dd if="$dev" of=/dev/null bs=4096 count=1 iflag=direct)" \
	"Connection timed out" "read of a timeout range"
took=$((($(date +%s%N) - start) / 1000000))
[ "$took" -ge 900 ] || fail "the timeout took $took ms, want about 1000"
echo "timeout after $took ms"
bb_add "clear"

# Refused: EINVAL, one line in the log naming the device, the attribute
# and the value, and the list as it was.
bb_add "+500-599 rw=read"
before=$(cat "$bb")
for value in "500-599" "+599-500" "+1-2 rw=sideways" "+1-2 error=enoent" "+1-2 sticky=2" \
	"-1-2 rw=read" "+x" "+1-2 bogus" "+1-2 rw" "+" "clear all" "+18446744073709551616" \
	"++5" "+1-+2"; do
	mark="rdtest-117-$RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	if err=$( (printf '%s\n' "$value" >"$bb") 2>&1); then
		fail "badblocks '$value' was accepted"
	fi
	grep -q "Invalid argument" <<<"$err" || fail "badblocks '$value': $err"
	assert_eq "$(cat "$bb")" "$before" "the list after the refused '$value'"
	dmesg | sed -n "/$mark/,\$p" | grep -qF "ramdisk: bb: badblocks '$value' is not +START-END" ||
		fail "no log line for badblocks '$value'"
done
# A full list refuses one more range with ENOSPC.
bb_add "clear"
for i in $(seq 0 47); do
	bb_add "+$((i * 10))-$((i * 10 + 1))"
done
if err=$( (echo "+1000-1001" >"$bb") 2>&1); then
	fail "a 49th range was accepted"
fi
grep -q "No space left on device" <<<"$err" || fail "a 49th range: $err"
assert_eq "$(wc -l <"$bb")" 48 "ranges after the refused 49th"
dmesg | grep -qF "ramdisk: bb: badblocks '+1000-1001' would make more than 48 ranges" ||
	fail "no log line for the 49th range"
bb_add "clear"

# 4096-byte blocks: the part before a bad sector is cut to whole blocks.
rd_configure bb4k size=16M block_size=4096 power=1
dev4k=$RD_DEV
dd if="$RD_TMP/old" of="$dev4k" bs=1M oflag=direct status=none
printf '+%s\n' "13-13 rw=write" >"$RD_CONFIGFS/bb4k/badblocks" || fail "badblocks on bb4k"
io_errno dd if="$RD_TMP/new" of="$dev4k" bs=8192 count=1 oflag=direct >/dev/null
dd if="$dev4k" of="$RD_TMP/got" bs=8192 count=1 iflag=direct status=none || fail "read bb4k"
cmp -n 4096 "$RD_TMP/got" "$RD_TMP/new" || fail "bb4k: the block before the bad sector"
cmp -i 4096:4096 -n 4096 "$RD_TMP/got" "$RD_TMP/old" || fail "bb4k: the block of the bad sector"

# Writeback mode: the fault layer is above the cache, so a failed write
# leaves nothing in it.
rd_configure bbwb size=16M cache_mode=writeback power=1
devwb=$RD_DEV
printf '%s\n' "+0-7 rw=write" >"$RD_CONFIGFS/bbwb/badblocks" || fail "badblocks on bbwb"
io_errno dd if="$RD_TMP/new" of="$devwb" bs=4096 count=1 oflag=direct >/dev/null
assert_eq "$(sysfs_stat "${devwb#/dev/}" dirty_bytes)" 0 "dirty_bytes after a failed write"

# The list belongs to the configuration: it stays over a power cycle.
bb_add "+40-47 rw=read"
rd_set bb power=0 || fail "power off"
rd_set bb power=1 || fail "power on"
dev=$(rd_dev bb)
io_errno dd if="$dev" of=/dev/null bs=4096 skip=5 count=1 iflag=direct >/dev/null
echo ok
