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

labs=$RD_TOP/Documentation/labs
docs=$RD_TOP/scripts/doc-commands
require_cmd python3 mkfs.ext2 mkfs.ext4 mkfs.xfs e2fsck xfs_repair xfs_io udevadm dmsetup blockdev cc patch

# What a lab that fails half-way may leave: mounts under /mnt/labN, lab
# 4's device-mapper device, its configfs devices (lab 7's clones before
# their origin, which refuses power-off while they exist), the modules,
# tracing state, files in /tmp.
tidy() {
	local m d
	awk '$2 ~ "^/mnt/lab" {print $2}' /proc/mounts | sort -r | while read -r m; do
		umount "$m"
	done
	dmsetup remove lab4fs
	for d in "$RD_CONFIGFS"/rdcrash-clone-*/ "$RD_CONFIGFS"/*/; do
		[ -d "$d" ] || continue
		echo 0 >"$d/power"
		rmdir "$d"
	done
	rmmod minird
	unload_module
	local t=/sys/kernel/tracing
	if [ -e $t/tracing_on ]; then
		echo 0 >$t/tracing_on
		echo nop >$t/current_tracer
		echo >$t/set_ftrace_filter
		echo >$t/set_graph_function
		echo 0 >$t/events/block/enable
		echo 0 >$t/options/func_stack_trace
	fi
	rm -f /tmp/lab4.img /tmp/lab6.data
	rm -rf /tmp/lab7
}
on_exit tidy

if [ ! -f "$RD_TOP/build/kernels/$RD_KVER/labs/solution/minird.ko" ]; then
	"$RD_TOP/scripts/build-lab" "$RD_KVER" >/dev/null || echo "cannot build minird: lab 6 will fail"
fi

# The README's set-up blocks (PATH) come before each lab's.
failed=()
for lab in "$labs"/[0-9][0-9]-*.md; do
	name=${lab##*/}
	script=$RD_TMP/${name%.md}.sh
	{
		"$docs" script "$labs/README.md"
		"$docs" script "$lab"
	} >"$script"
	echo "=== $name: $(grep -c '^echo .>>> ' "$script") blocks"
	if (cd "$RD_TOP" && timeout 300 bash -eo pipefail "$script") >"$RD_TMP/out" 2>&1; then
		echo "ok"
	else
		tail -n 25 "$RD_TMP/out"
		block=$(grep '^>>> ' "$RD_TMP/out" | tail -n 1)
		failed+=("$name (${block#>>> })")
	fi
	# each lab cleans up after itself: nothing may be left for the next
	if grep -q '^ramdisk \|^minird ' /proc/modules || awk '$2 ~ "^/mnt/lab"' /proc/mounts | grep -q .; then
		failed+=("$name left a module or a mount behind")
	fi
	tidy >/dev/null 2>&1 || true
done
[ ${#failed[@]} = 0 ] || fail "lab commands failed: ${failed[*]}"
