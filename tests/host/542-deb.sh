#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make deb builds ramdisk-dkms and ramdisk-tools, lintian clean, with exactly the expected files and one version everywhere
. "${0%/*}/../lib/common.sh"
require_cmd make git dpkg-buildpackage dpkg-deb dh dh_dkms lintian fakeroot

top=$RD_TOP
# Its own output folder: tests/check builds build/deb for the VM tests
# while the host tests run.
out=$RD_TMP/deb

rd_version=$(sed -n 's/^RD_VERSION := //p' "$top/mk/install.mk")
dkms_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
deb_version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
assert_eq "$deb_version" "$rd_version" "debian/changelog's version against mk/install.mk's RD_VERSION"
assert_eq "$dkms_version" "$rd_version" "dkms.conf's PACKAGE_VERSION against RD_VERSION"

echo "a version out of step stops make deb before it builds"
expect_fail make -s -C "$top" deb RD_VERSION=0.0.1 DEB_DIR="$out" 2>"$RD_TMP/err"
grep -q 'debian/changelog says' "$RD_TMP/err" || fail "no reason given: $(cat "$RD_TMP/err")"

echo "make deb"
git -C "$top" status --porcelain --ignored -- debian >"$RD_TMP/debian.before"
start=$SECONDS
make -s -C "$top" deb DEB_DIR="$out" >"$RD_TMP/deb.log" 2>&1 ||
	{ tail -n 40 "$RD_TMP/deb.log"; fail "make deb failed"; }
echo "built in $((SECONDS - start)) s"
dkms_deb=$out/ramdisk-dkms_${rd_version}_all.deb
tools_deb=$out/ramdisk-tools_${rd_version}_$(dpkg --print-architecture).deb
for deb in "$dkms_deb" "$tools_deb"; do
	[ -f "$deb" ] || fail "make deb did not build ${deb##*/}: $(ls "$out")"
	assert_eq "$(dpkg-deb -f "$deb" Version)" "$rd_version" "version of ${deb##*/}"
done
assert_eq "$(find "$out" -name '*.deb' | wc -l)" 2 "packages built"
[ ! -e "$out/src" ] || fail "make deb left its copy of the tree in $out/src"
git -C "$top" status --porcelain --ignored -- debian >"$RD_TMP/debian.after"
diff "$RD_TMP/debian.before" "$RD_TMP/debian.after" || fail "make deb wrote into the checkout's debian/ (diff above)"


# make deb ran lintian with --fail-on error,warning; its output must hold
# no error or warning either (an override needs a reason in debian/).
if grep -E '^[EW]: ' "$RD_TMP/deb.log"; then
	fail "lintian reports the errors or warnings above"
fi

# The files of a package, as dpkg -c lists them (folders left out).
contents() {
	dpkg-deb -c "$1" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./|/|' | sort
}

echo "ramdisk-tools: the tools, man pages, fio jobs, the unit, the example config and rdcrash's examples"
{
	printf '%s\n' /usr/sbin/ramdiskctl /usr/bin/rdbench /usr/bin/rdcrash \
		/usr/share/man/man8/ramdiskctl.8.gz /usr/share/man/man1/rdbench.1.gz \
		/usr/share/man/man1/rdcrash.1.gz \
		/lib/systemd/system/ramdisk-setup.service \
		/etc/ramdisk/ramdisk.conf.example \
		/usr/share/doc/ramdisk-tools/changelog.gz /usr/share/doc/ramdisk-tools/copyright \
		/usr/share/lintian/overrides/ramdisk-tools
	git -C "$top" ls-files 'fio-jobs/*.fio' | sed 's|^fio-jobs/|/usr/share/ramdisk/fio-jobs/|'
	git -C "$top" ls-files 'Documentation/examples/rdcrash/*.sh' |
		sed 's|^Documentation/examples/rdcrash/|/usr/share/doc/ramdisk-tools/examples/rdcrash/|'
} | sort >"$RD_TMP/tools.want"
contents "$tools_deb" >"$RD_TMP/tools.got"
diff "$RD_TMP/tools.want" "$RD_TMP/tools.got" || fail "ramdisk-tools' files differ from the expected (diff above)"
dpkg-deb -x "$tools_deb" "$RD_TMP/tools"
cmp "$RD_TMP/tools/lib/systemd/system/ramdisk-setup.service" "$top/systemd/ramdisk-setup.service"
"$RD_TMP/tools/usr/sbin/ramdiskctl" --help >/dev/null || fail "the packaged ramdiskctl does not run"
dpkg-deb -f "$tools_deb" Depends | grep -q 'libsmartcols1' ||
	fail "ramdisk-tools does not depend on libsmartcols1: $(dpkg-deb -f "$tools_deb" Depends)"

echo "ramdisk-dkms: what make dkms-source stages, in /usr/src/ramdisk-$rd_version"
make -s -C "$top" dkms-source DESTDIR="$RD_TMP/stage" >/dev/null
{
	(cd "$RD_TMP/stage" && find . -type f | sed 's|^\./|/|')
	printf '%s\n' /usr/share/doc/ramdisk-dkms/changelog.gz /usr/share/doc/ramdisk-dkms/copyright
} | sort >"$RD_TMP/dkms.want"
contents "$dkms_deb" >"$RD_TMP/dkms.got"
diff "$RD_TMP/dkms.want" "$RD_TMP/dkms.got" || fail "ramdisk-dkms' files differ from make dkms-source's (diff above)"
dpkg-deb -x "$dkms_deb" "$RD_TMP/dkms"
cmp "$RD_TMP/dkms/usr/src/ramdisk-$rd_version/dkms.conf" "$top/dkms.conf"
dpkg-deb -f "$dkms_deb" Depends | grep -q '^dkms' ||
	fail "ramdisk-dkms does not depend on dkms: $(dpkg-deb -f "$dkms_deb" Depends)"
# dh_dkms's maintainer scripts: DKMS builds on configure, removes on remove.
dpkg-deb -e "$dkms_deb" "$RD_TMP/dkms-control"
grep -q 'common.postinst' "$RD_TMP/dkms-control/postinst" || fail "ramdisk-dkms' postinst does not run DKMS"
grep -q 'dkms remove' "$RD_TMP/dkms-control/prerm" || fail "ramdisk-dkms' prerm does not remove the module from DKMS"
grep -q "^DKMS_VERSION=$rd_version\$" "$RD_TMP/dkms-control/postinst" ||
	fail "ramdisk-dkms' postinst names another version"
