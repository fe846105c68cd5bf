#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bench-perf's pieces: memcpy-bw measures and refuses bad options, perf-report.py divides same-boot medians, pairs repeats, bounds their median and flags missing figures
. "${0%/*}/../lib/common.sh"
require_cmd python3

memcpy_bw=$(cd "$RD_BIN" && pwd)/memcpy-bw
[ -x "$memcpy_bw" ] || fail "$memcpy_bw is missing (make userspace-asan)"

line=$("$memcpy_bw" --bs 4k --total 8M --runs 3) || fail "memcpy-bw failed"
echo "memcpy-bw: $line"
[[ $line =~ ^bs=4096\ MiB/s=[1-9][0-9]*$ ]] || fail "memcpy-bw printed '$line'"
# expect_status WANT CMD...: CMD exits with WANT
expect_status() {
	local want=$1 status=0
	shift
	"$@" >/dev/null 2>"$RD_TMP/err" || status=$?
	echo "$* -> $status: $(cat "$RD_TMP/err")"
	assert_eq "$status" "$want" "exit status of $*"
}

for bad in "--bs 0" "--bs 3M --total 8M" "--runs 0" "--runs 1000" "--bs x" "extra"; do
	# shellcheck disable=SC2086 # the options are meant to split
	expect_status 2 "$memcpy_bw" $bad
done

# A boot's figures: ramdisk twice brd's 4k random-read IOPS in every
# repeat, the 1 MiB figures in KiB/s against memcpy's MiB/s, and no
# null_blk figures at all.
out=$RD_TMP/2026-01-01-perf-test
mkdir "$out"
{
	for rep in 1 2 3; do
		printf '%s\tramdisk\trandread-4k-qd1-psync\t%s\tIOPS\n' $rep $((2000 + rep))
		printf '%s\tbrd\trandread-4k-qd1-psync\t%s\tIOPS\n' $rep $((1000 + rep))
		printf '%s\tramdisk\tseq-read-1m\t%s\tKiB/s\n' $rep $((rep * 1024 * 1000))
		printf '%s\tmemcpy\tmemcpy-1m\t%s\tMiB/s\n' $rep 4000
		printf '%s\tramdisk\tindex-bytes-per-gib\t%s\tB\n' $rep 100
		printf '%s\tbrd\tindex-bytes-per-gib\t%s\tB\n' $rep 200
	done
} >"$out/perf.tsv"
status=0
python3 "$RD_TOP/scripts/bench/perf-report.py" "$out" >"$RD_TMP/report" || status=$?
cat "$RD_TMP/report"
assert_eq "$status" 1 "exit status with null_blk's figures missing"
cmp -s "$RD_TMP/report" "$out/perf.md" || fail "printed report differs from perf.md"
grep -q '^| 4k randread QD1 psync vs brd | 2002 | 1002 | 2.00x | 2.00x | 3/3 | ≥1.15 | yes |$' \
	"$RD_TMP/report" || fail "the 4k ratio is not the ratio of the medians"
grep -q '^| 1 MiB seq read vs memcpy | 2000 | 4000 | 0.50x | 0.50x | 0/3 | ≥0.8 | no |$' \
	"$RD_TMP/report" || fail "KiB/s and MiB/s were not put in one unit"
grep -q '^| index bytes per GiB vs brd (lower is better) | 100 | 200 | 0.50x | - | - | ≤1.0 | yes |$' \
	"$RD_TMP/report" || fail "lower-is-better ratio"
grep -q '^| 4k randread QD1 vs null_blk (no data) | | | missing |' "$RD_TMP/report" ||
	fail "a missing figure is not reported as missing"

# Nine repeats, listed out of order, where the host slowed both drivers
# alike in some: within each repeat ramdisk/brd is one of 0.90, 0.95,
# 1.00, 1.02, 1.05, 1.10, 1.20, 1.30, 1.40. Their median is 1.05, the
# sign test's 95% interval for it runs from the 2nd to the 8th of them,
# and ramdisk led in six. The ratio of the two medians is another figure.
out9=$RD_TMP/2026-01-02-perf-test
mkdir "$out9"
while read -r rep ours theirs; do
	printf '%s\tramdisk\trandwrite-4k-qd1-psync\t%s\tIOPS\n' "$rep" "$ours"
	printf '%s\tbrd\trandwrite-4k-qd1-psync\t%s\tIOPS\n' "$rep" "$theirs"
done >"$out9/perf.tsv" <<'REPEATS'
7 1200 1000
1 450 500
9 2800 2000
3 3000 3000
2 1900 2000
5 1050 1000
4 2040 2000
8 3900 3000
6 3300 3000
REPEATS
python3 "$RD_TOP/scripts/bench/perf-report.py" "$out9" >"$RD_TMP/report9" || true
grep '^| 4k randwrite QD1' "$RD_TMP/report9"
grep -q '^| 4k randwrite QD1 psync vs brd | 2040 | 2000 | 1.02x | 1.05x \[0.95, 1.30\] | 6/9 | ≥1.15 | no |$' \
	"$RD_TMP/report9" || fail "repeats were not paired, or the interval is wrong"
expect_status 1 python3 "$RD_TOP/scripts/bench/perf-report.py" "$RD_TMP/no-such-dir"
echo ok
