#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make stress in brief (10 s, one file-system power cut each): every workload runs, verifies and counts, so the stress script cannot rot
# KERNELS: first
. "${0%/*}/../lib/common.sh"
require_root

# Every worker does at least one round however short the run, and the
# file-system power cuts (about 25 s alone) outlast the rest: 10 s of the
# other workloads beside them is enough, and they then get the CPUs.
status=0
RD_STRESS_SECONDS=10 RD_POWER_CUTS=1 RD_SEED=${RD_SEED:-1130} \
	"$RD_TOP/tests/stress/stress.sh" >"$RD_TMP/stress.out" 2>&1 || status=$?
cat "$RD_TMP/stress.out"
[ "$status" = 0 ] || fail "tests/stress/stress.sh failed: $(grep FAIL "$RD_TMP/stress.out" | tail -n 1)"

# The summary counts real work of every kind.
summary=$(grep '^stress: devices' "$RD_TMP/stress.out") || fail "no summary line"
num() { sed -n "s/.*$1 \([0-9]*\).*/\1/p" <<<"$summary"; }
for what in "bytes verified" "cuts survived" "fuzz iterations" "discards" "mem_limit hits"; do
	[ "$(num "$what")" -gt 0 ] || fail "nothing counted for '$what': $summary"
done
assert_eq "$(num "reports found")" 0 "reports found"
grep -q '^ramdisk ' /proc/modules && fail "the stress script left the module loaded"
echo "$summary"
