#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: reserved-memory backing keeps its data across a warm reboot of the guest, and a zoned device there its zones
# VMOPTS: --mem 1G --memmap 64M@512M --reboot
. "${0%/*}/../lib/common.sh"

phys=$((512 << 20))
[ -n "${RD_VM_RUN:-}" ] || skip "needs tests/vm/run --reboot"
state=$RD_VM_RUN/331-nvram-warm-reboot.state

# The second half of the range: a zoned device, its header page and 7
# zones of 4 MiB, where the kernel can host one.
zphys=$((phys + (32 << 20)))
zsize=$((28 * 1048576 + 4096))
zoned_cfg=("phys_addr=$zphys" "phys_size=$zsize" zone_size=4M zoned=1)
zoned_state=$RD_VM_RUN/331-nvram-warm-reboot.zoned

if [ "${RD_VM_BOOT:-1}" = 1 ]; then
	load_module phys_addr=$phys phys_size=32M format=1
	head -c 4M /dev/urandom >"$RD_TMP/pattern"
	dd if="$RD_TMP/pattern" of=/dev/ramdisk0 bs=1M seek=8 oflag=direct status=none
	read -r _ _ _ uuid </sys/block/ramdisk0/ramdisk/backing
	echo "$(sha256sum <"$RD_TMP/pattern") $uuid" >"$state"
	if [[ ,$(cat "$RD_CONFIGFS/features"), == *,zoned,* ]]; then
		# zone 0 written to 1 MiB, zone 1 full
		rd_configure zw "${zoned_cfg[@]}" format=1 power=1
		dd if="$RD_TMP/pattern" of="$RD_DEV" bs=1M count=1 oflag=direct status=none
		dd if="$RD_TMP/pattern" of="$RD_DEV" bs=1M seek=4 count=4 oflag=direct status=none
		dd if="$RD_DEV" bs=1M count=1 iflag=direct status=none | sha256sum >"$zoned_state"
	fi
	# no rmmod: the headers stay dirty, as after a crash
	vm_reboot
fi

[ -s "$state" ] || fail "the first boot left no checksum"
read -r want _ want_uuid <"$state"
load_module phys_addr=$phys phys_size=32M
got=$(dd if=/dev/ramdisk0 bs=1M skip=8 count=4 iflag=direct 2>/dev/null | sha256sum)
assert_eq "${got%% *}" "$want" "data after a warm reboot"
read -r _ _ _ uuid </sys/block/ramdisk0/ramdisk/backing
assert_eq "$uuid" "$want_uuid" "uuid after a warm reboot"
kernel_log | grep -q 'last detach was not orderly' || fail "no dmesg note of the unclean detach"
echo "data survived the warm reboot"

[ -s "$zoned_state" ] || { echo "no zoned device on $RD_KVER"; exit 0; }
rd_configure zw "${zoned_cfg[@]}" power=1
report=$(blkzone report -c 3 "$RD_DEV" | grep -o 'wptr 0x[0-9a-f]*.*zcond: *[0-9]*([a-z]*)' |
	sed 's/ reset.*zcond: */ /' | tr '\n' ' ')
assert_eq "$report" "wptr 0x000800 4(cl) wptr 0x002000 14(fu) wptr 0x000000 1(em) " \
	"the zones after a warm reboot"
assert_eq "$(dd if="$RD_DEV" bs=1M count=1 iflag=direct status=none | sha256sum)" \
	"$(cat "$zoned_state")" "zone 0's data after a warm reboot"
dd if="$RD_DEV" bs=1M skip=1 count=3 iflag=direct status=none |
	cmp -s - <(head -c 3M /dev/zero) || fail "zone 0 past its write pointer is not zeros"
echo "the zones survived the warm reboot"
