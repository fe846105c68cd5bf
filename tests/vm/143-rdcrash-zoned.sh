#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash on a host-managed zoned device: btrfs made with -O zoned and f2fs with -m, each sequential zone's crash states a prefix of its writes (crash_zoned.h); create-fsync holds on both (btrfs with single metadata), and every state's clone reads zeros past each write pointer; a planted bug (a file marked durable before any fsync) fails on btrfs, and the failing state, rebuilt alone with rdcrash state, fails the same check; each state btrfs with its default DUP metadata will not mount is one whose two copies' zones kept different prefixes of the same writes; ext4 is refused before the device is touched; minimise says it does not shrink a zoned device's states
# KERNELS: last
# rdcrash's model of zones does not depend on the kernel; what it drives
# in the module (zoned checkpoints, clones and rollbacks, the write log of
# zone commands, the kernel's write plugs after a rollback) is tested on
# every kernel that hosts zones by tests 144, 145 and 134.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd md5sum jq blkzone mkfs.btrfs btrfs mkfs.f2fs fsck.f2fs
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]] ||
	skip "$RD_KVER takes no zoned devices (test 131 checks the refusal)"
rdcrash=$RD_BIN/rdcrash
ctl=$RD_BIN/ramdiskctl

# 64 zones of 16 MiB, the first three conventional (f2fs keeps its
# metadata there; btrfs takes them as it finds them)
rd_configure zb size=1G zoned=1 zone_size=16M zone_nr_conv=3 cache_mode=writeback power=1
dev=$RD_DEV

# --- ext4 cannot go on host-managed zones: refused before anything changes
head -c 1M /dev/urandom | dd of="$dev" bs=1M oflag=direct status=none
before=$(head -c 1M "$dev" | md5sum)
rdcrash_expect 1 "$dev" --fs ext4 --workload create-fsync --states 1
grep -q "zb: a host-managed zoned device, which ext4 cannot be made on: btrfs and f2fs can" \
	"$RD_TMP/err" || fail "rdcrash with ext4 on a zoned device did not say why: $(cat "$RD_TMP/err")"
assert_eq "$(head -c 1M "$dev" | md5sum)" "$before" "the device's data after the refusal"
assert_eq "$(cat "$RD_CONFIGFS/zb/write_log")" off "the write log after the refusal"
assert_eq "$(cat "$RD_CONFIGFS/zb/checkpoints")" "" "checkpoints after the refusal"

# --- btrfs and f2fs: no state fails (every fsync'd file whole, the
# checkers clean). btrfs keeps its metadata single here: with mkfs's
# default, DUP, a state may fail to mount for a reason of btrfs's own (the
# planted bug's run below shows it), which this part is not about.
for fs in btrfs f2fs; do
	opts=()
	[ "$fs" = f2fs ] || opts=(--mkfs-options "-m single")
	rdcrash_expect 0 "$dev" --fs "$fs" "${opts[@]}" --workload create-fsync --states 2 --exhaustive 3 \
		--seed 31 --json
	jq -e '.states | length > 2' "$RD_TMP/out" >/dev/null || fail "$fs: too few states: $out"
	grep -q "states checked in .* 0 failed (create-fsync, $fs, seed 31)" "$RD_TMP/err" ||
		fail "$fs: $(tail -n 5 "$RD_TMP/err")"
done

# zones-check: run in a mounted state, reads the zones of the device under
# it: each sequential zone reads zeros past its write pointer (up to 256
# KiB of it), as a zoned disk after a crash does; prints how many zones it
# read, and fails on the first that holds data there
zcheck=$RD_TMP/zones-check
cat >"$zcheck" <<'CHECK'
dev=$(findmnt -n -o SOURCE --target .) || exit 2
report=$(blkzone report "$dev") || exit 2
printf '%s\n' "$report" |
	sed -n 's/.*start: \(0x[0-9a-f]*\), len 0x[0-9a-f]*, cap \(0x[0-9a-f]*\), wptr \(0x[0-9a-f]*\).*SEQ_WRITE_REQUIRED.*/\1 \2 \3/p' | {
	n=0
	while read -r start cap wptr; do
		left=$((cap - wptr))
		[ "$left" -gt 0 ] || continue
		[ "$left" -le 512 ] || left=512
		held=$(dd if="$dev" bs=512 skip=$((start + wptr)) count=$left iflag=direct \
			status=none | tr -d '\000' | wc -c)
		[ "$held" -eq 0 ] || { echo "zone at $((start)) holds data past its write pointer"; exit 1; }
		n=$((n + 1))
	done
	echo "zones read: $n"
}
CHECK

# --- the planted bug: b is marked durable with no fsync; only c's fsync,
# after the mark, flushes; a crash before the next flush loses b. Every
# state's zones are read too.
workload='echo new >b && rdcrash mark b-durable && echo c >c && sync c'
check="sh $zcheck >/dev/null || exit 1"'
for m in $RDCRASH_MARKS; do
	[ "$m" != b-durable ] || [ "$(cat b 2>/dev/null)" = new ] || { echo "b lost"; exit 1; }
done'
PATH=$RD_BIN:$PATH
rdcrash_expect 3 "$dev" --fs btrfs --workload "$workload" --check "$check" --states 4 --exhaustive 3 \
	--seed 32 --json
failed=$(jq -c '[.states[] | select(.verdict == "failed")][0]' "$RD_TMP/out")
[ "$failed" != null ] || fail "no failing state in the run with the planted bug"
jq -e '[.states[] | select(.verdict == "ok")] | length > 0' "$RD_TMP/out" >/dev/null ||
	fail "no state of the planted bug's run held"
