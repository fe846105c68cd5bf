#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the nullbio bench module builds with W=1 and no warning on every kernel of KVERS; scripts/bench/run nullbio refuses bad counts and unknown options before building anything
. "${0%/*}/../lib/common.sh"

run=("$RD_TOP/scripts/bench/run" nullbio)

expect_refusal 2 "unknown option '--fast'" "${run[@]}" --fast
expect_refusal 2 "--reps takes a whole number from 1" "${run[@]}" --reps 0
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${run[@]}" --runs 1001
expect_refusal 2 "--runs takes a whole number from 1 to 1000" "${run[@]}" --runs x
expect_refusal 2 "--span takes a whole number from 1 to 128" "${run[@]}" --span 0
expect_refusal 2 "--span takes a whole number from 1 to 128" "${run[@]}" --span 129

built=0
for k in ${KVERS:-6.1 6.12 7}; do
	if ! kver=$("$RD_TOP/scripts/kernel" resolve "$k" 2>/dev/null); then
		echo "no headers for $k: not built"
		continue
	fi
	"${run[@]}" --kernels "$kver" --build-only || fail "nullbio does not build cleanly against $kver"
	[ -f "$RD_TOP/build/nullbio/$kver/nullbio.ko" ] || fail "no nullbio.ko for $kver"
	echo "built for $kver"
	built=$((built + 1))
done
[ "$built" -gt 0 ] || skip "no kernel headers installed (make deps)"
