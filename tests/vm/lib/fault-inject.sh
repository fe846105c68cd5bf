# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Fault injection aimed at the module, for the 7xx tests. Sourced after
# tests/lib/common.sh. The debug kernel (make debug-kernel) has it; Debian's
# kernels do not, and the tests skip there.
#
# failslab and fail_page_alloc are restricted to calls made with the
# module's code on the stack (require-start/require-end), so a test fails
# the module's allocations and the kernel's allocations made on its behalf
# (device_add_disk, the write cache's xarray nodes) but nothing else. Which call fails is
# chosen per thread with /proc/thread-self/fail-nth (tests/vm/lib/fail-nth).

fault_debugfs=/sys/kernel/debug
fault_attrs=(failslab fail_page_alloc)

fault_require() {
	local a
	for a in "${fault_attrs[@]}"; do
		[ -d "$fault_debugfs/$a" ] ||
			skip "kernel without CONFIG_FAULT_INJECTION ($fault_debugfs/$a missing); make check-debug runs this"
		[ -e "$fault_debugfs/$a/require-start" ] ||
			skip "kernel without CONFIG_FAULT_INJECTION_STACKTRACE_FILTER; make check-debug runs this"
	done
	[ -e /proc/thread-self/fail-nth ] || skip "kernel without /proc/PID/fail-nth"
	require_cmd python3
}

# Prints "START END" (hex, no 0x) around the module's code, from kallsyms
# (lines "ADDRESS TYPE NAME [MODULE]"; same-width hex sorts as text).
fault_module_text() {
	local first last
	first=$(awk '$2 ~ /^[tT]$/ && $4 == "[ramdisk]" && (m == "" || $1 < m) {m = $1} END {print m}' /proc/kallsyms)
	last=$(awk '$2 ~ /^[tT]$/ && $4 == "[ramdisk]" && $1 > m {m = $1} END {print m}' /proc/kallsyms)
	[ -n "$first" ] || fail "no [ramdisk] code symbols in /proc/kallsyms (module not loaded?)"
	case $first in 0000000000000000) fail "/proc/kallsyms hides addresses (kptr_restrict)" ;; esac
	# the last function is shorter than a page: none of the module's is longer
	printf '%s %x\n' "$first" $((0x$last + 4096))
}

# Prints "START END" around the kernel function NAME: from its address to
# the next code symbol's.
fault_function_text() {
	local start end
	start=$(awk -v f="$1" '$2 ~ /^[tT]$/ && $3 == f && NF == 3 {print $1; exit}' /proc/kallsyms)
	[ -n "$start" ] || fail "no function $1 in /proc/kallsyms"
	end=$(awk -v s="$start" '$2 ~ /^[tT]$/ && $1 > s && (m == "" || $1 < m) {m = $1} END {print m}' /proc/kallsyms)
	[ -n "$end" ] || fail "no code symbol after $1 in /proc/kallsyms"
	echo "$start $end"
}

fault_set() {
	echo "$3" >"$fault_debugfs/$1/$2"
}

