#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: scripts/checkpatch, the kernel-style step of make check-static, reports a file that breaks the kernel's style and passes one that keeps it
. "${0%/*}/../lib/common.sh"
require_cmd perl
[ -r /usr/src/linux-source-6.12.tar.xz ] || skip "no linux-source-6.12 (make deps installs it)"

checkpatch=$RD_TOP/scripts/checkpatch
printf '// SPDX-License-Identifier: GPL-2.0\nint f(int a)\n{\n\treturn a + 1;\n}\n' >"$RD_TMP/good.c"
# spaces for tabs, braces around one statement
printf '// SPDX-License-Identifier: GPL-2.0\nint f(int a)\n{\n    if (a) {\n        return 1;\n    }\n    return 0;\n}\n' \
	>"$RD_TMP/bad.c"

"$checkpatch" "$RD_TMP/good.c" >"$RD_TMP/good.out" 2>&1 || fail "a clean file was reported: $(cat "$RD_TMP/good.out")"
status=0
"$checkpatch" "$RD_TMP/bad.c" >"$RD_TMP/bad.out" 2>&1 || status=$?
assert_eq "$status" 1 "exit status for a file with spaces for tabs"
grep -q 'ERROR:CODE_INDENT' "$RD_TMP/bad.out" || fail "no CODE_INDENT report: $(cat "$RD_TMP/bad.out")"
grep -q 'WARNING:BRACES' "$RD_TMP/bad.out" || fail "no BRACES report: $(cat "$RD_TMP/bad.out")"
echo "PASS: checkpatch reports the bad file and passes the good one"
