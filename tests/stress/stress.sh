#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every reliability workload at once for a while: fio verify on several devices, configfs create/remove loops, power cuts, discard storms, mem_limit hits, rdfuzz and the file-system power-cut test; then every device verifies and the module's page count is zero
#
# Runs in the guest (tests/stress/run boots it; test 620 runs it briefly).
# Environment:
#   RD_STRESS_SECONDS   how long the workloads run (default 60)
#   RD_POWER_CUTS       cuts per file system for tests/vm/305-fs-power-cut.sh
#                       at least; ext4 and xfs go on cutting until the
#                       workloads end; 0 leaves that test out (default 0)
#   RD_SEED             the seed of everything random here (default: random,
#                       printed; rdfuzz and test 305 get seeds made from it)
#   RD_HOLD_KEYS        1 (default): the module is loaded with hold_keys=1,
#                       so that rdfuzz's bad blocks and fault rules and the
#                       checkpoints switch no static key under the others'
#                       I/O, which a guest with a thread per vCPU does not
#                       survive (Documentation/development.md); 0 loads it
#                       without, for a guest with --single-thread
# Prints one summary line: "stress: devices N, duration S s, ...".
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio blkdiscard cmp udevadm

secs=${RD_STRESS_SECONDS:-60}
cuts=${RD_POWER_CUTS:-0}
seed=${RD_SEED:-$((($(od -An -N4 -tu4 /dev/urandom) % 1000000) + 1))}
for v in secs cuts seed; do
	[[ ${!v} =~ ^[0-9]+$ ]] || fail "$v must be a whole number, not '${!v}'"
done
# load_module reads it, in test 305 as well
export RD_HOLD_KEYS=${RD_HOLD_KEYS:-1}
[[ $RD_HOLD_KEYS =~ ^[01]$ ]] || fail "RD_HOLD_KEYS must be 0 or 1, not '$RD_HOLD_KEYS'"
echo "stress: RD_STRESS_SECONDS=$secs RD_POWER_CUTS=$cuts RD_SEED=$seed (set them to replay)"
RANDOM=$seed

cfg=$RD_CONFIGFS
stats=$RD_TMP/stats
mkdir -p "$stats"
pages() { cat /sys/module/ramdisk/parameters/allocated_pages; }

# Test 305 loads the module itself, so when it runs it starts first and
# the rest waits for the module; it cannot unload it while the devices
# below exist, and ours stays loaded until the end.
# The watch of the static keys starts before either load.
[ "$RD_HOLD_KEYS" = 0 ] || rd_keys_watch
fs_cut_pid=
if [ "$cuts" -gt 0 ]; then
	fs_cut_tmp=$RD_TMP/305
	mkdir -p "$fs_cut_tmp"
	(cd "$fs_cut_tmp" && RD_TMP=$fs_cut_tmp RD_REASON_FILE=$fs_cut_tmp.reason \
		RD_POWER_CUTS=$cuts RD_CUT_SECONDS=$secs RD_SEED=$seed \
		"$RD_TOP/tests/vm/305-fs-power-cut.sh" \
		>"$RD_TMP/305.log" 2>&1) &
	fs_cut_pid=$!
	for ((i = 0; i < 600; i++)); do
		[ -d "$cfg" ] && break
		sleep 0.2
	done
	[ -d "$cfg" ] || fail "test 305 did not load the module: $(tail -n 3 "$RD_TMP/305.log")"
else
	load_module nr_devices=0
fi
on_exit "unload_module"
on_exit 'for d in "$RD_CONFIGFS"/stress-*/; do d=${d%/}; rd_unconfigure "${d##*/}"; done'

# NAME SIZE [ATTR=VALUE...]: a powered configuration; prints its device.
# The workers call it in subshells, so it registers no cleanup (the one
# above removes every stress-* item): rd_set, not rd_configure.
make_dev() {
	mkdir "$cfg/stress-$1" && rd_set "stress-$1" "size=$2" "${@:3}" power=1 && rd_dev "stress-$1"
}

# NAME: power off (retried while udev still holds the disk) and rmdir.
drop_dev() {
	rd_unconfigure "stress-$1"
}

# Set when every device exists; each worker does at least one round.
end=
running() { [ $SECONDS -lt "$end" ]; }
# Each worker ends with a status file; counters go to $stats/NAME.
finish_worker() { echo "$2" >"$stats/$1.status"; }

# --- fio verify on several devices at once --------------------------------
fio_worker() {
	local n=$1 dev=$2 bs=$3 passes=0 out=$RD_TMP/fio-$1.out
	RANDOM=$((seed + n))
	while :; do
		if ! fio --name="stress-$n" --filename="$dev" --direct=1 --ioengine=libaio \
			--iodepth=8 --rw=randwrite --bsrange="$bs"-64k --size=32M \
			--randseed=$((seed + passes)) --verify=crc32c --verify_fatal=1 \
			--do_verify=1 --verify_state_save=0 >"$out" 2>&1; then
			echo "fio on $dev, pass $passes: $(grep -iE 'err|verify' "$out" | head -n 3)"
			finish_worker "fio-$n" 1
			return
		fi
		passes=$((passes + 1))
		echo "verified $((passes * 32 << 20))" >"$stats/fio-$n"
		running || break
	done
	finish_worker "fio-$n" 0
}

