# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The module under test, for the guest tests: loading it, its configfs
# items, its statistics. Sourced by tests/lib/common.sh (so every test has
# it with the one header line Documentation/development.md shows); needs
# on_exit and fail from there.
#
# A test makes a device like this:
#
#	rd_configure wb size=64M cache_mode=writeback power=1
#	dev=$RD_DEV
#
# and on exit, pass or fail, the device is powered off and its directory
# removed, after every cleanup the test registered later (umount, ...).

# The configfs root: the one place that names it.
: "${RD_CONFIGFS:=/sys/kernel/config/ramdisk}"

# The test build of the module, its delay points compiled in
# (module/test_hooks.h), which scripts/build-module puts beside it.
: "${RD_TEST_MODULE:=${RD_MODULE:+${RD_MODULE%/*}/testhooks/ramdisk.ko}}"

# load_module [PARAM=V...]: insmod, and rmmod on exit. RD_HOLD_KEYS=1 in
# the environment adds hold_keys=1, so that it reaches the loads of scripts
# a test runs (tests/stress/stress.sh, and test 305 under it).
load_module() {
	[ -n "${RD_MODULE:-}" ] || fail "RD_MODULE is not set (run under tests/vm/run)"
	[ -f "$RD_MODULE" ] || fail "$RD_MODULE is missing (make module)"
	if [ "${RD_HOLD_KEYS:-0}" = 1 ]; then
		set -- "$@" hold_keys=1
	fi
	insmod "$RD_MODULE" "$@"
	on_exit "unload_module"
}

# load_test_module [PARAM=V...]: load_module with the test build, whose
# delay points (enum rd_test_point in module/test_hooks.h) the test then
# sets with $RD_TEST_PARAMS/test_delay_point and test_delay_us.
RD_TEST_PARAMS=/sys/module/ramdisk/parameters
load_test_module() {
	[ -f "$RD_TEST_MODULE" ] || fail "$RD_TEST_MODULE is missing (scripts/build-module builds it)"
	RD_MODULE=$RD_TEST_MODULE load_module "$@"
	[ -w "$RD_TEST_PARAMS/test_delay_us" ] || fail "$RD_TEST_MODULE has no test_delay_us"
}

# The module's static keys, which the kernel patches into its text when
# they switch (Documentation/development.md, "Two vCPUs, one host thread").
rd_static_keys=(rd_shared_pages_in_use rd_bb_in_use rd_fault_sched_in_use)
rd_keys_trace=/sys/kernel/tracing/instances/rd-keys

# trace_events_without_cmdlines: until the test ends, enabling a trace event
# patches that event's sites alone. With the record-cmd option on (the
# default; a trace instance copies it when it is made and keeps that copy
# whatever the top level does later, so call this before making one), the
# first event enabled also registers probes on the scheduler's
# sched_switch and sched_wakeup tracepoints, which patches __schedule()
# and ttwu_do_activate() while every vCPU runs them:
# under a thread per vCPU a stale int3 there kills the guest (CI saw
# "Oops: int3" at ttwu_do_activate on 7.3 when test 336 enabled an event;
# Documentation/development.md, "Two vCPUs, one host thread"). Only the
# command names in the trace's output are lost, which no test reads.
trace_events_without_cmdlines() {
	local trace=/sys/kernel/tracing opt=/sys/kernel/tracing/options/record-cmd old
	mountpoint -q $trace || mount -t tracefs nodev $trace
	[ -w $opt ] || fail "no $opt: cannot keep the scheduler's tracepoints off"
	old=$(cat $opt)
	echo 0 >$opt
	on_exit "echo $old >$opt"
}

