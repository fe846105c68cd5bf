#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make sign signs ramdisk.ko for each kernel of KVERS with that kernel's sign-file: modinfo names the signer and key, the signature verifies against the certificate over the module's bytes, signing twice leaves one signature, and bad keys are refused
. "${0%/*}/../lib/common.sh"
require_cmd openssl modinfo od

sign=$RD_TOP/scripts/sign-module
keys=$RD_TMP/keys
export SIGN_KEY=$keys/mok.key SIGN_CERT=$keys/mok.pub
magic='~Module signature appended~'

# trailer KO: the signature's length, from the 12-byte struct before the
# 28-byte magic line (its last four bytes, big-endian)
sig_len() {
	tail -c 32 "$1" | head -c 4 | od -An -tu1 | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}'
}

# verify KO: the appended PKCS#7 signature is over every byte before it and
# made by the key of $SIGN_CERT
verify() {
	local ko=$1 size len
	size=$(stat -c %s "$ko")
	len=$(sig_len "$ko")
	head -c $((size - 40 - len)) "$ko" >"$RD_TMP/content"
	tail -c $((len + 40)) "$ko" | head -c "$len" >"$RD_TMP/sig.p7"
	openssl cms -verify -binary -inform DER -in "$RD_TMP/sig.p7" -content "$RD_TMP/content" \
		-certfile "$SIGN_CERT" -nointern -noverify -out /dev/null 2>"$RD_TMP/cms.err"
}

signed=0
for k in ${KVERS:-6.1 6.12 7}; do
	kver=$("$RD_TOP/scripts/kernel" resolve "$k" 2>/dev/null) || continue
	"$RD_TOP/scripts/build-module" "$kver" >"$RD_TMP/build-$kver.log" 2>&1 ||
		{ tail -n 20 "$RD_TMP/build-$kver.log"; fail "ramdisk.ko does not build for $kver"; }
	# A copy: the suite's guests load the module in build/kernels.
	ko=$RD_TMP/ramdisk-$kver.ko
	cp "$RD_TOP/build/kernels/$kver/ramdisk.ko" "$ko"
	tail -c 28 "$ko" | grep -qF "$magic" && fail "the built module for $kver is signed already"
	unsigned_size=$(stat -c %s "$ko")

	# The first run makes the pair, the key for its owner only.
	run_cmd 0 "$sign" "$kver" "$ko"
	if [ "$signed" = 0 ]; then
		grep -q "making the signing key" <<<"$err" || fail "no pair made on the first run: $err"
		assert_eq "$(stat -c %a "$SIGN_KEY")" 600 "mode of the made key"
		serial=$(openssl x509 -inform DER -in "$SIGN_CERT" -noout -serial | sed 's/^serial=//')
		subject=$(openssl x509 -inform DER -in "$SIGN_CERT" -noout -subject -nameopt multiline |
			sed -n 's/^ *commonName *= *//p')
	fi
	assert_eq "$(modinfo -F signer "$ko")" "$subject" "signer of the module for $kver"
	assert_eq "$(modinfo -F sig_key "$ko" | tr -d ':')" "$serial" "sig_key of the module for $kver"
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$("$RD_TOP/scripts/kernel" kdir "$kver")/.config")
	assert_eq "$(modinfo -F sig_hashalgo "$ko")" "${hash:-sha256}" "hash of the signature for $kver"
	verify "$ko" || fail "the signature of the module for $kver does not verify: $(cat "$RD_TMP/cms.err")"
	assert_eq "$(stat -c %s "$RD_TMP/content")" "$unsigned_size" "signed bytes of $kver's module"

	# Signing again replaces the signature: one trailer, same size.
	size=$(stat -c %s "$ko")
	run_cmd 0 "$sign" "$kver" "$ko"
	assert_eq "$(stat -c %s "$ko")" "$size" "size after signing twice"
	assert_eq "$(grep -c -aF "$magic" "$ko")" 1 "signature trailers after signing twice"
	verify "$ko" || fail "a module signed twice does not verify"

	# The check has teeth: one byte changed and the signature fails.
	printf 'x' | dd of="$ko" bs=1 seek=4096 conv=notrunc 2>/dev/null
	if verify "$ko"; then
		fail "a changed module still verified"
	fi
	signed=$((signed + 1))
done
[ "$signed" -gt 0 ] || skip "no kernel headers of KVERS on this host (make deps)"

# Refusals on a copy of the first kernel's module: nothing signed, the
# reason said.
kvers=${KVERS:-6.1 6.12 7}
kver=$("$RD_TOP/scripts/kernel" resolve "${kvers%% *}")
cp "$RD_TOP/build/kernels/$kver/ramdisk.ko" "$RD_TMP/plain.ko"

expect_refusal 2 "give both or neither" env SIGN_CERT= "$sign" "$kver" "$RD_TMP/plain.ko"
expect_refusal 2 "no headers for kernel 'no-such-kernel'" "$sign" no-such-kernel "$RD_TMP/plain.ko"
expect_refusal 2 "no module at $RD_TMP/missing.ko" "$sign" "$kver" "$RD_TMP/missing.ko"
chmod 0644 "$SIGN_KEY"
expect_refusal 2 "readable or writable by others (mode 644)" "$sign" "$kver" "$RD_TMP/plain.ko"
chmod 0600 "$SIGN_KEY"
rm "$SIGN_CERT"
expect_refusal 2 "the certificate $SIGN_CERT is missing" "$sign" "$kver" "$RD_TMP/plain.ko"
tail -c 28 "$RD_TMP/plain.ko" | grep -qF "$magic" && fail "a refused run signed the module"

# --if-key (make modules_install's default) does nothing without a pair.
run_cmd 0 env SIGN_KEY="$RD_TMP/none.key" SIGN_CERT="$RD_TMP/none.pub" "$sign" --if-key "$kver" "$RD_TMP/plain.ko"
[ ! -e "$RD_TMP/none.key" ] || fail "--if-key made a key"
tail -c 28 "$RD_TMP/plain.ko" | grep -qF "$magic" && fail "--if-key signed without a key"
true
