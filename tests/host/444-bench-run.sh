#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/bench/run, the one bench launcher: help for every kind, refusals before anything is built (a bad kind, an option the kind does not take, bad --reps and --kernels), each make bench target's command, and on a stub tree the boot loop's builds, tests/vm/run commands, results folders and reports per kind
. "${0%/*}/../lib/common.sh"

top=$(cd "${0%/*}/../.." && pwd -P)
run=$top/scripts/bench/run

echo "--- help"
run_cmd 0 "$run" --help
kinds=$(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' <<<"$out")
[ -n "$kinds" ] || fail "run --help lists no kind: $out"
for k in bench perf pair zoned nvmeof crash crash-jobs nullbio profile copy-routines; do
	grep -qx "$k" <<<"$kinds" || fail "run --help lacks the kind $k"
done
run_cmd 2 "$run"
grep -q "^usage: scripts/bench/run KIND" <<<"$err" || fail "run without a kind gives no usage: $err"
for k in $kinds; do
	run_cmd 0 "$run" "$k" --help
	grep -q "^usage: scripts/bench/run $k " <<<"$out" || fail "$k --help: $out"
	grep -q -- "--kernels" <<<"$out" || fail "$k --help lacks --kernels"
	# the guest script the table names is there to run
	guest=$(sed -n 's|^Each kernel: scripts/bench/\([^ ]*\) in a guest.*|\1|p' <<<"$out")
	[ -x "$top/scripts/bench/$guest" ] || fail "$k: no guest script scripts/bench/$guest"
done
run_cmd 0 "$run" perf --help
grep -qE -- '^  --reps N +.*\(default: 5\)$' <<<"$out" || fail "perf --help: no --reps default 5: $out"
run_cmd 0 "$run" bench --help
grep -q -- "the newest installed" <<<"$out" || fail "bench --help: no default kernel: $out"

echo "--- refusals"
expect_refusal 2 "unknown kind 'nosuch'" "$run" nosuch
expect_refusal 2 "unknown kind '--reps'" "$run" --reps 3
# an option another kind takes, and --reps of a kind without repeats
expect_refusal 2 "unknown option '--runtime': zoned takes --kernels --reps" "$run" zoned --runtime 3
expect_refusal 2 "unknown option '--reps': profile takes" "$run" profile --reps 3
expect_refusal 2 "unknown option '--': perf takes" "$run" perf -- --size 1
for k in $kinds; do
	help=$("$run" "$k" --help)
	grep -q -- '^  --reps N' <<<"$help" || continue
	expect_refusal 2 "--reps takes a whole number from 1" "$run" "$k" --reps 0
	expect_refusal 2 "--reps takes a whole number from 1" "$run" "$k" --reps x
	expect_refusal 2 "--reps takes a whole number from 1" "$run" "$k" --reps
done
expect_refusal 2 "--kernels takes one or more kernels" "$run" perf --kernels ""
expect_refusal 2 "--kernels takes one or more kernels" "$run" pair --kernels
expect_refusal 2 "--out takes one kernel, not 2" "$run" bench --kernels "6.1 7" --out "$top/results/x"
expect_refusal 2 "--out must be inside $top" "$run" bench --out "$RD_TMP/out"
expect_refusal 2 "--disk is for --host" "$run" bench --disk /dev/null
expect_refusal 2 "--host runs on this machine's kernel: no --kernels" "$run" bench --host --kernels 7
expect_refusal 2 "--replay-log is required" "$run" crash
expect_refusal 2 "--replay-log takes an executable file, not '$RD_TMP/nosuch'" "$run" crash --replay-log "$RD_TMP/nosuch"
expect_refusal 2 "--saves takes a whole number from 1" "$run" crash --replay-log /bin/true --saves 0
expect_refusal 2 "--populate takes a whole number from 0" "$run" crash --replay-log /bin/true --populate -1
expect_refusal 2 "--jobs takes a whole number from 1" "$run" crash-jobs --jobs 0
expect_refusal 2 "--workload takes a value" "$run" crash-jobs --workload ""
expect_refusal 2 "--spread takes a whole number from 0 to 999" "$run" copy-routines --spread 1000

echo "--- the make targets"
# mk_cmd TARGET VAR=VALUE...: the command make runs for TARGET, its
# prerequisites taken as done
mk_cmd() {
	make -s -n -C "$top" -o userspace -o bench-build "$@" | tr -s ' \t\\\n' ' '
}
want_cmd() {
	local got
	got=$(mk_cmd "${@:2}")
	grep -qF -- "$1" <<<"$got" || fail "make ${*:2}: got '$got', want '$1'"
}
want_cmd "scripts/bench/run bench --quick --kernels '6.1' --reps 1" bench QUICK=1 KVER=6.1 REPS=1
want_cmd "DESTROY_DATA='1' $top/scripts/bench/run bench --host --disk /dev/x " bench HOST=1 DISK=/dev/x KVER=6.1 DESTROY_DATA=1
want_cmd "scripts/bench/run bench --brd-only " bench-brd
want_cmd "scripts/bench/run perf --kernels '6.12' --reps 2" bench-perf KVERS=6.12 REPS=2
want_cmd "scripts/bench/run pair --kernels '6.1 6.12 7' " bench-pair KVERS="6.1 6.12 7"
want_cmd "scripts/bench/run zoned --kernels '7' --reps 1" bench-zoned KVERS="6.1 7" REPS=1
want_cmd "scripts/bench/run zoned --kernels '6.12 7' " bench-zoned KVERS=6.1
want_cmd "scripts/bench/run crash --kernels '7' --replay-log '/bin/true' --saves 3" bench-crash REPLAY_LOG=/bin/true CRASH_ARGS="--saves 3"
want_cmd "scripts/bench/run crash-jobs --kernels '6.12' --jobs 2" bench-crash-jobs KVER=6.12 CRASH_ARGS="--jobs 2"

echo "--- the loop, on a stub tree"
# The launcher and its helpers, with stubs for what builds and boots: a
# kernel resolves to PREFIX.0-stub ("bad" to nothing), tests/vm/run logs
# its arguments and prints what the stub guest would, make logs too.
tree=$RD_TMP/tree
mkdir -p "$tree/scripts/bench/nullbio" "$tree/scripts/bench/profile" "$tree/scripts/bench/copy-routines" \
	"$tree/scripts/lib" "$tree/tests/vm" "$tree/kdir" "$tree/bin"
cp "$run" "$tree/scripts/bench/run"
cp "$top/scripts/lib/common.sh" "$tree/scripts/lib/"
cp "$top/scripts/bench/nullbio/"{Kbuild,nullbio.c} "$tree/scripts/bench/nullbio/"
cp "$top/scripts/bench/copy-routines/"{Kbuild,copytime.c} "$tree/scripts/bench/copy-routines/"
stub() {
	cat >"$1"
	chmod +x "$1"
}
stub "$tree/scripts/kernel" <<'EOF'
#!/bin/bash
case $1 in
resolve) [ "${2:-}" != bad ] || exit 1; echo "${2:-9}.0-stub" ;;
kdir) echo "${0%/scripts/kernel}/kdir" ;;
esac
EOF
stub "$tree/scripts/build-module" <<'EOF'
#!/bin/bash
top=${0%/scripts/build-module}
echo "build-module $1" >>"$top/log"
mkdir -p "$top/build/kernels/$1/selftest"
echo "ramdisk for $1" >"$top/build/kernels/$1/ramdisk.ko"
: >"$top/build/kernels/$1/selftest/rd_selftest_zone_append.ko"
EOF
stub "$tree/tests/vm/run" <<'EOF'
#!/bin/bash
top=${0%/tests/vm/run}
{ printf 'vm RD_VM_NO_BUILD=%s' "${RD_VM_NO_BUILD:-}"; printf ' %s' "$@"; echo; } >>"$top/log"
echo "stub guest output"
case $* in
*copy-routines/guest*) echo "copytime: a at the median"; echo "copytime: b at the median" ;;
esac
exit "${STUB_GUEST_STATUS:-0}"
EOF
printf 'userspace:\n\t@echo "make userspace BUILD=$(BUILD)" >>%s/log\n' "$tree" >"$tree/Makefile"
printf 'modules:\n\t@touch $(M)/stub.ko\n' >"$tree/kdir/Makefile"
for r in perf-report.py pair-report.py report.py; do
	printf 'import sys\nopen(sys.argv[1] + "/report", "w").write("%s")\n' "$r" >"$tree/scripts/bench/$r"
