#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: the bench's disk guard refuses what is not a block device and a mounted disk
. "${0%/*}/../lib/common.sh"

# refused_because DEV WORDS: the guard refuses DEV and says WORDS.
refused_because() {
	local why
	if why=$("$guard" "$1" 2>&1); then
		fail "$1 was not refused (want: $2)"
	fi
	echo "$why"
	grep -q "$2" <<<"$why" || fail "$1: refused without saying '$2'"
}
guard=$RD_TOP/scripts/bench/disk-guard

expect_fail "$guard"
truncate -s 1M "$RD_TMP/file"
refused_because "$RD_TMP/file" 'not a block device'
DESTROY_DATA=1 expect_fail "$guard" "$RD_TMP/file"

# The root file system's disk, when it is one we can see, is mounted.
root=$(findmnt -n -o SOURCE / 2>/dev/null || true)
if [ -b "$root" ]; then
	DESTROY_DATA=1 expect_fail "$guard" "$root"
	refused_because "$root" 'is mounted'
else
	echo "root is not on a block device ($root): mount check left to the VM test"
fi
