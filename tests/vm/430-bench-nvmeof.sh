#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a tiny bench nvmeof (1 round, 1 s per job, 32 MiB) runs end to end in the guest: the local device and NVMe/TCP on loopback both measured, a table with a ratio for every job, nothing left exported or connected
# KERNELS: first
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio nvme ip jq
[ -f "${RD_MODULE:-}" ] || fail "RD_MODULE is missing (make module)"
[ ! -d /sys/module/ramdisk ] || skip "ramdisk is already loaded"
modprobe nvmet-tcp 2>/dev/null || skip "this kernel has no nvmet-tcp module"

out=$RD_TMP/run
status=0
"$RD_TOP/scripts/bench/nvmeof-guest" --out "$out" --module "$RD_MODULE" --ctl "$RD_BIN/ramdiskctl" \
	--reps 1 --runtime 1 --size 32 --jobs "rand-4k-qd1 seq-1m" || status=$?
assert_eq "$status" 0 "exit status of nvmeof-guest"
cat "$out/report.md"
# one row for each fio job of the two files, each with both figures and a ratio
for job in randread-4k-qd1-psync randwrite-4k-qd1-psync seq-write-1m seq-read-1m; do
	grep -Eq "^\| $job \| (IOPS|MiB/s) \| [1-9][0-9]* \| [1-9][0-9]* \| [0-9]+\.[0-9]{2} \|$" "$out/report.md" ||
		fail "report.md has no full row for $job"
done
for t in local nvme-tcp; do
	for j in rand-4k-qd1 seq-1m; do
		[ -s "$out/$t-$j-1.json" ] || fail "no fio output $t-$j-1.json"
	done
done
# the guest half cleans up after itself
[ ! -d /sys/module/ramdisk ] || fail "the ramdisk module is still loaded"
[ -z "$(ls /sys/kernel/config/nvmet/subsystems 2>/dev/null)" ] || fail "a subsystem is left in nvmet"
[ -z "$(ls -A /sys/class/nvme 2>/dev/null)" ] || fail "an NVMe controller is left connected"
echo ok
