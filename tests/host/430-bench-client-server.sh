#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/bench/clients drives two fio servers over loopback and one report compares them
. "${0%/*}/../lib/common.sh"
require_cmd fio python3

# Two servers on this machine stand for two test machines.
base=$((20000 + $$ % 20000))
for n in 1 2; do
	port=$((base + n))
	fio --server="ip:127.0.0.1,$port" >"$RD_TMP/server$n.log" 2>&1 &
	on_exit "kill $!"
done
for n in 1 2; do
	for _ in $(seq 50); do
		fio_up=0
		(echo >"/dev/tcp/127.0.0.1/$((base + n))") 2>/dev/null && { fio_up=1; break; }
		sleep 0.1
	done
	[ "$fio_up" = 1 ] || fail "fio server $n did not start: $(cat "$RD_TMP/server$n.log")"
done
mkdir "$RD_TMP/m1" "$RD_TMP/m2"

out=$RD_TMP/run
"$RD_TOP/scripts/bench/clients" --out "$out" --reps 3 --size 8M --runtime 1 --direct 0 \
	--jobs "rand-4k-qd1:randread-4k-qd1-psync" \
	"first=ip:127.0.0.1,$((base + 1)):$RD_TMP/m1/target.img" \
	"second=ip:127.0.0.1,$((base + 2)):$RD_TMP/m2/target.img" ||
	fail "clients failed: $(cat "$out"/raw/*/*.failed 2>/dev/null | tail -n 3)"
# Each server wrote its own file: the targets went where they were sent.
for n in 1 2; do
	[ -s "$RD_TMP/m$n/target.img" ] || fail "server $n did not write its target"
done

python3 "$RD_TOP/scripts/bench/report.py" --no-plots --quiet "$out" || fail "report failed"
python3 - "$out/results.json" <<'PY' || fail "merged results are wrong"
import json, sys
res = json.load(open(sys.argv[1]))
ms = {(m["target"], m["job"], m["metric"]): m for m in res["measurements"]}
assert res["targets"] == ["first", "second"], res["targets"]
for t in ("first", "second"):
    m = ms[(t, "randread-4k-qd1-psync", "read_iops")]
    assert len(m["values"]) == 3 and m["median"] > 0, m
PY
# the ratio may carry the mark of repeats that spread more than 10%
grep -qE '^\| read_iops \(IOPS\) \| .* \| .*x\)( †)? \|$' "$out/report.md" ||
	fail "no ratio to the first server in report.md"
