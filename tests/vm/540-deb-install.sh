#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make deb's packages install (DKMS builds the module), modprobe ramdisk, ext4 on a device the installed ramdiskctl made; purge leaves no file
# KERNELS: first
#
# On the first kernel only: under TCG, DKMS's build of the module in the
# postinst and its depmod over 9p take most of the 5 minutes the test
# needs on 6.1 (dpkg -i 247 s, of which the build 192 s), about 9 on
# 6.12. make check builds the packages (make deb) in its build stage;
# `make check-deb` builds them and runs this test alone. The 7.x kernels
# are skipped: their headers are in the trixie chroot, and DKMS here
# builds with this root's Debian 12 compiler. The host's DKMS test
# (tests/host/540-dkms.sh) would show through the overlay: make check
# ends the host tests before the first kernel's suite starts, and this
# test skips if it finds the host's DKMS source.
#
# The guest root is a tmpfs overlay over the host's, so dpkg's changes go
# with the guest.
. "${0%/*}/../lib/common.sh"
require_cmd dpkg dkms modprobe mkfs.ext4 openssl

kdir=$("$RD_TOP/scripts/kernel" kdir "$RD_KVER")
case $kdir in
"$RD_TOP"/build/chroot/*) skip "$RD_KVER's headers are in the chroot: DKMS here builds with Debian 12's compiler" ;;
esac
debs=("$RD_TOP"/build/deb/ramdisk-dkms_*_all.deb "$RD_TOP"/build/deb/ramdisk-tools_*_*.deb)
for deb in "${debs[@]}"; do
	[ -f "$deb" ] || skip "no packages in build/deb: run make deb first (make check-deb does)"
done
version=$(dpkg-deb -f "${debs[0]}" Version)
for p in ramdisk-dkms ramdisk-tools; do
	if dpkg -s "$p" >/dev/null 2>&1; then
		skip "$p is installed on the host already"
	fi
done
grep -q '^ramdisk ' /proc/modules && fail "ramdisk is loaded before the test"
# The lower layer is the host's live root: a DKMS test running there
# (tests/host/540-dkms.sh) shows through.
if [ -e "/usr/src/ramdisk-$version" ]; then
	skip "/usr/src/ramdisk-$version exists (the host's DKMS test running?)"
fi
step() {
	echo "$(date +%T) ($SECONDS s) $*"
}

# DKMS's postinst builds for the running kernel and for the newest one in
# /boot, and the guest's /boot is the host's, with three kernels. As on a
# machine with one kernel, /boot shows only the running one: one build.
cp "/boot/config-$RD_KVER" "$RD_TMP/config" || fail "no /boot/config-$RD_KVER"
mount -t tmpfs -o mode=755 tmpfs /boot
on_exit umount /boot
cp "$RD_TMP/config" "/boot/config-$RD_KVER"

# DKMS's tree of its own, empty, for the same reason.
mount -t tmpfs -o mode=755 tmpfs /var/lib/dkms
on_exit umount /var/lib/dkms

# The files the packages may touch, by name: depmod rewrites its index
# files in place, and dpkg's own database (/var/lib/dpkg) is allowed to
# remember the packages. find fails on the folders not there yet. DKMS
# makes its module-signing key pair (mok.key, mok.pub) at its first build
# and keeps it: the machine's, not the package's.
snapshot() {
	find /usr/bin /usr/sbin /usr/src /usr/share/doc /usr/share/man \
		/usr/share/ramdisk /usr/share/lintian /lib/systemd /etc \
		/var/lib/dkms /var/lib/systemd "/lib/modules/$RD_KVER" \
		\( -type f -o -type l \) 2>/dev/null | grep -v '^/var/lib/dkms/mok\.' | sort || true
}
step "snapshot"
snapshot >"$RD_TMP/before"

on_exit "dpkg --purge ramdisk-tools ramdisk-dkms"
on_exit "modprobe -r ramdisk"
step "dpkg -i ${debs[*]##*/}"
started=$(date +%s)
# man-db's trigger would index every man page of the root over 9p.
if ! dpkg --no-triggers -i "${debs[@]}" >"$RD_TMP/install.log" 2>&1; then
	tail -n 40 "$RD_TMP/install.log"
	find /var/lib/dkms/ramdisk -name make.log -exec tail -n 30 {} \; 2>/dev/null
	fail "dpkg -i failed"
