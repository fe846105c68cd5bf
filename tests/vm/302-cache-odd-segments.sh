#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bio segments that are not whole sectors ({100, 412}-byte O_DIRECT vectors; a SCSI disk over the device through LIO's loopback, whose bios carry them) in both cache modes, on RAM and reserved memory: EINVAL or the right bytes, and a power cut keeps whole sectors as of the last flush
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd modprobe udevadm

odd=$RD_TOP/build/test-bin/odd-iov
[ -x "$odd" ] || fail "$odd is missing (make userspace)"
tcm=/sys/kernel/config/target
tpg=$tcm/loopback/naa.5001405000000001/tpgt_1
phys=$((512 << 20))
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
load_module nr_devices=0

# The SCSI disk over a device: LIO's iblock backend hands the device the
# initiator's scatterlist as bio segments, and the SCSI disk's DMA
# alignment is 4 bytes, so an O_DIRECT vector that crosses a page boundary
# after 100 bytes reaches the device as segments of 100 and 412 bytes.
# The target core loads every backend it has: all go at the end, and the
# SCSI modules (udev loads sg) that were not loaded before.
grep -q '^target_core_mod ' /proc/modules && skip "the LIO target is in use already"
scsi_new=" sd_mod sg scsi_mod scsi_common "
while read -r m rest; do scsi_new=${scsi_new/ $m / }; done </proc/modules
lio_unload() {
	local m rest loaded=" " mods=()
	while read -r m rest; do
		loaded+="$m "
		case $m in tcm_loop | target_core_*) [ "$m" = target_core_mod ] || mods+=("$m") ;; esac
	done </proc/modules
	for m in target_core_mod $scsi_new; do
		[[ $loaded != *" $m "* ]] || mods+=("$m")
	done
	modprobe -r "${mods[@]}"
}
on_exit lio_unload
if ! modprobe target_core_iblock 2>/dev/null || ! modprobe tcm_loop 2>/dev/null ||
	! modprobe sd_mod 2>/dev/null; then
	skip "no LIO target modules (target_core_iblock, tcm_loop)"
fi
mkdir -p "$tpg" "$tcm/core/iblock_0"
on_exit "rmdir $tpg ${tpg%/*} $tcm/loopback $tcm/core/iblock_0"
echo naa.5001405000000002 >"$tpg/nexus"
on_exit "echo NULL >$tpg/nexus"

# NAME LUN: sets $sd, the SCSI disk over $dev (item NAME), as LUN LUN;
# few commands, as each costs a lot under TCG
scsi_over() {
	local lun=$2 i addr queue=() dma fua
	mkdir -p "$tcm/core/iblock_0/$1" "$tpg/lun/lun_$lun"
	echo "udev_path=$dev" >"$tcm/core/iblock_0/$1/control"
	echo 1 >"$tcm/core/iblock_0/$1/enable"
	ln -s "$tcm/core/iblock_0/$1" "$tpg/lun/lun_$lun/$1"
	on_exit "rm $tpg/lun/lun_$lun/$1; rmdir $tpg/lun/lun_$lun $tcm/core/iblock_0/$1"
	read -r addr <"$tpg/address"
	for ((i = 0; i < 50; i++)); do
		queue=(/sys/class/scsi_device/"$addr:$lun"/device/block/*/queue)
		[ -e "${queue[0]}" ] && break
		sleep 0.2
	done
	[ -e "${queue[0]}" ] || fail "no SCSI disk for LUN $lun"
	sd=${queue[0]%/queue}
	sd=/dev/${sd##*/}
	read -r dma <"${queue[0]}/dma_alignment"
	read -r fua <"${queue[0]}/fua"
	udevadm settle
	[ -b "$sd" ] || fail "no $sd"
	echo "$sd is LUN $lun over $dev (DMA alignment $dma, FUA $fua)"
}

# NAME MODE LUN [ATTR=VALUE...]: the whole sequence on one device; odd-iov
# tracks what the device must read now and after a power cut.
exercise() {
	local name=$1 mode=$2 dev sd
	rd_configure "$name" size=16M cache_mode="$mode" "${@:4}" power=1
	dev=$RD_DEV
	echo "== $name: $dev, $mode${4:+, $4}"
	scsi_over "$name" "$3"
	"$odd" --dev "$dev" --scsi "$sd" --cut "$RD_CONFIGFS/$name/power_cut" --mode "$mode" \
		--span $((64 << 10)) 2>"$RD_TMP/err" <<-EOF || { cat "$RD_TMP/err" >&2 && fail "$name: $(tail -n 1 "$RD_TMP/err")"; }
		# known, durable content to write over
		fill 1
		flush
		check the first fill

		# Vectors that are not whole sectors, straight to the device:
		# the kernels of the matrix refuse them at the system call (at
		# the time of writing), but whatever gets through must land.
		write dev 4096 2 100,412
		write dev 4096 3 412,100
		write dev 6144 4 100,924
		write dev 8192 5 300,300,424
		write dev 10240 6 512@3996
		write -b dev 1536 7 100,412,36,476
		check vectors straight to the device
		read dev 4096 100,412
		read dev 6144 100,924
		read dev 8192 300,300,424
		read dev 10240 512@3996
		read -b dev 1536 100,412,36,476

		# Through the SCSI disk the device gets the odd segments: one
		# sector as {100, 412}, {196, 828} over two sectors, and
		# {100, 4096, 412}, whose middle segment begins and ends
		# inside a sector. Reads the same, over dirty sectors written
		# with odd segments and with whole ones.
		write scsi 8192 8 512@3996
		write scsi 12288 9 1024@3900
		write scsi 20480 10 4608@3996
		check segments of 100 and 412 bytes
		read scsi 8192 512@3996
		read scsi 12288 1024@3900
		read scsi 20480 4608@3996
		read scsi 8192 4608@3996
		write scsi 24576 11 8192
		read scsi 24576 512@3996
		read scsi 24576 4608@3996

		# A power cut: unflushed sectors come back whole as they were
		# at the last flush (O_DSYNC flushes), flushed ones stay.
		flush
		write scsi 8192 12 512@3996
		write scsi 12288 13 4608@3996
		check odd segments over flushed data
		cut
		check a power cut after odd segments
		write scsi 8192 14 1024@3900
		flush
		write scsi 8192 15 512@3996
		write -s scsi 16384 16 1024@3900
		write scsi 20480 17 4608@3996
		write scsi 12288 18 512@3996
		cut
		check a flush, odd segments, an O_DSYNC write, more and a power cut
		read scsi 12288 4608@3996
	EOF
}

exercise ram-wt writethrough 0
exercise ram-wb writeback 1
exercise nv-wt writethrough 2 phys_addr=$phys phys_size=32M format=1
exercise nv-wb writeback 3 phys_addr=$((phys + (32 << 20))) phys_size=32M format=1
