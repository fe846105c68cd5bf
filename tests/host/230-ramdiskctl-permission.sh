#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl reports "permission denied (are you root?)" with exit 6 and leaves nothing behind
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
cfg=$RD_TMP/config/ramdisk
sys=$RD_TMP/sys
export RAMDISKCTL_CONFIGFS=$cfg RAMDISKCTL_SYSFS=$sys

# configfs attributes are root's, 0644, in root's 0755 directories; a
# plain user sees the same modes here. Root ignores modes, so as root the
# tool runs as nobody instead.
as_user=()
if [ "$(id -u)" = 0 ]; then
	require_cmd setpriv
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	"${as_user[@]}" test -x "$ctl" || skip "nobody cannot run $ctl"
	chmod 755 "$RD_TMP"
fi

mkdir -p "$cfg/rd0" "$sys/block/ramdisk1/ramdisk"
echo rd0 >"$sys/block/ramdisk1/ramdisk/name"
for attr in size block_size max_part mem_limit numa_node index; do
	echo 0 >"$cfg/rd0/$attr"
done
echo 1 >"$cfg/rd0/power"
echo 1 >"$cfg/rd0/index"
chmod -R a+rX,go-w "$RD_TMP/config" "$sys"
chmod 555 "$cfg" "$cfg/rd0"
chmod 444 "$cfg/rd0/power"
on_exit chmod -R u+w "$RD_TMP"

run() {
	local want=$1 status=0 err
	shift
	err=$("${as_user[@]}" "$ctl" "$@" 2>&1 >/dev/null) || status=$?
	echo "ramdiskctl $* -> $status: $err"
	assert_eq "$status" "$want" "exit status of ramdiskctl $*"
	grep -q "permission denied (are you root?)" <<<"$err" || fail "no reason: $err"
}

run 6 create --size 1M
run 6 create --name mine --size 1M
[ -z "$(find "$cfg" -mindepth 1 -maxdepth 1 -name 'rd[1-9]*' -o -name mine)" ] ||
	fail "create as a user left a directory"
run 6 remove rd0
run 6 remove /dev/ramdisk1
assert_eq "$(cat "$cfg/rd0/power")" 1 "power of rd0 after a refused remove"
# Reading needs no privilege.
"${as_user[@]}" "$ctl" list >/dev/null || fail "list as a user failed"
"${as_user[@]}" "$ctl" info rd0 >/dev/null || fail "info as a user failed"
echo "permission errors reported"
