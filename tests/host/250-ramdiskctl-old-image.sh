#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl restore of an image saved by an older ramdiskctl (tests/host/data/rdimage): the same bytes come back; corrupted checksums are refused and change nothing
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
require_cmd losetup cmp
[ "$(id -u)" = 0 ] || skip "needs root for a loop device"

old=$RD_TOP/tests/host/data/rdimage/format1-975c151.img
size=$((16 << 20))

# The device the old image was saved from (see data/rdimage/README).
put() { dd of="$1" bs=4096 seek="$2" oflag=seek_bytes conv=notrunc status=none; }
truncate -s $size "$RD_TMP/expected"
seq -w 0 1199 | head -c 6000 | put "$RD_TMP/expected" 0
{ yes 'ramdisk save image, format 1' || true; } | head -c 3000 | put "$RD_TMP/expected" $((1048576 + 100))
printf tail | put "$RD_TMP/expected" $((size - 100))
assert_eq "$(sha256sum <"$RD_TMP/expected")" \
	"c9174cee6264b4f6e31bb339062eba12b7a63c56d28dadec8ccb08cbef5845d4  -" "the expected device"

# A loop device of the same size and block size, holding other data first:
# restore must leave only the image's.
head -c $size /dev/urandom >"$RD_TMP/disk"
dev=$(losetup --find --show --sector-size 512 "$RD_TMP/disk" 2>/dev/null) ||
	skip "no loop device here"
on_exit "losetup -d $dev"

echo "restore the old image onto $dev"
"$ctl" restore "$old" "$dev"
cmp "$dev" "$RD_TMP/expected" || fail "the restored device differs from the one saved"
echo "the restored device holds the bytes the old ramdiskctl saved"

# flip OFFSET: a copy of the old image with one byte inverted, in $RD_TMP/bad
flip() {
	local byte
	cp "$old" "$RD_TMP/bad"
	byte=$(od -An -tu1 -j"$1" -N1 "$old" | tr -d ' ')
	printf %b "\\0$(printf %03o $((byte ^ 255)))" |
		dd of="$RD_TMP/bad" bs=1 seek="$1" conv=notrunc status=none
}

# refused OFFSET MESSAGE: the old image with byte OFFSET corrupted is refused
# with exit status 8 and MESSAGE, and the device keeps what it held
refused() {
	local rc=0 err
	flip "$1"
	head -c $size /dev/urandom >"$RD_TMP/before"
	dd if="$RD_TMP/before" of="$dev" bs=1M oflag=direct status=none
	"$ctl" restore "$RD_TMP/bad" "$dev" 2>"$RD_TMP/err" || rc=$?
	err=$(cat "$RD_TMP/err")
	echo "byte $1 corrupted -> $rc: $err"
	assert_eq "$rc" 8 "exit status of a restore of an image with byte $1 corrupted"
	assert_eq "$err" "ramdiskctl: restore: $RD_TMP/bad: $2; nothing was written" \
		"the error for byte $1 corrupted"
	cmp "$dev" "$RD_TMP/before" || fail "a refused restore changed the device"
}

# the header's checksum, an extent record, extent data, the trailer's
# magic and its checksum
len=$(stat -c %s "$old")
refused 60 "image header fails its checksum"
refused 70 "an extent record fails its checksum"
refused 100 "extent data fails its checksum (corrupted image)"
refused $((len - 1)) "the image trailer is missing or corrupted"
refused $((len - 24)) "the image trailer is missing or corrupted"
echo "corrupted images are refused before a byte is written"
