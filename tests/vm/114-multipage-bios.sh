#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: bios of many pages (one xarray walk each): across holes, node boundaries and freed nodes, at sub-page offsets, mixing new and existing pages, and under concurrent discard
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkdiscard cmp

load_module nr_devices=1 size=64M
dev=/dev/ramdisk0
mib=16
# the expected first 16 MiB of the device, and the pages that hold data
truncate -s ${mib}M "$RD_TMP/want"
head -c 8M /dev/urandom >"$RD_TMP/data"
declare -A held=()

# OFFSET LENGTH SOURCE_SKIP: one direct write of LENGTH bytes at byte OFFSET,
# a single bio, mirrored into the expected image.
write_at() {
	local page
	dd if="$RD_TMP/data" of=$dev bs="$2" count=1 skip="$3" iflag=skip_bytes \
		seek="$1" oflag=direct,seek_bytes status=none
	dd if="$RD_TMP/data" of="$RD_TMP/want" bs="$2" count=1 skip="$3" iflag=skip_bytes \
		seek="$1" oflag=seek_bytes conv=notrunc status=none
	for ((page = $1 / 4096; page <= ($1 + $2 - 1) / 4096; page++)); do
		held[$page]=1
	done
}

# OFFSET LENGTH: discard a page-aligned range, mirrored.
discard_at() {
	local page
	blkdiscard -o "$1" -l "$2" $dev
	dd if=/dev/zero of="$RD_TMP/want" bs="$2" count=1 seek="$1" oflag=seek_bytes \
		conv=notrunc status=none
	for ((page = $1 / 4096; page < ($1 + $2) / 4096; page++)); do
		unset "held[$page]"
	done
}

# WHAT: the first 16 MiB read back in 4 MiB bios, and at an odd sector in
# 1 MiB bios, match the image, and the page count matches the pages written.
check() {
	dd if=$dev of="$RD_TMP/got" bs=4M count=$((mib / 4)) iflag=direct status=none
	cmp "$RD_TMP/want" "$RD_TMP/got" || fail "4 MiB reads differ after $1"
	dd if=$dev of="$RD_TMP/got" bs=1M count=3 skip=1536 iflag=direct,skip_bytes status=none
	cmp <(tail -c +1537 "$RD_TMP/want" | head -c 3M) "$RD_TMP/got" ||
		fail "1 MiB reads at byte 1536 differ after $1"
	assert_eq "$(sysfs_stat ramdisk0 allocated_pages)" ${#held[@]} "pages after $1"
	echo "ok: $1"
}

# Every other page of the first 1 MiB: a read bio alternates between data
# and holes, and crosses the boundaries between xarray nodes (64 slots).
for ((page = 0; page < 256; page += 2)); do
	write_at $((page * 4096)) 4096 $((page * 4096))
done
check "every other page written"

# 4 MiB from sector 1: each 4 KiB of the bio straddles two device pages,
# half of which exist already.
write_at 512 $((4 << 20)) 4096
check "a 4 MiB write at an odd sector"

# Free a whole xarray node's worth of pages in the middle, then write a bio
# that spans existing pages, the freed node and pages never written.
discard_at $((1 << 20)) $((256 << 10))
check "a discard that frees whole nodes"
write_at $(((1 << 20) - 8192)) $((6 << 20)) 12288
check "a 6 MiB write over old, freed and new pages"

# Readers walking while another process frees and re-creates the pages
# under them (the walk's retry and restart paths): every read must succeed
# and the kernel must report nothing; what a racing read returns is not
# defined, so the data is checked once the churn has stopped.
for ((page = 0; page < mib * 256; page++)); do held[$page]=1; done
dd if="$RD_TMP/data" of=$dev bs=4M count=2 oflag=direct status=none
dd if="$RD_TMP/data" of=$dev bs=4M count=2 seek=2 oflag=direct status=none
(
	end=$((SECONDS + 4))
	while ((SECONDS < end)); do
		blkdiscard -o $((RANDOM % 64 * 256 << 10)) -l $((256 << 10)) $dev
		dd if="$RD_TMP/data" of=$dev bs=256K count=1 seek=$((RANDOM % 64)) \
			oflag=direct status=none
	done
) &
churn=$!
reads=0
while kill -0 $churn 2>/dev/null; do
	dd if=$dev of=/dev/null bs=4M count=$((mib / 4)) iflag=direct status=none ||
		fail "a read failed while pages were freed under it"
	reads=$((reads + 1))
done
wait $churn || fail "the discard and write loop failed"
echo "$reads passes of 16 MiB read while pages were discarded and rewritten"
dd if="$RD_TMP/data" of=$dev bs=4M count=2 oflag=direct status=none
dd if="$RD_TMP/data" of=$dev bs=4M count=2 seek=2 oflag=direct status=none
cat "$RD_TMP/data" "$RD_TMP/data" >"$RD_TMP/want"
check "concurrent discard, then a rewrite"
unload_module
