#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl checkpoint take, list (table and JSON) and drop drive the checkpoints file and info counts them; rollback brings back a checkpoint's data bit for bit; clone makes a device with a checkpoint's data, and its checkpoint and origin stay while it exists; an open or mounted device, a bad name, a duplicate, a 17th checkpoint, a missing one and a powered-off device are refused with one line naming them and the usual exit statuses, nothing changed
# KERNELS: first
# What this drives in the module (checkpoints, rollback, clones) is tested
# on every kernel by tests 124 and 127; ramdiskctl's side of it does not
# depend on the kernel: one run saves make check about 30 s on each of the
# other kernels.
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd md5sum python3

ctl=$RD_BIN/ramdiskctl

load_module nr_devices=1
grep -q checkpoints "$RD_CONFIGFS/features" || fail "features does not list checkpoints"
dev=$("$ctl" create --name ckp --size 16M)
on_exit "$ctl" remove ckp
udevadm settle 2>/dev/null || true
ckpts=$RD_CONFIGFS/ckp/checkpoints
sum() { md5sum <"$dev" | cut -d' ' -f1; }
# write SEEK COUNT: COUNT random 4 KiB blocks from block SEEK, then let
# udev's probe of the closed device end (rollback wants it closed)
write() {
	dd if=/dev/urandom of="$dev" bs=4k seek="$1" count="$2" oflag=direct status=none
	udevadm settle 2>/dev/null || true
}
# the module's list as ramdiskctl's --raw table
raw_list() {
	echo "NAME PAGES OWN"
	sed 's/ pages=/ /; s/ own=/ /' "$ckpts"
}

# An empty list: the header alone, or nothing, or an empty JSON list.
run_cmd 0 "$ctl" checkpoint ckp list --raw
assert_eq "$out" "NAME PAGES OWN" "the list of a new device"
run_cmd 0 "$ctl" checkpoint ckp list --noheadings
assert_eq "$out" "" "the list of a new device, without headings"
run_cmd 0 "$ctl" checkpoint ckp list --json
python3 -c 'import json, sys; assert json.loads(sys.argv[1]) == {"checkpoints": []}' "$out" ||
	fail "checkpoint list --json of a new device: $out"

# take, by name and by device; list shows the module's list.
write 0 256
sum0=$(sum)
run_cmd 0 "$ctl" checkpoint ckp take base
run_cmd 0 "$ctl" checkpoint "$dev" take x.y_z-1
assert_eq "$(cut -d' ' -f1 "$ckpts" | tr '\n' ' ')" "base x.y_z-1 " "the module's list"
run_cmd 0 "$ctl" checkpoint ckp list --raw
assert_eq "$out" "$(raw_list)" "checkpoint list --raw"
assert_eq "$(head -n 2 <<<"$out")" "NAME PAGES OWN
base 256 0" "base: the 256 pages written, all shared"
run_cmd 0 "$ctl" checkpoint ckp list
assert_eq "$(head -n 1 <<<"$out" | tr -s ' ')" "NAME PAGES OWN" "the table's header"
run_cmd 0 "$ctl" checkpoint ckp list --json
python3 -c '
import json, sys
d = json.loads(sys.argv[1])["checkpoints"]
want = []
for line in open(sys.argv[2]):
    name, pages, own = line.split()
    want.append({"name": name, "pages": int(pages[len("pages="):]), "own": int(own[len("own="):])})
assert d == want, (d, want)
assert d[0] == {"name": "base", "pages": 256, "own": 0}, d[0]
' "$out" "$ckpts" || fail "checkpoint list --json: $out"
run_cmd 0 "$ctl" info ckp
assert_eq "$(sed -n 's/^checkpoints: *//p' <<<"$out")" 2 "info's checkpoints"
assert_eq "$(sed -n 's/^checkpoint_pages: *//p' <<<"$out")" "0 pages" "info's checkpoint_pages"

