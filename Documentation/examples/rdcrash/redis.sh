#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Redis under rdcrash: a server with its append-only file in the file
# system, a client setting one key at a time, each marked in the write
# log once the server has answered OK. What an OK promises across a crash
# is the appendfsync setting; the check holds the server to the strongest
# promise, so a run tells which settings keep it.
#
#   rdcrash run --fs ext4 --setup 'redis.sh setup always' \
#       --workload 'redis.sh work 20' --check 'redis.sh check'
#
# setup FSYNC   redis.conf with the append-only file on and appendfsync
#               FSYNC (always, everysec or no)
# work N        a server on the file system; N keys kI, each a 4000-byte
#               value made of I, then "rdcrash mark committed I"; the
#               server shut down
# check         in a crash state: the server starts on what the file
#               system holds ("corrupt" if it refuses), holds every key
#               marked committed ("lost" otherwise), with its value, and no
#               key without the keys before it
set -u

die() {
	echo "$*" >&2
	exit 1
}

sock=
server=
# start: a server on the current folder, listening on a socket of its own
# (states are checked side by side, each in its own mount)
start() {
	tmp=$(mktemp -d /tmp/rdcrash-redis.XXXXXX) || die "redis.sh: mktemp failed"
	sock=$tmp/sock
	redis-server ./redis.conf --dir "$PWD" --unixsocket "$sock" >"$tmp/log" 2>&1 &
	server=$!
	i=0
	until [ "$(redis-cli -s "$sock" ping 2>/dev/null)" = PONG ]; do
		if ! kill -0 "$server" 2>/dev/null; then
			msg=$(grep -v '^ *$' "$tmp/log" | tail -n 1)
			rm -rf "$tmp"
			die "$1: redis-server exited: $msg"
		fi
		i=$((i + 1))
		[ "$i" -le 600 ] || { kill -9 "$server"; die "redis.sh: redis-server not answering after 60 s"; }
		sleep 0.1
	done
}

stop() {
	redis-cli -s "$sock" shutdown nosave >/dev/null 2>&1
	wait "$server"
	rm -rf "${sock%/sock}"
}

value() {
	printf "%04000d" "$1"
}

case ${1:-} in
setup)
	[ $# = 2 ] || die "usage: redis.sh setup always|everysec|no"
	cat >redis.conf <<CONF || die "redis.sh: cannot write redis.conf"
port 0
save ""
appendonly yes
appendfsync $2
CONF
	;;
work)
	[ $# = 2 ] || die "usage: redis.sh work N"
	start "redis.sh"
	i=1
	while [ "$i" -le "$2" ]; do
		r=$(redis-cli -s "$sock" set "k$i" "$(value "$i")") || die "redis.sh: SET k$i failed"
		[ "$r" = OK ] || die "redis.sh: SET k$i answered $r"
		rdcrash mark committed "$i" || die "redis.sh: rdcrash mark failed"
		i=$((i + 1))
	done
	stop
	;;
check)
	[ $# = 1 ] || die "usage: redis.sh check"
	want=$(printf '%s\n' "${RDCRASH_MARKS:-}" | sed -n 's/^committed //p' | tail -n 1)
	want=${want:-0}
	start corrupt
	n=$(redis-cli -s "$sock" dbsize)
	i=1
	while [ "$i" -le "$n" ]; do
		v=$(redis-cli -s "$sock" get "k$i")
		if [ "$v" != "$(value "$i")" ]; then
			stop
			die "corrupt: $n keys, k$i ${v:+holds another value}${v:-missing}"
		fi
		i=$((i + 1))
	done
	stop
	[ "$n" -ge "$want" ] || die "lost: $n of $want committed keys"
	;;
*)
	die "usage: redis.sh setup|work|check ..."
	;;
esac
