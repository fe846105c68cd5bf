#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: lab 6's minird builds with W=1 and no warning on every kernel of KVERS; its skeleton builds
. "${0%/*}/../lib/common.sh"

built=()
for k in ${KVERS:-6.1 6.12 7}; do
	if ! kver=$("$RD_TOP/scripts/kernel" resolve "$k" 2>/dev/null); then
		echo "no headers for $k: not built"
		continue
	fi
	echo "solution for $kver"
	"$RD_TOP/scripts/build-lab" "$kver" || fail "minird does not build cleanly against $kver"
	built+=("$kver")
done
[ ${#built[@]} -gt 0 ] || skip "no kernel headers installed (make deps)"

# The skeleton on one kernel: it must build for students to start from.
kver=${built[-1]}
echo "skeleton for $kver"
"$RD_TOP/scripts/build-lab" --skeleton "$kver" || fail "the skeleton does not build against $kver"

# What the lab's own Makefile does (a copy, built by its Makefile with KDIR),
# on a kernel the host's toolchain builds for.
for kver in "${built[@]}"; do
	kdir=$("$RD_TOP/scripts/kernel" kdir "$kver")
	case $kdir in "$RD_TOP"/build/chroot/*) continue ;; esac
	echo "the lab's Makefile, from a copy, against $kver"
	cp -r "$RD_TOP/Documentation/labs/skeleton" "$RD_TMP/minird"
	make -s -C "$RD_TMP/minird" KDIR="$kdir" >"$RD_TMP/make.log" 2>&1 ||
		{ cat "$RD_TMP/make.log"; fail "make -C skeleton-copy KDIR=$kdir failed"; }
	[ -f "$RD_TMP/minird/minird.ko" ] || fail "the lab's Makefile made no minird.ko"
	break
done