# rd_keys_watch: from now on, count every switch of a static key: a kprobe
# on jump_label_update(), which the kernel calls to patch a key's sites,
# records the key's address in a trace instance of its own. Before
# load_module, so that the load's own switches are seen. A kernel built
# without jump labels (CONFIG_JUMP_LABEL, as the debug kernel's
# allnoconfig base) keeps a static key as a plain count and patches no
# text: there is nothing to watch, and RD_KEYS_TEXT_PATCHED is 0.
RD_KEYS_TEXT_PATCHED=1
rd_keys_watch() {
	local trace=/sys/kernel/tracing
	if ! awk '$3 == "arch_jump_label_transform_queue" {f = 1} END {exit !f}' /proc/kallsyms; then
		echo "this kernel has no jump labels: its static keys patch no code, nothing to watch"
		RD_KEYS_TEXT_PATCHED=0
		return 0
	fi
	mountpoint -q $trace || mount -t tracefs nodev $trace
	[ -e $trace/kprobe_events ] ||
		fail "no kprobe_events in $trace (a kernel without CONFIG_KPROBE_EVENTS): cannot watch the static keys"
	awk '$3 == "jump_label_update" {f = 1} END {exit !f}' /proc/kallsyms ||
		fail "no jump_label_update() in /proc/kallsyms: cannot watch the static keys"
	# what a test that died left
	[ ! -d $rd_keys_trace ] || rmdir $rd_keys_trace
	echo -:rd_keys >>$trace/kprobe_events 2>/dev/null || true
	echo 'p:rd_keys jump_label_update key=$arg1:x64' >>$trace/kprobe_events ||
		fail "cannot put a kprobe on jump_label_update()"
	on_exit "echo -:rd_keys >>$trace/kprobe_events"
	# Before the instance is made: it copies record-cmd then, and keeps it.
	trace_events_without_cmdlines
	mkdir $rd_keys_trace
	on_exit "rmdir $rd_keys_trace"
	echo 1 >$rd_keys_trace/events/kprobes/rd_keys/enable
	on_exit "echo 0 >$rd_keys_trace/events/kprobes/rd_keys/enable"
}

# rd_keys_switches: "NAME COUNT" for each static key of the loaded module,
# the times it switched since rd_keys_watch.
rd_keys_switches() {
	local key addr
	for key in "${rd_static_keys[@]}"; do
		addr=$(awk -v k="$key" '$3 == k && $4 == "[ramdisk]" {print $1}' /proc/kallsyms)
		[ -n "$addr" ] || fail "no $key of the module in /proc/kallsyms"
		echo "$key $(grep -c "key=0x$addr\$" $rd_keys_trace/trace || true)"
	done
}

# rd_keys_tracepoints: the kernel's tracepoints whose keys switched since
# rd_keys_watch, by name, on one line. A key's address is the tracepoint's symbol plus
# the offset of its key, so each is named by the nearest symbol below it.
rd_keys_tracepoints() {
	grep -o 'key=0x[0-9a-f]*$' $rd_keys_trace/trace | sed 's/^key=0x//' | sort -u |
		awk 'NR == FNR {near[$1] = ""; at[$1] = ""; next}
			{for (k in near) if ($1 <= k && $1 > at[k]) {at[k] = $1; near[k] = $3}}
			END {for (k in near) if (near[k] ~ /^__tracepoint_/) print near[k]}' - /proc/kallsyms |
		sort | paste -sd ' '
}

# rd_keys_held: the module, loaded with hold_keys=1 after rd_keys_watch,
# switched each static key once, at the load, and none since: no kernel
# text was patched under the test's I/O. The watch itself is stopped
# first and must have switched none of the kernel's tracepoints: had its
# instance recorded command names, enabling it would have switched the
# scheduler's on under the test (trace_events_without_cmdlines), and
# stopping it switches them off, which the watch still sees.
rd_keys_held() {
	local key n switches tracepoints
	assert_eq "$(cat /sys/module/ramdisk/parameters/hold_keys)" 1 "hold_keys"
	[ "$RD_KEYS_TEXT_PATCHED" = 1 ] || return 0
	echo 0 >$rd_keys_trace/events/kprobes/rd_keys/enable
	tracepoints=$(rd_keys_tracepoints)
	[ -z "$tracepoints" ] ||
		fail "the kernel's tracepoints switched under the test: $tracepoints (does the watch's trace instance record command names?)"
	switches=$(rd_keys_switches)
	while read -r key n; do
		[ "$n" -gt 0 ] || fail "$key never switched on, not even at the load: is the watch blind?"
		[ "$n" = 1 ] || fail "$key switched $n times, want once (at the load): kernel text was patched under I/O"
	done <<<"$switches"
}

# rmmod retried briefly: udev may still hold a freshly removed disk open.
unload_module() {
	local i
	grep -q '^ramdisk ' /proc/modules || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rmmod ramdisk 2>/dev/null && return 0
		command -v udevadm >/dev/null && udevadm settle 2>/dev/null
		sleep 0.2
	done
	rmmod ramdisk
}

