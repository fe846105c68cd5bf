#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bench-crash (scripts/bench/run crash, its guest half and the make target) refuses, before it boots or loads anything, a missing or unusable replay-log, an unknown option and sizes that are not whole numbers; run crash-jobs refuses bad counts
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
# the launcher checks what the guest half would, before a guest boots
run=("$top/scripts/bench/run" crash)
expect_refusal 2 "--replay-log is required" "${run[@]}"
expect_refusal 2 "--replay-log takes an executable file, not '$RD_TMP/nosuch'" "${run[@]}" --replay-log "$RD_TMP/nosuch"
expect_refusal 2 "unknown option '--fast'" "${run[@]}" --replay-log "$fake" --fast
expect_refusal 2 "--saves takes a whole number from 1" "${run[@]}" --replay-log "$fake" --saves
expect_refusal 2 "--saves takes a whole number from 1" "${run[@]}" --replay-log "$fake" --saves 0
expect_refusal 2 "--populate takes a whole number from 0" "${run[@]}" --replay-log "$fake" --populate x
expect_refusal 2 "--fs-size takes a whole number from 1" "${run[@]}" --replay-log "$fake" --fs-size -1
jobs=("$top/scripts/bench/run" crash-jobs)
expect_refusal 2 "--jobs takes a whole number from 1" "${jobs[@]}" --jobs 0
expect_refusal 2 "--rounds takes a whole number from 1" "${jobs[@]}" --rounds x
expect_refusal 2 "unknown option '--reps'" "${jobs[@]}" --reps 2
echo "every refusal came before anything was loaded"
