#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdfuzz, two short seeded runs over configfs, ioctls and sysfs, with its models of checkpoints, clones, the write log and power domains' cuts, checkpoints and write logs: no report, no oops, a dry run of the same seed draws the same steps, nothing left behind, and with hold_keys no static key switched under its I/O
. "${0%/*}/../lib/common.sh"
require_root

rdfuzz=$RD_BIN/rdfuzz
[ -x "$rdfuzz" ] || fail "$rdfuzz is missing (make userspace)"
# Fixed seeds keep make check repeatable; make stress draws new ones. A
# seed draws the same steps on every run, but what they meet depends on
# timing (the busy reader's I/O, a log that overflows first): a rare
# outcome (a new clone, a domain's write log started) comes in one run of
# a seed and not the next. So the coverage below is asked of two seeds
# together, each of which had it alone on 6.1, 6.12 and 7.3.
seed=${RD_FUZZ_SEED:-20261222}
second=${RD_FUZZ_SEED2:-20261220}
steps=${RD_FUZZ_STEPS:-6000}

# rdfuzz sets bad blocks and fault rules while it does I/O: with
# hold_keys their static keys stay on, so a thread per vCPU sees no kernel
# text patched under I/O (Documentation/development.md), as
# rd_keys_held checks at the end.
rd_keys_watch
load_module nr_devices=0 hold_keys=1
# rdfuzz makes and removes items of its own: remove whatever it left
on_exit 'for d in "$RD_CONFIGFS"/*/; do [ -d "$d" ] && { echo 0 >"$d/power"; rmdir "$d"; }; done'

# run NAME: one run with the seed, its log in $RD_TMP/NAME.log.
run() {
	local status=0
	"$rdfuzz" --seed "$seed" --iterations "$steps" --log "$RD_TMP/$1.log" \
		>"$RD_TMP/$1.out" 2>&1 || status=$?
	cat "$RD_TMP/$1.out"
	grep REPORT "$RD_TMP/$1.log" | head -n 20 || true
	[ "$status" = 0 ] || fail "rdfuzz --seed $seed ($1) ended with status $status"
	grep -q "^rdfuzz: seed $seed: $steps steps" "$RD_TMP/$1.out" || fail "no summary from the $1 run"
}

run first
seed=$second run second
cat "$RD_TMP/first.log" "$RD_TMP/second.log" >"$RD_TMP/both.log"
cat "$RD_TMP/first.out" "$RD_TMP/second.out" >"$RD_TMP/both.out"
# sum N1 N2: the two runs' counts of one thing
sum() {
	echo $((${1:-0} + ${2:-0}))
}
# Every kind of action ran, with real effects: without these the run
# proves nothing.
for what in "attr " "power " "io " "sysfs " "busy " "mkdir " "rmdir " "crash " " accepted" \
	" write [0-9]*+[0-9]*: ok" " read [0-9]*+[0-9]*: 0 bad" " extents " "BLKDISCARD" \
	"fault_schedule=\"+" "(injected)"; do
	grep -q -- "$what" "$RD_TMP/both.log" || fail "the runs never did '$what'"
done
verified=$(sed -n 's/.* \([0-9]*\) bytes verified.*/\1/p' "$RD_TMP/first.out")
[ "${verified:-0}" -gt 0 ] || fail "no byte was verified"
# The crash machinery's models were tried: logs read and compared entry
# by entry, rollbacks and new clones read back whole against the model.
sed -n 's/^rdfuzz: checked \([0-9]*\) write logs (\([0-9]*\) entries.*read back \([0-9]*\) rollbacks, \([0-9]*\) new clones.*/\1 \2 \3 \4/p' \
	"$RD_TMP/both.out" >"$RD_TMP/counts"
{
	read -r l1 e1 r1 c1
	read -r l2 e2 r2 c2
} <"$RD_TMP/counts"
logs=$(sum "$l1" "$l2") entries=$(sum "$e1" "$e2") rollbacks=$(sum "$r1" "$r2") clones=$(sum "$c1" "$c2")
for n in logs entries rollbacks clones; do
	[ "${!n:-0}" -gt 0 ] || fail "rdfuzz checked no $n"
done
# Power domains were cut from the root, with members in writeback mode,
# whose models then lost what was not durable; checkpoints of a domain
# were taken or dropped and its write log run, the model following each
# member
sed -n 's/^rdfuzz: cut [0-9]* power domains, \([0-9]*\) members.*; \([0-9]*\) domains. checkpoints.*; \([0-9]*\) domains. write log.*/\1 \2 \3/p' \
	"$RD_TMP/both.out" >"$RD_TMP/counts"
{
	read -r m1 k1 w1
	read -r m2 k2 w2
} <"$RD_TMP/counts"
members=$(sum "$m1" "$m2") domain_cks=$(sum "$k1" "$k2") domain_logs=$(sum "$w1" "$w2")
[ "${members:-0}" -gt 0 ] || fail "rdfuzz cut no member of a power domain in writeback mode"
[ "${domain_cks:-0}" -gt 0 ] || fail "rdfuzz took no checkpoint of a power domain"
[ "${domain_logs:-0}" -gt 0 ] || fail "rdfuzz ran no command of a power domain's write log"

# The same seed draws the same steps whatever the kernel answered: a dry
# run, which answers nothing, draws what the real run drew (the part of
# each log line before '|'). So a seed that found something replays.
"$rdfuzz" --dry-run --seed "$seed" --iterations "$steps" --log "$RD_TMP/dry.log" >/dev/null ||
	fail "rdfuzz --dry-run --seed $seed failed"
cut -d '|' -f 1 "$RD_TMP/first.log" >"$RD_TMP/first.draws"
cut -d '|' -f 1 "$RD_TMP/dry.log" >"$RD_TMP/dry.draws"
cmp "$RD_TMP/first.draws" "$RD_TMP/dry.draws" || fail "seed $seed did not replay the same steps"

# Nothing left: no directory, no device, no page.
left=$(find "$RD_CONFIGFS" -mindepth 1 -maxdepth 1 -type d | wc -l)
assert_eq "$left" 0 "configfs directories left by rdfuzz"
assert_eq "$(cat /sys/module/ramdisk/parameters/allocated_pages)" 0 "module pages after rdfuzz"
rd_keys_held
echo "seeds $seed and $second: $steps steps each, the first replayed by a dry run, $verified bytes verified, $logs logs ($entries entries), $rollbacks rollbacks and $clones clones checked, no report"
