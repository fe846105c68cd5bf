# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Runs a script of documentation commands (scripts/doc-commands script) in
# a guest, for the tests that keep the documentation's commands working
# (510, 530, 133). Sourced after tests/lib/common.sh.

# doc_script_run DIR SCRIPT: runs SCRIPT in DIR under bash -e, five minutes
# at most. Prints "ok"; or prints the output's last lines, sets
# doc_failed_block to the block that failed (FILE:LINE) and returns 1.
doc_script_run() {
	if (cd "$1" && timeout 300 bash -eo pipefail "$2") >"$RD_TMP/out" 2>&1; then
		echo "ok"
		return 0
	fi
	tail -n 25 "$RD_TMP/out"
	doc_failed_block=$(grep '^>>> ' "$RD_TMP/out" | tail -n 1)
	doc_failed_block=${doc_failed_block#>>> }
	return 1
}
