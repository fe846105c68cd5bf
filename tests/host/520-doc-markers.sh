#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: every shell block of the labs, design and install docs says how it is tested; markers are well formed
. "${0%/*}/../lib/common.sh"
require_cmd python3

docs=$RD_TOP/scripts/doc-commands

echo "the tree's Markdown"
"$docs" check || fail "doc-test markers: see above (scripts/doc-commands check)"

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

echo "a vm block is extracted as it is written; console transcripts lose prompts and output"
printf '%b' 'intro\n\n<!-- doc-test: vm -->\n```sh\necho "a b"\n```\n\n<!-- doc-test: skip (later) -->\n```sh\nnot run\n```\n\n<!-- doc-test: vm -->\n```console\n# echo c\nc\n```\n' >"$RD_TMP/ok.md"
"$docs" check --strict "$RD_TMP/ok.md" || fail "a good file was refused"
got=$("$docs" script "$RD_TMP/ok.md" | grep -v '^#' | grep -v "^echo '>>>")
assert_eq "$got" "$(printf 'echo "a b"\necho c')" "extracted script"
assert_eq "$(bash -c "$got")" "$(printf 'a b\nc')" "extracted script's output"
