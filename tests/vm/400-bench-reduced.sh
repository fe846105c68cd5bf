#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a reduced make bench (1 s per job, every target, ext4 and tmpfs mounts) runs end to end and reports every figure
# KERNELS: first
. "${0%/*}/../lib/common.sh"
require_cmd fio python3 mkfs.ext4
[ -f "${RD_MODULE:-}" ] || fail "RD_MODULE is missing (make module)"
# The suite loads and removes the module itself.
[ ! -d /sys/module/ramdisk ] || skip "ramdisk is already loaded"

targets="ramdisk brd null_blk zram tmpfs"
# The real-disk target only when the guest has a spare virtio disk.
if [ -b /dev/vda ] && ! findmnt -n --source /dev/vda >/dev/null; then
	targets="$targets disk"
fi
jobs="fresh-write-1m rand-4k-qd1:randread-4k-qd1-psync rand-4k-qd16:randwrite-4k-qd16-io_uring seq-1m:seq-read-1m verify-crc32c"
works="fio-meta"
if [ -x "$RD_BIN/rdbench" ]; then
	works="$works rdbench-meta smallwrite"
fi
out=$RD_TMP/run
on_exit "rmmod brd; rmmod null_blk; rmmod zram"

status=0
"$RD_TOP/scripts/bench/suite" --out "$out" --targets "$targets" --jobs "$jobs" \
	--fs ext4 --fs-work "$works" --reps 1 --size 64 --runtime 1 --quick \
	--module "$RD_MODULE" --rdbench "$RD_BIN/rdbench" || status=$?
for f in "$out"/raw/*/*.failed; do
	[ -e "$f" ] || continue
	echo "--- ${f#"$out"/raw/}"
	tail -n 5 "$f"
done
assert_eq "$status" 0 "suite exit status"
[ ! -d /sys/module/ramdisk ] || fail "the suite left the module loaded"
[ ! -d /sys/kernel/config/nullb/bench ] || fail "the suite left a null_blk device"

python3 "$RD_TOP/scripts/bench/report.py" --no-plots "$out" >/dev/null ||
	fail "report generator failed"
python3 - "$out/results.json" "$targets" "$works" <<'PY' || fail "results.json misses figures"
import json, sys
res = json.load(open(sys.argv[1]))
targets = sys.argv[2].split()
have = {(m["target"], m["job"]) for m in res["measurements"] if m["values"]}
missing = []
for t in targets:
    jobs = ["fresh-write-1m", "randread-4k-qd1-psync", "randwrite-4k-qd16-io_uring", "seq-read-1m"]
    if t != "null_blk":
        jobs.append("verify-crc32c-64k")
    missing += ["%s/%s" % (t, j) for j in jobs if (t, j) not in have]
    mount = t if t == "tmpfs" else t + "-ext4"
    if t != "null_blk":
        missing += ["%s/%s" % (mount, j) for j in ("filecreate", "filestat", "filedelete")
                    if (mount, j) not in have]
        if "rdbench-meta" in sys.argv[3].split() and not any(m["target"] == mount and m["tool"] == "rdbench"
                                                            for m in res["measurements"]):
            missing.append(mount + "/rdbench")
for m in res["measurements"]:
    if m["median"] is not None and m["median"] <= 0 and m["better"] == "higher":
        missing.append("%s/%s/%s is %s" % (m["target"], m["job"], m["metric"], m["median"]))
assert not missing and not res["failures"], (missing, res["failures"])
print(len(res["measurements"]), "figures from", len(targets), "targets")
PY
grep -q '^### randread-4k-qd1-psync' "$out/report.md" || fail "report.md has no table"
