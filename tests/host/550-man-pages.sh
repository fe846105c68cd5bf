#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl(8) and rdbench(1) name every command, option and exit status the tools' --help shows, and nothing the tools lack; groff reads them without warnings
. "${0%/*}/../lib/common.sh"
require_cmd groff

man=$RD_TOP/Documentation/man
ctl=$RD_BIN/ramdiskctl
rdb=$RD_BIN/rdbench
if [ ! -x "$ctl" ] || [ ! -x "$rdb" ]; then
	fail "build the tools first (make userspace-asan)"
fi

# words PAGE: the page's text as plain words, one per line: \- becomes -,
# font escapes go
words() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\e/\\/g' "$1" | tr -s ' \t|[]().,;:' '\n'
}

# compare WHAT HELP_LIST PAGE_LIST: both sorted, one item per line
compare() {
	local missing extra
	missing=$(comm -23 "$2" "$3" | tr '\n' ' ')
	extra=$(comm -13 "$2" "$3" | tr '\n' ' ')
	[ -z "$missing" ] || fail "$1 in --help but not in the man page: $missing"
	[ -z "$extra" ] || fail "$1 in the man page but not in --help: $extra"
}

# --- ramdiskctl(8)
echo "ramdiskctl(8)"
page=$man/ramdiskctl.8
"$ctl" --help >"$RD_TMP/help"
# commands: the help's "  NAME ..." lines; the page's ".B ramdiskctl NAME" synopsis lines
awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ && $1 != "help" {print $1} /^DEV is/ {on = 0}' "$RD_TMP/help" |
	sort -u >"$RD_TMP/help.cmds"
sed -n 's/^\.B ramdiskctl \([a-z]*\).*/\1/p' "$page" | sort -u >"$RD_TMP/page.cmds"
[ -s "$RD_TMP/help.cmds" ] || fail "no commands read from ramdiskctl --help"
compare "ramdiskctl commands" "$RD_TMP/help.cmds" "$RD_TMP/page.cmds"
# each command has its entry under COMMANDS
while read -r c; do
	grep -q "^\.B $c\b" "$page" || fail "ramdiskctl(8) COMMANDS has no entry for $c"
done <"$RD_TMP/help.cmds"
# long options: every one the overview or the help of a command shows,
# and --help, which every command takes
{
	echo --help
	cat "$RD_TMP/help"
	while read -r c; do
		"$ctl" help "$c"
	done <"$RD_TMP/help.cmds"
} | grep -o -- '--[a-z][a-z-]*' | sort -u >"$RD_TMP/help.opts"
words "$page" | grep -o -- '^--[a-z][a-z-]*' | sort -u >"$RD_TMP/page.opts"
compare "ramdiskctl options" "$RD_TMP/help.opts" "$RD_TMP/page.opts"
# exit statuses: "    N  meaning" in the help; ".B N" or ".TP\n.B N" under EXIT STATUS
awk '/^Exit status:/ {on = 1; next} on && /^ +[0-9]+  / {print $1} on && /^$/ {on = 0}' "$RD_TMP/help" |
	sort -u >"$RD_TMP/help.rc"
awk '/^\.SH EXIT STATUS/ {on = 1; next} /^\.SH/ {on = 0} on && /^\.B [0-9]+$/ {print $2}' "$page" |
	sort -u >"$RD_TMP/page.rc"
[ -s "$RD_TMP/help.rc" ] || fail "no exit statuses read from ramdiskctl --help"
compare "ramdiskctl exit statuses" "$RD_TMP/help.rc" "$RD_TMP/page.rc"
# profiles: the names profile accepts
help_profiles=$("$ctl" help profile | sed -n 's/.*profile NAME|DEV \([a-z0-9|-]*\).*/\1/p' | tr '|' '\n' | sort)
page_profiles=$(sed -n '/^\.B ramdiskctl profile/,/^\.br/p' "$page" | sed -e 's/\\-/-/g' |
	sed -n 's/^\.BR //p' | tr -s ' |' '\n' | grep . | sort)
assert_eq "$page_profiles" "$help_profiles" "profile names in ramdiskctl(8)"

