# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154,SC2034
#
# One measured run and its bookkeeping, shared by scripts/bench/suite and
# scripts/bench/clients. Needs: out (the results folder), start (SECONDS
# at the start), top (the checkout). Sets failed=1 when a run fails.

progress() {
	printf '[%4ds] %s\n' $((SECONDS - start)) "$*"
}

# run_tool TARGET TOOL NAME REP COMMAND...: one measured run, its output in
# raw/TARGET/TOOL.NAME.REP.json, or its stderr in .failed.
run_tool() {
	local target=$1 tool=$2 name=$3 rep=$4 dir base t0
	shift 4
	dir=$out/raw/$target
	base=$dir/$tool.$name.$rep
	mkdir -p "$dir"
	t0=$SECONDS
	if "$@" >"$base.json" 2>"$base.err"; then
		rm -f "$base.err" "$base.failed"
		progress "  $target $tool $name: ok ($((SECONDS - t0)) s)"
	else
		failed=1
		mv "$base.err" "$base.failed"
		rm -f "$base.json"
		progress "  $target $tool $name: FAILED: $(tail -n1 "$base.failed")"
	fi
}

# fio_job TARGET REP SPEC [FIO-OPTION...]: SPEC is a job file name in
# fio-jobs/, optionally followed by :SECTION,SECTION to run only those
# jobs of it.
fio_job() {
	local target=$1 rep=$2 spec=$3 file sections s args=()
	shift 3
	file=${spec%%:*}
	if [ "$file" != "$spec" ]; then
		IFS=, read -ra sections <<<"${spec#*:}"
		for s in "${sections[@]}"; do
			args+=("--section=$s")
		done
	fi
	run_tool "$target" fio "$file" "$rep" \
		fio --output-format=json "$@" "${args[@]}" "$top/fio-jobs/$file.fio"
}
