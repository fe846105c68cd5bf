#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: reserved-memory backing keeps its data across a warm reboot of the guest
# VMOPTS: --mem 1G --memmap 64M@512M --reboot
. "${0%/*}/../lib/common.sh"

phys=$((512 << 20))
[ -n "${RD_VM_RUN:-}" ] || skip "needs tests/vm/run --reboot"
state=$RD_VM_RUN/331-nvram-warm-reboot.state

if [ "${RD_VM_BOOT:-1}" = 1 ]; then
	load_module phys_addr=$phys phys_size=64M format=1
	head -c 4M /dev/urandom >"$RD_TMP/pattern"
	dd if="$RD_TMP/pattern" of=/dev/ramdisk0 bs=1M seek=8 oflag=direct status=none
	read -r _ _ _ uuid </sys/block/ramdisk0/ramdisk/backing
	echo "$(sha256sum <"$RD_TMP/pattern") $uuid" >"$state"
	# no rmmod: the header stays dirty, as after a crash
	vm_reboot
fi

[ -s "$state" ] || fail "the first boot left no checksum"
read -r want _ want_uuid <"$state"
load_module phys_addr=$phys phys_size=64M
got=$(dd if=/dev/ramdisk0 bs=1M skip=8 count=4 iflag=direct 2>/dev/null | sha256sum)
assert_eq "${got%% *}" "$want" "data after a warm reboot"
read -r _ _ _ uuid </sys/block/ramdisk0/ramdisk/backing
assert_eq "$uuid" "$want_uuid" "uuid after a warm reboot"
kernel_log | grep -q 'last detach was not orderly' || fail "no dmesg note of the unclean detach"
echo "data survived the warm reboot"