# create's options: the table in create_options.c is what create takes;
# its help and its part of the page (the synopses, the entry under
# COMMANDS, the entries marked "(create)") name each of them, with its
# letter and its value's name, and nothing else.
# table_options: "OPTION LETTER ARG" a line, "-" for none
table_options() {
	local e opt letter arg
	tr '\n\t' '  ' <"$RD_TOP/userspace/ramdiskctl/create_options.c" |
		grep -o '\[COPT_[A-Z_]*\] = {[^}]*}' | while read -r e; do
		opt=$(sed -E 's/^[^"]*"([a-z-]+)".*/\1/' <<<"$e")
		letter=$(sed -nE "s/^[^\"]*\"[a-z-]+\", '(.)'.*/\1/p" <<<"$e")
		arg=$(sed -nE 's/.*\.arg = "([^"]*)".*/\1/p' <<<"$e")
		echo "$opt ${letter:--} ${arg:--}"
	done
}
# create_section PAGE: create's part of the page, escapes and quotes gone
create_section() {
	awk '/^\.B ramdiskctl create/ {syn = 1}
		syn {print}
		syn && /^\.br/ {syn = 0}
		/^\.SH COMMANDS/ {cmds = 1}
		cmds && /^\.B create$/ {ent = 1}
		ent {print}
		ent && /^\.RE$/ {ent = 0; cmds = 0}
		tagged && /^\.(TP|SH)/ {tagged = 0}
		/\(create\)/ {tagged = 1}
		tagged {print}' "$1" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/"//g' -e 's/  */ /g'
}
# check_create_options PAGE: prints each way the help or PAGE differs from the table
check_create_options() {
	local opt letter arg
	table_options >"$RD_TMP/table"
	cut -d ' ' -f 1 "$RD_TMP/table" | sed 's/^/--/' | sort -u >"$RD_TMP/table.opts"
	"$ctl" help create >"$RD_TMP/create.help"
	grep -o -- '--[a-z][a-z-]*' "$RD_TMP/create.help" | sort -u >"$RD_TMP/create.help.opts"
	create_section "$1" >"$RD_TMP/create.page"
	tr -s ' \t|[]().,;:' '\n' <"$RD_TMP/create.page" | grep -o -- '^--[a-z][a-z-]*' |
		sort -u >"$RD_TMP/create.page.opts"
	comm -23 "$RD_TMP/table.opts" "$RD_TMP/create.help.opts" | sed 's/^/not in create --help: /'
	comm -13 "$RD_TMP/table.opts" "$RD_TMP/create.help.opts" | sed 's/^/not in the table, but in create --help: /'
	comm -23 "$RD_TMP/table.opts" "$RD_TMP/create.page.opts" | sed 's/^/not in the page'"'"'s create: /'
	comm -13 "$RD_TMP/table.opts" "$RD_TMP/create.page.opts" | sed 's/^/not in the table, but in the page'"'"'s create: /'
	while read -r opt letter arg; do
		if [ "$letter" != - ]; then
			grep -qF -- "-$letter, --$opt" "$RD_TMP/create.help" || echo "create --help lacks -$letter, --$opt"
			grep -qF -- "-$letter , --$opt" "$RD_TMP/create.page" || echo "the page's create lacks -$letter, --$opt"
		fi
		if [ "$arg" != - ]; then
			grep -qE -- "--$opt $arg([^A-Za-z]|\$)" "$RD_TMP/create.help" || echo "create --help lacks --$opt $arg"
		fi
	done <"$RD_TMP/table"
}
[ "$(table_options | wc -l)" -gt 20 ] || fail "create's options not read from create_options.c"
drift=$(check_create_options "$page")
[ -z "$drift" ] || fail "create's options: $drift"

# --- rdbench(1)
echo "rdbench(1)"
page=$man/rdbench.1
"$rdb" --help >"$RD_TMP/help"
sed -n 's/^  rdbench \([a-z]*\).*/\1/p' "$RD_TMP/help" | sort -u >"$RD_TMP/help.cmds"
sed -n 's/^\.SS \([a-z]*\)$/\1/p' "$page" | sort -u >"$RD_TMP/page.cmds"
[ -s "$RD_TMP/help.cmds" ] || fail "no commands read from rdbench --help"
compare "rdbench commands" "$RD_TMP/help.cmds" "$RD_TMP/page.cmds"
{
	cat "$RD_TMP/help"
	while read -r c; do
		"$rdb" "$c" --help
	done <"$RD_TMP/help.cmds"
} | grep -o -- '--[a-z][a-z-]*' | sort -u >"$RD_TMP/help.opts"
words "$page" | grep -o -- '^--[a-z][a-z-]*' | sort -u >"$RD_TMP/page.opts"
compare "rdbench options" "$RD_TMP/help.opts" "$RD_TMP/page.opts"

# --- rdcrash(1)
echo "rdcrash(1)"
page=$man/rdcrash.1
"$RD_BIN/rdcrash" --help >"$RD_TMP/help" || fail "rdcrash --help failed"
{
	echo --help
	cat "$RD_TMP/help"
} | grep -o -- '--[a-z][a-z-]*' | sort -u >"$RD_TMP/help.opts"
words "$page" | grep -o -- '^--[a-z][a-z-]*' | sort -u >"$RD_TMP/page.opts"
compare "rdcrash options" "$RD_TMP/help.opts" "$RD_TMP/page.opts"
# the built-in workloads --help lists, each in the page
sed -e 's/\\-/-/g' "$page" >"$RD_TMP/page.txt"
sed -n 's/^    \([a-z-]*\) .*/\1/p' "$RD_TMP/help" | grep . >"$RD_TMP/workloads"
[ -s "$RD_TMP/workloads" ] || fail "no workloads read from rdcrash --help"
while read -r w; do
	grep -q "^\.B $w\$" "$RD_TMP/page.txt" || fail "rdcrash(1) lacks workload $w"
done <"$RD_TMP/workloads"

# --- the pages format cleanly
for p in "$man/ramdiskctl.8" "$man/rdbench.1" "$man/rdcrash.1"; do
	warnings=$(groff -man -ww -z "$p" 2>&1)
	[ -z "$warnings" ] || fail "groff warns about ${p##*/}: $warnings"
done

echo "the check fails on a page that drifted"
sed '/^\.B ramdiskctl powercut/,/^\.br/d' "$man/ramdiskctl.8" >"$RD_TMP/bad.8"
sed -n 's/^\.B ramdiskctl \([a-z]*\).*/\1/p' "$RD_TMP/bad.8" | sort -u >"$RD_TMP/bad.cmds"
"$ctl" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ && $1 != "help" {print $1} /^DEV is/ {on = 0}' |
	sort -u >"$RD_TMP/help.cmds"
if (compare "x" "$RD_TMP/help.cmds" "$RD_TMP/bad.cmds") >/dev/null 2>&1; then
	fail "a page without powercut in its synopsis passed"
fi
sed -e '/^\.BI \\-\\-io\\-opt " B"$/,/^\.TP$/d' -e 's/^\.RB \[ \\-\\-io\\-opt$/.RB [/' \
	"$man/ramdiskctl.8" >"$RD_TMP/bad.8"
[ -n "$(check_create_options "$RD_TMP/bad.8")" ] || fail "a page without --io-opt in create passed"
echo "ok"
