#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power domains: one write of a domain's name to power_cut_domain cuts every powered member at one instant (each loses its unflushed writes and keeps its flushed ones, power_cuts moves by one on each) and leaves a device outside the domain untouched; a powered-off member is passed over; rmdir of a member is refused until it leaves; a bad or too long name, and a cut of a domain with no member or none powered, are refused with the reason
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd
load_module nr_devices=0
cfg=$RD_CONFIGFS

for n in a b c; do
	rd_configure $n size=16M cache_mode=writeback power=1
	head -c 64K /dev/urandom >"$RD_TMP/$n"
done
head -c 64K /dev/zero >"$RD_TMP/zero"
declare -A dev
for n in a b c; do
	dev[$n]=$(rd_dev $n)
done

# put NAME KIB_OFFSET [sync]: NAME's own 64 KiB at KIB_OFFSET of its device
put() {
	rd_dd_write "${dev[$1]}" "$RD_TMP/$1" "$2" 64 "${3:-}" || fail "write of $1 at $2 KiB"
}
# holds NAME KIB_OFFSET FILE: whether NAME's device holds FILE there
holds() {
	dd if="${dev[$1]}" bs=64K skip=$(($2 / 64)) count=1 iflag=direct status=none |
		cmp -s - "$3"
}
cuts() {
	sysfs_stat "${dev[$1]}" power_cuts
}

assert_eq "$(cat "$cfg/a/power_domain")" "" "power_domain of a fresh item"
echo rack1 >"$cfg/a/power_domain" || fail "a joins rack1"
echo rack1 >"$cfg/b/power_domain" || fail "b joins rack1"
assert_eq "$(cat "$cfg/b/power_domain")" rack1 "power_domain of b"

echo "a domain's cut: both members lose their cached writes, c outside keeps its own"
for n in a b c; do
	put $n 0 sync
	put $n 64
done
ca=$(cuts a) cb=$(cuts b) cc=$(cuts c)
dirty_c=$(sysfs_stat "${dev[c]}" dirty_bytes)
((dirty_c >= 65536)) || fail "c's write was not cached"
echo rack1 >"$cfg/power_cut_domain" || fail "power_cut_domain rack1"
assert_eq "$(cuts a)" $((ca + 1)) "power_cuts of a after the domain's cut"
assert_eq "$(cuts b)" $((cb + 1)) "power_cuts of b after the domain's cut"
assert_eq "$(cuts c)" "$cc" "power_cuts of c, outside the domain"
assert_eq "$(sysfs_stat "${dev[c]}" dirty_bytes)" "$dirty_c" "dirty bytes of c"
for n in a b; do
	holds $n 0 "$RD_TMP/$n" || fail "$n lost its flushed write"
	holds $n 64 "$RD_TMP/zero" || fail "$n kept its cached write through the domain's cut"
done
holds c 64 "$RD_TMP/c" || fail "c lost its cached write to a cut of another domain"

echo "a member's own power_cut cuts that member alone"
put a 64
put b 64
echo 1 >"$cfg/a/power_cut" || fail "a's power_cut"
holds a 64 "$RD_TMP/zero" || fail "a kept its cached write through its own cut"
holds b 64 "$RD_TMP/b" || fail "a's own cut took b's cached write"
assert_eq "$(cuts b)" $((cb + 1)) "power_cuts of b after a's own cut"

echo "a member powered off is passed over; the others are cut"
rd_power_off b || fail "powering b off"
assert_eq "$(cat "$cfg/b/power_domain")" rack1 "b's domain after its power-off"
ca=$(cuts a)
put a 128
echo rack1 >"$cfg/power_cut_domain" || fail "power_cut_domain rack1 with b off"
assert_eq "$(cuts a)" $((ca + 1)) "power_cuts of a after the cut with b off"
holds a 128 "$RD_TMP/zero" || fail "a kept its cached write with b off"

echo "rmdir of a member is refused until it leaves"
rmdir "$cfg/b" 2>"$RD_TMP/rmdir.err" && fail "rmdir of b, a member of rack1, succeeded"
grep -q "Device or resource busy" "$RD_TMP/rmdir.err" ||
	fail "rmdir of b: $(cat "$RD_TMP/rmdir.err"), want EBUSY"
assert_eq "$(cat "$cfg/b/power_domain")" rack1 "b's domain after the refused rmdir"
echo rack2 >"$cfg/b/power_domain" || fail "b moves to rack2"
rmdir "$cfg/b" 2>/dev/null && fail "rmdir of b, a member of rack2, succeeded"
echo >"$cfg/b/power_domain" || fail "b leaves rack2"
rmdir "$cfg/b" || fail "rmdir of b after it left its domain"

echo "refusals"
rd_refused a power_domain "bad/name" "Invalid argument" \
	"a: power_domain 'bad/name' has a character other than letters, digits, '-', '_' and '.'"
long=$(printf 'x%.0s' {1..32})
rd_refused a power_domain "$long" "Invalid argument" "a: power_domain '$long' is longer than 31"
assert_eq "$(cat "$cfg/a/power_domain")" rack1 "a's domain after the refusals"
rd_refused . power_cut_domain "" "Invalid argument" \
	"power_cut_domain: takes the name of a power domain"
rd_refused . power_cut_domain nowhere "Invalid argument" \
	"power_cut_domain: no configuration is in power domain 'nowhere'"
rd_power_off a || fail "powering a off"
rd_refused . power_cut_domain rack1 "No such device" \
	"power_cut_domain: no device of power domain 'rack1' is powered"
echo >"$cfg/a/power_domain" || fail "a leaves rack1"
rd_refused . power_cut_domain rack1 "Invalid argument" \
	"power_cut_domain: no configuration is in power domain 'rack1'"
echo ok
