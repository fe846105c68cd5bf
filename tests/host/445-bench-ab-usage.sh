#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bench ab refuses, before booting anything, a missing build list, a bad round count, scale or vCPU count, an unknown option, a missing module and one the guest could not see
. "${0%/*}/../lib/common.sh"

ab=$(cd "${0%/*}/../.." && pwd -P)/scripts/bench/ab
inside=$(cd "${0%/*}/../.." && pwd -P)/build/test-ab-module.ko
mkdir -p "${inside%/*}"
: >"$inside"
on_exit "rm -f '$inside'"
: >"$RD_TMP/outside.ko"

expect_refusal 2 "usage: scripts/bench/ab" "$ab"
expect_refusal 2 "--rounds takes a number from 1" "$ab" --rounds 0 "$inside"
expect_refusal 2 "--rounds takes a number from 1" "$ab" --rounds x "$inside"
expect_refusal 2 "--scale takes a number from 1" "$ab" --scale 0 "$inside"
expect_refusal 2 "--scale takes a number from 1" "$ab" --scale 1.5 "$inside"
expect_refusal 2 "--cpus takes a number from 1" "$ab" --cpus '' "$inside"
expect_refusal 2 "unknown option '--fast'" "$ab" --fast "$inside"
expect_refusal 2 "no module at '$RD_TMP/none.ko'" "$ab" "$RD_TMP/none.ko"
expect_refusal 2 "is outside" "$ab" "$RD_TMP/outside.ko"
expect_refusal 2 "is outside" "$ab" "$inside" "$RD_TMP/outside.ko copy=memcpy"
echo "every refusal came before a guest was booted"
