#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: dkms add/build for each kernel of KVERS, install and uninstall on one, remove; nothing left behind
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dkms make modinfo openssl

top=$RD_TOP
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
assert_eq "$version" "$(sed -n 's/^RD_VERSION := //p' "$top/mk/install.mk")" \
	"dkms.conf's PACKAGE_VERSION against mk/install.mk's RD_VERSION"
pkg=ramdisk/$version
src=/usr/src/ramdisk-$version

# DKMS's tree is the machine's, not the checkout's: one run of this test at
# a time, even from several checkouts or `make check` runs.
exec 9>/run/lock/ramdisk-dkms-test.lock
flock -w 400 9 || skip "another run of this test kept the DKMS lock for 400 s"

if [ -e "$src" ] || [ -e /var/lib/dkms/ramdisk ]; then
	skip "ramdisk is already in DKMS on this machine ($src or /var/lib/dkms/ramdisk); not touching it"
fi

# Everything under these folders, to prove the test leaves them as it found
# them (depmod rewrites its index files in place; their names stay).
snapshot() {
	find /var/lib/dkms /lib/modules \( -type f -o -type l \) 2>/dev/null | sort
}
snapshot >"$RD_TMP/before"
# DKMS makes a module-signing key the first time it builds anywhere; one
# made by this test is this test's to remove.
for key in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
	[ -e "$key" ] || on_exit "rm -f $key"
done
on_exit "rm -rf /var/lib/dkms/ramdisk"
on_exit "rm -rf $src"
on_exit "dkms remove $pkg --all"

make -s -C "$top" dkms-source >/dev/null
dkms add "$pkg"

host_kvers=()
for k in ${KVERS:-6.1 6.12 7}; do
	kver=$("$top/scripts/kernel" resolve "$k" 2>/dev/null) || continue
	kdir=$("$top/scripts/kernel" kdir "$kver")
	case $kdir in
	"$top"/build/chroot/*)
		# DKMS runs the build with this host's compiler, and these headers
		# need the chroot's; a machine running this kernel has both.
		echo "$kver: headers only in the trixie chroot, not a DKMS target on this host"
		continue
		;;
	esac
	echo "build for $kver"
	if ! dkms build "$pkg" -k "$kver" >"$RD_TMP/build-$kver.log" 2>&1; then
		tail -n 30 "$RD_TMP/build-$kver.log"
		find /var/lib/dkms/ramdisk -name make.log -exec tail -n 30 {} \;
		fail "dkms build failed for $kver"
	fi
	host_kvers+=("$kver")
	ko=$(find "/var/lib/dkms/ramdisk/$version/$kver" -name 'ramdisk.ko*' | head -n 1)
	[ -n "$ko" ] || fail "dkms build left no ramdisk.ko for $kver"
	vermagic=$(modinfo -F vermagic "$ko")
	assert_eq "${vermagic%% *}" "$kver" "vermagic of the DKMS-built module"
	# DKMS signs with its machine key pair, and make sign's default is that
	# pair: one enrolment serves modules from both (issue 28).
	[ -r /var/lib/dkms/mok.pub ] || fail "DKMS built for $kver without making its signing key"
	dkms_key=$(openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -serial | sed 's/^serial=//')
	assert_eq "$(modinfo -F sig_key "$ko" | tr -d ':')" "$dkms_key" "sig_key of the DKMS-built module for $kver"
	"$top/scripts/build-module" "$kver" >/dev/null 2>&1 || fail "ramdisk.ko does not build for $kver"
	cp "$top/build/kernels/$kver/ramdisk.ko" "$RD_TMP/ours.ko"
	"$top/scripts/sign-module" "$kver" "$RD_TMP/ours.ko" >/dev/null
	assert_eq "$(modinfo -F sig_key "$RD_TMP/ours.ko" | tr -d ':')" "$dkms_key" "make sign's default key for $kver"
done
[ ${#host_kvers[@]} -gt 0 ] || skip "no kernel headers installed on this host (make deps)"

kver=${host_kvers[0]}
echo "install and uninstall for $kver"
dkms install "$pkg" -k "$kver" >"$RD_TMP/install.log" 2>&1 ||
	{ cat "$RD_TMP/install.log"; fail "dkms install failed for $kver"; }
modinfo -k "$kver" -n ramdisk | grep -q "/lib/modules/$kver/updates/" ||
	fail "after dkms install, modinfo -k $kver finds $(modinfo -k "$kver" -n ramdisk)"
dkms status
dkms uninstall "$pkg" -k "$kver" >/dev/null

echo "remove"
dkms remove "$pkg" --all >/dev/null
rm -rf "$src"
for key in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
	grep -qx "$key" "$RD_TMP/before" || rm -f "$key"
done
snapshot >"$RD_TMP/after"
diff "$RD_TMP/before" "$RD_TMP/after" || fail "dkms left files behind or took some away (diff above)"
