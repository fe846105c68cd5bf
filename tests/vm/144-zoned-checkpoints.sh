#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a zoned device's checkpoints hold its zones as a disk that loses power keeps them: with zones empty, partly written, full by writes and finished, explicitly open, closed and conventional with data at the checkpoint, writes, resets and finishes after it, a rollback brings back the report (open zones closed) and the data bit for bit, and writes go on at the pointers once a failed write and a report have told the kernel; a clone of it is zoned with its origin's geometry whatever its configuration said, reads the same report and data, takes writes at its pointers and leaves the origin as it was, and starts again from the checkpoint at power-on; the checkpoint cannot be dropped under the clone; a clone that cannot be zoned, a missing checkpoint, a rollback to none or of an open device are refused with the reason logged and nothing changed
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone blockdev cmp dd md5sum udevadm
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER's block layer cannot host a zoned bio-based device (131 tests the refusal)"
cfs=$RD_CONFIGFS

# --- 16 zones of 2 MiB (4096 sectors) taking 1.5 MiB each, the first two
# conventional; at most 4 open and 6 active; 512-byte blocks, so that a
# write pointer may stop inside a page a checkpoint shares
zs=4096
rd_configure zo size=32M zone_size=2M zone_capacity=1536K zone_nr_conv=2 \
	zone_max_open=4 zone_max_active=6 zoned=1 power=1
