#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: lab 8's commands (zoned devices: the write pointer, open zones, resets, btrfs's zone appends) run as shown on every kernel that takes zoned devices, and leave nothing behind
# KERNELS: last
. "${0%/*}/../lib/common.sh"
require_cmd python3 blkzone mkfs.btrfs od
# shellcheck source=tests/vm/lib/labs.sh
. "${0%/*}/lib/labs.sh"
on_exit labs_tidy

load_module nr_devices=0
zoned=0
[[ ,$(cat "$RD_CONFIGFS/features"), != *,zoned,* ]] || zoned=1
unload_module
[ "$zoned" = 1 ] || skip "$RD_KVER takes no zoned devices, which lab 8 is about"
lab_run "$labs/08-zoned-devices.md"
[ ${#lab_failed[@]} = 0 ] || fail "lab commands failed: ${lab_failed[*]}"
