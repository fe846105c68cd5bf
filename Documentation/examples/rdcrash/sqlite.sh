#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# SQLite under rdcrash: a table filled one transaction at a time, each
# marked in the write log once COMMIT has returned. What SQLite promises
# after COMMIT depends on its journal mode and synchronous level; the check
# holds it to the strongest promise, so a run tells which settings keep it.
#
#   rdcrash run --fs ext4 --setup 'sqlite.sh setup wal' \
#       --workload 'sqlite.sh work full 20' --check 'sqlite.sh check'
#
# setup JOURNAL        a database db in journal mode JOURNAL (delete or wal)
# work SYNC N          N transactions in one connection at synchronous
#                      level SYNC (off, normal, full or extra), "rdcrash
#                      mark committed I" after the I-th
# check                in a crash state: the database passes PRAGMA
#                      integrity_check ("corrupt" otherwise), holds every
#                      transaction marked committed ("lost" otherwise), and
#                      holds whole transactions in order, nothing else
set -u

die() {
	echo "$*" >&2
	exit 1
}

case ${1:-} in
setup)
	[ $# = 2 ] || die "usage: sqlite.sh setup delete|wal"
	# journal_mode is stored in the database file; synchronous is not,
	# so work sets it in every connection.
	mode=$(sqlite3 db "PRAGMA journal_mode=$2; CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB NOT NULL);") ||
		die "sqlite.sh: cannot create db"
	[ "$mode" = "$2" ] || die "sqlite.sh: journal mode $mode, not $2"
	;;
work)
	[ $# = 3 ] || die "usage: sqlite.sh work off|normal|full|extra N"
	# One connection for all, as an application keeps it: SQLite syncs
	# a WAL database when its last connection closes, so a process per
	# transaction would hide what the setting does. The shell's .shell
	# marks the log once the INSERT (a transaction of its own) returned,
	# and -bail ends the session at the first SQL error (a mark that
	# fails is only reported, "System command returns N": the check
	# then holds the database to an earlier mark, never a later one).
	{
		echo "PRAGMA synchronous=$2;"
		i=1
		while [ "$i" -le "$3" ]; do
			# A row of three pages: a transaction spans several writes.
			echo "INSERT INTO t VALUES($i, randomblob(12000));"
			echo ".shell rdcrash mark committed $i"
			i=$((i + 1))
		done
	} | sqlite3 -bail db >/dev/null || die "sqlite.sh: a transaction failed"
	;;
check)
	[ $# = 1 ] || die "usage: sqlite.sh check"
	# The last transaction marked before the crash point.
	want=$(printf '%s\n' "${RDCRASH_MARKS:-}" | sed -n 's/^committed //p' | tail -n 1)
	want=${want:-0}
	ic=$(sqlite3 db "PRAGMA integrity_check;" 2>&1) || die "corrupt: $ic"
	[ "$ic" = ok ] || die "corrupt: $(echo "$ic" | head -n 1)"
	r=$(sqlite3 -separator ' ' db "SELECT count(*), coalesce(max(id), 0), count(*) FILTER (WHERE length(v) != 12000) FROM t;") ||
		die "corrupt: the table cannot be read"
	# shellcheck disable=SC2086 # three numbers, split on purpose
	set -- $r
	[ "$3" = 0 ] || die "corrupt: $3 rows of the wrong length"
	[ "$1" = "$2" ] || die "corrupt: $1 rows up to id $2 (a transaction out of order)"
	[ "$1" -ge "$want" ] || die "lost: $1 of $want committed transactions"
	;;
*)
	die "usage: sqlite.sh setup|work|check ..."
	;;
esac
