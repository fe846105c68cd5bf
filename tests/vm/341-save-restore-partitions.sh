#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: save and restore of a partition: the extents ioctl lists only the partition's data, at offsets from its start, clamped to it; a partition's image restores it and touches nothing else
. "${0%/*}/../lib/common.sh"
require_root
require_cmd sfdisk udevadm perl blkdiscard

ctl=$RD_BIN/ramdiskctl
dev=/dev/ramdisk0
load_module size=16M max_part=4

# Two adjacent 4 MiB partitions, at 1 MiB and 5 MiB; the GPT headers lie
# before the first and after the second.
sfdisk -q $dev <<'EOF'
label: gpt
start=2048, size=8192
start=10240, size=8192
EOF
udevadm settle
[ -b ${dev}p2 ] || fail "${dev}p2 missing after sfdisk"
M=$((1 << 20))

# put FILE DEV OFFSET: FILE's bytes at byte OFFSET of DEV
put() {
	dd if="$1" of="$2" bs=4K seek=$(($3 / 4096)) oflag=direct status=none
}
head -c 64K /dev/urandom >"$RD_TMP/64k"
head -c 8K /dev/urandom >"$RD_TMP/8k"
head -c 4K /dev/urandom >"$RD_TMP/4k"
put "$RD_TMP/64k" ${dev}p1 0
put "$RD_TMP/64k" ${dev}p1 $((2 * M))
# one run across the boundary: the last page of p1, the first of p2
put "$RD_TMP/8k" $dev $((5 * M - 4096))
# the page right after p2, in no partition
put "$RD_TMP/4k" $dev $((9 * M))
# 260 pages, one every other page, from 1 MiB into p2: more extents than
# ramdiskctl asks for in one call, so the second call starts within p2
perl -e 'for my $i (0 .. 259) { printf("%-4096s", "page $i"); print "\0" x 4096 if $i < 259 }' \
	>"$RD_TMP/pages"
dd if="$RD_TMP/pages" of=${dev}p2 bs=4K seek=256 conv=sparse,notrunc oflag=direct status=none
sync

# extents IMAGE: "OFFSET LENGTH" for each extent of a save image, in the
# admin guide's layout: the extent count at byte 32 of the 64-byte header;
# each extent 24 bytes (offset, length, checks), the data, a 4-byte CRC
extents() {
	# shellcheck disable=SC2016 # perl's variables
	perl -e 'open(my $f, "<:raw", $ARGV[0]) or die; read($f, my $h, 64);
		for (1 .. unpack("Q<", substr($h, 32, 8))) {
			read($f, my $r, 24); my ($o, $l) = unpack("Q<Q<", $r);
			print "$o $l\n"; seek($f, $l + 4, 1);
		}' "$1"
}

"$ctl" save ${dev}p1 "$RD_TMP/p1.img"
extents "$RD_TMP/p1.img" >"$RD_TMP/p1.got"
printf '%s\n' "0 65536" "$((2 * M)) 65536" "$((4 * M - 4096)) 4096" >"$RD_TMP/p1.want"
echo "extents of p1: $(paste -sd, "$RD_TMP/p1.got")"
diff "$RD_TMP/p1.want" "$RD_TMP/p1.got" || fail "p1's extents are not its own data at partition offsets"

"$ctl" save ${dev}p2 "$RD_TMP/p2.img"
extents "$RD_TMP/p2.img" >"$RD_TMP/p2.got"
{
	echo "0 4096"
	for ((i = 0; i < 260; i++)); do echo "$((M + i * 8192)) 4096"; done
} >"$RD_TMP/p2.want"
echo "extents of p2: $(wc -l <"$RD_TMP/p2.got"), first $(head -n 2 "$RD_TMP/p2.got" | paste -sd,)"
diff "$RD_TMP/p2.want" "$RD_TMP/p2.got" >/dev/null || fail "p2's extents differ: $(diff "$RD_TMP/p2.want" "$RD_TMP/p2.got" | head -n 4 | paste -sd' ')"
# the data of the image's first p1 extent is what was written there
cmp <(tail -c +$((64 + 24 + 1)) "$RD_TMP/p1.img" | head -c 64K) "$RD_TMP/64k" ||
	fail "p1's image does not hold p1's first 64K"

# Round trip: wipe p2, restore its image; the whole disk reads as before
# (read direct: the whole disk's page cache is not the partition's).
direct_sum() { dd if="$1" bs=1M iflag=direct status=none | sha256sum; }
before=$(direct_sum $dev)
blkdiscard ${dev}p2
dd if=${dev}p2 bs=1M iflag=direct status=none | cmp -s - <(head -c $((4 * M)) /dev/zero) ||
	fail "p2 not zero after blkdiscard"
"$ctl" restore "$RD_TMP/p2.img" ${dev}p2
assert_eq "$(direct_sum $dev)" "$before" "the whole disk after p2 was restored"
echo "p2 saved, wiped and restored; p1, the GPT and the page after p2 unchanged"