odev=$RD_DEV
onum=${odev#/dev/}

# put DEV ZONE SECTORS_INTO KIB: rd_write_at into a zone, failing the test on a refusal
put() {
	local e
	e=$(rd_write_at "$1" $(($2 * zs + $3)) "$4") || fail "write of $4 KiB at sector $3 of zone $2 of $1: $e"
}
# zcmd DEV CMD ZONE: zone_cmd with this test's zone size
zcmd() { zone_cmd "$1" "$zs" "$2" "$3"; }
# zones DEV: "COND WP" of the sequential zones 2 to 10 (zone_state)
zones() {
	local i
	for i in 2 3 4 5 6 7 8 9 10; do
		echo -n "$(zone_state "$1" "$zs" "$i") / "
	done
}
# rollback ITEM CHECKPOINT: udev reads a disk after each writer closes
# it, and a rollback wants it closed: retried while udev holds it
rollback() {
	local i
	for ((i = 0; i < 50; i++)); do
		printf '%s\n' "$2" >"$cfs/$1/rollback" 2>/dev/null && return 0
		udevadm settle
		sleep 0.1
	done
	fail "rollback of $1 to $2 refused 50 times"
}
sum() { md5sum <"$1" | cut -d' ' -f1; }

# --- zones in every state at checkpoint a: 2 empty, 3 partly written
# (implicitly open, its pointer inside a page), 4 full by its writes, 5
# finished, 6 explicitly open with nothing written, 7 explicitly open and
# written, 8 closed, 9 written and reset; data in conventional zones 0 and 1
put "$odev" 0 200 64
put "$odev" 1 1 4
put "$odev" 3 0 512
put "$odev" 3 1024 1
put "$odev" 4 0 1536
put "$odev" 5 0 256
zcmd "$odev" finish 5
zcmd "$odev" open 6
zcmd "$odev" open 7
put "$odev" 7 0 64
put "$odev" 8 0 128
zcmd "$odev" close 8
put "$odev" 9 0 64
zcmd "$odev" reset 9
at_a="1(em) 0 / 2(oi) 1026 / 14(fu) 4096 / 14(fu) 4096 / 3(oe) 0 / 3(oe) 128 / 4(cl) 256 / 1(em) 0 / 1(em) 0 / "
assert_eq "$(zones "$odev")" "$at_a" "zones before checkpoint a"
assert_eq "$(sysfs_stat "$odev" zone_conditions)" "8 1 2 1 2" "zone_conditions before checkpoint a"
printf '+a\n' >"$cfs/zo/checkpoints" || fail "a zoned device refused checkpoint a"
grep -q '^a pages=' "$cfs/zo/checkpoints" || fail "checkpoints after +a: $(cat "$cfs/zo/checkpoints")"
assert_eq "$(zones "$odev")" "$at_a" "zones after checkpoint a: taking one changes none"
zone_report "$odev" >"$RD_TMP/report.a"
rd_image "$odev" "$RD_TMP/a.img"
closed_a="1(em) 0 / 4(cl) 1026 / 14(fu) 4096 / 14(fu) 4096 / 1(em) 0 / 4(cl) 128 / 4(cl) 256 / 1(em) 0 / 1(em) 0 / "

# --- writes, resets and finishes, then checkpoint b, then more
put "$odev" 3 1026 4
zcmd "$odev" reset 4
zcmd "$odev" reset 5
put "$odev" 5 0 64
zcmd "$odev" finish 8
put "$odev" 7 128 64
zcmd "$odev" close 6
put "$odev" 2 0 1
put "$odev" 0 200 64
put "$odev" 1 1 4
at_b="2(oi) 2 / 2(oi) 1034 / 1(em) 0 / 2(oi) 128 / 1(em) 0 / 3(oe) 256 / 14(fu) 4096 / 1(em) 0 / 1(em) 0 / "
assert_eq "$(zones "$odev")" "$at_b" "zones before checkpoint b"
printf '+b\n' >"$cfs/zo/checkpoints" || fail "checkpoint b refused"
zone_report "$odev" >"$RD_TMP/report.b"
rd_image "$odev" "$RD_TMP/b.img"
closed_b="4(cl) 2 / 4(cl) 1034 / 1(em) 0 / 4(cl) 128 / 1(em) 0 / 4(cl) 256 / 14(fu) 4096 / 1(em) 0 / 1(em) 0 / "
put "$odev" 3 1034 4
zcmd "$odev" reset 2
zcmd "$odev" finish 5
cmp -s "$odev" "$RD_TMP/a.img" && fail "the data did not change after checkpoint a"

# --- rollback to a: its report, open zones closed, and its data
rollback zo a
assert_eq "$(zones "$odev")" "$closed_a" "zones after rolling back to a"
blkzone report "$odev" >"$RD_TMP/report"
cmp "$RD_TMP/report" "$RD_TMP/report.a" || fail "the report after rolling back to a differs from a's"
cmp "$odev" "$RD_TMP/a.img" || fail "the data after rolling back to a differs from a's"
assert_eq "$(sysfs_stat "$odev" zone_conditions)" "9 0 0 3 2" "zone_conditions after rolling back to a"

# The kernel keeps its own copy of each write pointer (zone write plugs),
# as after a power cut: the next write where it believes zone 3's pointer
# is fails at the device, a report tells it, and writes go on at the
# device's pointer.
errors=$(sysfs_stat "$odev" zone_wp_errors)
rd_write_at "$odev" $((3 * zs + 1042)) 4 >/dev/null && fail "a write at zone 3's pointer of before the rollback was accepted"
assert_eq "$(sysfs_stat "$odev" zone_wp_errors)" $((errors + 1)) "zone_wp_errors after it"
blkzone report -o $((3 * zs)) -c 1 "$odev" >/dev/null
put "$odev" 3 1026 4
assert_eq "$(zone_state "$odev" "$zs" 3)" "2(oi) 1034" "zone 3 written at its pointer after the rollback"

# --- rollback to b: forward again
rollback zo b
assert_eq "$(zones "$odev")" "$closed_b" "zones after rolling back to b"
blkzone report "$odev" >"$RD_TMP/report"
cmp "$RD_TMP/report" "$RD_TMP/report.b" || fail "the report after rolling back to b differs from b's"
cmp "$odev" "$RD_TMP/b.img" || fail "the data after rolling back to b differs from b's"
assert_eq "$(sysfs_stat "$odev" zone_conditions)" "9 0 0 4 1" "zone_conditions after rolling back to b"

# --- bad rollbacks change nothing
rd_refused zo rollback nothing "No such file" "zo: there is no checkpoint nothing"
exec 3<"$odev"
rd_refused zo rollback a "Device or resource busy" "zo: rollback refused: the device is open"
exec 3<&-
assert_eq "$(zones "$odev")" "$closed_b" "zones after the refused rollbacks"
cmp "$odev" "$RD_TMP/b.img" || fail "the data after the refused rollbacks differs"

# --- a clone of a: zoned with its origin's geometry, whatever its own
# configuration said (other zone settings, zoned 0)
rd_configure zc zone_size=1M zone_capacity=512K zone_nr_conv=0 zone_max_open=1 \
	zone_max_active=1 "clone_of=$onum a" power=1
cdev=$RD_DEV
for kv in zoned=1 size=33554432 zone_size=2097152 zone_capacity=1572864 zone_nr_conv=2 \
	zone_max_open=4 zone_max_active=6; do
	assert_eq "$(cat "$cfs/zc/${kv%%=*}")" "${kv#*=}" "the clone's ${kv%%=*}"
done
q=/sys/block/${cdev#/dev/}/queue
assert_eq "$(cat "$q/zoned") $(cat "$q/chunk_sectors") $(cat "$q/nr_zones")" "host-managed $zs 16" \
	"the clone's queue zones"
assert_eq "$(cat "$q/max_open_zones") $(cat "$q/max_active_zones")" "4 6" "the clone's queue zone limits"
assert_eq "$(zones "$cdev")" "$closed_a" "the clone's zones"
blkzone report "$cdev" >"$RD_TMP/report"
cmp "$RD_TMP/report" "$RD_TMP/report.a" || fail "the clone's report differs from a's"
cmp "$cdev" "$RD_TMP/a.img" || fail "the clone's data differs from a's"
assert_eq "$(sysfs_stat "$cdev" zone_conditions)" "9 0 0 3 2" "the clone's zone_conditions"

# the clone takes writes at its pointers and refuses others; the origin stays
origin_sum=$(sum "$odev")
blkzone report "$odev" >"$RD_TMP/report.origin"
dd if=/dev/urandom of="$RD_TMP/mine" bs=1K count=4 status=none
dd if="$RD_TMP/mine" of="$cdev" bs=1K seek=$(((3 * zs + 1026) * 512)) \
	oflag=direct,seek_bytes status=none || fail "a write at the clone's zone 3 pointer"
cmp -n 4096 <(dd if="$cdev" bs=1K count=4 skip=$(((3 * zs + 1026) * 512)) iflag=direct,skip_bytes \
	status=none) "$RD_TMP/mine" || fail "the clone's write to zone 3 reads back different"
put "$cdev" 7 128 64
put "$cdev" 2 0 4
e=$(rd_write_at "$cdev" $((4 * zs)) 4) && fail "a write to the clone's full zone 4 was accepted"
assert_eq "$e" "Input/output error" "a write to the clone's full zone 4"
zcmd "$cdev" reset 8
assert_eq "$(zones "$cdev")" \
	"2(oi) 8 / 2(oi) 1034 / 14(fu) 4096 / 14(fu) 4096 / 1(em) 0 / 2(oi) 256 / 1(em) 0 / 1(em) 0 / 1(em) 0 / " \
	"the clone's zones after its writes"
assert_eq "$(sum "$odev")" "$origin_sum" "the origin's data after the clone's writes"
blkzone report "$odev" >"$RD_TMP/report"
cmp "$RD_TMP/report" "$RD_TMP/report.origin" || fail "the origin's report changed with the clone's writes"

# while the clone exists a cannot be dropped, and the clone takes no checkpoint
rd_refused zo checkpoints -a "Device or resource busy" "zo: checkpoint a is the start of 1 clone(s)"
rd_refused zc checkpoints +mine "Operation not supported" "zc: a clone takes no checkpoints"

# power-off and on: the clone starts again from a's zones and data
rd_power_off zc || fail "cannot power the clone off"
rd_set zc power=1 || fail "cannot power the clone on again"
cdev=$(rd_dev zc)
assert_eq "$(zones "$cdev")" "$closed_a" "the clone's zones after a power cycle"
cmp "$cdev" "$RD_TMP/a.img" || fail "the clone's data after a power cycle differs from a's"
rd_unconfigure zc
printf -- '-a\n' >"$cfs/zo/checkpoints" || fail "dropping a once its clone is gone"

# --- a clone that cannot be zoned, and a missing checkpoint: refused at
# power-on with its attributes as they were
rd_configure bad max_part=1 "clone_of=$onum b"
size=$(cat "$cfs/bad/size")
rd_refused bad power 1 "Invalid argument" "bad: a zoned disk has no partitions: max_part must be 0"
assert_eq "$(cat "$cfs/bad/power") $(cat "$cfs/bad/zoned") $(cat "$cfs/bad/size")" "0 0 $size" \
	"the clone that cannot be zoned after the refusal"
rd_configure bad max_part=0 "clone_of=$onum a"
rd_refused bad power 1 "No such file" "bad: $onum has no checkpoint a to clone"
assert_eq "$(cat "$cfs/bad/power") $(cat "$cfs/bad/zoned") $(cat "$cfs/bad/size")" "0 0 $size" \
	"the clone of a missing checkpoint after the refusal"
rd_unconfigure bad

# --- the other way: a clone of a device without zones has none, whatever
# its configuration said
rd_configure plain size=16M power=1
pnum=${RD_DEV#/dev/}
printf '+p\n' >"$cfs/plain/checkpoints" || fail "checkpoint p of a plain device"
rd_configure pc size=32M zone_size=2M zoned=1 "clone_of=$pnum p" power=1
assert_eq "$(cat "$cfs/pc/zoned") $(cat "/sys/block/${RD_DEV#/dev/}/queue/zoned")" "0 none" \
	"a clone of a device without zones"
assert_eq "$(blockdev --getsize64 "$RD_DEV")" $((16 << 20)) "that clone's size"
rd_unconfigure pc
rd_unconfigure plain
echo ok
