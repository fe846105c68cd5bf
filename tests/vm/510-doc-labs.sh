#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every command the labs mark doc-test: vm runs as shown, lab by lab, and leaves nothing behind
# VMOPTS: --cpus 1
# KERNELS: first
# The labs type the same commands on every kernel, and what they drive in the
# module is tested on each kernel by other tests: one run saves CI a boot and
# about 80 s on each of the other kernels.
# One vCPU: lab 2 switches ftrace tracers, which rewrites kernel code while
# it runs, and under QEMU's multi-threaded TCG with two vCPUs that wedged the
# guest in 3 runs of 14 (a soft lockup in the cross-CPU call that the
# patching waits on), CI's among them. With one vCPU, 40 runs in a row
# passed (Documentation/labs/02-tracing-the-io-path.md).
. "${0%/*}/../lib/common.sh"
require_cmd python3 mkfs.ext2 mkfs.ext4 mkfs.xfs e2fsck xfs_repair xfs_io udevadm dmsetup blockdev cc patch
# shellcheck source=tests/vm/lib/labs.sh
. "${0%/*}/lib/labs.sh"
on_exit labs_tidy

if [ ! -f "$RD_TOP/build/kernels/$RD_KVER/labs/solution/minird.ko" ]; then
	"$RD_TOP/scripts/build-lab" "$RD_KVER" >/dev/null || echo "cannot build minird: lab 6 will fail"
fi

# The README's set-up blocks (PATH) come before each lab's. Lab 8 needs
# a kernel that takes zoned devices, which the first kernel (6.1) is not:
# test 133 runs it on the newest.
for lab in "$labs"/[0-9][0-9]-*.md; do
	case $lab in
	*/08-zoned-devices.md) echo "=== ${lab##*/}: test 133 runs it" ;;
	*) lab_run "$lab" ;;
	esac
done
[ ${#lab_failed[@]} = 0 ] || fail "lab commands failed: ${lab_failed[*]}"
