#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl profile writes each profile's figures (rotational where the module has it) and refuses unknown names; powercut writes power_cut; info and list (table and JSON) show cache mode, profile and durable state (fake tree)
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
cfg=$RD_TMP/config/ramdisk
sys=$RD_TMP/sys
export RAMDISK_CONFIGFS=$cfg RAMDISKCTL_SYSFS=$sys

mkdir -p "$cfg/emu" "$sys/block/ramdisk3/ramdisk" "$sys/block/ramdisk3/queue" \
	"$sys/module/ramdisk/parameters"
echo "bandwidth_mbps,cache_mode,index,power,power_cut,read_latency_ns,size" >"$cfg/features"
for f in read_latency_ns write_latency_ns flush_latency_ns bandwidth_mbps; do
	echo 0 >"$cfg/emu/$f"
done
echo writeback >"$cfg/emu/cache_mode"
: >"$cfg/emu/power_cut"
echo 1 >"$cfg/emu/power"
echo 3 >"$cfg/emu/index"
echo 8388608 >"$cfg/emu/size"
echo emu >"$sys/block/ramdisk3/ramdisk/name"
echo 16384 >"$sys/block/ramdisk3/size"
echo 4096 >"$sys/block/ramdisk3/ramdisk/dirty_bytes"
echo 2 >"$sys/block/ramdisk3/ramdisk/power_cuts"

# profile: the documented figures, in order read, write, flush, bandwidth
check_profile() {
	"$ctl" profile emu "$1" >"$RD_TMP/out" || fail "profile $1"
	assert_eq "$(cat "$cfg/emu/read_latency_ns") $(cat "$cfg/emu/write_latency_ns") $(cat "$cfg/emu/flush_latency_ns") $(cat "$cfg/emu/bandwidth_mbps")" "$2" "figures of $1"
	grep -qx "bandwidth_mbps=${2##* }" "$RD_TMP/out" || fail "profile $1 does not print what it set"
}
check_profile nvram "2000 2000 0 0"
check_profile ssd "90000 30000 1000000 500"
check_profile hdd "12000000 12000000 10000000 180"
check_profile disk-1994 "18000000 18000000 18000000 3"
status=0
"$ctl" profile emu floppy 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 2 "exit status of an unknown profile"
assert_eq "$(cat "$cfg/emu/bandwidth_mbps")" 3 "bandwidth after an unknown profile"
check_profile none "0 0 0 0"
[ ! -e "$cfg/emu/rotational" ] || fail "profile wrote rotational, which this module lacks"

# rotational: set by the profiles of spinning disks, where the module has it
echo "bandwidth_mbps,cache_mode,index,power,power_cut,read_latency_ns,rotational,size" \
	>"$cfg/features"
echo 0 >"$cfg/emu/rotational"
for p in hdd:1 ssd:0 disk-1994:1 nvram:0 none:0; do
	"$ctl" profile emu "${p%:*}" >"$RD_TMP/out" || fail "profile ${p%:*}"
	assert_eq "$(cat "$cfg/emu/rotational")" "${p#*:}" "rotational after profile ${p%:*}"
	grep -qx "rotational=${p#*:}" "$RD_TMP/out" || fail "profile ${p%:*} does not print rotational"
done

"$ctl" powercut ramdisk3 || fail "powercut"
assert_eq "$(cat "$cfg/emu/power_cut")" 1 "power_cut written"

"$ctl" info emu >"$RD_TMP/info" || fail "info"
cat "$RD_TMP/info"
grep -q "^cache_mode: *writeback$" "$RD_TMP/info" || fail "info lacks cache_mode"
grep -q "^dirty_bytes: *4096$" "$RD_TMP/info" || fail "info lacks dirty_bytes"
grep -q "^power_cuts: *2$" "$RD_TMP/info" || fail "info lacks power_cuts"
grep -q "^durable: *no, a power cut loses 4096 bytes$" "$RD_TMP/info" || fail "info lacks durable"
grep -q "^profile: *none$" "$RD_TMP/info" || fail "info lacks the profile"

# list: the profile is named from the figures; others are "custom".
"$ctl" profile emu hdd >/dev/null || fail "profile hdd"
"$ctl" list >"$RD_TMP/list" || fail "list"
cat "$RD_TMP/list"
head -n 1 "$RD_TMP/list" | grep -Eq ' CACHE +PROFILE +DIRTY$' || fail "list header lacks the emulation columns"
grep -Eq '^/dev/ramdisk3 +emu +8\.0M .* writeback +hdd +4\.0K$' "$RD_TMP/list" || fail "list row of emu"
echo 5 >"$cfg/emu/read_latency_ns"
"$ctl" info emu | grep -q "^profile: *custom$" || fail "info of changed figures does not say custom"
"$ctl" list --json >"$RD_TMP/json" || fail "list --json"
if command -v jq >/dev/null; then
	assert_eq "$(jq -c '.devices[0] | [.cache_mode, .profile, .dirty_bytes, .power_cuts, .read_latency_ns, .bandwidth_mbps]' "$RD_TMP/json")" \
		'["writeback","custom",4096,2,5,180]' "emulation fields of list --json"
else
	grep -q '"dirty_bytes": 4096' "$RD_TMP/json" || fail "list --json lacks dirty_bytes"
fi
# after a flush or a cut nothing is pending: durable again
echo 0 >"$sys/block/ramdisk3/ramdisk/dirty_bytes"
"$ctl" info emu | grep -q "^durable: *yes" || fail "info with nothing dirty"
"$ctl" list | grep -Eq '^/dev/ramdisk3 .* writeback +custom +0$' || fail "list row with nothing dirty"
echo ok
