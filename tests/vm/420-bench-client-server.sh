#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: fio client/server over loopback: serve a ramdisk and a brd device, drive both with clients, one report
# KERNELS: first
. "${0%/*}/../lib/common.sh"
require_cmd fio python3
[ -f "${RD_MODULE:-}" ] || fail "RD_MODULE is missing (make module)"
[ ! -d /sys/module/ramdisk ] || skip "ramdisk is already loaded"
[ ! -d /sys/module/brd ] || skip "brd is already loaded"
ip link set lo up 2>/dev/null || true

# Two servers in one guest stand for two test machines.
port=8765
for kind in ramdisk brd; do
	port=$((port + 1))
	"$RD_TOP/scripts/bench/serve" --target $kind --size 64 --module "$RD_MODULE" \
		--listen "ip:127.0.0.1,$port" >"$RD_TMP/$kind.log" 2>&1 &
	pid=$!
	on_exit "kill $pid; wait $pid"
	for _ in $(seq 100); do
		grep -q '^serving' "$RD_TMP/$kind.log" && break
		sleep 0.1
	done
	grep '^serving' "$RD_TMP/$kind.log" || fail "serve $kind: $(tail -n 3 "$RD_TMP/$kind.log")"
done
ramdisk_dev=$(sed -n 's/^serving ramdisk at \([^ ]*\) .*/\1/p' "$RD_TMP/ramdisk.log")
brd_dev=$(sed -n 's/^serving brd at \([^ ]*\) .*/\1/p' "$RD_TMP/brd.log")
# fio may need a moment after the line to accept connections.
for p in 8766 8767; do
	for _ in $(seq 50); do
		(echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break
		sleep 0.1
	done
done

out=$RD_TMP/run
"$RD_TOP/scripts/bench/clients" --out "$out" --reps 3 --size 32M --runtime 1 \
	--reference brd --jobs "rand-4k-qd1:randread-4k-qd1-psync seq-1m:seq-write-1m" \
	"ramdisk=ip:127.0.0.1,8766:$ramdisk_dev" "brd=ip:127.0.0.1,8767:$brd_dev" ||
	fail "clients failed: $(cat "$out"/raw/*/*.failed 2>/dev/null | tail -n 3)"
python3 "$RD_TOP/scripts/bench/report.py" --no-plots "$out" || fail "report failed"
python3 - "$out/results.json" <<'PY' || fail "merged results are wrong"
import json, sys
res = json.load(open(sys.argv[1]))
ms = {(m["target"], m["job"], m["metric"]): m for m in res["measurements"]}
for t in ("ramdisk", "brd"):
    for job, metric in (("randread-4k-qd1-psync", "read_iops"), ("seq-write-1m", "write_bw")):
        m = ms[(t, job, metric)]
        assert len(m["values"]) == 3 and m["median"] > 0, m
PY
