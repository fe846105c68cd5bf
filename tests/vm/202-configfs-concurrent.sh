#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: many configfs devices created, used and removed by parallel workers while fio verifies I/O on another device
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio cmp udevadm

cfg=$RD_CONFIGFS
load_module nr_devices=1 size=64M

fio --name=steady --filename=/dev/ramdisk0 --direct=1 --ioengine=psync \
	--rw=randwrite --bssplit=4k/50:64k/50 --numjobs=2 --size=16M --offset_increment=32M \
	--loops=2 --verify=crc32c --verify_fatal=1 --verify_state_save=0 --randrepeat=0 \
	--output="$RD_TMP/fio.out" &
fio_pid=$!
on_exit "kill $fio_pid"

head -c 256K /dev/urandom >"$RD_TMP/data"

# One worker: make, power, write, verify, power off, remove; N times.
worker() {
	local w=$1 i name idx
	for i in $(seq 1 8); do
		name=w$w-$i
		mkdir "$cfg/$name" || return 1
		echo $(((w + 1) * 4))M >"$cfg/$name/size" || return 1
		echo 1 >"$cfg/$name/power" || return 1
		idx=$(cat "$cfg/$name/index")
		[ "$(cat /sys/block/ramdisk"$idx"/ramdisk/name)" = "$name" ] || return 1
		dd if="$RD_TMP/data" of=/dev/ramdisk"$idx" bs=64K oflag=direct status=none || return 1
		cmp -n 262144 "$RD_TMP/data" /dev/ramdisk"$idx" || return 1
		[ "$(cat /sys/block/ramdisk"$idx"/ramdisk/allocated_pages)" = 64 ] || return 1
		# udev may still be probing the new disk: retry a busy power-off
		until echo 0 >"$cfg/$name/power" 2>/dev/null; do
			udevadm settle
		done
		rmdir "$cfg/$name" || return 1
	done
}

pids=()
for w in 1 2 3; do
	worker $w >"$RD_TMP/worker$w.log" 2>&1 &
	pids+=($!)
done
for w in 1 2 3; do
	wait "${pids[w - 1]}" || fail "worker $w failed: $(tail -n 3 "$RD_TMP/worker$w.log")"
done
status=0
wait $fio_pid || status=$?
assert_eq "$status" 0 "fio exit status ($(grep -m1 'err=' "$RD_TMP/fio.out"))"
grep -q 'err= 0' "$RD_TMP/fio.out" || fail "fio reports errors"

assert_eq "$(find "$cfg" -mindepth 1 -maxdepth 1 -type d | wc -l)" 0 "configfs directories left"
assert_eq "$(find /sys/block -maxdepth 1 -name 'ramdisk*' | wc -l)" 1 "block devices left"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" \
	"$(sysfs_stat ramdisk0 allocated_pages)" "module pages besides ramdisk0"
echo ok
