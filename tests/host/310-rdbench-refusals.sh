#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: rdbench refuses non-empty directories, existing data, signatures, unwritable paths and device paths that do not exist, and cleans up after Ctrl-C
. "${0%/*}/../lib/common.sh"

rdbench=$RD_BIN/rdbench
[ -x "$rdbench" ] || fail "$rdbench is missing (make userspace-asan)"

# no rdbench.* work directory may survive in DIR
assert_no_leftovers() {
	local left
	left=$(find "$1" -maxdepth 1 -name 'rdbench.*' | head -n 1)
	[ -z "$left" ] || fail "left behind: $left"
}

quick_meta=(meta --sizes 0k --files 5 --runs 1 --quiet)

# A directory that is not empty: refused, then allowed with --force, and
# its file untouched.
full=$RD_TMP/full
mkdir "$full"
echo keep >"$full/precious"
expect_refusal 2 "not empty" "$rdbench" "${quick_meta[@]}" "$full"
run_cmd 0 "$rdbench" "${quick_meta[@]}" --force "$full"
assert_eq "$(cat "$full/precious")" keep "the file in the --force directory"
assert_eq "$(ls -A "$full")" precious "the --force directory afterwards"

# A fresh ext2/3/4 file system's empty lost+found does not count; one with
# something in it does.
fresh=$RD_TMP/fresh
mkdir -p "$fresh/lost+found"
run_cmd 0 "$rdbench" "${quick_meta[@]}" "$fresh"
assert_eq "$(ls -A "$fresh")" "lost+found" "the fresh file system afterwards"
touch "$fresh/lost+found/#1234"
expect_refusal 2 "not empty" "$rdbench" "${quick_meta[@]}" "$fresh"

# The same directory twice is fine (each target has its own work directory).
empty=$RD_TMP/empty
mkdir "$empty"
run_cmd 0 "$rdbench" "${quick_meta[@]}" "$empty=one" "$empty=two"
assert_eq "$(ls -A "$empty")" "" "the empty directory afterwards"

# A directory rdbench creates is removed again.
run_cmd 0 "$rdbench" "${quick_meta[@]}" "$RD_TMP/new"
[ ! -e "$RD_TMP/new" ] || fail "rdbench left the directory it created"

# Paths that cannot be used.
touch "$RD_TMP/file"
expect_refusal 2 "not a directory" "$rdbench" "${quick_meta[@]}" "$RD_TMP/file"
expect_refusal 2 "cannot create" "$rdbench" "${quick_meta[@]}" "$RD_TMP/missing/sub"
expect_refusal 2 "Not a directory" "$rdbench" "${quick_meta[@]}" "$RD_TMP/file/sub"
expect_refusal 2 "not a directory, regular file or block device" "$rdbench" \
	bw --size 64k --bs 4k --runs 1 /dev/null
# A refusal of the second target removes the first one's work directory.
expect_refusal 2 "not a directory" "$rdbench" "${quick_meta[@]}" "$empty" "$RD_TMP/file"
assert_eq "$(ls -A "$empty")" "" "first target after the second was refused"

# Permission: a directory the user may not write to.
ro=$RD_TMP/readonly
mkdir "$ro"
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$RD_TMP" "$ro"
	if command -v setpriv >/dev/null &&
		setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$rdbench"; then
		status=0
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$rdbench" "${quick_meta[@]}" "$ro" 2>"$RD_TMP/err" || status=$?
		echo "as nobody: rdbench meta $ro -> $status: $(cat "$RD_TMP/err")"
		assert_eq "$status" 2 "exit status for an unwritable directory"
		grep -q "cannot write there" "$RD_TMP/err" || fail "no permission message: $(cat "$RD_TMP/err")"
	else
		echo "note: cannot run rdbench as nobody here; permission case not tried"
	fi
else
	chmod 555 "$ro"
	expect_refusal 2 "cannot write there" "$rdbench" "${quick_meta[@]}" "$ro"
	chmod 755 "$ro"
fi