# each failure is b's, or btrfs refusing to mount the state (EIO): its
# metadata is DUP, two copies in two zones written with no flush between,
# and a crash state that keeps more of one zone's writes than of the
# other's (as a disk with a volatile cache may) is one btrfs refuses
# (checked below, state by state); none is a zone holding data past its
# pointer
jq -r '.states[] | select(.verdict == "failed") | .detail' "$RD_TMP/out" | sort | uniq -c
jq -e '[.states[] | select(.verdict == "failed") |
	select(.detail | test("b lost|^mount: Input/output error$") | not)] |
	length == 0' "$RD_TMP/out" >/dev/null || fail "a state failed for another reason than b"
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
on_exit "umount $mnt 2>/dev/null || :"
# dup_mismatch CLONE: fails unless the kernel log names the DUP write
# pointers, and the zones of some DUP chunk of CLONE (btrfs-progs' reading
# of its chunk tree) stop at different pointers, holding the same bytes
# below the lower one: one zone kept a prefix of the same writes
dup_mismatch() {
	local zs=$((16 << 11)) chunks s0 s1 w0 w1 low found=0
	kernel_log | grep -q "zoned: write pointer offset mismatch of zones in DUP profile" ||
		fail "$1: no DUP write pointer mismatch in the kernel log: $(kernel_log | tail -n 3)"
	chunks=$(btrfs inspect-internal dump-tree -t chunk "$1" | awk '
		/type .*DUP/ { dup = 1; n = 0; next }
		/CHUNK_ITEM/ { dup = 0 }
		dup && /stripe [01] devid/ { o[n++] = $NF; if (n == 2) print o[0], o[1] }') ||
		fail "$1: dump-tree of its chunk tree"
	while read -r s0 s1; do
		w0=$(zone_state "$1" "$zs" $((s0 / 512 / zs)))
		w1=$(zone_state "$1" "$zs" $((s1 / 512 / zs)))
		w0=${w0#* } w1=${w1#* }
		[ "$w0" != "$w1" ] || continue
		low=$((w0 < w1 ? w0 : w1))
		cmp <(dd if="$1" bs=512 skip=$((s0 / 512)) count="$low" iflag=direct status=none) \
			<(dd if="$1" bs=512 skip=$((s1 / 512)) count="$low" iflag=direct status=none) ||
			fail "$1: the DUP zones at $s0 and $s1 differ below the lower pointer"
		echo "DUP zones at $s0 and $s1: pointers $w0 and $w1, the same bytes below $low"
		found=1
	done <<<"$chunks"
	[ $found = 1 ] || fail "$1: no DUP chunk whose zones stop at different pointers: $chunks"
}
eio=$(jq -r '.states[] | select(.detail == "mount: Input/output error") | "\(.epoch) \(.state)"' \
	"$RD_TMP/out")
while read -r epoch state; do
	[ -n "$epoch" ] || continue
	dmesg -C
	c=$("$rdcrash" state --fs btrfs --seed 32 --states 4 --exhaustive 3 --epoch "$epoch" \
		--state "$state" "$dev") || fail "rdcrash state of epoch $epoch state $state"
	btrfs device scan --forget >/dev/null 2>&1 || :
	if mount "$c" "$mnt" 2>/dev/null; then
		umount "$mnt"
		fail "epoch $epoch state $state, rebuilt, mounts"
	fi
	echo "epoch $epoch state $state, rebuilt, does not mount:"
	dup_mismatch "$c"
done <<<"$eio"
failed=$(jq -c '[.states[] | select(.verdict == "failed" and (.detail | test("b lost")))][0]' \
	"$RD_TMP/out")
[ "$failed" != null ] || fail "no state failed for b"
epoch=$(jq -r .epoch <<<"$failed")
state=$(jq -r .state <<<"$failed")
echo "failing: epoch $epoch state $state: $(jq -r .detail <<<"$failed")"

# rebuilt alone, from the base checkpoint and the log, it fails the same
# check, and its zones read zeros past their pointers
c=$("$rdcrash" state --fs btrfs --seed 32 --states 4 --exhaustive 3 --epoch "$epoch" \
	--state "$state" "$dev") || fail "rdcrash state of the failing state"
btrfs device scan --forget >/dev/null 2>&1 || :
mount "$c" "$mnt" || fail "mounting the rebuilt state"
zones=$(cd "$mnt" && sh "$zcheck") || fail "the rebuilt state's zones: $zones"
echo "rebuilt state: $zones"
[[ $zones =~ ^zones\ read:\ [1-9] ]] || fail "no sequential zone with room was read: $zones"
status=0
(cd "$mnt" && RDCRASH_MARKS=b-durable sh -c "$check") || status=$?
umount "$mnt"
assert_eq "$status" 1 "the check on the rebuilt failing state"

# --- minimise: refused on a zoned device, saying why
status=0
"$rdcrash" minimise --fs btrfs --check "$check" --seed 32 --states 4 --exhaustive 3 \
	--epoch "$epoch" --state "$state" "$dev" >/dev/null 2>"$RD_TMP/min.err" || status=$?
assert_eq "$status" 1 "exit status of minimise on a zoned device"
grep -q "zb: a host-managed zoned device: minimise does not shrink its states yet" \
	"$RD_TMP/min.err" || fail "minimise did not say why: $(cat "$RD_TMP/min.err")"

"$ctl" remove "rdcrash-clone-${dev#/dev/ramdisk}" 2>/dev/null || :
rd_unconfigure zb
echo ok
