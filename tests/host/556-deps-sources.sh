#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: make deps takes the Debian archive from the machine's own apt sources (one-line and deb822, a mirror or a caching proxy, disabled entries ignored), adds only missing suites with that URI, and the tree names no archive host
. "${0%/*}/../lib/common.sh"
require_cmd apt-get apt-config

da=$RD_TOP/scripts/debian-archive
conf=$RD_TMP/apt.conf
mkdir -p "$RD_TMP/parts"
cat >"$conf" <<EOF
Dir::Etc::SourceList "$RD_TMP/sources.list";
Dir::Etc::SourceParts "$RD_TMP/parts";
EOF
export APT_CONFIG=$conf

# sources FILE TEXT: the machine's apt sources become TEXT in FILE (and
# nothing else)
sources() {
	rm -f "$RD_TMP/sources.list" "$RD_TMP/parts"/*
	printf '%s\n' "$2" >"$RD_TMP/$1"
}

# A caching proxy in a one-line list, with options, beside a security
# entry on another host: the bookworm entry's URI, without its slash.
sources sources.list 'deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://apt-cache.invalid:3142/debian/ bookworm main contrib
deb http://security.invalid/debian-security bookworm-security main'
run_cmd 0 "$da" uri bookworm
assert_eq "$out" http://apt-cache.invalid:3142/debian "archive of a one-line source"
run_cmd 1 "$da" has bookworm-backports
run_cmd 0 "$da" has bookworm-security

# The stanza deps writes for a missing suite carries that URI.
run_cmd 0 "$da" stanza bookworm bookworm-backports
grep -qx 'URIs: http://apt-cache.invalid:3142/debian' <<<"$out" || fail "stanza lacks the machine's URI: $out"
grep -qx 'Suites: bookworm-backports' <<<"$out" || fail "stanza lacks the suite: $out"

# deb822: a disabled entry is not the machine's archive; the first enabled
# one that serves the release is, even when it lists the suite second.
sources parts/debian.sources 'Types: deb
URIs: http://old.invalid/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb deb-src
URIs: http://mirror.invalid/debian
Suites: bookworm-updates bookworm bookworm-backports
Components: main'
run_cmd 0 "$da" uri bookworm
assert_eq "$out" http://mirror.invalid/debian "archive of a deb822 source"
run_cmd 0 "$da" has bookworm-backports

# A release no entry serves: a clear error, nothing on stdout.
expect_refusal 2 "no enabled apt source serves 'trixie main'" "$da" uri trixie
# Only a contrib entry: not the archive of main.
sources sources.list 'deb http://contrib-only.invalid/debian bookworm contrib'
expect_refusal 2 "no enabled apt source serves 'bookworm main'" "$da" uri bookworm
expect_refusal 2 "unknown command 'mirror'" "$da" mirror
expect_refusal 2 "usage:" "$da" stanza bookworm

# apt's proxy for debootstrap; DIRECT means none.
cat >>"$conf" <<'EOF'
Acquire::http::Proxy "http://proxy.invalid:3128/";
EOF
run_cmd 0 "$da" proxy
assert_eq "$out" http://proxy.invalid:3128/ "apt's proxy"
sed -i 's|"http://proxy.invalid:3128/"|"DIRECT"|' "$conf"
run_cmd 0 "$da" proxy
assert_eq "$out" "" "DIRECT proxy"

# No archive host is spelled out in what sets the machine up.
if hosts=$(grep -nE 'https?://[A-Za-z0-9.-]+' "$RD_TOP/scripts/deps" "$RD_TOP/scripts/debian-archive"); then
	fail "the set-up scripts name a host: $hosts"
fi
