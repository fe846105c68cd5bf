#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every test file starts the way Documentation/development.md shows: shebang, SPDX line, DESCRIPTION, optional VMOPTS/KERNELS and comments, then sourcing common.sh; and is executable, since the suites skip any other
. "${0%/*}/../lib/common.sh"

doc=$RD_TOP/Documentation/development.md

# The example in the guide: the block after "A test starts like this:".
awk '/^A test starts like this/ {on = 1; next}
	on && /^```/ {if (inblock) exit; inblock = 1; next}
	inblock {print}' "$doc" >"$RD_TMP/example"
[ -s "$RD_TMP/example" ] || fail "development.md has no example after 'A test starts like this'"

# header FILE: checks FILE's first lines against the example's shape;
# prints what is wrong, or nothing
header() {
	awk -v shebang="$(sed -n 1p "$RD_TMP/example")" \
		-v spdx="$(sed -n 2p "$RD_TMP/example")" \
		-v source="$(tail -n 1 "$RD_TMP/example")" '
		NR == 1 && $0 != shebang {print "line 1 is not " shebang; bad = 1; exit}
		NR == 2 && $0 != spdx {print "line 2 is not " spdx; bad = 1; exit}
		NR == 3 && $0 !~ /^# DESCRIPTION: [^ ]/ {print "line 3 is not # DESCRIPTION: ..."; bad = 1; exit}
		NR > 3 && $0 == source {found = 1; exit}
		NR > 3 && $0 !~ /^#/ {print "line " NR " comes before " source; bad = 1; exit}
		END {if (!found && !bad) print "no line " source}' "$1"
}

echo "the example itself"
msg=$(header "$RD_TMP/example")
[ -z "$msg" ] || fail "the example in development.md: $msg"
grep -q '^# VMOPTS: ' "$RD_TMP/example" || fail "the example no longer shows VMOPTS, which the text explains"

echo "every test"
n=0
for t in "$RD_TOP"/tests/vm/[0-9]*.sh "$RD_TOP"/tests/host/[0-9]*.sh; do
	msg=$(header "$t")
	[ -z "$msg" ] || fail "${t#"$RD_TOP"/}: $msg (see Documentation/development.md)"
	# the suites run executable files only: any other would never run, nor fail
	[ -x "$t" ] || fail "${t#"$RD_TOP"/} is not executable, so the suite skips it"
	n=$((n + 1))
done
for t in "$RD_TOP"/tests/harness/[0-9]*.sh; do
	[ -x "$t" ] || fail "${t#"$RD_TOP"/} is not executable, so the suite skips it"
done
echo "$n tests start as the guide shows and are executable, as the harness's are"

echo "the check refuses a test that does not"
printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0\n# DESCRIPTION: x\n. "${0%%/*}/../lib/common.sh"\n' >"$RD_TMP/bad1"
printf '#!/bin/bash\n# SPDX-License-Identifier: GPL-2.0\n. "${0%%/*}/../lib/common.sh"\n' >"$RD_TMP/bad2"
printf '#!/bin/bash\n# SPDX-License-Identifier: GPL-2.0\n# DESCRIPTION: x\nset -e\n. "${0%%/*}/../lib/common.sh"\n' >"$RD_TMP/bad3"
for b in bad1 bad2 bad3; do
	msg=$(header "$RD_TMP/$b")
	[ -n "$msg" ] || fail "the header check accepted $b"
	echo "$b: $msg"
done
