#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: only CAP_SYS_ADMIN creates, powers, cuts, reconfigures or removes (root without it and a plain user are refused, rmdir of a powered device too; nothing changes); checkpoints is root's to read; device nodes are 0660 root:disk
. "${0%/*}/../lib/common.sh"
require_root
require_cmd setpriv blockdev
getent passwd nobody >/dev/null || skip "no user nobody"
getent group disk >/dev/null || skip "no group disk"

cfg=$RD_CONFIGFS
load_module nr_devices=1 size=8M
[ -d "$cfg" ] || fail "$cfg is missing"

# Root with CAP_SYS_ADMIN gone from every set, as in a container or a
# sandboxed service: still uid 0, so the 0644 root-owned files let it in.
nocap() {
	setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin "$@"
}
# A plain user, and one in group disk.
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
as_disk_user() {
	setpriv --reuid=nobody --regid=nogroup --groups=disk "$@"
}

# The tools really lack the capability (bit 21 of CapEff).
capeff=$(nocap awk '/^CapEff/ {print $2}' /proc/self/status)
(((0x$capeff >> 21) & 1)) && fail "setpriv left CAP_SYS_ADMIN: CapEff $capeff"
assert_eq "$(nocap id -u)" 0 "uid without CAP_SYS_ADMIN"

# WHO WANT_ERROR: writes each "FILE VALUE" line of $RD_TMP/writes in one
# process run as WHO; every write must fail with WANT_ERROR.
refused_writes() {
	local who=$1 want=$2 file answer
	# shellcheck disable=SC2016 # expanded by the inner shell
	$who bash -c 'while read -r f v; do
		if err=$(printf "%s\n" "$v" 2>&1 >"$f"); then
			echo "$f written"
		else
			echo "$f ${err##*: }"
		fi
	done' <"$RD_TMP/writes" >"$RD_TMP/answers"
	while read -r file answer; do
		[ "$answer" = "$want" ] || fail "$who writing $file: $answer, want '$want'"
	done <"$RD_TMP/answers"
	assert_eq "$(wc -l <"$RD_TMP/answers")" "$(wc -l <"$RD_TMP/writes")" "answers of $who"
}

# A powered writeback device with dirty data, and an unpowered configuration.
rd_configure on size=16M cache_mode=writeback power=1
dev=$RD_DEV
head -c 1M /dev/urandom >"$RD_TMP/data"
dd if="$RD_TMP/data" of="$dev" bs=64K oflag=direct status=none
dirty=$(sysfs_stat "$dev" dirty_bytes)
[ "$dirty" -gt 0 ] || fail "no dirty bytes on the writeback device"
rd_configure off

snapshot() {
	local d f
	for d in on off; do
		for f in "$cfg/$d"/*; do
			[ -r "$f" ] && [ "${f##*/}" != power_cut ] && echo "$f=$(cat "$f")"
		done
	done
	echo /sys/block/ramdisk*
	ls "$cfg"
}
snapshot >"$RD_TMP/before"

# A value each attribute accepts from an administrator (the checks run
# before any parsing, so a valid value shows the refusal is the capability).
value_for() {
	case $1 in
	size | mem_limit | cache_size) echo 32M ;;
	block_size) echo 4096 ;;
	cache_mode) echo writethrough ;;
	numa_node) echo -1 ;;
	power_cut | format) echo 1 ;;
	power) echo 1 ;;
	phys_addr) echo 0x100000000 ;;
	phys_size) echo 16M ;;
	*) echo 7 ;;
	esac
}

dmesg -C
IFS=, read -r -a attrs <"$cfg/features"
[ "${#attrs[@]}" -gt 10 ] || fail "features lists only: ${attrs[*]}"
for a in "${attrs[@]}"; do
	[ "$a" = index ] && continue # read-only for everybody
	for d in on off; do
		val=$(value_for "$a")
		[ "$a" = power ] && [ $d = on ] && val=0
		echo "$cfg/$d/$a $val"
	done
done >"$RD_TMP/writes"
checked=$(wc -l <"$RD_TMP/writes")
refused_writes nocap "Operation not permitted"
refused_writes as_nobody "Permission denied"
echo "refused $checked attribute writes twice each"

