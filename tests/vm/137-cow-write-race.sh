#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a write that looked its page up just before another write's copy took the page's place writes into the copy, never into the page on its way to be freed: after a rollback and a drop (issue 43's sequence) and after a clone's copy of a page its origin still holds, two writers of one page meet with the test build's delay between lookup and in-place write, and every sector of both writes reads back
# VMOPTS: --cpus 3
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd cmp od

# The window, in rd_pages_rw_bio() and rd_pages_write(): a writer looks
# its page up, then reads page->private to decide whether it may write in
# place. Between the two, another writer copies the page, swaps the copy
# in and lets the page go. The page was marked as having left the index,
# but the copier, its last holder, cleared the mark: the first writer then
# saw a page of its own and wrote into the one being freed, and its write
# was gone. A few instructions wide, so the test build spins at that point
# (RD_TEST_WRITE_LOOKED_UP, test_delay_us) and the second writer starts
# inside the first one's spin. Three vCPUs: each writer spins on one.
[ "$(nproc)" -ge 3 ] || skip "needs three CPUs"
load_test_module nr_devices=0
params=$RD_TEST_PARAMS
# must match enum rd_test_point in module/test_hooks.h
looked_up=1
delay_us=400000

rd_configure origin size=16M power=1
dev=$RD_DEV
ckpts=$RD_CONFIGFS/origin/checkpoints

# fill FILE BYTE COUNT: COUNT bytes of BYTE (octal, as tr takes it)
fill() { head -c "$3" /dev/zero | tr '\0' "\\$2" >"$1"; }
fill "$RD_TMP/old" 021 4096
fill "$RD_TMP/a" 241 512
fill "$RD_TMP/b" 261 512
# what page 0 must hold after a round: A's sector 0, B's sector 1, then old
cat "$RD_TMP/a" "$RD_TMP/b" >"$RD_TMP/want"
tail -c 3072 "$RD_TMP/old" >>"$RD_TMP/want"

# sector_write DEV FILE SECTOR: one 512-byte O_DIRECT write
sector_write() {
	dd if="$2" of="$1" bs=512 seek="$3" count=1 oflag=direct conv=notrunc status=none
}

# race DEV WHAT: two writers of page 0, the second started while the first
# spins between lookup and write; both writes must read back.
race() {
	local a b status=0
	echo "$looked_up" >"$params/test_delay_point"
	echo "$delay_us" >"$params/test_delay_us"
	sector_write "$1" "$RD_TMP/a" 0 &
	a=$!
	sleep 0.15
	sector_write "$1" "$RD_TMP/b" 1 &
	b=$!
	wait "$a" || status=$?
	wait "$b" || status=$?
	echo 0 >"$params/test_delay_point"
	[ "$status" = 0 ] || fail "$2: a write failed (status $status)"
	dd if="$1" of="$RD_TMP/got" bs=4096 count=1 iflag=direct status=none
	if ! cmp -s "$RD_TMP/got" "$RD_TMP/want"; then
		echo "page 0 after the race, by 512-byte sector (first bytes):"
		od -A d -t x1 -w512 "$RD_TMP/got" | cut -c1-40
		fail "$2: a write was lost (want sector 0 a1..., sector 1 b1..., rest 11...)"
	fi
	echo "$2: both writes read back"
}

# A checkpoint taken on the empty device holds no page: it keeps the
# sharing key on for the whole test (the writes below then look at
# page->private), and its pages never meet page 0's.
echo +keep >"$ckpts"

# Issue 43's sequence: page 0 written, checkpoint b, rollback to b, b
# dropped. The old index let go of page 0 as the rollback put it in the
# new one, which marked it as having left, though the device still has
# it: the first write copies it, and the second must not write into it.
for round in 1 2; do
	dd if="$RD_TMP/old" of="$dev" bs=4096 count=1 oflag=direct status=none
	echo +b >"$ckpts"
	echo b >"$RD_CONFIGFS/origin/rollback"
	echo -b >"$ckpts"
	race "$dev" "after a rollback, round $round"
done

# A clone's copy of a page the origin still holds marks it in the
# origin's index too; once the clone is gone and the checkpoint dropped,
# the origin holds it alone, marked.
dd if="$RD_TMP/old" of="$dev" bs=4096 count=1 oflag=direct status=none
echo +base >"$ckpts"
rd_configure clone "clone_of=${dev#/dev/} base" power=1
sector_write "$RD_DEV" "$RD_TMP/a" 7
rd_unconfigure clone
echo -base >"$ckpts"
race "$dev" "after a clone's copy"

echo -keep >"$ckpts"
