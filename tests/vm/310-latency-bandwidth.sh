#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: read/write/flush latency and bandwidth emulation: QD1 latency never early, its median within 10% of the setting plus the measured overhead, QD8 overlaps, bandwidth within 10%
. "${0%/*}/../lib/common.sh"
require_root
require_cmd fio jq udevadm

cfg=$RD_CONFIGFS
load_module nr_devices=0
rd_configure slow size=64M power=1
dev=$RD_DEV
dd if=/dev/zero of="$dev" bs=1M count=64 oflag=direct status=none

# run_fio RW BS IODEPTH [SECONDS]: prints "mean_clat_ns iops bytes_per_s
# median_clat_ns" of a run of SECONDS (3): every figure that is checked
# against a setting comes from a 3 s run, which a stall of a few hundred ms
# cannot spoil
run_fio() {
	local rw=$1 dir=read
	case $rw in *write) dir="write" ;; esac
	fio --name=t --filename="$dev" --rw="$rw" --bs="$2" --iodepth="$3" --direct=1 \
		--ioengine=libaio --clocksource=clock_gettime --time_based --runtime="${4:-3}" --size=64M --randrepeat=0 \
		--output-format=json >"$RD_TMP/fio.json" || fail "fio $*"
	jq -r --arg dir "$dir" '.jobs[0][$dir] | "\(.clat_ns.mean|floor) \(.iops|floor) \(.bw_bytes) \(.clat_ns.percentile["50.000000"])"' \
		"$RD_TMP/fio.json"
}

# within GOT WANT PERCENT WHAT [OVERHEAD]: GOT - OVERHEAD is WANT +-PERCENT
within() {
	local got=$1 want=$2 pct=$3 overhead=${5:-0}
	echo "$4: $got, want $want +-$pct% plus $overhead"
	if [ $(((got - overhead) * 100)) -lt $((want * (100 - pct))) ] ||
		[ $(((got - overhead) * 100)) -gt $((want * (100 + pct))) ]; then
		fail "$4: got $got, want $want +-$pct% plus $overhead"
	fi
}

# A timer in an emulated guest fires late by a millisecond or more, so the
# fixed overhead is measured as what two settings have in common: the
# medians at 10 ms and at 20 ms must differ by 10 ms +-10%, and no mean is
# early. Medians, because a mean takes in every stall of a loaded host,
# and a stall in one run and not in the other failed a CI run.
for rw in randread randwrite; do
	attr=read_latency_ns
	[ $rw = randread ] || attr=write_latency_ns
	echo 10000000 >"$cfg/slow/$attr"
	read -r mean10 _ _ med10 <<<"$(run_fio $rw 4k 1)"
	echo 20000000 >"$cfg/slow/$attr"
	read -r mean20 qd1_iops _ med20 <<<"$(run_fio $rw 4k 1)"
	echo "$rw means $mean10 and $mean20 ns, medians $med10 and $med20 ns"
	[ "$mean10" -ge 10000000 ] || fail "$rw mean latency $mean10 ns below the 10 ms setting"
	[ "$mean20" -ge 20000000 ] || fail "$rw mean latency $mean20 ns below the 20 ms setting"
	within "$med20" 20000000 10 "QD1 $rw median latency, ns" $((med10 - 10000000))
	if [ $rw = randread ]; then
		# Eight bios in flight overlap their latencies. Served one after
		# another they could not beat QD1 at all; 3x rather than nearly
		# 8x leaves room for timers firing late on a loaded emulated
		# guest (a 6.1 guest on a busy host once reached 4.7x).
		read -r _ qd8_iops _ <<<"$(run_fio randread 4k 8)"
		echo "IOPS at QD1 $qd1_iops, at QD8 $qd8_iops"
		[ "$qd8_iops" -ge $((qd1_iops * 3)) ] ||
			fail "QD8 IOPS $qd8_iops do not overlap (QD1 $qd1_iops)"
	fi
	echo 0 >"$cfg/slow/$attr"
done

# Flush latency: fsync of the block device sends a flush, which reaches
# the device only when it advertises a write cache.
rd_configure slow power=0 cache_mode=writeback power=1
dev=$RD_DEV
echo 200000000 >"$cfg/slow/flush_latency_ns"
start=$(date +%s%N)
sync "$dev"
took=$((($(date +%s%N) - start) / 1000000))
echo "fsync with a 200 ms flush latency took $took ms"
[ "$took" -ge 200 ] || fail "fsync took $took ms with a 200 ms flush latency"
echo 0 >"$cfg/slow/flush_latency_ns"

# Bandwidth: 20 MB/s, or a third of what the device does unthrottled when
# that is less, so that the limit and not the machine sets the rate (the
# debug kernel on a loaded host wrote through the cache at 10.7 MB/s under
# a 20 MB/s limit).
# 256 KiB I/Os: even at a few MB/s a 3 s run has dozens. The unthrottled
# rate only picks the limit, with a factor of 3 to spare: 1 s tells it.
for rw in read write; do
	read -r _ _ bw _ <<<"$(run_fio $rw 256k 4 1)"
	mbps=$((${bw%.*} / 3000000))
	[ "$mbps" -le 20 ] || mbps=20
	[ "$mbps" -ge 1 ] || fail "$rw bandwidth unthrottled is only ${bw%.*} bytes/s"
	echo "$rw bandwidth unthrottled ${bw%.*} bytes/s; limit $mbps MB/s"
	echo "$mbps" >"$cfg/slow/bandwidth_mbps"
	read -r _ _ bw _ <<<"$(run_fio $rw 256k 4)"
	within "${bw%.*}" $((mbps * 1000000)) 10 "$rw bandwidth, bytes/s"
	echo 0 >"$cfg/slow/bandwidth_mbps"
done

# All settings 0 again: no delay is left. A 1 s run is thousands of
# reads, as good a mean as 3 s gives.
read -r lat _ <<<"$(run_fio randread 4k 1 1)"
[ "$lat" -lt 1000000 ] || fail "read latency $lat ns after the settings went back to 0"
echo ok
