#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash on every built-in workload, on ext4, xfs, btrfs and f2fs (and xfs with -m reflink=0, ext4 with data=journal, on two workloads): at every flush epoch, the state that kept all of the epoch's writes and the one that kept none mount, keep every fsync's promise and pass the file system's checker
# KERNELS: named
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.ext4 mkfs.xfs e2fsck xfs_repair mkfs.btrfs btrfs mkfs.f2fs fsck.f2fs

# About fifteen minutes under TCG: make check-crash runs it (on the newest
# kernel); test 129 runs rdcrash's mechanics on every kernel in make check.
load_module nr_devices=0
rdcrash=$RD_BIN/rdcrash
rd_configure crash size=320M cache_mode=writeback power=1
dev=$RD_DEV
workloads=$("$rdcrash" --help | sed -n 's/^    \([a-z-]*\) .*/\1/p')
[ "$(wc -w <<<"$workloads")" -ge 8 ] || fail "rdcrash --help lists too few workloads: $workloads"
# holds FS WORKLOAD [OPTIONS]: no state of it fails
holds() {
	local fs=$1 w=$2 status=0
	shift 2
	"$rdcrash" run --fs "$fs" --workload "$w" --states 2 --seed 30 "$@" "$dev" \
		>"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
	cat "$RD_TMP/out"
	[ "$status" = 0 ] || fail "$w on $fs $*: status $status: $(tail -n 3 "$RD_TMP/err")"
	grep -q " 0 failed ($w, $fs, seed 30)" "$RD_TMP/out" || fail "$w on $fs: no summary"
}
for fs in ext4 xfs btrfs f2fs; do
	for w in $workloads; do
		holds "$fs" "$w"
	done
done
for w in rename-over punch-hole; do
	holds xfs "$w" --mkfs-options '-m reflink=0'
	holds ext4 "$w" --mount-options data=journal
done
echo "rdcrash workloads ok"
