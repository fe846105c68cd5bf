#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bench-crash refuses, before it loads anything, a missing or unusable replay-log, an unknown option and sizes that are not whole numbers
. "${0%/*}/../lib/common.sh"

top=$(cd "${0%/*}/../.." && pwd -P)

guest=$top/scripts/bench/crash-compare-guest
fake=$RD_TMP/replay-log
printf '#!/bin/sh\nexit 0\n' >"$fake"
chmod +x "$fake"
expect_refusal 2 "--replay-log takes fstests' replay-log" "$guest"
expect_refusal 2 "--replay-log takes fstests' replay-log" "$guest" --replay-log "$RD_TMP/nosuch"
expect_refusal 2 "unknown option '--fast'" "$guest" --fast
expect_refusal 2 "--saves takes a value" "$guest" --replay-log "$fake" --saves
expect_refusal 2 "usage: scripts/bench/crash-compare-guest" "$guest" --replay-log "$fake" --saves 0
expect_refusal 2 "usage: scripts/bench/crash-compare-guest" "$guest" --replay-log "$fake" --populate x
expect_refusal 2 "usage: scripts/bench/crash-compare-guest" "$guest" --replay-log "$fake" --fs-size -1
expect_refusal 2 "bench-crash: REPLAY_LOG=PATH" make -s -C "$top" bench-crash REPLAY_LOG="$RD_TMP/nosuch"
echo "every refusal came before anything was loaded"
