#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a checkout anywhere boots guests: a clone in /tmp, where the guest mounts a fresh tmpfs, still runs its command from the checkout
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"
require_cmd git

# A clone of the committed tree, in /tmp as a new user would make it; it
# shares this checkout's module build (RD_VM_NO_BUILD) but makes its own
# initramfs, as a fresh checkout does.
clone=$(mktemp -d /tmp/rd-anywhere.XXXXXX)
on_exit "rm -rf '$clone'"
git clone -q --no-hardlinks "$RD_TOP" "$clone/x"
mkdir -p "$clone/x/build/kernels/$kver"
cp "$RD_TOP/build/kernels/$kver/ramdisk.ko" "$clone/x/build/kernels/$kver/" 2>/dev/null || true

# It shares the kernels that live under build/ too (the 7.x chroot, the
# debug kernel), which a clone does not have until its own make deps.
status=0
out=$(RD_VM_NO_BUILD=1 RD_CHROOT="${RD_CHROOT:-$RD_TOP/build/chroot/trixie}" \
	RD_DEBUG_KERNEL_ROOT="${RD_DEBUG_KERNEL_ROOT:-$RD_TOP/build/debug-kernel/root}" \
	"$clone/x/tests/vm/run" --kernel "$kver" --timeout "${RD_HARNESS_VM_TIMEOUT:-300}" -- \
	bash -c 'echo "pwd $PWD"; test -f Makefile && echo checkout-seen; findmnt -n -o FSTYPE /tmp') || status=$?
echo "$out"
assert_eq "$status" 0 "exit status of a guest booted from a clone in /tmp"
grep -qx "pwd $clone/x" <<<"$out" || fail "the command did not run in the clone: $out"
grep -qx checkout-seen <<<"$out" || fail "the guest did not see the clone's files"
grep -qx tmpfs <<<"$out" || fail "the guest's /tmp is not a fresh tmpfs"
echo "PASS: a clone in /tmp boots a guest and runs its command there"
