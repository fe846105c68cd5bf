#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: under module.sig_enforce=1 the unsigned ramdisk.ko is refused (Key was rejected by service) and ramdiskctl says to sign it with make sign; a module signed by make sign's key is refused too, as that key is not enrolled; the kernel's own signed modules still load
# VMOPTS: --append module.sig_enforce=1
. "${0%/*}/../lib/common.sh"
require_cmd insmod modprobe openssl

# What this cannot show: the same module loading once its key is trusted.
# Debian's kernels trust their built-in key and, under UEFI Secure Boot
# with shim, the MOK keys a user enrols (mokutil --import); this guest boots
# without UEFI firmware or shim, so no key of ours can become trusted
# without building a kernel. tests/host/535-sign-module.sh checks instead
# that the signature verifies against the certificate over the module's
# bytes, as the kernel's check does.

# a kernel built without module signing (make debug-kernel's) has no such check
[ -e /sys/module/module/parameters/sig_enforce ] ||
	skip "$RD_KVER checks no module signatures (no CONFIG_MODULE_SIG)"
assert_eq "$(cat /sys/module/module/parameters/sig_enforce)" Y "module.sig_enforce"
grep -q '^ramdisk ' /proc/modules && fail "ramdisk is loaded before the test"

# The module as the build left it: unsigned.
run_cmd 1 insmod "$RD_MODULE"
grep -qF "Key was rejected by service" <<<"$err" || fail "insmod of the unsigned module: $err"
kernel_log | grep -qF "Loading of unsigned module is rejected" ||
	fail "the kernel log does not say why the unsigned module was refused"

# ramdiskctl finds no module and says what to do, in its one line.
run_cmd 3 "$RD_BIN/ramdiskctl" list
grep -qF "this kernel loads only signed modules: sign ramdisk.ko with make sign" <<<"$err" ||
	fail "ramdiskctl gives no signing hint: $err"

# Signed as make sign signs, with a key the kernel was never told of.
cp "$RD_MODULE" "$RD_TMP/ramdisk.ko"
SIGN_KEY=$RD_TMP/keys/mok.key SIGN_CERT=$RD_TMP/keys/mok.pub \
	"$RD_TOP/scripts/sign-module" "$RD_KVER" "$RD_TMP/ramdisk.ko" >/dev/null 2>"$RD_TMP/sign.err" ||
	fail "sign-module failed in the guest: $(cat "$RD_TMP/sign.err")"
[ -n "$(modinfo -F signer "$RD_TMP/ramdisk.ko")" ] || fail "the signed copy has no signer"
run_cmd 1 insmod "$RD_TMP/ramdisk.ko"
grep -qF "Key was rejected by service" <<<"$err" || fail "insmod of the module signed by an unknown key: $err"
kernel_log | grep -qF "Loading of module with unavailable key is rejected" ||
	fail "the kernel log does not say the signing key is unknown"
grep -q '^ramdisk ' /proc/modules && fail "ramdisk loaded though signatures are enforced"

# Enforcement is not refusing everything: Debian's signed brd loads.
if modinfo brd >/dev/null 2>&1; then
	modprobe brd rd_nr=1 rd_size=1024 || fail "Debian's signed brd is refused under sig_enforce"
	modprobe -r brd
fi
