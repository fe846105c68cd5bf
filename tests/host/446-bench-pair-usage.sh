#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bench pair refuses, before booting anything, an unknown option and counts that are not whole numbers or that rdbench would refuse; its guest half wants --out
. "${0%/*}/../lib/common.sh"

top=$(cd "${0%/*}/../.." && pwd -P)

pair=$top/scripts/bench/pair
expect_refusal 2 "unknown option '--fast'" "$pair" --fast
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "$pair" --runs 0
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "$pair" --runs 1001
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "$pair" --runs 99999999999999999999
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "$pair" --runs
expect_refusal 2 "--reps takes a whole number from 1" "$pair" --reps x
expect_refusal 2 "--size takes a whole number from 1" "$pair" --size 0
expect_refusal 2 "usage: scripts/bench/pair-guest" "$top/scripts/bench/pair-guest"
expect_refusal 2 "usage: scripts/bench/pair-guest" "$top/scripts/bench/pair-guest" --out "$RD_TMP" --runs 0
echo "every refusal came before a guest was booted"
