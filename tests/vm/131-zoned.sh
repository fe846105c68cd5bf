#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: zoned devices: the zones reach the queue and blkzone report; writes only at the write pointer and within the capacity, zeros past it; implicit opens and closes under zone_max_open, zone_max_active refusals; open, close, finish, reset and reset-all with their errors; a reset frees the zone's pages; write-zeroes and discard; conventional zones take any write; fio zonemode=zbd with verify; invalid settings refused unchanged; kernels without zone write plugging leave the attributes out of features and refuse them
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkzone blkdiscard cmp dd fio
load_module nr_devices=0
features=$(cat "$RD_CONFIGFS/features")
attrs="zone_capacity zone_max_active zone_max_open zone_nr_conv zone_size zoned"

# --- kernels whose block layer cannot host a zoned bio-based device
IFS=. read -r major minor _ <<<"$RD_KVER"
if [[ ,$features, != *,zoned,* ]]; then
	((major < 6 || (major == 6 && minor < 10))) ||
		fail "features lacks zoned on $RD_KVER, which has zone write plugging: $features"
	rd_configure old size=16M
	for a in $attrs; do
		[[ ,$features, != *,$a,* ]] || fail "features lists $a but not zoned"
		before=$(cat "$RD_CONFIGFS/old/$a")
		run_cmd 1 bash -c "echo 1 >$RD_CONFIGFS/old/$a"
		grep -q "Operation not supported" <<<"$err" || fail "$a on $RD_KVER: $err"
		kernel_log | grep -q "old: $a is not supported: this kernel's block layer has no zone write plugging" ||
			fail "no log line for $a"
		assert_eq "$(cat "$RD_CONFIGFS/old/$a")" "$before" "$a after the refusal"
	done
	run_cmd 1 "$RD_BIN/ramdiskctl" create --size 64M --zoned
	grep -q "no zoned attribute" <<<"$err" || fail "ramdiskctl create --zoned: $err"
	echo "$RD_KVER: no zoned devices; the attributes are refused"
	echo ok
	exit 0
fi
for a in $attrs; do
	[[ ,$features, == *,$a,* ]] || fail "features lacks $a: $features"
done

# --- invalid settings: refused with the reason in the log, the value kept
mkdir "$RD_CONFIGFS/bad"
on_exit "rmdir $RD_CONFIGFS/bad"
# refuse ATTR VALUE LOG_TEXT
refuse() {
	local old mark
	old=$(cat "$RD_CONFIGFS/bad/$1")
	mark="rdtest-131-$RANDOM$RANDOM"
	echo "$mark" >/dev/kmsg
	if err=$( (echo "$2" >"$RD_CONFIGFS/bad/$1") 2>&1); then
		fail "$1=$2 was accepted"
	fi
	grep -q "Invalid argument" <<<"$err" || fail "$1=$2: $err"
	assert_eq "$(cat "$RD_CONFIGFS/bad/$1")" "$old" "$1 after the refused $2"
	dmesg | sed -n "/$mark/,\$p" | grep -qF "ramdisk: bad: $3" ||
		fail "no 'ramdisk: bad: $3' in the log for $1=$2"
}
refuse zone_size 3M "zone_size 3145728 is not a power of two from 65536 to"
refuse zone_size 32K "zone_size 32768 is not a power of two from 65536 to"
refuse zone_size 8T "zone_size 8796093022208 is not a power of two from 65536 to"
refuse zone_capacity 65M "zone_capacity 68157440 is above zone_size 67108864"
refuse zone_capacity 1000 "zone_size 67108864 and zone_capacity 1000 must be whole logical blocks of 512 bytes"
echo 2 >"$RD_CONFIGFS/bad/zone_max_active"
refuse zone_max_open 3 "zone_max_open 3 is above zone_max_active 2"
echo 0 >"$RD_CONFIGFS/bad/zone_max_active"
echo 96M >"$RD_CONFIGFS/bad/size"
refuse zoned 1 "size 100663296 is not a whole number of zones of 67108864 bytes"
echo 128M >"$RD_CONFIGFS/bad/size"
echo 2 >"$RD_CONFIGFS/bad/zone_nr_conv"
refuse zoned 1 "zone_nr_conv 2 leaves none of the 2 zones sequential"
echo 0 >"$RD_CONFIGFS/bad/zone_nr_conv"
echo 3 >"$RD_CONFIGFS/bad/zone_max_open"
refuse zoned 1 "zone_max_open 3 and zone_max_active 0 must not exceed the 2 sequential zones"
echo 0 >"$RD_CONFIGFS/bad/zone_max_open"
echo 1 >"$RD_CONFIGFS/bad/zoned"
refuse max_part 1 "a zoned disk has no partitions: max_part must be 0"
refuse size 96M "size 100663296 is not a whole number of zones of 67108864 bytes"
refuse zone_size 1G "size 134217728 is not a whole number of zones of 1073741824 bytes"
echo 32G >"$RD_CONFIGFS/bad/size"
refuse zone_size 64K "524288 zones are more than the 262144 a device may have"
echo 128M >"$RD_CONFIGFS/bad/size"
echo 0 >"$RD_CONFIGFS/bad/zoned"

