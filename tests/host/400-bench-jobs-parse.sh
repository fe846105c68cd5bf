#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every fio job file parses, names its measurement and takes its target from the environment
. "${0%/*}/../lib/common.sh"
require_cmd fio

jobs=("$RD_TOP"/fio-jobs/*.fio)
[ -e "${jobs[0]}" ] || fail "no job files in fio-jobs/"

# The values the bench runner exports; the parse must not depend on them
# existing, only on them being set.
export TARGET=$RD_TMP/target.img DIRECTORY=$RD_TMP/dir SIZE=16M RUNTIME=1 \
	DIRECT=0 NRFILES=10 MAX_OPEN=2

declare -A seen
for job in "${jobs[@]}"; do
	name=${job##*/}
	echo "parse $name"
	fio --parse-only "$job" || fail "$name: fio --parse-only failed"
	head -n1 "$job" | grep -q '^; ' || fail "$name: does not begin with a comment"
	grep -Eq '^(filename|directory)=\$\{(TARGET|DIRECTORY)\}$' "$job" ||
		fail "$name: target is not taken from \${TARGET} or \${DIRECTORY}"
	# Section names identify figures in the report, across every file.
	while read -r section; do
		[ -z "${seen[$section]:-}" ] || fail "$name: job [$section] also in ${seen[$section]}"
		seen[$section]=$name
	done < <(sed -n 's/^\[\(.*\)\]$/\1/p' "$job" | grep -vx global)
done

# Without the environment the files must not parse (no silent default
# target such as a file named "${TARGET}" in the current folder).
unset TARGET DIRECTORY
if fio --parse-only "$RD_TOP/fio-jobs/rand-4k-qd1.fio" >/dev/null 2>&1; then
	fail "rand-4k-qd1.fio parsed without TARGET set"
fi
echo "${#jobs[@]} job files, ${#seen[@]} jobs"
