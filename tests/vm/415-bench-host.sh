#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make bench HOST=1 DISK=... runs on the running kernel: insmods the module built for it, passes the guard, measures the disk beside ramdisk and reports
# KERNELS: first
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio python3 losetup
# HOST=1 loads the module itself.
[ ! -d /sys/module/ramdisk ] || skip "ramdisk is already loaded"
[ -f "$RD_TOP/build/kernels/$(uname -r)/ramdisk.ko" ] ||
	fail "no module built for $(uname -r) where make bench HOST=1 looks"

# The test machine's spare disk: a loop device over a file.
modprobe loop 2>/dev/null || :
truncate -s 128M "$RD_TMP/disk.img"
disk=$(losetup --find --show "$RD_TMP/disk.img") || fail "losetup failed"
on_exit "losetup -d $disk"
out=$RD_TMP/out

# One short job on two targets: the host branch is under test, not the
# suite (test 400 runs that on every target).
status=0
"$RD_TOP/scripts/bench/run" bench --host --quick --disk "$disk" --out "$out" --reps 1 -- \
	--targets "ramdisk disk" --jobs "rand-4k-qd1:randread-4k-qd1-psync" --fs "" \
	>"$RD_TMP/log" 2>&1 || status=$?
cat "$RD_TMP/log"
assert_eq "$status" 0 "run bench --host exit status"
[ ! -d /sys/module/ramdisk ] || fail "run bench --host left the module loaded"
grep -qF "host $(hostname)" "$out/meta.json" || fail "meta.json does not say it ran on the host"
grep -qF "$(uname -r) (host)" "$out/meta.json" || fail "meta.json does not name the running kernel"
python3 - "$out/results.json" <<'PY' || fail "results.json lacks the host run's figures"
import json, sys
res = json.load(open(sys.argv[1]))
have = {m["target"] for m in res["measurements"]
        if m["job"] == "randread-4k-qd1-psync" and m["median"] and m["median"] > 0}
assert have == {"ramdisk", "disk"}, have
assert not res["failures"], res["failures"]
PY
grep -q "randread-4k-qd1-psync" "$out/report.md" || fail "report.md lacks the job's table"

echo "a disk with a file system on it is refused before anything runs"
mkfs.ext2 -q -F "$disk"
expect_fail "$RD_TOP/scripts/bench/run" bench --host --quick --disk "$disk" --out "$RD_TMP/out2"
[ ! -d /sys/module/ramdisk ] || fail "a refused run bench --host loaded the module"
[ ! -e "$RD_TMP/out2/raw" ] || fail "a refused run bench --host started measuring"
echo ok
