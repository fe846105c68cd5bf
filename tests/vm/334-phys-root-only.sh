#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: physical addresses are root's alone: sysfs backing, configfs phys_addr and the phys_addr parameter refuse other users (phys_size stays readable); ramdiskctl list and info as a user show the backing without the address
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd setpriv udevadm
getent passwd nobody >/dev/null || skip "no user nobody"

phys=$((512 << 20))
cfs=$RD_CONFIGFS
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
# the tool where nobody may run it
install -m 755 "$RD_BIN/ramdiskctl" "$RD_TMP/ramdiskctl"
chmod 755 "$RD_TMP"
ctl=$RD_TMP/ramdiskctl

# ramdisk0 in the first half of the range, a configfs device in the
# second, and one in RAM.
load_module phys_addr=$phys phys_size=32M format=1
rd_configure nv phys_addr=$((phys + (32 << 20))) phys_size=32M format=1 power=1
nv=${RD_DEV#/dev/}
rd_configure ram size=16M power=1
ram=${RD_DEV#/dev/}
udevadm settle

params=/sys/module/ramdisk/parameters
# FILE MODE: the file has MODE; root reads it, nobody is refused
root_only() {
	local err
	assert_eq "$(stat -c %a "$1")" "$2" "mode of $1"
	cat "$1" >/dev/null || fail "root cannot read $1"
	if err=$(as_nobody cat "$1" 2>&1); then
		fail "nobody read $1: $err"
	fi
	[[ $err == *"Permission denied"* ]] || fail "nobody reading $1: $err"
	echo "$1: mode $2, root reads '$(cat "$1")', nobody gets EACCES"
}
root_only /sys/block/ramdisk0/ramdisk/backing 400
root_only "/sys/block/$nv/ramdisk/backing" 400
root_only "/sys/block/$ram/ramdisk/backing" 400
root_only "$cfs/nv/phys_addr" 600
root_only $params/phys_addr 400
read -r kind addr _ </sys/block/ramdisk0/ramdisk/backing
assert_eq "$kind $addr" "phys 0x20000000" "ramdisk0's backing as root"
assert_eq "$(cat "$cfs/nv/phys_addr")" 0x22000000 "nv's phys_addr as root"
assert_eq "$(cat $params/phys_addr)" $phys "the phys_addr parameter as root"
# sizes tell no address: everybody reads them
assert_eq "$(as_nobody cat "$cfs/nv/phys_size")" $((32 << 20)) "nv's phys_size as nobody"
assert_eq "$(as_nobody cat $params/phys_size)" $((32 << 20)) "the phys_size parameter as nobody"
assert_eq "$(stat -c %a "$cfs/nv/phys_size")" 644 "mode of nv's phys_size"
# a user who cannot read a file cannot write it either; root still writes
as_nobody sh -c "echo 0 >$cfs/ram/phys_addr" 2>/dev/null && fail "nobody wrote ram's phys_addr"
echo 0x0 >"$cfs/ram/phys_addr" 2>/dev/null && fail "root changed phys_addr of a powered device"
kernel_log | grep -q "ram: phys_addr cannot change while powered" ||
	fail "root's write to phys_addr did not reach the module"

# ramdiskctl as a user: the kind of backing where configfs tells it, no
# address anywhere, and success.
as_nobody "$ctl" list >"$RD_TMP/list" || fail "list as nobody failed"
as_nobody "$ctl" list --json >"$RD_TMP/json" || fail "list --json as nobody failed"
as_nobody "$ctl" info nv >"$RD_TMP/info-nv" || fail "info nv as nobody failed"
as_nobody "$ctl" info ramdisk0 >"$RD_TMP/info-0" || fail "info ramdisk0 as nobody failed"
cat "$RD_TMP/list"
grep -h "^backing:" "$RD_TMP/info-nv" "$RD_TMP/info-0"
grep -Eq "^/dev/$nv +nv .* phys\$" "$RD_TMP/list" || fail "list as nobody: no 'phys' for nv"
grep -Eq "^/dev/$ram +ram .* pages\$" "$RD_TMP/list" || fail "list as nobody: no 'pages' for ram"
grep -Eq "^/dev/ramdisk0 +- .* -\$" "$RD_TMP/list" || fail "list as nobody: ramdisk0's backing is not '-'"
grep -Eq '^backing: +phys \(the address only root may read\), 33554432 bytes' "$RD_TMP/info-nv" ||
	fail "info nv as nobody shows no hidden phys backing"
grep -Eq '^backing: +unavailable \(only root may read it\)$' "$RD_TMP/info-0" ||
	fail "info ramdisk0 as nobody does not say the backing is root's"
grep -Eiq '0x2[02]000000|536870912|570425344' "$RD_TMP/list" "$RD_TMP/json" "$RD_TMP/info-nv" \
	"$RD_TMP/info-0" && fail "ramdiskctl showed nobody an address"
# root sees it all
"$ctl" info nv | grep -Eq '^backing: +phys@0x22000000, 33554432 bytes with the header, uuid ' ||
	fail "info nv as root shows no address"
"$ctl" list | grep -Eq "^/dev/ramdisk0 .* phys@0x20000000\$" || fail "list as root shows no address"
echo "addresses are root's; ramdiskctl tells a user the rest"
