#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/bench/run zoned refuses, before booting anything, an unknown option and a --reps that is not a whole number from 1 to 99; its guest half wants --out, a module and, if named, an append module that exists
. "${0%/*}/../lib/common.sh"

top=$(cd "${0%/*}/../.." && pwd -P)

zoned=("$top/scripts/bench/run" zoned)
expect_refusal 2 "unknown option '--fast'" "${zoned[@]}" --fast
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${zoned[@]}" --reps 0
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${zoned[@]}" --reps 100
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${zoned[@]}" --reps x
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${zoned[@]}" --reps
expect_refusal 2 "usage: scripts/bench/zoned-guest" "$top/scripts/bench/zoned-guest"
expect_refusal 2 "usage: scripts/bench/zoned-guest" "$top/scripts/bench/zoned-guest" --out "$RD_TMP"
expect_refusal 2 "usage: scripts/bench/zoned-guest" "$top/scripts/bench/zoned-guest" --out "$RD_TMP" \
	--module /nonexistent.ko
touch "$RD_TMP/ramdisk.ko"
expect_refusal 2 "usage: scripts/bench/zoned-guest" "$top/scripts/bench/zoned-guest" --out "$RD_TMP" \
	--module "$RD_TMP/ramdisk.ko" --append-module /nonexistent.ko
echo "every refusal came before a guest was booted"
