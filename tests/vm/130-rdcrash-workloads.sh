#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash on every built-in workload, on ext4 and on xfs: at every flush epoch, the state that kept all of the epoch's writes and the one that kept none mount, keep every fsync's promise and pass the file system's checker
# KERNELS: named
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 mkfs.xfs e2fsck xfs_repair

# About five minutes under TCG: make check-crash runs it (on the newest
# kernel); test 129 runs rdcrash's mechanics on every kernel in make check.
load_module nr_devices=0
rdcrash=$RD_BIN/rdcrash
rd_configure crash size=320M cache_mode=writeback power=1
dev=$RD_DEV
workloads=$("$rdcrash" --help | sed -n 's/^    \([a-z-]*\) .*/\1/p')
[ "$(wc -w <<<"$workloads")" -ge 8 ] || fail "rdcrash --help lists too few workloads: $workloads"
for fs in ext4 xfs; do
	for w in $workloads; do
		status=0
		"$rdcrash" run --fs "$fs" --workload "$w" --states 2 --seed 30 "$dev" \
			>"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
		cat "$RD_TMP/out"
		[ "$status" = 0 ] || fail "$w on $fs: status $status: $(tail -n 3 "$RD_TMP/err")"
		grep -q " 0 failed ($w, $fs, seed 30)" "$RD_TMP/out" || fail "$w on $fs: no summary"
	done
done
echo "rdcrash workloads ok"