# Writes after a take: the old pages stay, held only by the checkpoints.
write 128 64
write 1024 16
sum1=$(sum)
[ "$sum1" != "$sum0" ] || fail "the writes did not change the data"
assert_eq "$(sysfs_stat "$dev" checkpoint_pages)" 64 "checkpoint_pages after 64 pages were overwritten"
run_cmd 0 "$ctl" info ckp
assert_eq "$(sed -n 's/^checkpoint_pages: *//p' <<<"$out")" "64 pages" "info's checkpoint_pages"
run_cmd 0 "$ctl" checkpoint ckp take later

# rollback: the data of the checkpoint, bit for bit; the checkpoint stays.
run_cmd 0 "$ctl" rollback ckp base
assert_eq "$(sum)" "$sum0" "the data after rollback to base"
run_cmd 0 "$ctl" rollback "$dev" later
assert_eq "$(sum)" "$sum1" "the data after rollback to later"
write 0 8
run_cmd 0 "$ctl" rollback ckp base
assert_eq "$(sum)" "$sum0" "the data after a second rollback to base"
assert_eq "$(cut -d' ' -f1 "$ckpts" | tr '\n' ' ')" "base x.y_z-1 later " "the list after rollbacks"

# An open or mounted device is not rolled back: exit status 5, data kept.
write 0 8
sum2=$(sum)
exec 3<"$dev"
expect_refusal 5 "ckp: cannot roll back to checkpoint base: $dev is open or mounted; unmount it" \
	"$ctl" rollback ckp base
exec 3<&-
assert_eq "$(sum)" "$sum2" "the data after a refused rollback"
if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q -F "$dev"
	mkdir "$RD_TMP/mnt"
	mount "$dev" "$RD_TMP/mnt"
	on_exit umount "$RD_TMP/mnt"
	expect_refusal 5 "is open or mounted; unmount it" "$ctl" rollback ckp later
	umount "$RD_TMP/mnt"
	udevadm settle 2>/dev/null || true
	run_cmd 0 "$ctl" rollback ckp later
	assert_eq "$(sum)" "$sum1" "the data after rollback to later once unmounted"
fi

# Refused, with the list unchanged: a bad name (2) before anything is
# written, a duplicate (4), a missing checkpoint (7).
before=$(cat "$ckpts")
for name in "a b" "" "a/b" "caf$(printf '\303\251')" "abcdefghijklmnopqrstuvwxyz012345"; do
	expect_refusal 2 "'$name' is not a checkpoint name" "$ctl" checkpoint ckp take "$name"
	expect_refusal 2 "'$name' is not a checkpoint name" "$ctl" rollback ckp "$name"
done
expect_refusal 4 "ckp: checkpoint base exists already" "$ctl" checkpoint ckp take base
expect_refusal 7 "ckp has no checkpoint nosuch" "$ctl" checkpoint ckp drop nosuch
expect_refusal 7 "ckp has no checkpoint nosuch" "$ctl" rollback ckp nosuch
for args in "frobnicate" "take" "drop" "take a b" "list x" "take a --json" "list --bogus"; do
	# shellcheck disable=SC2086 # the words are the arguments
	run_cmd 2 "$ctl" checkpoint ckp $args
done
run_cmd 2 "$ctl" rollback ckp
run_cmd 2 "$ctl" rollback ckp base extra
assert_eq "$(cat "$ckpts")" "$before" "the list after refused commands"

# At most 16 a device: the 17th is refused (1).
for i in $(seq 4 16); do
	run_cmd 0 "$ctl" checkpoint ckp take "n$i"
done
expect_refusal 1 "ckp: cannot take checkpoint n17: the device has 16" "$ctl" checkpoint ckp take n17
run_cmd 0 "$ctl" info ckp
assert_eq "$(sed -n 's/^checkpoints: *//p' <<<"$out")" 16 "info's checkpoints"

