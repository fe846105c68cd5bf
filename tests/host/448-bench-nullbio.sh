#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the nullbio bench module builds with W=1 and no warning on every kernel of KVERS; its run script refuses bad counts and unknown options before building anything
. "${0%/*}/../lib/common.sh"

run=$RD_TOP/scripts/bench/nullbio/run

# WANT MESSAGE ARGS...: run exits with WANT and says MESSAGE on stderr
expect_refusal() {
	local want=$1 message=$2 status=0
	shift 2
	"$run" "$@" >/dev/null 2>"$RD_TMP/err" || status=$?
	echo "run $* -> $status: $(head -n 1 "$RD_TMP/err")"
	assert_eq "$status" "$want" "exit status of run $*"
	grep -qF -- "$message" "$RD_TMP/err" || fail "run $* did not say '$message': $(cat "$RD_TMP/err")"
}
expect_refusal 2 "unknown option '--fast'" --fast
expect_refusal 2 "--reps takes a number from 1" --reps 0
expect_refusal 2 "--runs takes a number from 1 to 1000" --runs 1001
expect_refusal 2 "--runs takes a number from 1 to 1000" --runs x
expect_refusal 2 "--span takes MiB from 1 to 128" --span 0
expect_refusal 2 "--span takes MiB from 1 to 128" --span 129

built=0
for k in ${KVERS:-6.1 6.12 7}; do
	if ! kver=$("$RD_TOP/scripts/kernel" resolve "$k" 2>/dev/null); then
		echo "no headers for $k: not built"
		continue
	fi
	"$run" --kernel "$kver" --build-only || fail "nullbio does not build cleanly against $kver"
	[ -f "$RD_TOP/build/nullbio/$kver/nullbio.ko" ] || fail "no nullbio.ko for $kver"
	echo "built for $kver"
	built=$((built + 1))
done
[ "$built" -gt 0 ] || skip "no kernel headers installed (make deps)"
