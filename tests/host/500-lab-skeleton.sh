#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: lab 6's skeleton is exactly what its solution generates; bad markers are refused
. "${0%/*}/../lib/common.sh"

gen=$RD_TOP/scripts/lab-skeleton

echo "committed skeleton against a fresh one"
"$gen" --check || fail "Documentation/labs/skeleton differs from the solution's; run: make skeleton"

echo "every TODO of the solution is in the skeleton, numbered 1..N"
want=$(grep -o 'LAB: TODO [0-9]*' "$RD_TOP/Documentation/labs/solution/minird.c" | awk '{print $3}' | sort -n | tr '\n' ' ')
got=$(grep -o '/\* TODO [0-9]*' "$RD_TOP/Documentation/labs/skeleton/minird.c" | awk '{print $3}' | sort -n | tr '\n' ' ')
assert_eq "$got" "$want" "TODO numbers in the skeleton"
n=$(wc -w <<<"$want")
assert_eq "$want" "$(seq -s ' ' 1 "$n") " "TODO numbers"
if grep -n 'LAB:' "$RD_TOP/Documentation/labs/skeleton/"*; then
	fail "a LAB: marker leaked into the skeleton"
fi

echo "malformed markers fail the generator"
bad() {
	local name=$1 body=$2
	mkdir -p "$RD_TMP/$name"
	printf '%b' "$body" >"$RD_TMP/$name/x.c"
	expect_fail "$gen" "$RD_TMP/$name" "$RD_TMP/$name.out"
}
bad unterminated '/* LAB: TODO 1: a */\nint x;\n'
bad nested '/* LAB: TODO 1: a */\n/* LAB: TODO 2: b */\n/* LAB: END */\n'
bad twice '/* LAB: TODO 1: a */\n/* LAB: END */\n/* LAB: TODO 1: b */\n/* LAB: END */\n'
bad stray_end 'int x;\n/* LAB: END */\n'

echo "a good region keeps its indent and drops its body"
mkdir -p "$RD_TMP/good"
printf 'int f(void)\n{\n\t/* LAB: TODO 1: return 1 */\n\treturn 1;\n\t/* LAB: END */\n}\n' >"$RD_TMP/good/x.c"
"$gen" "$RD_TMP/good" "$RD_TMP/good.out" >/dev/null
assert_eq "$(cat "$RD_TMP/good.out/x.c")" "$(printf 'int f(void)\n{\n\t/* TODO 1: return 1 */\n}')" "generated file"
