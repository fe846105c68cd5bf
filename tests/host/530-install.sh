#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make install/uninstall honour PREFIX and DESTDIR; modules_install goes through kbuild for each kernel
. "${0%/*}/../lib/common.sh"
require_cmd make modinfo

top=$RD_TOP
root=$RD_TMP/root

echo "install with PREFIX=/usr under DESTDIR"
make -s -C "$top" install PREFIX=/usr DESTDIR="$root" >"$RD_TMP/install.log" 2>&1 ||
	{ cat "$RD_TMP/install.log"; fail "make install failed"; }
for f in usr/sbin/ramdiskctl:755 usr/bin/rdbench:755 usr/bin/rdcrash:755 \
	usr/share/man/man8/ramdiskctl.8:644 usr/share/man/man1/rdbench.1:644 \
	usr/share/man/man1/rdcrash.1:644 usr/lib/systemd/system/ramdisk-setup.service:644 \
	etc/ramdisk/ramdisk.conf.example:644 usr/share/doc/ramdisk/examples/rdcrash/sqlite.sh:755 \
	usr/share/doc/ramdisk/examples/rdcrash/git.sh:755 usr/share/doc/ramdisk/examples/rdcrash/redis.sh:755; do
	path=$root/${f%:*}
	[ -f "$path" ] || fail "make install did not install /${f%:*}"
	assert_eq "$(stat -c %a "$path")" "${f#*:}" "mode of /${f%:*}"
done
"$root/usr/sbin/ramdiskctl" --help >/dev/null || fail "the installed ramdiskctl does not run"
"$root/usr/bin/rdbench" --help >/dev/null || fail "the installed rdbench does not run"
# the installed man pages are the ones in the tree
cmp "$root/usr/share/man/man8/ramdiskctl.8" "$top/Documentation/man/ramdiskctl.8"
# the unit and the example configuration are the tree's, and the example reads
cmp "$root/usr/lib/systemd/system/ramdisk-setup.service" "$top/systemd/ramdisk-setup.service"
cmp "$root/etc/ramdisk/ramdisk.conf.example" "$top/Documentation/examples/ramdisk.conf"
# every worked example of rdcrash, as the tree has it
for ex in "$top"/Documentation/examples/rdcrash/*.sh; do
	cmp "$ex" "$root/usr/share/doc/ramdisk/examples/rdcrash/${ex##*/}"
done
"$root/usr/sbin/ramdiskctl" apply --dry-run "$root/etc/ramdisk/ramdisk.conf.example" ||
	fail "the installed ramdiskctl does not read the installed example"

echo "uninstall removes exactly what install put there"
make -s -C "$top" uninstall PREFIX=/usr DESTDIR="$root"
left=$(find "$root" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"

echo "the default PREFIX is /usr/local; BINDIR, SBINDIR, MANDIR, UNITDIR and SYSCONFDIR move one kind each"
make -s -C "$top" install DESTDIR="$RD_TMP/r2" >/dev/null 2>&1
[ -x "$RD_TMP/r2/usr/local/sbin/ramdiskctl" ] || fail "no /usr/local/sbin/ramdiskctl"
[ -f "$RD_TMP/r2/usr/local/share/man/man1/rdbench.1" ] || fail "no /usr/local/share/man/man1/rdbench.1"
[ -f "$RD_TMP/r2/usr/local/lib/systemd/system/ramdisk-setup.service" ] ||
	fail "no /usr/local/lib/systemd/system/ramdisk-setup.service"
[ -f "$RD_TMP/r2/etc/ramdisk/ramdisk.conf.example" ] || fail "PREFIX moved the example out of /etc"
make -s -C "$top" install DESTDIR="$RD_TMP/r3" SBINDIR=/sbin MANDIR=/man UNITDIR=/lib/systemd/system \
	SYSCONFDIR=/usr/local/etc >/dev/null 2>&1
for f in sbin/ramdiskctl man/man8/ramdiskctl.8 usr/local/bin/rdbench lib/systemd/system/ramdisk-setup.service \
	usr/local/etc/ramdisk/ramdisk.conf.example; do
	[ -f "$RD_TMP/r3/$f" ] || fail "SBINDIR=/sbin MANDIR=/man UNITDIR=/lib/systemd/system SYSCONFDIR=/usr/local/etc: no /$f"
done

# modules_install from a copy of the tree as `make dkms-source` stages it,
# so this test never builds in the checkout's build/ that other builds use.
echo "modules_install into DESTDIR, per kernel"
make -s -C "$top" dkms-source DESTDIR="$RD_TMP/src" >/dev/null
src=$(echo "$RD_TMP"/src/usr/src/ramdisk-*)
done_any=0
for k in ${KVERS:-6.1 6.12 7}; do
	kver=$("$top/scripts/kernel" resolve "$k" 2>/dev/null) || continue
	case $("$top/scripts/kernel" kdir "$kver") in
	"$top"/build/chroot/*)
		echo "$kver: headers in the chroot, not installable from this host"
		continue
		;;
	esac
	mods=$RD_TMP/mods-$kver
	make -s -C "$src" KVER="$kver" DESTDIR="$mods" modules_install >"$RD_TMP/mi.log" 2>&1 ||
		{ tail -n 30 "$RD_TMP/mi.log"; fail "make modules_install failed for $kver"; }
	ko=$(find "$mods/lib/modules/$kver/updates" -name 'ramdisk.ko*' | head -n 1)
	[ -n "$ko" ] || fail "no ramdisk.ko in $mods/lib/modules/$kver/updates"
	vermagic=$(modinfo -F vermagic "$ko")
	assert_eq "${vermagic%% *}" "$kver" "vermagic of the installed module"
	echo "$kver: ${ko#"$mods"}"
	done_any=1
done
[ "$done_any" = 1 ] || skip "no kernel headers the host can build for"
