#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl profile sets the documented figures and refuses unknown names; powercut loses unflushed writes; info and list (table and JSON) show cache mode, profile and durable state: dirty after an unflushed write, clean after a flush or a cut; create --cache-mode --cache-size --profile --spare-pages makes a crash-test device in one command; powercut --domain cuts every member of a power domain, and refuses an unknown domain and one with no member powered (exit 7) and a missing name (exit 2)
. "${0%/*}/../lib/common.sh"
require_root
require_cmd udevadm jq

cfg=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl
load_module nr_devices=0
rd_configure emu size=8M cache_mode=writeback power=1
dev=$RD_DEV

"$ctl" profile emu ssd >"$RD_TMP/out" || fail "profile ssd"
cat "$RD_TMP/out"
assert_eq "$(cat "$cfg/emu/read_latency_ns")" 90000 "ssd read latency"
assert_eq "$(cat "$cfg/emu/bandwidth_mbps")" 500 "ssd bandwidth"
grep -qx "write_latency_ns=30000" "$RD_TMP/out" || fail "profile does not show what it set"
expect_fail "$ctl" profile emu floppy
assert_eq "$(cat "$cfg/emu/read_latency_ns")" 90000 "latency after a refused profile"
"$ctl" profile "$dev" none >/dev/null || fail "profile none"
assert_eq "$(cat "$cfg/emu/read_latency_ns")" 0 "latency after profile none"

head -c 4096 /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of="$dev" bs=4096 oflag=direct status=none
"$ctl" info emu >"$RD_TMP/info" || fail "info"
cat "$RD_TMP/info"
grep -q "^cache_mode: *writeback" "$RD_TMP/info" || fail "info lacks the cache mode"
grep -q "^dirty_bytes: *4096" "$RD_TMP/info" || fail "info lacks the dirty bytes"
grep -q "^durable: *no, a power cut loses 4096 bytes" "$RD_TMP/info" || fail "info says the write is durable"
grep -q "^profile: *none" "$RD_TMP/info" || fail "info lacks the profile"

# list_row: the table row of emu; list_json FIELD: its value in list --json
list_row() {
	"$ctl" list | tee "$RD_TMP/list" >&2
	grep "^$dev " "$RD_TMP/list"
}
list_json() {
	"$ctl" list --json | jq -r ".devices[] | select(.name == \"emu\") | .$1"
}
"$ctl" profile emu ssd >/dev/null || fail "profile ssd"
[[ $(list_row) =~ \ writeback\ +ssd\ +4\.0K\ +pages$ ]] || fail "list row after an unflushed write"
assert_eq "$(list_json dirty_bytes)" 4096 "list --json dirty_bytes after an unflushed write"
assert_eq "$(list_json cache_mode)" writeback "list --json cache_mode"
assert_eq "$(list_json profile)" ssd "list --json profile"
"$ctl" profile emu none >/dev/null || fail "profile none"

"$ctl" powercut emu || fail "powercut"
cmp -s -n 4096 "$RD_TMP/data" "$dev" && fail "an unflushed write survived powercut"
assert_eq "$(sysfs_stat "${dev#/dev/}" power_cuts)" 1 "power_cuts after powercut"
[[ $(list_row) =~ \ writeback\ +none\ +0\ +pages$ ]] || fail "list row after a power cut"
assert_eq "$(list_json dirty_bytes)" 0 "list --json dirty_bytes after a power cut"
assert_eq "$(list_json power_cuts)" 1 "list --json power_cuts"

# A flush makes the write durable: nothing dirty, and it survives a cut.
dd if="$RD_TMP/data" of="$dev" bs=4096 oflag=direct status=none
assert_eq "$(list_json dirty_bytes)" 4096 "list --json dirty_bytes after a second write"
sync "$dev"
"$ctl" info emu | grep -q "^durable: *yes" || fail "info after a flush"
[[ $(list_row) =~ \ writeback\ +none\ +0\ +pages$ ]] || fail "list row after a flush"
"$ctl" powercut emu || fail "second powercut"
cmp -s -n 4096 "$RD_TMP/data" "$dev" || fail "a flushed write was lost at powercut"
echo 0 >"$cfg/emu/power"
expect_fail "$ctl" powercut emu

# A crash test's device in one command: a bounded writeback cache, a
# profile and no spare pages
crash=$("$ctl" create --name crash --size 8M --cache-mode writeback --cache-size 1M \
	--profile hdd --spare-pages 0) || fail "create with a cache mode, a profile and spare pages"
on_exit "$ctl remove crash 2>/dev/null || :"
assert_eq "$(cat "$cfg/crash/cache_mode") $(cat "$cfg/crash/cache_size")" "writeback 1048576" \
	"cache of the created device"
assert_eq "$(cat "$cfg/crash/read_latency_ns") $(cat "$cfg/crash/bandwidth_mbps")" "12000000 180" \
	"profile of the created device"
assert_eq "$(cat "/sys/block/${crash#/dev/}/queue/rotational")" 1 "an hdd profile's disk spins"
assert_eq "$(cat "$cfg/crash/spare_pages")" 0 "spare pages of the created device"
"$ctl" info crash | grep -q "^profile: *hdd" || fail "info of the created device lacks its profile"
dd if="$RD_TMP/data" of="$crash" bs=4096 oflag=direct status=none
assert_eq "$(sysfs_stat "${crash#/dev/}" spare_pages)" 0 "spare pages after a first write"
"$ctl" powercut crash || fail "powercut of the created device"
cmp -s -n 4096 "$RD_TMP/data" "$crash" && fail "the created device kept an unflushed write"
"$ctl" remove crash || fail "remove crash"

# powercut --domain: both members of the domain lose their unflushed
# write, at one cut each
for n in d1 d2; do
	rd_configure $n size=8M cache_mode=writeback power=1
	echo rack >"$cfg/$n/power_domain" || fail "$n joins rack"
	dd if="$RD_TMP/data" of="$RD_DEV" bs=4096 oflag=direct status=none
done
"$ctl" powercut --domain rack || fail "powercut --domain rack"
for n in d1 d2; do
	d=$(rd_dev $n)
	cmp -s -n 4096 "$RD_TMP/data" "$d" && fail "$n kept an unflushed write through its domain's cut"
	assert_eq "$(sysfs_stat "${d#/dev/}" power_cuts)" 1 "power_cuts of $n after its domain's cut"
done
# refusals: exit 7 and the reason, or 2 for a missing name
status=0
"$ctl" powercut --domain nosuch 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 7 "exit status of powercut --domain of an unknown domain"
grep -q "no configuration is in power domain 'nosuch'" "$RD_TMP/err" ||
	fail "powercut --domain nosuch said: $(cat "$RD_TMP/err")"
echo 0 >"$cfg/d1/power"
echo 0 >"$cfg/d2/power"
status=0
"$ctl" powercut --domain rack 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 7 "exit status of powercut --domain with every member off"
grep -q "no device of power domain 'rack' is powered" "$RD_TMP/err" ||
	fail "powercut --domain rack, all off, said: $(cat "$RD_TMP/err")"
status=0
"$ctl" powercut --domain 2>"$RD_TMP/err" || status=$?
assert_eq "$status" 2 "exit status of powercut --domain without a name"
echo ok
