#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdcrash refuses bad options (--exhaustive, -j and check's among them) before it touches a device (status 2, a line naming the problem); rdcrash mark finds the run's write log (--device, RDCRASH_WRITE_LOG, RDCRASH_DEVICE) and refuses a text the module would; without the module, run without DEV says so
. "${0%/*}/../lib/common.sh"

rdcrash=$(cd "$RD_BIN" && pwd)/rdcrash
[ -x "$rdcrash" ] || fail "$rdcrash is missing (make userspace)"
# a configfs tree of one powered device, crash (ramdisk3), whose
# write_log is a plain file: what rdcrash writes to it can be read back
cfg=$RD_TMP/configfs
mkdir -p "$cfg/crash"
echo 3 >"$cfg/crash/index"
export RAMDISK_CONFIGFS=$cfg
unset RDCRASH_WRITE_LOG RDCRASH_DEVICE
wlog=$cfg/crash/write_log

echo "rdcrash mark: --device, RDCRASH_WRITE_LOG, RDCRASH_DEVICE"
: >"$wlog"
run_cmd 0 "$rdcrash" mark --device crash saved row 3
assert_eq "$(cat "$wlog")" "mark saved row 3" "the line mark --device wrote"
: >"$wlog"
run_cmd 0 env RDCRASH_WRITE_LOG="$wlog" "$rdcrash" mark committed
assert_eq "$(cat "$wlog")" "mark committed" "the line mark wrote to RDCRASH_WRITE_LOG"
: >"$wlog"
run_cmd 0 env RDCRASH_DEVICE=/dev/ramdisk3 "$rdcrash" mark -- -1
assert_eq "$(cat "$wlog")" "mark -1" "the line mark wrote to RDCRASH_DEVICE's log"
: >"$wlog"
long=$(printf 'a%.0s' {1..128})
expect_refusal 2 "mark needs a TEXT" "$rdcrash" mark --device crash
expect_refusal 2 "mark: which device?" "$rdcrash" mark hello
expect_refusal 2 "more than 127 characters" "$rdcrash" mark --device crash "$long"
expect_refusal 2 "printable ASCII on one line" "$rdcrash" mark --device crash "$(printf 'a\nb')"
expect_refusal 1 "nosuch: no configfs device" "$rdcrash" mark --device nosuch hello
expect_refusal 1 "mark 'x' to $RD_TMP/nosuch/write_log: No such file or directory" \
	env RDCRASH_WRITE_LOG="$RD_TMP/nosuch/write_log" "$rdcrash" mark x
assert_eq "$(cat "$wlog")" "" "what the refused marks wrote"

echo "rdcrash run and state: bad options"
expect_refusal 2 "unknown command 'mrak': run, check, state, minimise or mark" "$rdcrash" mrak
expect_refusal 2 "--fs 'zfs': ext2, ext3, ext4, xfs, btrfs or f2fs" "$rdcrash" run --fs zfs --workload x
expect_refusal 2 "--personality misdirected has no crash model: a state could hold any cached write at any address" \
	"$rdcrash" run --fs ext4 --workload create-fsync --personality misdirected /dev/null
expect_refusal 2 "--personality torn-media-error has no crash model: a state is an image" \
	"$rdcrash" run --fs ext4 --workload create-fsync --personality torn-media-error /dev/null
expect_refusal 2 "--fs '': ext2, ext3, ext4, xfs, btrfs or f2fs" "$rdcrash" run --workload x
expect_refusal 2 "--size '1M' is not whole 4 KiB blocks from 128M" "$rdcrash" run --fs ext4 --workload x --size 1M
expect_refusal 2 "--size '1X' is not whole 4 KiB blocks from 128M" "$rdcrash" run --fs ext4 --workload x --size 1X
expect_refusal 2 "--write-log-limit '0' is not a size" "$rdcrash" run --fs ext4 --workload x --write-log-limit 0
expect_refusal 2 "--size, --write-log-limit and --keep are for the device run makes without DEV" \
	"$rdcrash" run --fs ext4 --workload x --keep crash
expect_refusal 2 "--mount-options 'noatime,ro': rdcrash decides ro itself" \
	"$rdcrash" run --fs ext4 --workload x --mount-options noatime,ro
expect_refusal 2 "--device is for mark" "$rdcrash" run --fs ext4 --workload x --device crash
expect_refusal 2 "takes one device" "$rdcrash" run --fs ext4 --workload x crash crash
expect_refusal 2 "--mkfs-options and --mount-options go with --fs" \
	"$rdcrash" state --seed 1 --epoch 0 --state 0 --mount-options data=journal crash
expect_refusal 2 "--setup needs a value" "$rdcrash" run --fs ext4 --workload x --setup
expect_refusal 2 "--exhaustive '17' is not 0 to 16" "$rdcrash" run --fs ext4 --workload x --exhaustive 17
expect_refusal 2 "--exhaustive '-1' is not 0 to 16" "$rdcrash" run --fs ext4 --workload x --exhaustive -1
expect_refusal 2 "-j '0' is not 1 to 64" "$rdcrash" run --fs ext4 --workload x -j 0
expect_refusal 2 "-j '65' is not 1 to 64" "$rdcrash" run --fs ext4 --workload x --jobs 65
expect_refusal 2 "check needs --check CMD" "$rdcrash" check --fs ext4 crash
expect_refusal 2 "check takes no --workload" "$rdcrash" check --fs ext4 --check true --workload x crash
expect_refusal 2 "takes one device" "$rdcrash" check --fs ext4 --check true
expect_refusal 2 "minimise needs --check CMD" "$rdcrash" minimise --fs ext4 --seed 1 --epoch 0 --state 0 crash
expect_refusal 2 "minimise needs --seed, --epoch and --state" \
	"$rdcrash" minimise --fs ext4 --check true --seed 1 --state 0 crash
expect_refusal 2 "minimise takes no --workload" \
	"$rdcrash" minimise --fs ext4 --check true --seed 1 --epoch 0 --state 0 --workload x crash
expect_refusal 2 "--reproducer is for minimise" "$rdcrash" state --seed 1 --epoch 0 --state 0 --reproducer f crash
expect_refusal 2 "--reproducer needs a value" "$rdcrash" minimise --fs ext4 --reproducer
expect_refusal 2 "takes one device" "$rdcrash" minimise --fs ext4 --check true --seed 1 --epoch 0 --state 0

echo "run without DEV and no module: it says so and leaves nothing"
RAMDISK_CONFIGFS=$RD_TMP/none expect_refusal 1 "is the ramdisk module loaded?" \
	"$rdcrash" run --fs ext4 --workload x
[ ! -e "$RD_TMP/none" ] || fail "run made $RD_TMP/none"
echo "rdcrash usage ok"
