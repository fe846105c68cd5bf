# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Runs the labs' doc-test blocks in a guest, for tests 510 and 133. Sourced
# after tests/lib/common.sh. lab_run LAB runs one lab (the README's set-up
# blocks first) and adds what failed to lab_failed; labs_tidy undoes what a
# lab that failed half-way may leave.
# shellcheck source=tests/vm/lib/doc-script.sh
. "$RD_TOP/tests/vm/lib/doc-script.sh"
labs=$RD_TOP/Documentation/labs
docs=$RD_TOP/scripts/doc-commands
lab_failed=()
# What a lab that fails half-way may leave: mounts under /mnt/labN, lab
# 4's device-mapper device, its configfs devices (lab 7's clones before
# their origin, which refuses power-off while they exist), the modules,
# tracing state, files in /tmp.
labs_tidy() {
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
lab_run() {
	local lab=$1 name script
	name=${lab##*/}
	script=$RD_TMP/${name%.md}.sh
	{
		"$docs" script "$labs/README.md"
		"$docs" script "$lab"
	} >"$script"
	echo "=== $name: $(grep -c '^echo .>>> ' "$script") blocks"
	doc_script_run "$RD_TOP" "$script" || lab_failed+=("$name ($doc_failed_block)")
	# each lab cleans up after itself: nothing may be left for the next
	if grep -q '^ramdisk \|^minird ' /proc/modules || awk '$2 ~ "^/mnt/lab"' /proc/mounts | grep -q .; then
		lab_failed+=("$name left a module or a mount behind")
	fi
	labs_tidy >/dev/null 2>&1 || true
}
