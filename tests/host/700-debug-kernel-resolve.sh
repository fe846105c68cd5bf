#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/kernel finds the debug kernel's tree as 6.12-debug, never as plain 6.12 or as the default kernel, and says to run make debug-kernel when it is missing
. "${0%/*}/../lib/common.sh"

kernel=$RD_TOP/scripts/kernel
# the host's own kernels stay as they are; the chroot and the debug root
# are fakes under RD_TMP
export RD_CHROOT=$RD_TMP/no-chroot
export RD_DEBUG_KERNEL_ROOT=$RD_TMP/debug-root

echo "without a debug kernel"
plain_612=$("$kernel" resolve 6.12 2>/dev/null || echo none)
default=$("$kernel" resolve 2>/dev/null || echo none)
expect_fail "$kernel" resolve 6.12-debug 2>"$RD_TMP/err"
grep -q 'run: make debug-kernel' "$RD_TMP/err" ||
	fail "no hint to run make debug-kernel: $(cat "$RD_TMP/err")"

echo "with one"
kver=6.12.999-rd-debug
mkdir -p "$RD_DEBUG_KERNEL_ROOT/usr/src/linux-headers-$kver" \
	"$RD_DEBUG_KERNEL_ROOT/boot" "$RD_DEBUG_KERNEL_ROOT/lib/modules/$kver/kernel"
: >"$RD_DEBUG_KERNEL_ROOT/usr/src/linux-headers-$kver/Makefile"
: >"$RD_DEBUG_KERNEL_ROOT/boot/vmlinuz-$kver"
"$kernel" list | grep -qx "$kver" || fail "scripts/kernel list does not show $kver"
assert_eq "$("$kernel" resolve 6.12-debug)" "$kver" "resolve 6.12-debug"
assert_eq "$("$kernel" resolve "$kver")" "$kver" "resolve $kver"
assert_eq "$("$kernel" resolve 6.12 2>/dev/null || echo none)" "$plain_612" "resolve 6.12"
# the running or the newest kernel is the default; the debug one never is
assert_eq "$("$kernel" resolve 2>/dev/null || echo none)" "$default" "resolve (the default)"
expect_fail "$kernel" resolve 6.1-debug 2>/dev/null
assert_eq "$("$kernel" kdir "$kver")" "$RD_DEBUG_KERNEL_ROOT/usr/src/linux-headers-$kver" "kdir"
assert_eq "$("$kernel" image "$kver")" "$RD_DEBUG_KERNEL_ROOT/boot/vmlinuz-$kver" "image"
assert_eq "$("$kernel" modules "$kver")" "$RD_DEBUG_KERNEL_ROOT/lib/modules/$kver" "modules"
echo ok