# --- configfs create/remove loop ------------------------------------------
cycle_worker() {
	local n=0 dev bs size data=$RD_TMP/cycle.data
	RANDOM=$((seed + 10))
	head -c 1M /dev/urandom >"$data"
	while :; do
		bs=$((RANDOM % 2 ? 512 : 4096))
		size=$(((1 + RANDOM % 4) * 16))M
		dev=$(make_dev cycle "$size" block_size=$bs mem_limit=$((RANDOM % 2 * 8))M) ||
			{ finish_worker cycle 1; return; }
		# a new device reads zeros, then holds what is written
		if ! cmp -n 1048576 "$dev" /dev/zero ||
			! dd if="$data" of="$dev" bs=64K oflag=direct status=none ||
			! cmp -n 1048576 "$data" "$dev"; then
			echo "create/remove cycle $n on $dev: wrong data"
			finish_worker cycle 1
			return
		fi
		drop_dev cycle || { finish_worker cycle 1; return; }
		n=$((n + 1))
		echo "cycles $n" >"$stats/cycle"
		echo "verified $((n << 20))" >>"$stats/cycle"
		running || break
	done
	finish_worker cycle 0
}

# --- discard storm with mem_limit hits ------------------------------------
storm_worker() {
	local dev=$1 hits=1 storms=0 off len limit_pages=$((8 << 8)) i
	RANDOM=$((seed + 20))
	# more than the limit at once: refused part-way, whatever the timing
	if dd if=/dev/urandom of="$dev" bs=1M count=12 oflag=direct status=none 2>/dev/null; then
		echo "storm: 12 MiB fitted under a mem_limit of 8 MiB"
		finish_worker storm 1
		return
	fi
	while :; do
		off=$((RANDOM % 60))
		if ! dd if=/dev/urandom of="$dev" bs=1M count=4 seek="$off" oflag=direct \
			status=none 2>/dev/null; then
			hits=$((hits + 1))
		fi
		for ((i = 0; i < 8; i++)); do
			off=$(((RANDOM * 32768 + RANDOM) % (64 << 20) / 512 * 512))
			len=$((512 * (1 + RANDOM % 4096)))
			[ $((off + len)) -le $((64 << 20)) ] || len=$(((64 << 20) - off))
			if ((RANDOM % 2)); then
				blkdiscard -o "$off" -l "$len" "$dev" || { finish_worker storm 1; return; }
			else
				blkdiscard -z -o "$off" -l "$len" "$dev" 2>/dev/null || true
			fi
			storms=$((storms + 1))
		done
		if [ "$(sysfs_stat "$dev" allocated_pages)" -gt $limit_pages ]; then
			echo "storm: $(sysfs_stat "$dev" allocated_pages) pages above a mem_limit of $limit_pages"
			finish_worker storm 1
			return
		fi
		printf 'discards %s\nlimit_hits %s\n' $storms $hits >"$stats/storm"
		running || break
	done
	# everything discarded: nothing stays allocated, and it all reads zeros
	blkdiscard "$dev"
	if [ "$(sysfs_stat "$dev" allocated_pages)" != 0 ] || ! cmp -n $((64 << 20)) "$dev" /dev/zero; then
		echo "storm: a fully discarded device keeps pages or data"
		finish_worker storm 1
		return
	fi
	echo "verified $((64 << 20))" >>"$stats/storm"
	finish_worker storm 0
}

# --- power cuts on a writeback device -------------------------------------
# Flushed data survives every cut; what was not flushed may go.
cut_worker() {
	local dev=$1 name=stress-cut n=0 want=$RD_TMP/cut.want
	RANDOM=$((seed + 30))
	while :; do
		head -c 2M /dev/urandom >"$want"
		echo $((RANDOM % 101)) >"$cfg/$name/power_cut_drop_percent"
		echo $((seed + n)) >"$cfg/$name/power_cut_seed"
		dd if="$want" of="$dev" bs=256K oflag=direct conv=fsync status=none ||
			{ finish_worker cut 1; return; }
		# not flushed: may be lost
		dd if=/dev/urandom of="$dev" bs=256K seek=16 count=8 oflag=direct status=none ||
			{ finish_worker cut 1; return; }
		echo 1 >"$cfg/$name/power_cut"
		if ! cmp -n $((2 << 20)) "$want" "$dev"; then
			echo "power cut $n: flushed data changed"
			finish_worker cut 1
			return
		fi
		n=$((n + 1))
		printf 'cuts %s\nverified %s\n' $n $((n * 2 << 20)) >"$stats/cut"
		running || break
	done
	finish_worker cut 0
}

