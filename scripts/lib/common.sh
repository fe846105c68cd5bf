# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the bench launchers and guest scripts (scripts/bench/),
# tests/stress/run and tests/vm/run: what they all did by hand. It sets no
# shell options and runs nothing when sourced. Guests source it too: the
# checkout is shared with them.

rd_top=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)

# Prints the calling script's header, from its "# usage:" line to the line
# that starts with "# $rd_usage_end" (default "Exit", the exit status
# paragraph), to stderr, and exits 2.
usage() {
	sed -n "/^# usage:/,/^# ${rd_usage_end:-Exit}/p" "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# rd_vm KVER [tests/vm/run OPTIONS...] -- COMMAND...: boots KVER and runs
# COMMAND in the guest, with the module the caller built (no rebuild under
# a running measurement); returns the guest's status.
rd_vm() {
	local kver=$1
	shift
	RD_VM_NO_BUILD=1 "$rd_top/tests/vm/run" --kernel "$kver" "$@"
}

# rd_kmod KVER DIR SOURCE-DIR FILE... [-- MAKE-ARGS...]: builds the
# out-of-tree helper module whose FILEs (Kbuild and sources) are in
# SOURCE-DIR, in DIR, against KVER's headers (in the chroot for the
# kernels that live there). On failure prints the build log to stderr
# and returns 1; the log stays in DIR/build.log.
rd_kmod() {
	local kver=$1 dir=$2 src kdir
	local kmake=(make)
	src=$(cd "$3" && pwd -P) || return 1
	shift 3
	kdir=$("$rd_top/scripts/kernel" kdir "$kver") || return 1
	mkdir -p "$dir"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		ln -sf "$src/$1" "$dir/$1"
		shift
	done
	[ $# = 0 ] || shift
	if [[ $kdir == "$rd_top"/build/chroot/* ]]; then
		kmake=("$rd_top/scripts/chroot-make" "${kdir%%/usr/src/*}")
	fi
	if ! "${kmake[@]}" -C "$kdir" M="$dir" "$@" modules >"$dir/build.log" 2>&1; then
		cat "$dir/build.log" >&2
		return 1
	fi
}
