#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl reports "permission denied (are you root?)" with exit 6 and leaves nothing behind; as a user, list and info show a root-only backing as unavailable and a reserved-memory configuration as phys without its address
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
cfg=$RD_TMP/config/ramdisk
sys=$RD_TMP/sys
export RAMDISK_CONFIGFS=$cfg RAMDISKCTL_SYSFS=$sys

# configfs attributes are root's, 0644, in root's 0755 directories; a
# plain user sees the same modes here. Root ignores modes, so as root the
# tool runs as nobody instead.
as_user=()
if [ "$(id -u)" = 0 ]; then
	require_cmd setpriv
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	"${as_user[@]}" test -x "$ctl" || skip "nobody cannot run $ctl"
	chmod 755 "$RD_TMP"
fi

mkdir -p "$cfg/rd0" "$sys/block/ramdisk1/ramdisk"
echo rd0 >"$sys/block/ramdisk1/ramdisk/name"
for attr in size block_size max_part mem_limit numa_node index; do
	echo 0 >"$cfg/rd0/$attr"
done
echo 1 >"$cfg/rd0/power"
echo 1 >"$cfg/rd0/index"
# A configuration in reserved memory, powered off, and a load-time disk;
# the module lets root alone read addresses (backing, phys_addr).
mkdir -p "$cfg/nv" "$sys/block/ramdisk0/ramdisk"
for attr in size block_size max_part mem_limit numa_node; do
	echo 0 >"$cfg/nv/$attr"
done
echo -1 >"$cfg/nv/index"
echo 33554432 >"$cfg/nv/phys_size"
echo 0x22000000 >"$cfg/nv/phys_addr"
echo >"$sys/block/ramdisk0/ramdisk/name"
echo 65536 >"$sys/block/ramdisk0/size"
echo "phys 0x20000000 33554432 0023a3c3-8449-4957-8f7b-102a4a3adc0d" \
	>"$sys/block/ramdisk0/ramdisk/backing"
echo pages >"$sys/block/ramdisk1/ramdisk/backing"
chmod -R a+rX,go-w "$RD_TMP/config" "$sys"
chmod 555 "$cfg" "$cfg/rd0" "$cfg/nv"
chmod 444 "$cfg/rd0/power"
# 0400 root's in the module; 000 here, as the owner of the fake tree can
# be the user
chmod 000 "$cfg/nv/phys_addr" "$sys/block/ramdisk0/ramdisk/backing" \
	"$sys/block/ramdisk1/ramdisk/backing"
on_exit chmod -R u+w "$RD_TMP"

expect_refusal 6 "permission denied (are you root?)" "${as_user[@]}" "$ctl" create --size 1M
expect_refusal 6 "permission denied (are you root?)" "${as_user[@]}" "$ctl" create --name mine --size 1M
[ -z "$(find "$cfg" -mindepth 1 -maxdepth 1 -name 'rd[1-9]*' -o -name mine)" ] ||
	fail "create as a user left a directory"
expect_refusal 6 "permission denied (are you root?)" "${as_user[@]}" "$ctl" remove rd0
expect_refusal 6 "permission denied (are you root?)" "${as_user[@]}" "$ctl" remove /dev/ramdisk1
assert_eq "$(cat "$cfg/rd0/power")" 1 "power of rd0 after a refused remove"
# Reading needs no privilege; what only root may read shows as such.
"${as_user[@]}" "$ctl" list >"$RD_TMP/list" || fail "list as a user failed"
"${as_user[@]}" "$ctl" info rd0 >/dev/null || fail "info as a user failed"
"${as_user[@]}" "$ctl" info nv >"$RD_TMP/info-nv" || fail "info nv as a user failed"
"${as_user[@]}" "$ctl" info ramdisk0 >"$RD_TMP/info-0" || fail "info ramdisk0 as a user failed"
cat "$RD_TMP/list"
grep -h "^backing:" "$RD_TMP/info-nv" "$RD_TMP/info-0"
grep -Eq '^- +nv .* phys$' "$RD_TMP/list" || fail "list as a user: nv is not 'phys'"
grep -Eq '^/dev/ramdisk0 .* -$' "$RD_TMP/list" || fail "list as a user: ramdisk0's backing is not '-'"
grep -Eq '^backing: +phys \(the address only root may read\), 33554432 bytes with the header$' \
	"$RD_TMP/info-nv" || fail "info nv as a user: no phys backing without its address"
grep -Eq '^backing: +unavailable \(only root may read it\)$' "$RD_TMP/info-0" ||
	fail "info ramdisk0 as a user: the backing is not said to be root's"
grep -q 0x2 "$RD_TMP/list" "$RD_TMP/info-nv" "$RD_TMP/info-0" && fail "an address was shown"
echo "permission errors reported"
