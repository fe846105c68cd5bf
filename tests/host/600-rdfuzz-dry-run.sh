#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdfuzz draws: a seed replays the same steps, another seed differs, every action and value kind is drawn, bad options exit 2 with one line
. "${0%/*}/../lib/common.sh"

rdfuzz=$RD_BIN/rdfuzz
[ -x "$rdfuzz" ] || fail "$rdfuzz is missing (make userspace-asan)"

draw() { # SEED FILE
	"$rdfuzz" --dry-run --root "$RD_TMP/none" --seed "$1" --iterations 4000 --log "$2" >"$RD_TMP/out"
	grep -q "^rdfuzz: seed $1 (replay with --seed $1)" "$RD_TMP/out" || fail "seed $1 was not printed first"
	assert_eq "$(wc -l <"$2")" 4000 "lines of the log for seed $1"
}
draw 7 "$RD_TMP/a"
draw 7 "$RD_TMP/b"
cmp "$RD_TMP/a" "$RD_TMP/b" || fail "seed 7 drew two different sequences"
draw 8 "$RD_TMP/c"
cmp -s "$RD_TMP/a" "$RD_TMP/c" && fail "seeds 7 and 8 drew the same sequence"

# Every action, and values of each shape, turn up in 4000 steps.
for what in mkdir rmdir attr power power_cut io sysfs busy show crash; do
	grep -q "^[0-9]* $what " "$RD_TMP/a" || fail "action $what was never drawn"
done
for what in '="0' '="-' '="0x' '\\x' '=""' 'A\*[0-9]' 'writeback' '[0-9]K' '\\n"' \
	'write_log="start [a-z]' 'rollback="ck:' 'clone_of="slot:[0-9] ck:'; do
	grep -q -- "$what" "$RD_TMP/a" || fail "no value like '$what' was drawn"
done
# a dry run touches nothing, so it has nothing to report
grep -q "0 reports$" "$RD_TMP/out" || fail "dry run summary: $(cat "$RD_TMP/out")"

# usage errors
for args in "--seed x" "--slots 0" "--slots 9" "--iterations -1" "extra" "--bogus" "-x" "--seed"; do
	status=0
	# shellcheck disable=SC2086 # the options are words
	"$rdfuzz" --dry-run $args >/dev/null 2>"$RD_TMP/err" || status=$?
	assert_eq "$status" 2 "exit status of rdfuzz $args"
	assert_eq "$(wc -l <"$RD_TMP/err")" 1 "stderr lines of rdfuzz $args"
	# worded as every tool words bad usage (userspace/lib/usage.c)
	grep -q '^rdfuzz: .* (see rdfuzz --help)$' "$RD_TMP/err" ||
		fail "rdfuzz $args: $(cat "$RD_TMP/err")"
done
grep -q "unknown option --bogus" <("$rdfuzz" --bogus 2>&1) || fail "--bogus was not named"
grep -q "option --seed needs a value" <("$rdfuzz" --seed 2>&1) || fail "--seed without a value was not named"
# a real run without the module says so
status=0
"$rdfuzz" --root "$RD_TMP/none" --iterations 1 >/dev/null 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 3 "exit status without the module"
grep -q "is ramdisk.ko loaded" "$RD_TMP/err" || fail "without the module: $(cat "$RD_TMP/err")"
echo ok
