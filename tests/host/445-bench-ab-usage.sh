#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bench ab refuses, before booting anything, a missing build list, a bad round count, an unknown option, a missing module and one the guest could not see
. "${0%/*}/../lib/common.sh"

ab=$(cd "${0%/*}/../.." && pwd -P)/scripts/bench/ab
inside=$(cd "${0%/*}/../.." && pwd -P)/build/test-ab-module.ko
mkdir -p "${inside%/*}"
: >"$inside"
on_exit "rm -f '$inside'"
: >"$RD_TMP/outside.ko"

# WANT MESSAGE ARGS...: ab exits with WANT and says MESSAGE on stderr
expect_refusal() {
	local want=$1 message=$2 status=0
	shift 2
	"$ab" "$@" >/dev/null 2>"$RD_TMP/err" || status=$?
	echo "ab $* -> $status: $(head -n 1 "$RD_TMP/err")"
	assert_eq "$status" "$want" "exit status of ab $*"
	grep -qF -- "$message" "$RD_TMP/err" || fail "ab $* did not say '$message': $(cat "$RD_TMP/err")"
}

expect_refusal 2 "usage: scripts/bench/ab"
expect_refusal 2 "--rounds takes a number from 1" --rounds 0 "$inside"
expect_refusal 2 "--rounds takes a number from 1" --rounds x "$inside"
expect_refusal 2 "unknown option '--fast'" --fast "$inside"
expect_refusal 2 "no module at '$RD_TMP/none.ko'" "$RD_TMP/none.ko"
expect_refusal 2 "is outside" "$RD_TMP/outside.ko"
expect_refusal 2 "is outside" "$inside" "$RD_TMP/outside.ko copy=memcpy"
echo "every refusal came before a guest was booted"