fi
cat "$RD_TMP/install.log"
step "installed"
# How much of that was the build: make.log is last written when it ends.
# The rest is mostly depmod.
log=$(find "/var/lib/dkms/ramdisk/$version" -name make.log | head -n 1)
if [ -n "$log" ]; then
	echo "DKMS's build ended $(($(stat -c %Y "$log") - started)) s after dpkg started"
fi
dkms status ramdisk | tee "$RD_TMP/status"
grep -q "^ramdisk/$version, $RD_KVER, [^:]*: installed" "$RD_TMP/status" ||
	fail "DKMS did not install ramdisk/$version for $RD_KVER"
modfile=$(modinfo -n ramdisk)
case $modfile in
"/lib/modules/$RD_KVER/updates/"*) ;;
*) fail "modinfo finds ramdisk at $modfile, not the DKMS one in updates/" ;;
esac
# DKMS signed it with the machine's pair, the one make sign uses by
# default: a machine with Secure Boot loads it after one enrolment.
[ -r /var/lib/dkms/mok.pub ] || fail "DKMS made no signing key pair"
serial=$(openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -serial | sed 's/^serial=//')
assert_eq "$(modinfo -F sig_key ramdisk | tr -d ':')" "$serial" "key of the DKMS-built module's signature"

# The installed tools, not the checkout's (build/bin is first in PATH).
ctl=/usr/sbin/ramdiskctl
modprobe ramdisk
step "loaded $modfile"
grep -q '^ramdisk ' /proc/modules || fail "modprobe ramdisk loaded nothing"
dev=$("$ctl" create --size 64M)
on_exit "$ctl remove $dev"
[ -b "$dev" ] || fail "ramdiskctl create printed '$dev', not a block device"
mkfs.ext4 -q "$dev"
mkdir "$RD_TMP/mnt"
mount "$dev" "$RD_TMP/mnt"
on_exit "umount $RD_TMP/mnt"
head -c 4M /dev/urandom >"$RD_TMP/data"
cp "$RD_TMP/data" "$RD_TMP/mnt/data"
umount "$RD_TMP/mnt"
mount "$dev" "$RD_TMP/mnt"
cmp "$RD_TMP/data" "$RD_TMP/mnt/data" || fail "the file read back differs after a remount"
umount "$RD_TMP/mnt"
"$ctl" list
"$ctl" remove "$dev"
/usr/bin/rdbench --help >/dev/null || fail "the installed rdbench does not run"
/usr/bin/rdcrash --help >/dev/null || fail "the installed rdcrash does not run"
for _ in 1 2 3 4 5 6 7 8 9 10; do
	modprobe -r ramdisk 2>/dev/null && break
	udevadm settle 2>/dev/null || true
	sleep 0.2
done
grep -q '^ramdisk ' /proc/modules && fail "modprobe -r left ramdisk loaded"
step "unloaded"

dpkg --no-triggers --purge ramdisk-tools ramdisk-dkms >"$RD_TMP/purge.log" 2>&1 ||
	{ cat "$RD_TMP/purge.log"; fail "dpkg --purge failed"; }
cat "$RD_TMP/purge.log"
step "purged"
[ -z "$(dkms status ramdisk)" ] || fail "dkms still knows ramdisk after the purge: $(dkms status ramdisk)"
snapshot >"$RD_TMP/after"
diff "$RD_TMP/before" "$RD_TMP/after" || fail "the packages left files behind or took some away (diff above)"
step "done"
