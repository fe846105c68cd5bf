#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a guest test that leaves a mount, a configfs device or the module behind fails by name, and the test after it starts clean
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"

mod=$RD_TOP/build/kernels/$kver/ramdisk.ko
[ -f "$mod" ] || fail "$mod is missing (scripts/build-module $kver)"

# In one boot: a test that passes but leaves ramdisk0 mounted, a configfs
# device and the module loaded; then a test that passes only when the
# module is not loaded. Without the suite's --after check the first passes
# and the second fails, which is how one leak became 39 failures.
script='set -e
mkdir -p /tmp/t /tmp/t/mnt
cat >/tmp/t/1-leaves.sh <<EOS
#!/bin/bash
set -e
insmod $1 nr_devices=1 size=16M
mkfs.ext2 -q /dev/ramdisk0
mount /dev/ramdisk0 /tmp/t/mnt
mkdir /sys/kernel/config/ramdisk/leaked
EOS
cat >/tmp/t/2-clean.sh <<EOS
#!/bin/bash
! grep -q "^ramdisk " /proc/modules
EOS
chmod +x /tmp/t/*.sh
tests/run-suite --after tests/vm/lib/leftovers --logs /tmp/t/logs /tmp/t/1-leaves.sh /tmp/t/2-clean.sh'
status=0
out=$(vm_run -- bash -c "$script" _ "$mod") || status=$?
echo "$out"
assert_eq "$status" 1 "exit status of a suite with a leaking test"
grep -qx "FAIL 1-leaves: left behind: mounted /tmp/t/mnt, configfs device leaked, the module loaded" <<<"$out" ||
	fail "the leaking test did not fail naming what it left"
grep -q "^PASS 2-clean " <<<"$out" || fail "the test after the leak did not start clean"