# --- the control-surface fuzzer -------------------------------------------
fuzz_worker() {
	local status=0
	"$RD_BIN/rdfuzz" --seed "$seed" --duration "$secs" --log "$RD_TMP/rdfuzz.log" \
		>"$RD_TMP/rdfuzz.out" 2>&1 || status=$?
	sed -n 's/.*: \([0-9]*\) steps in .*, \([0-9]*\) bytes verified, \([0-9]*\) reports$/steps \1\nverified \2\nreports \3/p' \
		"$RD_TMP/rdfuzz.out" >"$stats/fuzz"
	if [ "$status" != 0 ]; then
		echo "rdfuzz --seed $seed ended with status $status:"
		grep REPORT "$RD_TMP/rdfuzz.out" | head -n 10
	fi
	finish_worker fuzz "$status"
}

fio_devs=()
fio_devs+=("$(make_dev fio0 32M)")
fio_devs+=("$(make_dev fio1 32M block_size=4096)")
fio_devs+=("$(make_dev fio2 32M cache_mode=writeback cache_size=8M)")
storm_dev=$(make_dev storm 64M mem_limit=8M)
cut_dev=$(make_dev cut 16M cache_mode=writeback cache_size=4M)

end=$((SECONDS + secs))
pids=()
for n in 0 1 2; do
	fio_worker "$n" "${fio_devs[n]}" $((n == 1 ? 4096 : 512)) &
	pids+=($!)
done
storm_worker "$storm_dev" &
pids+=($!)
cut_worker "$cut_dev" &
pids+=($!)
cycle_worker &
pids+=($!)
fuzz_worker &
pids+=($!)
echo "stress: ${#fio_devs[@]} fio devices, a discard storm, power cuts, create/remove, rdfuzz for $secs s"
for pid in "${pids[@]}"; do
	wait "$pid" || true
done

# Test 305's last line: "fs-cuts: ext4 N xfs N ext2 N ext2-repaired N
# files N bytes N", the fsync'd files it found intact and their bytes
fs_cuts=0
fs_line="none"
if [ -n "$fs_cut_pid" ]; then
	status=0
	wait "$fs_cut_pid" || status=$?
	# every cut's line, for the soak's figures
	sed 's/^/305: /' "$RD_TMP/305.log"
	[ "$status" = 0 ] || fail "test 305 failed: $(cat "$RD_TMP/305.reason")"
	fs_line=$(sed -n 's/^fs-cuts: //p' "$RD_TMP/305.log")
	read -r _ ext4 _ xfs _ ext2 _ repaired _ files _ bytes <<<"$fs_line"
	for v in ext4 xfs ext2 repaired files bytes; do
		[[ ${!v:-} =~ ^[0-9]+$ ]] || fail "test 305 printed no count of $v: '$fs_line'"
	done
	fs_cuts=$((ext4 + xfs + ext2))
	echo "verified $bytes" >"$stats/fs-cuts"
	fs_line="ext4 $ext4 xfs $xfs ext2 $ext2 (repaired $repaired), fsync'd files verified $files"
fi

sum() { cat "$stats"/* 2>/dev/null | awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }'; }

# Every worker passed; then the devices verify once more and are removed.
# A failed run still says what it reached: a long soak's figures count.
failed=
for f in "$stats"/*.status; do
	[ "$(cat "$f")" = 0 ] || failed="$failed $(basename "$f" .status)"
done
if [ -n "$failed" ]; then
	echo "stress: reached before the failure: bytes verified $(sum verified)," \
		"cuts survived $(($(sum cuts) + fs_cuts)), fuzz iterations $(sum steps)," \
		"discards $(sum discards), mem_limit hits $(sum limit_hits)"
	fail "workers failed:$failed"
fi
[ "$(find "$stats" -name '*.status' | wc -l)" = 7 ] || fail "only $(ls "$stats") finished"
for dev in "${fio_devs[@]}"; do
	fio --name=final --filename="$dev" --direct=1 --ioengine=psync --rw=randwrite \
		--bs=64k --size=32M --verify=crc32c --verify_fatal=1 --do_verify=1 \
		--verify_state_save=0 >"$RD_TMP/final.out" 2>&1 || fail "final verify of $dev"
	echo "verified $((32 << 20))" >>"$stats/final"
done
for n in fio0 fio1 fio2 storm cut; do
	drop_dev "$n"
done
assert_eq "$(pages)" 0 "module pages after every device was removed"
[ "$RD_HOLD_KEYS" = 0 ] || rd_keys_held

verified=$(sum verified)
fuzz_reports=$(sum reports)
cycles=$(sum cycles)
echo "stress: devices $((5 + cycles + 3 * (cuts > 0))), duration $secs s," \
	"bytes verified $verified, cuts survived $(($(sum cuts) + fs_cuts))," \
	"fuzz iterations $(sum steps), discards $(sum discards), mem_limit hits $(sum limit_hits)," \
	"reports found $fuzz_reports, fs cuts $fs_line"
[ "$fuzz_reports" = 0 ] || fail "rdfuzz found $fuzz_reports problems"
