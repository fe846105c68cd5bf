#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every shell block of README and the documentation says how it is tested, every block names its language; markers are well formed; vm blocks are extracted as written
. "${0%/*}/../lib/common.sh"
require_cmd python3

docs=$RD_TOP/scripts/doc-commands

echo "the tree's Markdown"
"$docs" check || fail "doc-test markers: see above (scripts/doc-commands check)"

echo "every lab has its goal, steps with output to expect, and questions; the labs' README lists each"
for lab in "$RD_TOP"/Documentation/labs/[0-9][0-9]-*.md; do
	name=${lab##*/}
	got=$(grep -E '^## (Goal|Steps|Questions)$' "$lab" | tr '\n' ' ')
	assert_eq "$got" "## Goal ## Steps ## Questions " "$name: its sections"
	grep -q '^<!-- doc-test: vm -->$' "$lab" || fail "$name: no step runs in the doc check"
	grep -q '^```text$' "$lab" || fail "$name: no expected output"
	grep -q "](${name})" "$RD_TOP/Documentation/labs/README.md" || fail "$name is not in the labs' README"
done

echo "what is not run yet, outside the strictly checked files (information only)"
"$docs" unmarked || true

echo "the checker refuses what it should"
refuse() {
	local name=$1 body=$2
	printf '%b' "$body" >"$RD_TMP/$name.md"
	if "$docs" check --strict "$RD_TMP/$name.md" 2>"$RD_TMP/$name.err"; then
		fail "doc-commands accepted $name"
	fi
	echo "$name: $(head -n 1 "$RD_TMP/$name.err")"
}
refuse unmarked '```sh\nls\n```\n'
refuse unknown_kind '<!-- doc-test: host -->\n```sh\nls\n```\n'
refuse skip_without_reason '<!-- doc-test: skip -->\n```sh\nls\n```\n'
refuse missing_test '<!-- doc-test: test tests/host/no-such-test.sh -->\n```sh\nls\n```\n'
refuse marker_before_text '<!-- doc-test: vm -->\ntext\n```sh\nls\n```\n'
refuse marker_before_text_block '<!-- doc-test: vm -->\n```text\nls\n```\n'
refuse unlabelled_block '```\n# insmod ramdisk.ko\n```\n'
refuse broken_link 'see [the guide](no-such-guide.md)\n'
refuse broken_anchor '# One heading\n\nsee [below](#another-heading)\n'

echo "a vm block is extracted as it is written; console transcripts lose prompts and output"
printf '%b' '# Intro\n\nsee [here](#intro)\n\n<!-- doc-test: vm -->\n```sh\necho "a b"\n```\n\n<!-- doc-test: skip (later) -->\n```sh\nnot run\n```\n\n<!-- doc-test: vm -->\n```console\n# echo c\nc\n```\n' >"$RD_TMP/ok.md"
"$docs" check --strict "$RD_TMP/ok.md" || fail "a good file was refused"
got=$("$docs" script "$RD_TMP/ok.md" | grep -v '^#' | grep -v "^echo '>>>")
assert_eq "$got" "$(printf 'echo "a b"\necho c')" "extracted script"
assert_eq "$(bash -c "$got")" "$(printf 'a b\nc')" "extracted script's output"

echo "a man page's EXAMPLES: prompted lines are commands, a trailing backslash goes on"
printf '%s\n' '.TH X 8' '.SH DESCRIPTION' '.nf' '# echo not an example' '.fi' '.SH EXAMPLES' '.nf' \
	'# echo \-a \e' '    b' 'output' '# echo c' '.fi' '.SH SEE ALSO' >"$RD_TMP/x.8"
got=$("$docs" script "$RD_TMP/x.8" | grep -v '^#' | grep -v "^echo '>>>")
assert_eq "$(bash -c "$got")" "$(printf -- '-a b\nc')" "the man page's examples, run"

echo "sudo is dropped where it starts a command; --subshells keeps a cd in its block"
printf '%b' '<!-- doc-test: vm -->\n```sh\nsudo true && sudo echo x | sudo cat\necho not sudo here\ncd /\n```\n\n<!-- doc-test: vm -->\n```console\n$ sudo pwd\n```\n' >"$RD_TMP/sudo.md"
got=$("$docs" script "$RD_TMP/sudo.md" | grep -v '^#' | grep -v "^echo '>>>")
assert_eq "$got" "$(printf 'true && echo x | cat\necho not sudo here\ncd /\npwd')" "script without sudo"
assert_eq "$(cd "$RD_TMP" && "$docs" script --subshells "$RD_TMP/sudo.md" | bash | tail -n 1)" "$RD_TMP" \
	"pwd after a cd in an earlier block, with --subshells"
assert_eq "$(cd "$RD_TMP" && "$docs" script "$RD_TMP/sudo.md" | bash | tail -n 1)" "/" \
	"pwd after a cd in an earlier block, without --subshells"
