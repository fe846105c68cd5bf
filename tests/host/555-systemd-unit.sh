#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdisk-setup.service passes systemd-analyze verify, runs ramdiskctl apply at start and apply --down at stop, before local-fs.target; a broken copy fails the check
. "${0%/*}/../lib/common.sh"
# systemd-analyze comes with systemd (scripts/deps); a machine without it
# cannot run the unit either
require_cmd systemd-analyze

unit=$RD_TOP/systemd/ramdisk-setup.service
ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"

# verify FILE: systemd-analyze verify on a copy of FILE whose ramdiskctl is
# the one built here (the unit names it without a path, for systemd to find
# where make install or a package put it); man pages are not installed here
verify() {
	local copy=$RD_TMP/check/ramdisk-setup.service
	mkdir -p "${copy%/*}"
	sed "s|^\(Exec[A-Za-z]*=-\{0,1\}\)ramdiskctl |\1$ctl |" "$1" >"$copy"
	grep -q "^ExecStart=$ctl apply\$" "$copy" || fail "no 'ExecStart=ramdiskctl apply' in $1"
	systemd-analyze verify --man=no "$copy" >"$RD_TMP/verify.out" 2>&1
	local status=$?
	cat "$RD_TMP/verify.out"
	[ "$status" = 0 ] && [ ! -s "$RD_TMP/verify.out" ]
}

echo "systemd-analyze verify"
verify "$unit" || fail "systemd-analyze verify complains about ramdisk-setup.service"

echo "what it runs and when"
key() {
	sed -n "s/^$1=//p" "$unit" | tr '\n' ' '
}
assert_eq "$(key Type)" "oneshot " "Type"
assert_eq "$(key RemainAfterExit)" "yes " "RemainAfterExit"
assert_eq "$(key ExecStart)" "ramdiskctl apply " "ExecStart"
assert_eq "$(key ExecStop)" "ramdiskctl apply --down " "ExecStop"
assert_eq "$(key ExecStartPre)" "-modprobe ramdisk " "ExecStartPre"
assert_eq "$(key DefaultDependencies)" "no " "DefaultDependencies"
assert_eq "$(key ConditionPathExists)" "/etc/ramdisk/ramdisk.conf " "ConditionPathExists"
for want in "Before=local-fs.target" "After=local-fs-pre.target" "Before=shutdown.target" \
	"Conflicts=shutdown.target" "WantedBy=local-fs.target"; do
	grep -qx "$want" "$unit" || fail "no $want"
done
grep -q "^After=.*systemd-modules-load.service" "$unit" || fail "not after systemd-modules-load.service"
grep -q "^After=.*systemd-remount-fs.service" "$unit" || fail "not after the root is writable"

echo "the check fails on a broken unit"
sed 's/^Type=oneshot/Type=oneshotx/' "$unit" >"$RD_TMP/broken.service"
if verify "$RD_TMP/broken.service"; then fail "a unit with Type=oneshotx passed"; fi
sed 's/^\[Service\]/[Servce]/' "$unit" >"$RD_TMP/broken.service"
if verify "$RD_TMP/broken.service"; then fail "a unit with a misspelt section passed"; fi
echo "ok"
