#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the static keys of the fault layers and of checkpoints, switched on and off hundreds of times while reads run on the other CPU: no oops, every read served, the data unchanged, and the tests' watch of the keys counts every switch
# KERNELS: last
# VMOPTS: --single-thread
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio jq taskset cmp dd

# Switching a key rewrites the code of rd_submit_bio while the other CPU runs
# it. The kernel's way of patching text holds; QEMU's thread per vCPU does
# not (Documentation/development.md), hence --single-thread; the race
# tests load the module with hold_keys instead, and prove with the watch
# (rd_keys_watch) that no key switched: here it must count every switch.
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs, one for the reads and one for the switching"

rd_keys_watch
[ "$RD_KEYS_TEXT_PATCHED" = 1 ] ||
	skip "this kernel has no jump labels (CONFIG_JUMP_LABEL): switching a key patches no code"
load_module nr_devices=0
rd_configure keys size=16M power=1
dev=$RD_DEV
rd=${dev#/dev/}
cfg=$RD_CONFIGFS/keys

head -c 4M /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of="$dev" bs=1M oflag=direct status=none

# Reads of the first 4 MiB on CPU 1 until told to stop. The rules below
# never touch them: a discard rule, and bad sectors at 8 MiB; a checkpoint
# changes no data.
taskset -c 1 fio --name=reads --filename="$dev" --direct=1 --rw=randread --bs=4k \
	--size=4M --ioengine=psync --time_based --runtime=3600 \
	--output-format=json --output="$RD_TMP/fio.json" &
fio_pid=$!
on_exit "kill $fio_pid; wait $fio_pid"

# reads: the reads the device has served (its own count: iostats is off)
reads() { sysfs_stat "$rd" reads | cut -d' ' -f1; }
# Wait until the reads are under way, so the switching meets them.
start=$(reads)
for ((i = 0; i < 600; i++)); do
	[ "$(reads)" -gt $((start + 100)) ] && break
	kill -0 "$fio_pid" 2>/dev/null || fail "fio ended early: $(tail -n 3 "$RD_TMP/fio.json")"
	sleep 0.1
done
[ "$(reads)" -gt $((start + 100)) ] || fail "fio's reads did not start in 60 s"

# 80 rounds, 480 switches: the oops this guards against came in every run
# of 200 on a thread per vCPU; fewer keep make check within its hour.
switches=80
before=$(reads)
for ((i = 0; i < switches; i++)); do
	taskset -c 0 sh -c "
		echo '+discard every=1000' >'$cfg/fault_schedule' &&
		echo clear >'$cfg/fault_schedule' &&
		echo '+16384-16391' >'$cfg/badblocks' &&
		echo '-16384-16391' >'$cfg/badblocks' &&
		echo +k >'$cfg/checkpoints' &&
		echo -k >'$cfg/checkpoints'" ||
		fail "switch $i: an attribute refused its line"
done
after=$(reads)

# Interrupted, fio exits with 128 and puts a line before its JSON report.
kill -INT "$fio_pid"
wait "$fio_pid" || true
assert_eq "$(sed -n '/^{/,$p' "$RD_TMP/fio.json" | jq '.jobs[0].error')" 0 "fio's error"
[ "$after" -gt $((before + switches)) ] ||
	fail "only $((after - before)) reads ran during $switches rounds of switching"
assert_eq "$(sysfs_stat "$rd" fault_errors)" 0 "fault_errors"
cmp "$dev" "$RD_TMP/data" -n 4194304 || fail "the data changed under the switching"
# Each round switched each key on and off, and nothing else did: the
# watch that tells the race tests no key switched sees every switch.
seen=$(rd_keys_switches)
while read -r key n; do
	assert_eq "$n" $((2 * switches)) "switches of $key seen by rd_keys_watch"
done <<<"$seen"
echo "$switches rounds (6 key switches each), $((after - before)) reads during them"
