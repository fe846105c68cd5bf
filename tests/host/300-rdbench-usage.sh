#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdbench help, option and size parsing edge cases: exit status 2 and one line naming the problem
. "${0%/*}/../lib/common.sh"

rdbench=$(cd "$RD_BIN" && pwd)/rdbench
[ -x "$rdbench" ] || fail "$rdbench is missing (make userspace-asan)"
dir=$RD_TMP/target
mkdir "$dir"

# A usage error: one line on stderr naming rdbench and PATTERN, no stdout,
# and nothing created in the target directory.
expect_usage_error() {
	local pattern=$1
	shift
	run_cmd 2 "$rdbench" "$@"
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines of rdbench $*"
	case $err in
	rdbench:*) ;;
	*) fail "error does not start with 'rdbench:': $err" ;;
	esac
	grep -q -- "$pattern" <<<"$err" || fail "rdbench $*: error lacks '$pattern': $err"
	assert_eq "$out" "" "stdout of failing rdbench $*"
	assert_eq "$(ls -A "$dir")" "" "files left in the target by rdbench $*"
}

run_cmd 2 "$rdbench"
run_cmd 0 "$rdbench" --help
grep -q 'rdbench meta' <<<"$out" || fail "--help lacks the meta synopsis"
grep -q 'CLOCK_MONOTONIC' <<<"$out" || fail "--help does not state the timer"
grep -Eq 'one read costs [0-9]+ ns' <<<"$out" || fail "--help does not state the timer cost"
for cmd in meta churn smallwrite bw; do
	run_cmd 0 "$rdbench" "$cmd" --help
	grep -q "rdbench $cmd" <<<"$out" || fail "$cmd --help lacks its synopsis"
	grep -q -- '--runs' <<<"$out" || fail "$cmd --help lacks the common options"
done

expect_usage_error "unknown command" frobnicate "$dir"
expect_usage_error "no target" meta
expect_usage_error "unknown option --bogus" meta --bogus "$dir"
expect_usage_error "needs a value" meta "$dir" --files

# sizes: suffixes, fractions, overflow, empty list items, limits
expect_usage_error "not a size" meta --sizes 4x "$dir"
expect_usage_error "not a size" meta --sizes 1.1k "$dir"
expect_usage_error "not a size" meta --sizes -1 "$dir"
expect_usage_error "not a size" meta --sizes 99999999999999999999999 "$dir"
expect_usage_error "not a comma-separated list" meta --sizes 4k,,1k "$dir"
expect_usage_error "not a comma-separated list" meta --sizes 4k, "$dir"
expect_usage_error "not a comma-separated list" meta --sizes "" "$dir"
expect_usage_error "at most 64M" meta --sizes 0k,128M "$dir"
expect_usage_error "at most 16 sizes" meta --sizes "$(printf '1k,%.0s' {1..16})1k" "$dir"

# counts
expect_usage_error "not a whole number" meta --files 0 "$dir"
expect_usage_error "not a whole number" meta --files -5 "$dir"
expect_usage_error "not a whole number" meta --files 1x "$dir"
expect_usage_error "not a whole number" meta --files " 5" "$dir"
expect_usage_error "not a whole number" meta --files 99999999999999999999 "$dir"
expect_usage_error "not a whole number" meta --threads 0 "$dir"
expect_usage_error "not a whole number" meta --per-dir 0 "$dir"
expect_usage_error "not a whole number" meta --runs 0 "$dir"
expect_usage_error "not a number of seconds" meta --min-time x "$dir"
expect_usage_error "not a number of seconds" meta --min-time -1 "$dir"
expect_usage_error "not a number of seconds" meta --min-time nan "$dir"

# output and labels
expect_usage_error "exclude each other" meta --json --csv "$dir"
expect_usage_error "no target follows" meta "$dir" --label last
expect_usage_error "no target after" meta --label a --label b "$dir"
expect_usage_error "empty label" meta --label "" "$dir"
expect_usage_error "empty label" meta "$dir="
expect_usage_error "empty path" meta "=label"

# churn, smallwrite, bw
expect_usage_error "--preset" churn "$dir"
expect_usage_error "unknown preset" churn --preset nope "$dir"
expect_usage_error "at most 1G" churn --preset queue --size 2G "$dir"
expect_usage_error "whole number of records" smallwrite --total 100 --record 32 "$dir"
expect_usage_error "whole number of records" smallwrite --total 0 "$dir"
expect_usage_error "from 1 byte" smallwrite --record 0 "$dir"
expect_usage_error "not a whole number" smallwrite --batch 0 "$dir"
expect_usage_error "not a whole number" smallwrite --batch 100000 "$dir"
expect_usage_error "from 1 byte to 64M" bw --bs 0 "$dir"
expect_usage_error "from 1 byte to 64M" bw --bs 4k,1G "$dir"
expect_usage_error "must not be 0" bw --size 0 "$dir"
expect_usage_error "multiple of 4k" bw --direct --bs 512 "$dir"
expect_usage_error "smaller than --bs" bw --size 4k --bs 1m --runs 1 "$dir"
echo "all usage errors refused with one line"

# Targets and labels in order: "--" ends the options, DIR=LABEL splits at
# the last "=" unless the whole name exists.
work=$RD_TMP/labels
mkdir -p "$work/x=y"
cd "$work"
run_cmd 0 "$rdbench" meta --sizes 0k --files 3 --runs 1 --quiet --force --json \
	x=y x=y=split --label named x=y -- --dashed
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
got = [(r["target"], r["path"]) for r in rows]
want = [("x=y", "x=y"), ("split", "x=y"), ("named", "x=y"), ("--dashed", "--dashed")]
assert got == want, got
' "$RD_TMP/out" || fail "targets and labels: $out"
assert_eq "$(ls -A "$work")" "x=y" "the label test directory afterwards"
assert_eq "$(ls -A "$work/x=y")" "" "the x=y directory afterwards"
echo "targets, labels and -- parsed in order"

# rdbench median: the sign test's interval, which perf-report.py takes
# from it. Nine ratios out of order: median 1.05, the interval from the
# 2nd to the 8th smallest; under six numbers there is no interval.
got=$(printf '%s\n' 1.40 0.90 1.30 0.95 1.20 1.00 1.10 1.02 1.05 | "$rdbench" median)
echo "rdbench median of nine ratios: $got"
assert_eq "$got" "1.05 0.94999999999999996 1.3" "median and interval of nine ratios"
assert_eq "$(echo 1 2 3 4 5 | "$rdbench" median)" "3 - -" "median of five numbers"
expect_refusal 2 "no numbers on stdin" "$rdbench" median
expect_refusal 2 "takes no arguments" "$rdbench" median extra
# shellcheck disable=SC2016 # expanded by the inner shell
expect_refusal 2 "'1,5' is not a number" bash -c 'echo 1,5 | "$0" median' "$rdbench"
