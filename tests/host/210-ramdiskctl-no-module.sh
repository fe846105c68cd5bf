#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every ramdiskctl command says "module not loaded" (exit 3) when the configfs tree is missing
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
export RAMDISK_CONFIGFS=$RD_TMP/config/ramdisk RAMDISKCTL_SYSFS=$RD_TMP/sys
mkdir -p "$RD_TMP/config" "$RD_TMP/sys/block"

check() {
	local pattern=$1 status=0 err
	shift
	err=$("$ctl" "$@" 2>&1 >/dev/null) || status=$?
	echo "ramdiskctl $* -> $status: $err"
	assert_eq "$status" 3 "exit status of ramdiskctl $*"
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines of ramdiskctl $*"
	grep -q -- "$pattern" <<<"$err" || fail "ramdiskctl $*: error lacks '$pattern': $err"
}

all_commands() {
	check "$1" list
	check "$1" list --json
	check "$1" info rd0
	check "$1" info /dev/ramdisk0
	check "$1" remove rd0
	check "$1" create --size 1M
	check "$1" create --name x --size 1M
}

# Neither the configfs tree nor the module in sysfs.
all_commands "ramdisk module is not loaded"
[ ! -e "$RAMDISK_CONFIGFS" ] || fail "create made $RAMDISK_CONFIGFS"

# The module is loaded but its configfs tree is not there: configfs unmounted.
mkdir -p "$RD_TMP/sys/module/ramdisk"
all_commands "is configfs mounted"

# The root exists but is a file, not the subsystem directory.
rmdir "$RD_TMP/sys/module/ramdisk"
touch "$RAMDISK_CONFIGFS"
all_commands "ramdisk module is not loaded"
rm "$RAMDISK_CONFIGFS"

# A kernel that loads only signed modules: the same one line says so and
# where to go (issue 28); one that does not, not a word of signing.
check_signing() {
	local want=$1 err status=0
	err=$("$ctl" list 2>&1 >/dev/null) || status=$?
	assert_eq "$status" 3 "exit status of list ($2)"
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines of list ($2)"
	if [ "$want" = hint ]; then
		grep -qF "loads only signed modules: sign ramdisk.ko with make sign" <<<"$err" ||
			fail "no signing hint with $2: $err"
	elif grep -q sign <<<"$err"; then
		fail "a signing hint with $2: $err"
	fi
}
mkdir -p "$RD_TMP/sys/module/module/parameters" "$RD_TMP/sys/kernel/security"
echo N >"$RD_TMP/sys/module/module/parameters/sig_enforce"
echo '[none] integrity confidentiality' >"$RD_TMP/sys/kernel/security/lockdown"
check_signing none "sig_enforce N, lockdown none"
echo Y >"$RD_TMP/sys/module/module/parameters/sig_enforce"
check_signing hint "module.sig_enforce=1"
echo N >"$RD_TMP/sys/module/module/parameters/sig_enforce"
echo 'none [integrity] confidentiality' >"$RD_TMP/sys/kernel/security/lockdown"
check_signing hint "lockdown=integrity"
echo 'none integrity [confidentiality]' >"$RD_TMP/sys/kernel/security/lockdown"
check_signing hint "lockdown=confidentiality"
echo "module-not-loaded reported by every command"