# zone_report DEV: blkzone's report of DEV as a disk that lost power gives
# it: open zones read as closed, or as empty with nothing written (a
# checkpoint, a clone or a replay comes back so; a replay also opens zones
# implicitly where the origin opened them by command)
zone_report() {
	local line re='wptr (0x[0-9a-f]+) .*zcond: [23]\(o[ie]\)'
	blkzone report "$1" | while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			if ((BASH_REMATCH[1] == 0)); then
				line=${line/zcond: [23](o[ie])/zcond: 1(em)}
			else
				line=${line/zcond: [23](o[ie])/zcond: 4(cl)}
			fi
		fi
		printf '%s\n' "$line"
	done
}

# zone_cmd DEV ZS CMD ZONE: blkzone CMD (open, close, finish, reset) of
# zone ZONE of DEV, failing the test on a refusal
zone_cmd() {
	blkzone "$3" -o $(($4 * $2)) -c 1 "$1" || fail "blkzone $3 of zone $4 of $1"
}

# rd_image DEV FILE: the whole device, past the page cache, into FILE
rd_image() {
	dd if="$1" of="$2" bs=1M iflag=direct status=none || fail "reading $1"
}

# rd_dd_write DEV FILE KIB_AT KIB [sync|fua]: one O_DIRECT write of FILE's
# first KIB KiB at KIB_AT KiB of DEV (whole 4 KiB blocks), then a flush
# (sync), or sent as a FUA write (fua: O_DSYNC)
rd_dd_write() {
	local oflag=direct conv=notrunc
	case ${5:-} in
	sync) conv=notrunc,fsync ;;
	fua) oflag=direct,dsync ;;
	esac
	dd if="$2" of="$1" bs=4K count=$(($4 / 4)) seek=$(($3 / 4)) oflag=$oflag conv=$conv \
		iflag=fullblock status=none
}

# rdcrash_expect WANT DEV ARGS...: rdcrash run ARGS DEV exits with WANT;
# its standard output in $RD_TMP/out and $out, its errors in $RD_TMP/err,
# the last lines of each shown
rdcrash_expect() {
	local want=$1 dev=$2 status=0
	shift 2
	"$RD_BIN/rdcrash" run "$@" "$dev" >"$RD_TMP/out" 2>"$RD_TMP/err" || status=$?
	out=$(cat "$RD_TMP/out")
	tail -n 3 "$RD_TMP/err"
	echo "$out" | tail -n 3
	assert_eq "$status" "$want" "exit status of rdcrash run $*"
}

# zone_state DEV ZONE_SECTORS IDX: "COND WP" of zone IDX of a zoned DEV as
# blkzone reports it, e.g. "4(cl) 2048": the write pointer in sectors from
# the zone's start (a full zone's is its end)
zone_state() {
	local line re='wptr (0x[0-9a-f]+).*zcond: *([0-9]+\([a-z]+\))'
	line=$(blkzone report -o $(($2 * $3)) -c 1 "$1")
	[[ $line =~ $re ]] || fail "blkzone report of zone $3 of $1: $line"
	echo "${BASH_REMATCH[2]} $((BASH_REMATCH[1]))"
}

