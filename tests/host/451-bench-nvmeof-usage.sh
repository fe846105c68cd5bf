#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/bench/run nvmeof refuses, before building or booting anything, an unknown option, a --reps that is not a whole number from 1 to 99 and a bad --runtime; its guest half wants --out, a module, a ramdiskctl and fio jobs that exist
. "${0%/*}/../lib/common.sh"

top=$(cd "${0%/*}/../.." && pwd -P)

nvmeof=("$top/scripts/bench/run" nvmeof)
guest=$top/scripts/bench/nvmeof-guest
expect_refusal 2 "unknown option '--fast'" "${nvmeof[@]}" --fast
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${nvmeof[@]}" --reps 0
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${nvmeof[@]}" --reps 100
expect_refusal 2 "--reps takes a whole number from 1 to 99" "${nvmeof[@]}" --reps
expect_refusal 2 "--runtime takes a whole number from 1 to 999" "${nvmeof[@]}" --runtime 0
expect_refusal 2 "--runtime takes a whole number from 1 to 999" "${nvmeof[@]}" --runtime 3s
expect_refusal 2 "usage: scripts/bench/nvmeof-guest" "$guest"
expect_refusal 2 "usage: scripts/bench/nvmeof-guest" "$guest" --out "$RD_TMP"
touch "$RD_TMP/ramdisk.ko"
expect_refusal 2 "usage: scripts/bench/nvmeof-guest" "$guest" --out "$RD_TMP" --module "$RD_TMP/ramdisk.ko"
expect_refusal 2 "usage: scripts/bench/nvmeof-guest" "$guest" --out "$RD_TMP" \
	--module "$RD_TMP/ramdisk.ko" --ctl /nonexistent
expect_refusal 2 "usage: scripts/bench/nvmeof-guest" "$guest" --out "$RD_TMP" \
	--module "$RD_TMP/ramdisk.ko" --ctl /bin/true --reps 0
expect_refusal 2 "nvmeof-guest: no fio-jobs/nosuch.fio" "$guest" --out "$RD_TMP" \
	--module "$RD_TMP/ramdisk.ko" --ctl /bin/true --jobs "seq-1m nosuch"
# The make target passes KVERS, REPS, RUNTIME and BUILD through.
got=$(make -s -n -C "$top" bench-nvmeof KVERS=6.12 REPS=2 RUNTIME=4 BUILD=/x)
grep -q "RD_BUILD='/x' .*scripts/bench/run nvmeof --kernels '6.12'" <<<"$got" || fail "make -n bench-nvmeof: $got"
grep -q -- "--reps 2 --runtime 4" <<<"$got" || fail "make -n bench-nvmeof: $got"
help=$(make -s -C "$top" help)
grep -q '^  make bench-nvmeof ' <<<"$help" || fail "make help lacks bench-nvmeof"
echo "every refusal came before a guest was booted"