# mkdir: EPERM without the capability, EACCES for a plain user.
nocap mkdir "$cfg/intruder" 2>"$RD_TMP/err" && fail "mkdir without CAP_SYS_ADMIN succeeded"
grep -q "Operation not permitted" "$RD_TMP/err" || fail "mkdir said: $(cat "$RD_TMP/err")"
as_nobody mkdir "$cfg/intruder" 2>"$RD_TMP/err" && fail "mkdir as nobody succeeded"
grep -q "Permission denied" "$RD_TMP/err" || fail "mkdir said: $(cat "$RD_TMP/err")"
[ ! -e "$cfg/intruder" ] || fail "a refused mkdir left $cfg/intruder"

# rmdir of a powered device: configfs asks no capability, but a powered
# directory is pinned, so it is EBUSY without the capability (and with it),
# EACCES for a plain user; the disk stays (the snapshot below).
nocap rmdir "$cfg/on" 2>"$RD_TMP/err" && fail "rmdir of a powered device without CAP_SYS_ADMIN succeeded"
grep -q "busy" "$RD_TMP/err" || fail "rmdir without CAP_SYS_ADMIN said: $(cat "$RD_TMP/err")"
as_nobody rmdir "$cfg/on" 2>"$RD_TMP/err" && fail "rmdir as nobody succeeded"
grep -q "Permission denied" "$RD_TMP/err" || fail "rmdir as nobody said: $(cat "$RD_TMP/err")"

# Nothing changed: attributes, devices, dirty data, no power cut.
snapshot >"$RD_TMP/after"
diff "$RD_TMP/before" "$RD_TMP/after" || fail "a refused write changed something"
assert_eq "$(sysfs_stat "$dev" power_cuts)" 0 "power cuts after refused power_cut writes"
assert_eq "$(sysfs_stat "$dev" dirty_bytes)" "$dirty" "dirty bytes after refused power_cut writes"
cmp -n 1048576 "$RD_TMP/data" "$dev" || fail "data changed after the refused writes"
# the first refusals are logged (the rest are rate-limited)
dmesg | grep -q "on: bandwidth_mbps needs CAP_SYS_ADMIN" || fail "no dmesg line saying why"

# Reading checkpoints walks every page of each checkpoint under the
# module's lock: root's alone (0600), so that no user keeps the lock busy.
assert_eq "$(stat -c %a "$cfg/on/checkpoints")" 600 "mode of checkpoints"
cat "$cfg/on/checkpoints" >/dev/null || fail "root cannot read checkpoints"
as_nobody cat "$cfg/on/checkpoints" 2>"$RD_TMP/err" && fail "nobody read checkpoints"
grep -q "Permission denied" "$RD_TMP/err" || fail "nobody reading checkpoints: $(cat "$RD_TMP/err")"

# Device nodes: 0660 root:disk, for load-time and configfs devices alike.
for node in /dev/ramdisk0 "$dev"; do
	assert_eq "$(stat -c '%a %U %G' "$node")" "660 root disk" "mode and owner of $node"
done
as_nobody dd if="$dev" of=/dev/null bs=4K count=1 status=none 2>/dev/null &&
	fail "a user outside group disk read $dev"
# Group disk may do I/O (that is what the group means) but not the
# administrative block ioctls.
as_disk_user dd if="$dev" of=/dev/null bs=4K count=1 status=none ||
	fail "group disk cannot read $dev"
as_disk_user blockdev --flushbufs "$dev" 2>/dev/null && fail "BLKFLSBUF as a user succeeded"
as_disk_user blockdev --rereadpt "$dev" 2>/dev/null && fail "BLKRRPART as a user succeeded"

# The administrator still can: the refusals were the capability, not a bug.
echo 1 >"$cfg/on/power_cut"
assert_eq "$(sysfs_stat "$dev" power_cuts)" 1 "power cuts after the administrator's cut"
echo 0 >"$cfg/on/power"
echo 4096 >"$cfg/off/block_size"
mkdir "$cfg/admin" && rmdir "$cfg/admin"
echo "root without CAP_SYS_ADMIN and nobody were refused; the administrator was not"
