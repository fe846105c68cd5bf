#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every block marked doc-test: vm outside the labs (README, admin guide) and the EXAMPLES of ramdiskctl(8) and rdbench(1) run as shown and leave nothing behind
# KERNELS: first
# The text is the same on every kernel, and what it drives in the module is
# tested on each kernel by other tests: one run saves CI a minute a kernel.
. "${0%/*}/../lib/common.sh"
# shellcheck source=tests/vm/lib/doc-script.sh
. "${0%/*}/lib/doc-script.sh"
require_root
require_cmd python3 mkfs.ext4 sfdisk blkdiscard udevadm lsblk

docs=$RD_TOP/scripts/doc-commands
moddir=$(dirname "$RD_MODULE")
export PATH=$RD_BIN:$PATH

# What a block that fails half-way may leave: a ramdisk mounted anywhere,
# configfs devices, the module.
tidy() {
	local m d
	awk '$1 ~ "^/dev/ramdisk" {print $2}' /proc/mounts | sort -r | while read -r m; do
		umount "$m"
	done
	for d in "$RD_CONFIGFS"/*/; do
		[ -d "$d" ] || continue
		echo 0 >"$d/power"
		rmdir "$d"
	done
	unload_module
}
on_exit tidy
tidy >/dev/null 2>&1 || true

# Where a file's examples run: the admin guide's use `insmod ramdisk.ko`
# from the module's folder; README's run from the top of the checkout.
folder_of() {
	case $1 in
	Documentation/admin-guide.md) echo "$moddir" ;;
	*) echo "$RD_TOP" ;;
	esac
}

files=$("$docs" list | awk -F'\t' '$2 == "vm" {sub(/:[0-9]+$/, "", $1); print $1}' |
	grep -v '^Documentation/labs/' | sort -u)
[ -n "$files" ] || fail "no vm blocks outside the labs: scripts/doc-commands list"
failed=()
for f in $files; do
	script=$RD_TMP/$(basename "$f" .md).sh
	"$docs" script --subshells "$RD_TOP/$f" >"$script"
	echo "=== $f: $(grep -c '^echo .>>> ' "$script") blocks, in $(folder_of "$f")"
	doc_script_run "$(folder_of "$f")" "$script" || failed+=("$f ($doc_failed_block)")
	if grep -q '^ramdisk ' /proc/modules || awk '$1 ~ "^/dev/ramdisk"' /proc/mounts | grep -q .; then
		failed+=("$f left the module or a mount behind")
	fi
	tidy >/dev/null 2>&1 || true
done
# ramdiskctl(8)'s EXAMPLES start from the module loaded as it loads by
# default, with ramdisk0.
page=Documentation/man/ramdiskctl.8
"$docs" script "$RD_TOP/$page" >"$RD_TMP/man.sh"
echo "=== $page: $(grep -c '^echo .>>> ' "$RD_TMP/man.sh") commands"
grep -q '^ramdiskctl ' "$RD_TMP/man.sh" || failed+=("$page: no example commands found")
load_module nr_devices=1 # the default: one device of 1 GiB
if (cd "$RD_TOP" && timeout 120 bash -eo pipefail "$RD_TMP/man.sh") >"$RD_TMP/out" 2>&1; then
	echo "ok"
else
	tail -n 25 "$RD_TMP/out"
	failed+=("$page ($(grep '^>>> ' "$RD_TMP/out" | tail -n 1))")
fi
if find "$RD_CONFIGFS" -mindepth 1 -maxdepth 1 -type d | grep -q .; then
	failed+=("$page left a configfs device behind")
fi
tidy >/dev/null 2>&1 || true

# rdbench(1)'s EXAMPLES compare tmpfs and /var/tmp with a RAM disk file
# system on /mnt/rd0, and measure a blank /dev/ramdisk0; rdbench removes
# what it made.
page=Documentation/man/rdbench.1
# The examples take under 40 s on Debian's kernels; the debug kernel of
# make check-debug runs them several times slower and hit 300 s.
limit=300
[[ $(uname -r) != *-rd-debug ]] || limit=1800
"$docs" script "$RD_TOP/$page" >"$RD_TMP/man.sh"
echo "=== $page: $(grep -c '^echo .>>> ' "$RD_TMP/man.sh") commands"
grep -q '^rdbench ' "$RD_TMP/man.sh" || failed+=("$page: no example commands found")
load_module nr_devices=2 size=256M
udevadm settle
mkfs.ext4 -q /dev/ramdisk1
mkdir -p /mnt/rd0
mount /dev/ramdisk1 /mnt/rd0
if (cd "$RD_TMP" && timeout "$limit" bash -eo pipefail "$RD_TMP/man.sh") >"$RD_TMP/out" 2>&1; then
	echo "ok"
	grep -E '^(ramdisk|tmpfs|disk|/dev/ramdisk0)' "$RD_TMP/out" | head -n 8
else
	tail -n 25 "$RD_TMP/out"
	failed+=("$page ($(grep '^>>> ' "$RD_TMP/out" | tail -n 1))")
fi
for left in /dev/shm/rdb /var/tmp/rdb /mnt/rd0/rdb /dev/shm/q /var/tmp/q /var/tmp/bw.data; do
	[ ! -e "$left" ] || failed+=("$page left $left behind")
done
tidy >/dev/null 2>&1 || true

[ ${#failed[@]} = 0 ] || fail "documented commands failed: ${failed[*]}"
