#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl create --nvram [--format], backing shown by info and list
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
load_module nr_devices=0

dev=$("$ctl" create --name nv --nvram 512M:64M --format)
on_exit "$ctl remove nv"
[[ $dev == /dev/ramdisk* ]] || fail "create printed '$dev'"
"$ctl" info nv | tee "$RD_TMP/info"
grep -Eq '^backing: +phys@0x20000000, 67108864 bytes' "$RD_TMP/info" || fail "info shows no backing"
grep -Eq '^size: +67104768 ' "$RD_TMP/info" || fail "size is not the range less its header"
"$ctl" list | tee "$RD_TMP/list"
grep -Eq "^$dev +nv .*phys@0x20000000\$" "$RD_TMP/list" || fail "list shows no backing"
printf 'kept' | dd of="$dev" bs=1 seek=12288 conv=notrunc status=none
sync
udevadm settle 2>/dev/null || true
"$ctl" remove nv

# Without --format the header left by the first device is attached.
dev=$("$ctl" create --name nv --nvram 0x20000000:64M)
assert_eq "$(dd if="$dev" bs=1 skip=12288 count=4 2>/dev/null)" kept "data after re-create"

rc=0
"$ctl" create --name bad --nvram 512M:64M --size 1G || rc=$?
assert_eq "$rc" 2 "exit status of --nvram with --size"
rc=0
"$ctl" create --name bad --nvram 256M:64M || rc=$?
assert_eq "$rc" 2 "exit status of --nvram over System RAM"
[ ! -e "$RD_CONFIGFS/bad" ] || fail "a refused create left its configuration"
echo "ramdiskctl --nvram checks passed"
