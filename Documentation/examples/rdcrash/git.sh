#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# git under rdcrash: a repository that grows one commit at a time, each
# marked in the write log once git commit has returned. Which writes git
# syncs is its core.fsync setting; the check holds it to what a user
# expects of a commit that returned, so a run tells which settings keep it.
#
#   rdcrash run --fs ext4 --setup 'git.sh setup core.fsync=committed' \
#       --workload 'git.sh work 10' --check 'git.sh check'
#
# setup [KEY=VALUE...]  a repository in the file system, KEY set to VALUE
#                       in its config, and a first commit (durable: the
#                       setup is unmounted before the log starts)
# work N                N commits, each adding file fI holding I, then
#                       "rdcrash mark committed I"
# check                 in a crash state: git fsck --full passes
#                       ("corrupt" otherwise), HEAD holds every commit
#                       marked ("lost" otherwise), and the files of HEAD
#                       are the commits' files, nothing else
set -u

die() {
	echo "$*" >&2
	exit 1
}

# run CMD...: CMD, or the script ends saying which command failed
run() {
	"$@" || die "git.sh: $* failed"
}

# No user or system configuration reaches the repository.
export GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent

case ${1:-} in
setup)
	shift
	run git init -q .
	run git config user.name rdcrash
	run git config user.email rdcrash@localhost
	for kv in "$@"; do
		run git config "${kv%%=*}" "${kv#*=}"
	done
	echo 0 >f0
	run git add f0
	run git commit -q -m 0
	;;
work)
	[ $# = 2 ] || die "usage: git.sh work N"
	i=1
	while [ "$i" -le "$2" ]; do
		echo "$i" >"f$i"
		run git add "f$i"
		run git commit -q -m "$i"
		run rdcrash mark committed "$i"
		i=$((i + 1))
	done
	;;
check)
	[ $# = 1 ] || die "usage: git.sh check"
	want=$(printf '%s\n' "${RDCRASH_MARKS:-}" | sed -n 's/^committed //p' | tail -n 1)
	want=${want:-0}
	out=$(git fsck --full --no-progress 2>&1) || die "corrupt: git fsck: $(echo "$out" | head -n 1)"
	n=$(git rev-list --count HEAD 2>&1) || die "corrupt: no HEAD: $(echo "$n" | head -n 1)"
	n=$((n - 1))
	[ "$n" -ge "$want" ] || die "lost: $n of $want commits"
	# HEAD's tree is f0 to fN, each holding its number
	files=$(git ls-tree --name-only HEAD | sort -V | tr '\n' ' ')
	[ "$files" = "$(seq -f 'f%g' 0 "$n" | tr '\n' ' ')" ] || die "corrupt: HEAD's files are $files"
	[ "$(git show "HEAD:f$n")" = "$n" ] || die "corrupt: f$n in HEAD does not hold $n"
	;;
*)
	die "usage: git.sh setup|work|check ..."
	;;
esac