# bw on files: existing data is refused without --destroy-data; a file
# rdbench creates is removed; an empty file of the user's stays, empty.
quick_bw=(bw --size 64k --bs 4k --runs 1 --quiet)
head -c 8192 /dev/zero >"$RD_TMP/data"
expect_refusal 2 "existing file with data" "$rdbench" "${quick_bw[@]}" "$RD_TMP/data"
run_cmd 0 "$rdbench" "${quick_bw[@]}" --destroy-data "$RD_TMP/data"
[ -f "$RD_TMP/data" ] || fail "bw removed a file it did not create"
: >"$RD_TMP/emptyfile"
run_cmd 0 "$rdbench" "${quick_bw[@]}" "$RD_TMP/emptyfile"
assert_eq "$(stat -c %s "$RD_TMP/emptyfile")" 0 "size of the user's empty file afterwards"
run_cmd 0 "$rdbench" "${quick_bw[@]}" "$RD_TMP/newfile"
[ ! -e "$RD_TMP/newfile" ] || fail "bw left the file it created"

# Signatures are named, on disk images as on devices.
if command -v mkfs.ext4 >/dev/null; then
	truncate -s 8M "$RD_TMP/ext4.img"
	mkfs.ext4 -q -F "$RD_TMP/ext4.img"
	expect_refusal 2 "ext2/3/4 file system" "$rdbench" "${quick_bw[@]}" "$RD_TMP/ext4.img"
fi
if command -v mkswap >/dev/null; then
	truncate -s 1M "$RD_TMP/swap.img"
	mkswap "$RD_TMP/swap.img" >/dev/null
	expect_refusal 2 "swap area" "$rdbench" "${quick_bw[@]}" "$RD_TMP/swap.img"
fi
{
	head -c 510 /dev/zero
	printf '\125\252'
} >"$RD_TMP/mbr.img"
expect_refusal 2 "DOS partition table" "$rdbench" "${quick_bw[@]}" "$RD_TMP/mbr.img"
{
	printf 'XFSB'
	head -c 8188 /dev/zero
} >"$RD_TMP/xfs.img"
expect_refusal 2 "XFS file system" "$rdbench" "${quick_bw[@]}" "$RD_TMP/xfs.img"

# Ctrl-C (SIGINT) and SIGTERM: exit 130, and nothing left behind, neither
# the work directory nor the directory rdbench created. On tmpfs when there
# is one, to keep the test quick.
scratch=$RD_TMP
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	scratch=$(mktemp -d /dev/shm/rdbench-test.XXXXXX)
	on_exit "rm -rf '$scratch'"
fi
for sig in INT TERM; do
	target=$scratch/interrupted-$sig
	"$rdbench" meta --sizes 0k --files 1000000 --per-dir 100000 --runs 100 \
		--quiet "$target" \
		>"$RD_TMP/out" 2>"$RD_TMP/err" &
	pid=$!
	on_exit "kill $pid"
	for _ in $(seq 100); do
		[ -n "$(find "$target" -name 'f*' -print -quit 2>/dev/null)" ] && break
		sleep 0.05
	done
	kill -"$sig" "$pid"
	status=0
	wait "$pid" || status=$?
	echo "SIG$sig -> $status: $(cat "$RD_TMP/err")"
	assert_eq "$status" 130 "exit status after SIG$sig"
	grep -q "interrupted" "$RD_TMP/err" || fail "no interruption message after SIG$sig"
	[ ! -e "$target" ] || fail "SIG$sig left $(find "$target" | head -n 3)"
done

# A device path that does not exist (a driver not loaded) is refused, and
# no file appears in its place; /dev/shm is a tmpfs like any other.
missing=/dev/rdbench-test-no-such-device-$$
expect_refusal 2 "no such device" "$rdbench" bw --size 64k --bs 4k --runs 1 "$missing"
expect_refusal 2 "no such device" "$rdbench" pair --size 64k --runs 1 "$missing" "$RD_TMP/pair-other"
[ ! -e "$missing" ] || fail "a file was made at $missing"
[ ! -e "$RD_TMP/pair-other" ] || fail "the refused pair run left its other target"

# The same in a directory of the user's, with --force.
"$rdbench" churn --preset queue --files 1000 --rounds 100000 --runs 1 --quiet \
	--force "$full" >/dev/null 2>&1 &
pid=$!
on_exit "kill $pid"
sleep 0.5
kill -INT "$pid"
status=0
wait "$pid" || status=$?
assert_eq "$status" 130 "churn exit status after SIGINT"
assert_no_leftovers "$full"
assert_eq "$(ls -A "$full")" precious "the --force directory after SIGINT"
echo "every refusal and cleanup held"
