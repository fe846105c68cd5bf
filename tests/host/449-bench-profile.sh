#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/bench/run profile refuses bad options before booting anything, and its report sorts each driver's samples into copy (or inline), own code, lookup, RCU and the rest, and estimates the ratio of the times per I/O
. "${0%/*}/../lib/common.sh"

run=("$RD_TOP/scripts/bench/run" profile)
report=$RD_TOP/scripts/bench/profile/report.py

expect_refusal 2 "unknown option '--fast'" "${run[@]}" --fast
expect_refusal 2 "--op takes randread or randwrite" "${run[@]}" --op read
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${run[@]}" --runs 1001
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${run[@]}" --runs 0
expect_refusal 2 "--top takes a whole number from 1 to 999" "${run[@]}" --top x
# the count of a profile is --runs: it has no repeats
expect_refusal 2 "unknown option '--reps'" "${run[@]}" --reps 2

# perf report --sort dso,sym -t TAB, as the guest writes it
tab=$'\t'
cat >"$RD_TMP/ramdisk.report" <<REPORT
# Samples: 1K of event 'cpu-clock'
#
20.00%  ${tab}[kernel.kallsyms]   ${tab}[k] rd_copy_page_unrolled
 5.50%  ${tab}[kernel.kallsyms]   ${tab}[k] rd_pages_rw_bio
 1.50%  ${tab}[kernel.kallsyms]   ${tab}[k] rd_submit_bio
 1.25%  ${tab}[kernel.kallsyms]   ${tab}[k] __rcu_read_lock
 1.25%  ${tab}[kernel.kallsyms]   ${tab}[k] __rcu_read_unlock
 3.00%  ${tab}libc.so.6           ${tab}[.] __libc_pread
REPORT
cat >"$RD_TMP/brd.report" <<REPORT
18.00%  ${tab}[kernel.kallsyms]   ${tab}[k] memcpy_orig
 6.00%  ${tab}[kernel.kallsyms]   ${tab}[k] brd_submit_bio
 4.00%  ${tab}[kernel.kallsyms]   ${tab}[k] xas_load
 1.00%  ${tab}[kernel.kallsyms]   ${tab}[k] xas_start
 2.00%  ${tab}[kernel.kallsyms]   ${tab}[k] rd_not_brd
REPORT
python3 "$report" "$RD_TMP/ramdisk.report" "$RD_TMP/brd.report" 2 >"$RD_TMP/out" ||
	fail "report.py failed: $(cat "$RD_TMP/out")"
cat "$RD_TMP/out"
# NAME RAMDISK BRD: the group's line carries both shares
expect_group() {
	grep -qE "^$1 +$2% +$3%\$" "$RD_TMP/out" || fail "wrong shares for '$1': want $2% and $3%"
}
expect_group copy 20.00 18.00
expect_group "driver's own code" 7.00 6.00
expect_group "xarray lookup" 0.00 5.00
expect_group "RCU read side" 2.50 0.00
expect_group "rest of the I/O" 3.00 2.00
expect_group "the driver: all but the rest" 29.50 29.00
grep -qx "brd's time per I/O over ramdisk's, if the rest takes both as long: 1.500" "$RD_TMP/out" ||
	fail "no ratio of the times per I/O from the rest's shares (3.00 / 2.00)"
grep -qE '^ +20\.00% +rd_copy_page_unrolled +18\.00% +memcpy_orig$' "$RD_TMP/out" ||
	fail "the heaviest symbols are not listed side by side"
assert_eq "$(grep -cE '^ +[0-9.]+% +[a-z_]' "$RD_TMP/out")" 2 "symbol lines for --top 2"

# 6.12 inlines brd's memcpy() into brd_submit_bio(): no copy symbol at all
grep -v memcpy_orig "$RD_TMP/brd.report" >"$RD_TMP/brd-inline.report"
python3 "$report" "$RD_TMP/ramdisk.report" "$RD_TMP/brd-inline.report" 2 >"$RD_TMP/out" ||
	fail "report.py failed on an inlined copy: $(cat "$RD_TMP/out")"
grep -qE '^copy +20\.00% +inline$' "$RD_TMP/out" ||
	fail "an inlined copy shows as no copy: $(grep '^copy' "$RD_TMP/out")"
expect_group "the driver: all but the rest" 29.50 11.00

: >"$RD_TMP/empty.report"
status=0
python3 "$report" "$RD_TMP/empty.report" "$RD_TMP/brd.report" 2 >/dev/null 2>"$RD_TMP/err" || status=$?
[ "$status" != 0 ] || fail "an empty report was summed without complaint"
grep -q "no samples in ramdisk's report" "$RD_TMP/err" || fail "no clear error for an empty report: $(cat "$RD_TMP/err")"