# drop: one at a time, then the rest; nothing left for checkpoints alone.
run_cmd 0 "$ctl" checkpoint ckp drop x.y_z-1
assert_eq "$(cut -d' ' -f1 "$ckpts" | head -n 3 | tr '\n' ' ')" "base later n4 " "the list after a drop"
for name in base later $(seq -f 'n%g' 4 16); do
	run_cmd 0 "$ctl" checkpoint ckp drop "$name"
done
assert_eq "$(cat "$ckpts")" "" "the module's list after every drop"
run_cmd 0 "$ctl" checkpoint ckp list --noheadings
assert_eq "$out" "" "the list after every drop"
assert_eq "$(sysfs_stat "$dev" checkpoint_pages)" 0 "checkpoint_pages after every drop"
run_cmd 0 "$ctl" info ckp
assert_eq "$(sed -n 's/^checkpoints: *//p' <<<"$out")" 0 "info's checkpoints after every drop"

# A powered-off configuration has none (7); a load-time device has no
# configuration (7).
rd_configure offline size=16M
for args in "checkpoint offline take a" "checkpoint offline list" "rollback offline a"; do
	# shellcheck disable=SC2086 # the words are the arguments
	expect_refusal 7 "offline is powered off; a device has checkpoints only while powered" "$ctl" $args
done
run_cmd 0 "$ctl" info offline
assert_eq "$(grep -c '^checkpoint' <<<"$out" || true)" 0 "checkpoint lines in info of a powered-off device"
expect_refusal 7 "was made at module load and has no configuration" "$ctl" checkpoint ramdisk0 list
run_cmd 7 "$ctl" checkpoint nosuch list

# clone: a new device with the checkpoint's data; while it exists the
# checkpoint is not dropped nor the device removed; bad input leaves nothing.
write 0 64
run_cmd 0 "$ctl" checkpoint ckp take cbase
cbase_sum=$(sum)
write 0 8
run_cmd 0 "$ctl" clone --name cl1 --mem-limit 1M ckp cbase
clone_dev=$out
on_exit "$ctl" remove cl1
[[ $clone_dev =~ ^/dev/ramdisk[0-9]+$ ]] || fail "clone printed '$clone_dev'"
udevadm settle 2>/dev/null || true
assert_eq "$(md5sum <"$clone_dev" | cut -d' ' -f1)" "$cbase_sum" "the clone's data"
assert_eq "$(cat "$RD_CONFIGFS/cl1/clone_of") $(cat "$RD_CONFIGFS/cl1/mem_limit")" \
	"ramdisk$(cat "$RD_CONFIGFS/ckp/index") cbase 1048576" "the clone's configuration"
run_cmd 0 "$ctl" info cl1
assert_eq "$(sed -n 's/^clone_of: *//p' <<<"$out")" "ramdisk$(cat "$RD_CONFIGFS/ckp/index") cbase" \
	"info's clone_of"
expect_refusal 5 "ckp: cannot drop checkpoint cbase: clones start from it; remove them first" \
	"$ctl" checkpoint ckp drop cbase
expect_refusal 5 "has clones, which read its checkpoints; remove them first" "$ctl" remove ckp
expect_refusal 1 "cl1: cannot take checkpoint c: the device is a clone" "$ctl" checkpoint cl1 take c
expect_refusal 7 "ckp has no checkpoint nosuch" "$ctl" clone --name cl2 ckp nosuch
[ ! -e "$RD_CONFIGFS/cl2" ] || fail "a refused clone left its configuration"
expect_refusal 7 "offline is powered off" "$ctl" clone offline cbase
expect_refusal 2 "'a/b' is not a checkpoint name" "$ctl" clone ckp a/b
expect_refusal 2 "takes a device and a checkpoint name" "$ctl" clone ckp
run_cmd 0 "$ctl" remove cl1
run_cmd 0 "$ctl" checkpoint ckp drop cbase
echo ok