# --- 16 zones of 4 MiB (8192 sectors): 2 conventional, 14 sequential
# taking 3 MiB each; at most 2 open and 3 active
zs=8192
z2=$((2 * zs))
rd_configure zd size=64M zoned=1 zone_size=4M zone_capacity=3M zone_nr_conv=2 \
	zone_max_open=2 zone_max_active=3 power=1
dev=$RD_DEV
rd=${dev#/dev/}
q=/sys/block/$rd/queue
assert_eq "$(cat "$q/zoned") $(cat "$q/chunk_sectors") $(cat "$q/nr_zones")" "host-managed $zs 16" "queue zones"
assert_eq "$(cat "$q/max_open_zones") $(cat "$q/max_active_zones")" "2 3" "queue zone limits"

# zone IDX: "TYPE COND WP CAP" of zone IDX from blkzone report, the write
# pointer in sectors from the device's start (blkzone prints it from the
# zone's), the capacity in sectors
zone() {
	local line re='start: (0x[0-9a-f]+).* cap (0x[0-9a-f]+), wptr (0x[0-9a-f]+).*zcond: *([0-9]+\([a-z]+\)).*type: *([0-9]+\([A-Z_]+\))'
	line=$(blkzone report -o $(($1 * zs)) -c 1 "$dev")
	[[ $line =~ $re ]] || fail "blkzone report of zone $1: $line"
	echo "${BASH_REMATCH[5]} ${BASH_REMATCH[4]} $((BASH_REMATCH[1] + BASH_REMATCH[3])) $((BASH_REMATCH[2]))"
}
assert_eq "$(blkzone report "$dev" | wc -l)" 16 "zones reported"
assert_eq "$(zone 1 | cut -d' ' -f1-2)" "1(CONVENTIONAL) 0(nw)" "zone 1"
assert_eq "$(zone 2)" "2(SEQ_WRITE_REQUIRED) 1(em) $z2 6144" "zone 2 before any write"
assert_eq "$(sysfs_stat "$rd" zone_conditions)" "14 0 0 0 0" "zone_conditions of a new device"

# bwrite SECTOR KIB [FILE]: rd_write_at on this test's device
bwrite() {
	rd_write_at "$dev" "$@"
}
# refused SECTOR KIB ERRNO_TEXT WHAT
refused() {
	local e
	e=$(bwrite "$1" "$2") && fail "$4 was accepted"
	assert_eq "$e" "$3" "$4"
}

# --- writes at the write pointer, and nowhere else
head -c 3M /dev/urandom >"$RD_TMP/data"
bwrite $z2 1024 "$RD_TMP/data" || fail "first write at zone 2's write pointer"
assert_eq "$(zone 2)" "2(SEQ_WRITE_REQUIRED) 2(oi) $((z2 + 2048)) 6144" "zone 2 after 1 MiB"
refused $z2 4 "Input/output error" "a write at the zone start behind the write pointer"
refused $((z2 + 4096)) 4 "Input/output error" "a write past the write pointer"
# after a failed write the host reads the zone back before it writes
# there again, as from a disk: the block layer's zone write plug holds
# further writes to the zone until a report (or a reset) tells it where
# the write pointer is
assert_eq "$(zone 2 | cut -d' ' -f2-3)" "2(oi) $((z2 + 2048))" "zone 2 after the refused writes"
# The block layer's zone write plug refuses those two itself; a zone it
# holds no plug for yet, an empty one, passes a write anywhere on to the
# device, whose own rule refuses it.
refused $((7 * zs + 8)) 4 "Input/output error" "a write into the middle of empty zone 7"
assert_eq "$(sysfs_stat "$rd" zone_wp_errors)" 1 "zone_wp_errors"
assert_eq "$(zone 7 | cut -d' ' -f2-3)" "1(em) $((7 * zs))" "zone 7 after the refused write"
# reads past the write pointer give zeros
dd if="$dev" of="$RD_TMP/back" bs=1M skip=8 count=2 iflag=direct status=none
cmp -n 1048576 "$RD_TMP/back" "$RD_TMP/data" || fail "zone 2's first MiB read back differs"
cmp -n 1048576 -i 1048576:0 "$RD_TMP/back" /dev/zero || fail "zone 2 past its write pointer is not zeros"
# up to the capacity and no further: the zone is then full
dd if="$RD_TMP/data" of="$dev" bs=1M skip=1 seek=9 count=2 oflag=direct status=none ||
	fail "writing zone 2 to its capacity"
assert_eq "$(zone 2 | cut -d' ' -f2-3)" "14(fu) $((z2 + zs))" "zone 2 at its capacity"
refused $((z2 + 6144)) 4 "Input/output error" "a write past the capacity"
cmp <(dd if="$dev" bs=1M skip=8 count=3 iflag=direct status=none) "$RD_TMP/data" ||
	fail "zone 2 read back differs"
# a write may not cross the capacity either
bwrite $((3 * zs)) 3068 || fail "writing zone 3 up to 4 KiB below its capacity"
refused $((3 * zs + 6136)) 8 "Input/output error" "a write that crosses the capacity"
blkzone reset -o $((3 * zs)) -c 1 "$dev" || fail "reset of zone 3"

# --- conventional zones take any write, anywhere
bwrite 4096 64 || fail "write in the middle of conventional zone 0"
bwrite 100 4 || fail "write at an odd place of conventional zone 0"
bwrite 1024 64 || fail "a second write behind the first"
# what the conventional writes hold, beside zone 2's 3 MiB
conv_pages=$(($(sysfs_stat "$rd" allocated_pages) - 768))

# --- implicit opens: at most 2 open, 3 active
for z in 3 4; do
	bwrite $((z * zs)) 4 || fail "write to zone $z"
done
assert_eq "$(sysfs_stat "$rd" zone_conditions)" "11 2 0 0 1" "two implicitly open"
bwrite $((5 * zs)) 4 || fail "write to zone 5, which closes zone 3 to open"
assert_eq "$(zone 3 | cut -d' ' -f2)" "4(cl)" "zone 3, opened longest ago"
assert_eq "$(sysfs_stat "$rd" zone_implicit_closes)" 1 "zone_implicit_closes"
refused $((6 * zs)) 4 "Value too large for defined data type" \
	"a fourth active zone (BLK_STS_ZONE_ACTIVE_RESOURCE)"
bwrite $((3 * zs + 8)) 4 || fail "write to closed zone 3, which closes zone 4"
assert_eq "$(zone 4 | cut -d' ' -f2) $(zone 3 | cut -d' ' -f2)" "4(cl) 2(oi)" "zones 4 and 3"

# --- explicit opens are never closed for another zone
blkzone open -o $((4 * zs)) -c 1 "$dev" || fail "explicit open of closed zone 4"
blkzone open -o $((5 * zs)) -c 1 "$dev" || fail "explicit open of zone 5, closed for zone 4"
assert_eq "$(sysfs_stat "$rd" zone_conditions)" "10 0 2 1 1" "zones 4 and 5 explicitly open, 3 closed"
refused $((3 * zs + 16)) 4 "Too many references: cannot splice" \
	"a write to closed zone 3 with both open zones explicit (BLK_STS_ZONE_OPEN_RESOURCE)"
assert_eq "$(sysfs_stat "$rd" zone_resource_errors)" 2 "zone_resource_errors"

# --- close, finish and their errors
blkzone close -o $((4 * zs)) -c 1 "$dev" || fail "close of open zone 4"
blkzone close -o $((4 * zs)) -c 1 "$dev" || fail "close of closed zone 4"
run_cmd 1 blkzone close -o $((7 * zs)) -c 1 "$dev"
grep -q "Input/output error" <<<"$err" || fail "close of empty zone 7: $err"
run_cmd 1 blkzone open -o $z2 -c 1 "$dev"
grep -q "Input/output error" <<<"$err" || fail "open of full zone 2: $err"
run_cmd 1 blkzone reset -o 0 -c 1 "$dev"
blkzone finish -o $((4 * zs)) -c 1 "$dev" || fail "finish of closed zone 4"
assert_eq "$(zone 4 | cut -d' ' -f2-3)" "14(fu) $((5 * zs))" "zone 4 finished"
refused $((4 * zs + 8)) 4 "Input/output error" "a write to finished zone 4"
blkzone finish -o $((4 * zs)) -c 1 "$dev" || fail "finish of full zone 4"

# --- a reset frees the zone's pages and takes it back to empty
pages=$(sysfs_stat "$rd" allocated_pages)
blkzone reset -o $z2 -c 1 "$dev" || fail "reset of zone 2"
assert_eq "$(zone 2 | cut -d' ' -f2-3)" "1(em) $z2" "zone 2 after its reset"
assert_eq "$(sysfs_stat "$rd" allocated_pages)" $((pages - 768)) "pages after zone 2's reset"
cmp -n 3145728 <(dd if="$dev" bs=1M skip=8 count=3 iflag=direct status=none) /dev/zero ||
	fail "zone 2 after its reset is not zeros"
bwrite $z2 4 || fail "write at zone 2's start after its reset"

# --- write-zeroes is a write at the write pointer; discard frees below it
blkdiscard -z -o $(((z2 + 8) * 512)) -l 65536 "$dev" || fail "write-zeroes at zone 2's write pointer"
assert_eq "$(zone 2 | cut -d' ' -f3)" $((z2 + 136)) "zone 2 after write-zeroes"
run_cmd 1 blkdiscard -z -o $((z2 * 512)) -l 65536 "$dev"
blkdiscard -o $((z2 * 512)) -l 4096 "$dev" || fail "discard below zone 2's write pointer"
assert_eq "$(zone 2 | cut -d' ' -f3)" $((z2 + 136)) "zone 2's write pointer after a discard"
cmp -n 4096 <(dd if="$dev" bs=4K skip=$((z2 / 8)) count=1 iflag=direct status=none) /dev/zero ||
	fail "discarded sectors of zone 2 are not zeros"

# --- reset of the whole device: every sequential zone empty, its pages gone
blkzone reset "$dev" || fail "reset of every zone"
assert_eq "$(sysfs_stat "$rd" zone_conditions)" "14 0 0 0 0" "zone_conditions after resetting all"
assert_eq "$(sysfs_stat "$rd" allocated_pages)" "$conv_pages" "pages left, the conventional zones' own"

# --- a dropped write (a fault rule's drop) moves the write pointer past
# it, as on a disk that acknowledged the write and lost its data: its
# sectors read as zeros, and the next write at the pointer, which the
# block layer's zone write plug has moved too, succeeds. Write-zeroes
# (a discard rule's drop) the same.
drops=$(sysfs_stat "$rd" fault_drops)
echo "+write every=1 drop" >"$RD_CONFIGFS/zd/fault_schedule"
bwrite $z2 8 || fail "dropped writes at zone 2's write pointer"
echo clear >"$RD_CONFIGFS/zd/fault_schedule"
assert_eq "$(sysfs_stat "$rd" fault_drops)" $((drops + 8)) "fault_drops after 8 dropped writes of 1 KiB"
assert_eq "$(zone 2 | cut -d' ' -f2-3)" "2(oi) $((z2 + 16))" "zone 2 after a dropped write"
cmp -n 8192 <(dd if="$dev" bs=4K skip=$((z2 / 8)) count=2 iflag=direct status=none) /dev/zero ||
	fail "a dropped write's sectors are not zeros"
e=$(bwrite $((z2 + 16)) 4) || fail "the write after a dropped one, at the write pointer: $e"
echo "+discard every=1 drop" >"$RD_CONFIGFS/zd/fault_schedule"
blkdiscard -z -o $(((z2 + 24) * 512)) -l 4096 "$dev" || fail "a dropped write-zeroes"
echo clear >"$RD_CONFIGFS/zd/fault_schedule"
assert_eq "$(zone 2 | cut -d' ' -f3)" $((z2 + 32)) "zone 2 after a dropped write-zeroes"
e=$(bwrite $((z2 + 32)) 4) || fail "the write after a dropped write-zeroes: $e"
blkzone reset -o $z2 -c 1 "$dev" || fail "reset of zone 2 after the drops"

# --- a zoned device keeps a write log (test 145 replays one)
echo start >"$RD_CONFIGFS/zd/write_log" || fail "a zoned device refused write_log start"
assert_eq "$(cat "$RD_CONFIGFS/zd/write_log")" recording "write_log of a zoned device after start"
echo clear >"$RD_CONFIGFS/zd/write_log" || fail "clearing a zoned device's write log"

# --- fio's zoned mode with verify, over the sequential zones
wp_errors=$(sysfs_stat "$rd" zone_wp_errors)
TARGET=$dev SIZE=56M DIRECT=1 MAX_OPEN=2 run_cmd 0 fio --offset=8M --io_size=24M \
	--output-format=terse "$RD_TOP/fio-jobs/zoned-verify.fio"
assert_eq "$(sysfs_stat "$rd" zone_wp_errors)" "$wp_errors" "zone_wp_errors after fio"

# --- ramdiskctl makes one and shows its zones
expect_refusal 2 "the --zone-* options go with --zoned" \
	"$RD_BIN/ramdiskctl" create --size 64M --zone-size 4M
run_cmd 0 "$RD_BIN/ramdiskctl" create --name zc --size 32M --zoned --zone-size 8M \
	--zone-capacity 6M --zone-nr-conv 1 --zone-max-open 1 --zone-max-active 2
on_exit "rd_unconfigure zc"
zdev=$out
assert_eq "$(cat "/sys/block/${zdev#/dev/}/queue/nr_zones")" 4 "zones of ramdiskctl's device"
dd if=/dev/zero of="$zdev" bs=4K count=1 seek=2048 oflag=direct status=none ||
	fail "write to zone 1 of ramdiskctl's device"
run_cmd 0 "$RD_BIN/ramdiskctl" info zc
for want in "zones:          4 of 8388608 bytes (8.0M), 1 conventional" \
	"zone_capacity:  6291456 (6.0M)" "zone_limits:    1 open, 2 active (0: no limit)" \
	"zone_conditions: 2 empty, 1 implicitly open, 0 explicitly open, 0 closed, 0 full"; do
	grep -qxF "$want" <<<"$out" || fail "ramdiskctl info lacks '$want': $out"
done

echo ok