# Aims failslab and fail_page_alloc at the module's code, for fail-nth
# only (probability 0: nothing fails at random), and puts the defaults back
# when the test exits.
fault_aim_at_module() {
	local range a
	range=$(fault_module_text)
	for a in "${fault_attrs[@]}"; do
		on_exit "fault_set $a reject-start 0"
		on_exit "fault_set $a reject-end 0"
		on_exit "fault_set $a require-start 0"
		on_exit "fault_set $a require-end 18446744073709551615"
		on_exit "fault_set $a ignore-gfp-wait $(cat "$fault_debugfs/$a/ignore-gfp-wait")"
		on_exit "fault_set $a verbose $(cat "$fault_debugfs/$a/verbose")"
		fault_set "$a" probability 0
		fault_set "$a" require-start "0x${range% *}"
		fault_set "$a" require-end "0x${range#* }"
		# the module allocates with GFP_NOIO and GFP_KERNEL, both may sleep
		fault_set "$a" ignore-gfp-wait N
		# one line per injected fault, no stack: the serial console is slow
		fault_set "$a" verbose 1
	done
	# fail_page_alloc leaves out order-0 pages unless min-order is 0 (it
	# defaults to 1), and __GFP_HIGHMEM ones unless told: every page the
	# module allocates is order 0, so without this none of them would fail
	on_exit "fault_set fail_page_alloc min-order $(cat "$fault_debugfs/fail_page_alloc/min-order")"
	on_exit "fault_set fail_page_alloc ignore-gfp-highmem $(cat "$fault_debugfs/fail_page_alloc/ignore-gfp-highmem")"
	fault_set fail_page_alloc min-order 0
	fault_set fail_page_alloc ignore-gfp-highmem N
	echo "fault injection aimed at ramdisk code ${range% *}..${range#* }"
}

# Leaves out the calls made under the kernel function NAME (reject range),
# or, with "none", leaves out nothing.
fault_reject_function() {
	local range=0 a
	[ "$1" = none ] || range=$(fault_function_text "$1")
	for a in "${fault_attrs[@]}"; do
		fault_set "$a" reject-start "0x${range% *}"
		fault_set "$a" reject-end "0x${range#* }"
	done
}

# Aims at the calls made under the kernel function NAME only (when the
# module calls it, as fault_aim_at_module did first).
fault_require_function() {
	local range a
	range=$(fault_function_text "$1")
	for a in "${fault_attrs[@]}"; do
		fault_set "$a" require-start "0x${range% *}"
		fault_set "$a" require-end "0x${range#* }"
	done
}

# old_or_new GOT OLD NEW: see tests/vm/lib/old-or-new.
old_or_new() {
	python3 "$RD_TOP/tests/vm/lib/old-or-new" "$@"
}

# fail_nth N|count write PATH OFFSET DATA | fail_nth N|count fsync PATH |
# fail_nth N|count load PATH PARAMS: see tests/vm/lib/fail-nth.
fail_nth() {
	python3 "$RD_TOP/tests/vm/lib/fail-nth" "$@"
}

# fault_sweep [--first] MAX WHAT STEP [ARG...]: calls STEP 1 ARG...,
# STEP 2 ARG..., ... in this shell. STEP N runs the operation under test
# with the N-th fault point failing (fail_nth N ...), checks what it left,
# and sets $result to fail_nth's line. The sweep ends after the first step
# that reached no fault ("not-reached ok"): every fault point of the
# operation has then failed once. Past MAX steps it fails the test, as the
# sweep does not end; with --first it stops there quietly (the first MAX
# points stand for all). It fails the test too when no step's operation
# failed ("injected ERRNO"; "injected ok" is a fault the kernel absorbed),
# as then nothing was tested. Sets fault_points to the number of fault
# points it tried before the one that was not reached (MAX with --first
# when all were) and fault_failures to the steps whose operation failed,
# and prints both with WHAT.
fault_sweep() {
	local first=0 max what step n
	if [ "$1" = --first ]; then
		first=1
		shift
	fi
	max=$1 what=$2 step=$3
	shift 3
	fault_failures=0
	for ((n = 1; ; n++)); do
		if [ $n -gt "$max" ]; then
			[ $first = 1 ] || fail "$what: more than $max fault points: the sweep does not end"
			break
		fi
		result=
		"$step" $n "$@"
		case $result in
		"") fail "$what: $step $n set no \$result" ;;
		"not-reached ok") break ;;
		"injected ok") ;;
		injected\ *) fault_failures=$((fault_failures + 1)) ;;
		esac
	done
	fault_points=$((n - 1))
	[ "$fault_failures" -gt 0 ] ||
		fail "$what: no injected fault failed it ($fault_points fault points)"
	echo "$what: $fault_points fault points, $fault_failures failed"
}
