#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power cuts every 10 ms race FUA writes, writes with a flush and writes with an empty PREFLUSH (through dm-linear): every write reported durable reads back intact
#
# A cut must fall between bios, and a flush after a cut that lost completed
# writes must fail: a write that dd reported as done with dsync or fsync
# reads back exactly, whatever cut came after it. dd may fail (a bio the cut
# interrupted, a flush that reports lost writes); it must never succeed and
# lose data. It races until it has had at least RD_RACE_ROUNDS rounds (default
# 12) and 100 cuts, or for 120 s on a host too busy for that.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd dmsetup blockdev udevadm

rounds=${RD_RACE_ROUNDS:-12}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || fail "RD_RACE_ROUNDS must be a positive count, not '$rounds'"
load_module nr_devices=0
rd_configure race size=64M cache_mode=writeback power=1
dev=$RD_DEV

# dm-linear passes a flush down as an empty write with REQ_PREFLUSH, the
# form a file system's journal commit takes.
modprobe dm-mod 2>/dev/null || :
dm=rd-race-$$
on_exit "dmsetup remove --retry $dm >/dev/null 2>&1 || :"
DM_DISABLE_UDEV=1 dmsetup create "$dm" --table "0 $(blockdev --getsz "$dev") linear $dev 0" ||
	fail "dmsetup create"

# The cutter runs until the writer is done.
(while [ ! -e "$RD_TMP/stop" ]; do
	echo 1 >"$RD_CONFIGFS/race/power_cut"
	sleep 0.01
done) &
cutter=$!
on_exit "touch $RD_TMP/stop; wait $cutter"

# read_back OFFSET_MIB: the 2 MiB at OFFSET_MIB into $RD_TMP/got; a read
# that a cut interrupts fails and is tried again
read_back() {
	for _ in $(seq 20); do
		dd if="$dev" of="$RD_TMP/got" bs=1M skip="$1" count=2 iflag=direct status=none \
			2>/dev/null && return 0
	done
	fail "20 reads at ${1} MiB failed in a row"
}

declare -A done_ok done_err
end=$((SECONDS + 120))
round=0 lost=0
while [ $round -lt "$rounds" ] || [ "$(sysfs_stat "$dev" power_cuts)" -lt 100 ]; do
	[ $SECONDS -lt $end ] || break
	round=$((round + 1))
	mode=$(((round - 1) % 3))
	off=$((2 * (round % 16)))
	head -c 2M /dev/urandom >"$RD_TMP/want"
	case $mode in
	0) name=fua target=$dev flags=("oflag=direct,dsync") ;;
	1) name=flush target=$dev flags=(oflag=direct "conv=fsync,notrunc") ;;
	2) name=preflush target=/dev/mapper/$dm flags=(oflag=direct "conv=fsync,notrunc") ;;
	esac
	if dd if="$RD_TMP/want" of="$target" bs=1M seek="$off" "${flags[@]}" status=none 2>/dev/null; then
		done_ok[$name]=$((${done_ok[$name]:-0} + 1))
		read_back "$off"
		if ! cmp -s "$RD_TMP/want" "$RD_TMP/got"; then
			lost=$((lost + 1))
			echo "round $round: a $name write reported durable reads back different data"
		fi
	else
		done_err[$name]=$((${done_err[$name]:-0} + 1))
	fi
done
touch "$RD_TMP/stop"
wait "$cutter"
cuts=$(sysfs_stat "$dev" power_cuts)
for name in fua flush preflush; do
	echo "$name: ${done_ok[$name]:-0} writes reported durable, ${done_err[$name]:-0} failed"
done
echo "$cuts power cuts in $round rounds"
[ "$lost" = 0 ] || fail "$lost writes reported durable were lost"
[ "$cuts" -ge 100 ] || fail "only $cuts power cuts in 120 s: the race did not run"
ok=$((${done_ok[fua]:-0} + ${done_ok[flush]:-0} + ${done_ok[preflush]:-0}))
[ "$ok" -ge 3 ] || fail "only $ok writes succeeded: nothing was checked"
echo "ok"
