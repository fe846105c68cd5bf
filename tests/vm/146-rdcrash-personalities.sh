#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash --personality: over lying-flush, ext4 and xfs fail in crash states of create-fsync (the verdicts say what: a file's promise, the mount or the checker); over plp, ext4 mounted nobarrier (no flush, no FUA at all) holds in every state, where the same workload and options fail on an unordered device; the personality is set before anything is written, and other commands follow the device's
# KERNELS: last
# rdcrash's modelling does not depend on the kernel; what it drives in the
# module (power_cut_personality, the log's ignored flag) is tested on every
# kernel by test 309.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 e2fsck mkfs.xfs xfs_repair jq
load_module nr_devices=0
rdcrash=$RD_BIN/rdcrash
rd_configure crash size=320M cache_mode=writeback power=1
dev=$RD_DEV

# failures: each failed state's reason, counted
failures() {
	jq -r '.states[] | select(.verdict == "failed") | .detail' "$RD_TMP/out" |
		sed 's/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn
}

echo "bad input: refused before the device is touched"
status=0
"$rdcrash" run --fs ext4 --workload create-fsync --personality flaky "$dev" 2>"$RD_TMP/err" ||
	status=$?
assert_eq "$status" 2 "exit status of --personality flaky"
grep -q "personality 'flaky' is not unordered, plp or lying-flush" "$RD_TMP/err" ||
	fail "--personality flaky: $(cat "$RD_TMP/err")"
status=0
"$rdcrash" check --fs ext4 --check true --personality plp "$dev" 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 2 "exit status of check --personality"
assert_eq "$(cat "$RD_CONFIGFS/crash/power_cut_personality")" unordered "the personality after refusals"

for fs in ext4 xfs; do
	echo "$fs over lying-flush: states fail"
	rdcrash_expect 3 "$dev" --fs "$fs" --workload create-fsync --personality lying-flush --states 3 \
		--seed 41 --json
	assert_eq "$(cat "$RD_CONFIGFS/crash/power_cut_personality")" lying-flush \
		"the device's personality after the run"
	# what failed: a file's promise (missing, or not its fsync'd data), or
	# the mount or the checker
	failures
done

echo "ext4 nobarrier: holds over plp, fails over unordered"
rdcrash_expect 0 "$dev" --fs ext4 --mount-options nobarrier --workload create-fsync --personality plp \
	--states 6 --seed 42 --json
grep -q "has power-loss protection (plp): every completed write is durable" "$RD_TMP/err" ||
	fail "rdcrash did not say it modelled plp: $(cat "$RD_TMP/err")"
jq -e '[.states[] | select(.verdict == "ok")] | length >= 6' "$RD_TMP/out" >/dev/null ||
	fail "plp: too few states checked"
rdcrash_expect 3 "$dev" --fs ext4 --mount-options nobarrier --workload create-fsync \
	--personality unordered --states 12 --seed 42 --json
failures
rd_unconfigure crash
echo ok