done
# the guest scripts the table names, which the stub never runs (but
# --host runs the suite here: it logs)
stub "$tree/scripts/bench/suite" <<'EOF2'
#!/bin/bash
{ printf 'suite'; printf ' %s' "$@"; echo; } >>"${0%/scripts/bench/suite}/log"
EOF2
stub "$tree/scripts/bench/disk-guard" <<'EOF2'
#!/bin/bash
echo "disk-guard $*" >>"${0%/scripts/bench/disk-guard}/log"
[ "$1" != /dev/refused ]
EOF2
for g in perf-guest pair-guest zoned-guest nvmeof-guest crash-compare-guest crash-jobs-guest \
	nullbio/guest profile/guest copy-routines/guest; do
	stub "$tree/scripts/bench/$g" </dev/null
done
stub "$tree/bin/perf" </dev/null
# stub_run ARGS...: the stub tree's launcher; its log in $log
stub_run() {
	rm -rf "$tree/log" "$tree/results"
	run_cmd "$@"
	log=$(cat "$tree/log" 2>/dev/null || true)
	echo "$log"
}
srun=$tree/scripts/bench/run
sb=$tree/scripts/bench

stub_run 0 "$srun" perf --kernels "6.12 7" --reps 2
d=$(echo "$tree"/results/*-perf-6.12.0-stub)
grep -qxF "make userspace BUILD=$tree/build" <<<"$log" || fail "perf: no make userspace"
grep -qxF "build-module 6.12.0-stub" <<<"$log" || fail "perf: no module built for 6.12"
grep -qxF "vm RD_VM_NO_BUILD=1 --kernel 6.12.0-stub --mem 2G --cpus 2 --timeout 3600 -- $sb/perf-guest --out $d --module $d/ramdisk.ko --reps 2 --size 256 --runtime 3" <<<"$log" ||
	fail "perf: wrong boot"
grep -q -- "--kernel 7.0-stub " <<<"$log" || fail "perf: 7 not booted"
assert_eq "$(cat "$d/ramdisk.ko")" "ramdisk for 6.12.0-stub" "the module kept with the results"
assert_eq "$(cat "$d/report")" perf-report.py "perf's report"
grep -qxF "results: $d" <<<"$out" || fail "perf: results not named: $out"

echo "pair with its own module and the instruction clock" >"$RD_TMP/before.ko"
stub_run 0 "$srun" pair --kernels 6.12 --icount 2 --module "$RD_TMP/before.ko" --runs 5
d=$(echo "$tree"/results/*-pair-6.12.0-stub)
grep -qF -- "--timeout 3600 --icount 2 -- $sb/pair-guest --out $d --module $d/ramdisk.ko --reps 3 --runs 5 --size 128" <<<"$log" ||
	fail "pair: wrong boot"
cmp -s "$RD_TMP/before.ko" "$d/ramdisk.ko" || fail "pair: --module is not the module kept and measured"
grep -qx "stub guest output" "$d/summary.txt" || fail "pair: the guest's output is not in summary.txt"
assert_eq "$(cat "$d/report")" pair-report.py "pair's report"

stub_run 0 "$srun" zoned --kernels 7
d=$(echo "$tree"/results/*-zoned-7.0-stub)
grep -qF -- "$sb/zoned-guest --out $d --module $d/ramdisk.ko --reps 5 --append-module $d/rd_selftest_zone_append.ko" <<<"$log" ||
	fail "zoned: wrong boot"
[ -f "$d/summary.txt" ] || fail "zoned: no summary.txt"
[ ! -e "$d/report" ] || fail "zoned: a report it does not have"

RD_BUILD=$RD_TMP/other stub_run 0 "$srun" nvmeof --kernels 6.12 --runtime 4
grep -qxF "make userspace BUILD=$RD_TMP/other" <<<"$log" || fail "nvmeof: RD_BUILD not where the tools go"
grep -qF -- "--reps 3 --runtime 4 --ctl $RD_TMP/other/bin/ramdiskctl" <<<"$log" || fail "nvmeof: wrong boot"

stub_run 0 "$srun" crash --replay-log /bin/true --saves 3
grep -qxF "vm RD_VM_NO_BUILD=1 --kernel 7.0-stub --mem 4G --cpus 2 --timeout 7200 -- $sb/crash-compare-guest --replay-log $(realpath /bin/true) --fs-size 128 --populate 0 --saves 3 --save-kib 1024" <<<"$log" ||
	fail "crash: wrong boot"
[ ! -d "$tree/results" ] || fail "crash keeps no results folder"

stub_run 0 "$srun" bench --quick --reps 1 -- --targets "ramdisk brd"
d=$(echo "$tree"/results/*-bench-9.0-stub)
grep -qF -- "--mem 3G --cpus 2 --timeout 3600 --disk $tree/build/bench/disk.img --timeout 900 -- $sb/suite --out $d --module $d/ramdisk.ko --reps 1 --quick" <<<"$log" ||
	fail "bench --quick: wrong boot"
grep -qF -- "--kernel-note 9.0-stub (guest) --mode VM (QEMU TCG, software-emulated CPU: compare ratios only) --targets ramdisk brd" <<<"$log" ||
	fail "bench: the suite options after -- do not come last"
[ ! -e "$tree/build/bench/disk.img" ] || fail "bench: the disk image is left behind"
assert_eq "$(cat "$d/report")" report.py "bench's report"
stub_run 0 "$srun" bench --brd-only --kernels 6.1
ls -d "$tree"/results/*-bench-brd-6.1.0-stub >/dev/null || fail "bench --brd-only: results not in DATE-bench-brd-KVER"

# --host: the suite here, on the running kernel's module, nothing built
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$tree/build/kernels/$(uname -r)"
	: >"$tree/build/kernels/$(uname -r)/ramdisk.ko"
	stub_run 0 "$srun" bench --host --disk /dev/spare --out "$RD_TMP/host" -- --fs ""
	grep -q "^vm\|^build-module\|^make" <<<"$log" && fail "bench --host built or booted"
	grep -qxF "disk-guard /dev/spare" <<<"$log" || fail "bench --host: the disk was not guarded"
	grep -qxF "suite --out $RD_TMP/host --module $RD_TMP/host/ramdisk.ko --reps 3 --runtime 2 --disk /dev/spare --mode host $(hostname) --kernel-note $(uname -r) (host) --fs " <<<"$log" ||
		fail "bench --host: wrong suite command"
	assert_eq "$(cat "$RD_TMP/host/report")" report.py "bench --host's report"
	stub_run 1 "$srun" bench --host --disk /dev/refused --out "$RD_TMP/refused"
	grep -q "^suite" <<<"$log" && fail "bench --host ran past a refused disk"
	[ ! -e "$RD_TMP/refused" ] || fail "bench --host made its folder for a refused disk"
else
	expect_refusal 1 "--host needs root" "$srun" bench --host
fi

PATH=$tree/bin:$PATH stub_run 0 "$srun" profile --op randwrite
grep -qF -- "--timeout 1800 -- $sb/profile/guest $tree/build/profile/7.0-stub $tree/build/kernels/7.0-stub/ramdisk.ko randwrite 1000 25" <<<"$log" ||
	fail "profile: wrong boot"

stub_run 0 "$srun" nullbio --kernels "6.1 7" --build-only
grep -q "^vm\|^build-module\|^make" <<<"$log" && fail "nullbio --build-only built ramdisk or booted"
for kver in 6.1.0-stub 7.0-stub; do
	[ -f "$tree/build/nullbio/$kver/stub.ko" ] || fail "nullbio --build-only did not build for $kver"
done
stub_run 0 "$srun" nullbio --span 1
grep -qF -- "$sb/nullbio/guest $tree/build/nullbio/7.0-stub $tree/build/kernels/7.0-stub/ramdisk.ko 3 401 1" <<<"$log" ||
	fail "nullbio: wrong boot"

stub_run 0 "$srun" copy-routines --reps 2 --spread 128
grep -q "^make\|^build-module" <<<"$log" && fail "copy-routines built what it does not use"
grep -qF -- "--timeout 900 -- $sb/copy-routines/guest $tree/build/copy-routines/7.0-stub/copytime.ko 2 128" <<<"$log" ||
	fail "copy-routines: wrong boot"
grep -q "at the median" "$tree/build/copy-routines/7.0-stub/last.txt" || fail "copy-routines: last.txt"
stub_run 1 "$srun" copy-routines --reps 3
grep -q "printed no figures" <<<"$err" || fail "copy-routines: fewer figures than loads passed"

echo "--- failures: the other kernels still run, the status says it"
stub_run 1 "$srun" perf --kernels "bad 7"
grep -q -- "--kernel 7.0-stub" <<<"$log" || fail "a kernel that does not resolve stopped the others"
STUB_GUEST_STATUS=125 stub_run 1 "$srun" zoned --kernels "6.12 7"
assert_eq "$(grep -c '^vm ' <<<"$log")" 2 "boots after a failed one"
echo ok
