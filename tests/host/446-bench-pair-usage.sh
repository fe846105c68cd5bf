#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/bench/run pair refuses, before booting anything, an unknown option, counts that are not whole numbers or that rdbench would refuse, a bad --icount and a missing --module; its guest half wants --out
. "${0%/*}/../lib/common.sh"

top=$(cd "${0%/*}/../.." && pwd -P)

pair=("$top/scripts/bench/run" pair)
expect_refusal 2 "unknown option '--fast'" "${pair[@]}" --fast
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${pair[@]}" --runs 0
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${pair[@]}" --runs 1001
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${pair[@]}" --runs 99999999999999999999
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${pair[@]}" --runs
expect_refusal 2 "--reps takes a whole number from 1" "${pair[@]}" --reps x
expect_refusal 2 "--size takes a whole number from 1" "${pair[@]}" --size 0
expect_refusal 2 "--icount takes a whole number from 0 to 10" "${pair[@]}" --icount 11
expect_refusal 2 "--module takes a file, not '$RD_TMP/none.ko'" "${pair[@]}" --module "$RD_TMP/none.ko"
# --runtime is nvmeof's and perf's, not pair's
expect_refusal 2 "unknown option '--runtime'" "${pair[@]}" --runtime 3
expect_refusal 2 "usage: scripts/bench/pair-guest" "$top/scripts/bench/pair-guest"
expect_refusal 2 "usage: scripts/bench/pair-guest" "$top/scripts/bench/pair-guest" --out "$RD_TMP" --runs 0
echo "every refusal came before a guest was booted"
