#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every rdbench subcommand on a full tmpfs fails with exit 1, a one-line reason and nothing left behind
. "${0%/*}/../lib/common.sh"

rdbench=$RD_BIN/rdbench
[ -x "$rdbench" ] || fail "$rdbench is missing (make userspace-asan)"
[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
small=$RD_TMP/small
mkdir "$small"
mount -t tmpfs -o size=1M tmpfs "$small" 2>/dev/null || skip "cannot mount tmpfs here"
on_exit "umount $small"

for cmd in "churn --preset queue --files 5 --size 2M" \
	"meta --sizes 10k --files 1000" \
	"smallwrite --total 4M" \
	"bw --size 4M --bs 1m"; do
	status=0
	# shellcheck disable=SC2086 # the command's words are meant to split
	"$rdbench" $cmd --runs 1 --quiet "$small" >"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
	err=$(cat "$RD_TMP/err")
	echo "rdbench $cmd -> $status: $err"
	assert_eq "$status" 1 "exit status of rdbench $cmd on a full file system"
	grep -q "No space left on device" <<<"$err" || fail "no ENOSPC reason: $err"
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines of rdbench $cmd"
	assert_eq "$(cat "$RD_TMP/out")" "" "stdout of rdbench $cmd"
	assert_eq "$(ls -A "$small")" "" "left behind by rdbench $cmd"
done
echo "full file system reported and cleaned up"