sysfs_stat() {
	local dev=${1#/dev/}
	cat "/sys/block/$dev/ramdisk/$2"
}

# rd_set NAME ATTR=VALUE...: writes the attributes of the existing configfs
# item NAME in the order given (size and cache_mode before power=1: most
# attributes are fixed while powered). At the first write the module
# refuses, says which on stderr, with the kernel's reason, and returns 1
# without writing the rest. Safe in a subshell (no cleanup of its own);
# after power=1 it waits for udev, so the device node exists.
rd_set() {
	local name=$1 kv attr value err log_lines
	shift
	log_lines=$(dmesg 2>/dev/null | wc -l)
	for kv in "$@"; do
		attr=${kv%%=*}
		value=${kv#*=}
		if [ "$attr" = "$kv" ] || [ -z "$attr" ]; then
			echo "$name: '$kv' is not ATTR=VALUE" >&2
			return 1
		fi
		if ! err=$({ printf '%s\n' "$value" >"$RD_CONFIGFS/$name/$attr"; } 2>&1); then
			err=${err##*: }
			echo "$name: writing $attr=$value to $RD_CONFIGFS/$name/$attr was refused (${err:-error})$(
				dmesg 2>/dev/null | tail -n +$((log_lines + 1)) | grep -F 'ramdisk' |
					sed 's/^\[[^]]*\] */; kernel: /' | tr -d '\n')" >&2
			return 1
		fi
		if [ "$attr" = power ] && [ "$value" = 1 ]; then
			command -v udevadm >/dev/null && udevadm settle
		fi
	done
	return 0
}

# rd_dev NAME: prints the device node of the powered item NAME.
rd_dev() {
	local index
	index=$(cat "$RD_CONFIGFS/$1/index") || return 1
	[ "$index" -ge 0 ] || {
		echo "$1 is not powered: no device" >&2
		return 1
	}
	echo "/dev/ramdisk$index"
}

# rd_wlog_entries NAME: how many entries NAME's write log holds now.
rd_wlog_entries() {
	"$RD_BIN/ramdiskctl" wlog "$1" show --raw --noheadings | wc -l
}

# rd_flush_logged NAME: starts an fsync of NAME's device, a flush, in the
# background (its pid in RD_FLUSH_PID, its stderr in $RD_TMP/flush.err)
# and returns once NAME's write log holds the flush's entry, which goes in
# as the flush is submitted. Call it in the test's own shell.
rd_flush_logged() {
	local before dev
	before=$(rd_wlog_entries "$1")
	dev=$(rd_dev "$1") || fail "rd_flush_logged: $1 has no device"
	xfs_io -c fsync "$dev" 2>"$RD_TMP/flush.err" &
	RD_FLUSH_PID=$!
	on_exit "kill $RD_FLUSH_PID 2>/dev/null"
	for _ in $(seq 100); do
		[ "$(rd_wlog_entries "$1")" -gt "$before" ] && return 0
		sleep 0.05
	done
	fail "no flush entry in the write log of $1 after 5 s"
}

# rd_configure NAME ATTR=VALUE...: makes the configfs item NAME (unless it
# exists) and writes the attributes in the order given, as rd_set; fails
# the test, naming the attribute and value, when a write is refused. The
# first rd_configure of NAME registers rd_unconfigure NAME with on_exit.
# When NAME is powered afterwards, sets RD_DEV to its /dev/ramdiskN (else
# to nothing) and prints it. Call it in the test's own shell, not in $(...)
# or a pipeline: the cleanup registered in a subshell would be lost.
rd_configure() {
	local name=$1
	[ -n "$name" ] || fail "rd_configure: no item name"
	[ "$BASHPID" = "$$" ] ||
		fail "rd_configure $name: called in a subshell (\$(...), a pipeline), where its cleanup would be lost; call it directly and read \$RD_DEV"
	shift
	if [ ! -d "$RD_CONFIGFS/$name" ]; then
		mkdir "$RD_CONFIGFS/$name" || fail "rd_configure: cannot make $RD_CONFIGFS/$name"
		on_exit "rd_unconfigure $name"
	fi
	rd_set "$name" "$@" 2>"$RD_TMP/rd_set.err" || fail "rd_configure $(cat "$RD_TMP/rd_set.err")"
	RD_DEV=
	if [ "$(cat "$RD_CONFIGFS/$name/power")" = 1 ]; then
		RD_DEV=$(rd_dev "$name") || fail "rd_configure $name: powered but no index"
	fi
	echo "rd_configure $name $*${RD_DEV:+: $RD_DEV}"
}

# rd_unconfigure NAME: unmounts what a failed test left mounted from it,
# powers NAME off, retried while udev still holds the disk open, takes it
# out of its power domain (a member's rmdir is refused), and removes its
# directory; nothing to do when it is gone.
rd_unconfigure() {
	local item=$RD_CONFIGFS/$1 index mnt
	[ -d "$item" ] || return 0
	index=$(cat "$item/index" 2>/dev/null) || index=
	if [ -n "$index" ] && [ "$index" -ge 0 ] 2>/dev/null; then
		while read -r mnt; do
			umount "$mnt"
		done < <(awk -v d="/dev/ramdisk$index" '$1 == d || index($1, d "p") == 1 {print $2}' /proc/mounts | tac)
	fi
	# still on after the retries: rmdir says why
	rd_power_off "$1" || :
	if [ -n "$(cat "$item/power_domain" 2>/dev/null)" ]; then
		echo >"$item/power_domain"
	fi
	rmdir "$item"
}

# rd_power_off NAME: writes 0 to NAME's power, retried while udev still
# holds the disk open from its last change; 1 if it stays on after 50 tries
rd_power_off() {
	local item=$RD_CONFIGFS/$1 i
	for ((i = 0; i < 50; i++)); do
		[ "$(cat "$item/power")" = 0 ] && return 0
		echo 0 >"$item/power" 2>/dev/null && return 0
		command -v udevadm >/dev/null && udevadm settle
		sleep 0.1
	done
	return 1
}

# rd_write_at DEV SECTOR KIB [FILE]: one O_DIRECT write of KIB KiB at a
# 512-byte sector of DEV, from FILE or random; on failure prints the error
# text without dd's prefix and returns 1
rd_write_at() {
	dd if="${4:-/dev/urandom}" of="$1" bs=1K count="$3" seek=$(($2 * 512)) \
		oflag=direct,seek_bytes iflag=fullblock status=none 2>"$RD_TMP/dd.err" &&
		return 0
	sed "s/^dd: error writing '[^']*': //" "$RD_TMP/dd.err" | tail -n 1
	return 1
}

# rd_refused NAME ATTR TEXT ERRNO MESSAGE: writing TEXT to ATTR of the
# configfs item NAME fails with ERRNO's text (as the shell prints it) and
# the kernel log gains a line with MESSAGE (a fixed string)
rd_refused() {
	local status=0 log_lines
	log_lines=$(dmesg | wc -l)
	(printf '%s\n' "$3" >"$RD_CONFIGFS/$1/$2") 2>"$RD_TMP/werr" || status=$?
	[ "$status" != 0 ] || fail "$1/$2 took '$3'"
	grep -q "$4" "$RD_TMP/werr" || fail "$1/$2 '$3': $(cat "$RD_TMP/werr"), want $4"
	dmesg | tail -n +$((log_lines + 1)) | grep -qF "$5" ||
		fail "$1/$2 '$3': no '$5' in the kernel log"
}

# dmlw_replay LOG TARGET [END_MARK]: replays a dm-log-writes log onto
# TARGET (a block device or an image file) as fstests' replay-log does,
# written here from the format alone so that it checks our writer: after
# the super block, each entry a block with its header (sector, sectors,
# flags, data length; a mark's text after it), then a write's data; a
# discard zeroes its range; stops after the mark END_MARK. Prints the
# number of entries replayed.
dmlw_replay() {
	local log=$1 target=$2 end=${3:-} bs nr i off sector n flags dlen text direct=
	_le64() { od -An -tu8 -j "$2" -N 8 --endian=little "$1" | tr -d ' '; }
	[ "$(_le64 "$log" 0)" = $((0x6a736677736872)) ] || fail "$log is not a dm-log-writes log"
	bs=$(od -An -tu4 -j 24 -N 4 --endian=little "$log" | tr -d ' ')
	nr=$(_le64 "$log" 16)
	[ -b "$target" ] && direct=oflag=direct
	off=$bs
	for ((i = 0; i < nr; i++)); do
		sector=$(_le64 "$log" "$off")
		n=$(_le64 "$log" $((off + 8)))
		flags=$(_le64 "$log" $((off + 16)))
		dlen=$(_le64 "$log" $((off + 24)))
		if ((flags & 8)); then
			text=$(dd if="$log" bs=1 skip=$((off + 32)) count="$dlen" status=none)
			off=$((off + bs))
			if [ -n "$end" ] && [ "$text" = "$end" ]; then
				i=$((i + 1))
				break
			fi
			continue
		fi
		off=$((off + bs))
		if ((flags & 4)); then
			dd if=/dev/zero of="$target" bs="$bs" seek="$sector" count="$n" conv=notrunc \
				$direct status=none
		elif ((n)); then
			dd if="$log" of="$target" bs="$bs" skip=$((off / bs)) seek="$sector" count="$n" \
				conv=notrunc $direct status=none
			off=$((off + n * bs))
		fi
	done
	echo "$i"
}
