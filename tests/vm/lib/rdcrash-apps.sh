# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the tests that run real applications under rdcrash (141,
# 142), with the examples of Documentation/examples/rdcrash/.
#
# app_verdict WANT FS APP SETUP WORK [RDCRASH_RUN_ARGS...]
#   rdcrash run on a device of its own: APP.sh setup SETUP, APP.sh work
#   WORK, APP.sh check in every state; prints one line with the counts and
#   fails unless the verdict is WANT:
#     holds  no state fails
#     lost   some state fails, each with the application's data intact but
#            an acknowledged write missing ("lost: ...")
#     corrupt  some state fails "corrupt: ..." (the application's own
#            check, or opening its data, failed), others may be "lost: ..."
#   A failure of any other kind (a mount, the file system's checker) fails
#   the test whatever WANT is: it is not the application's.

examples=$RD_TOP/Documentation/examples/rdcrash
# the workloads call rdcrash mark
export PATH="$RD_BIN:$PATH"

app_verdict() {
	local want=$1 fs=$2 app=$3 setup=$4 work=$5 status=0
	local json=$RD_TMP/app.json total failed lost corrupt other size=160M
	shift 5
	# xfs wants 300 MB at least
	[ "$fs" != xfs ] || size=320M
	"$RD_BIN/rdcrash" run --fs "$fs" --size "$size" --json \
		--setup "$examples/$app.sh setup $setup" \
		--workload "$examples/$app.sh work $work" \
		--check "$examples/$app.sh check" "$@" >"$json" 2>"$RD_TMP/app.err" || status=$?
	if [ "$status" != 0 ] && [ "$status" != 3 ]; then
		tail -n 5 "$RD_TMP/app.err"
		fail "rdcrash run of $app ($setup, $work) on $fs exited $status"
	fi
	total=$(jq '.states | length' "$json")
	failed=$(jq '[.states[] | select(.verdict == "failed")] | length' "$json")
	lost=$(jq '[.states[] | select(.verdict == "failed" and (.detail | startswith("--check exited 1: lost: ")))] | length' "$json")
	corrupt=$(jq '[.states[] | select(.verdict == "failed" and (.detail | startswith("--check exited 1: corrupt: ")))] | length' "$json")
	other=$((failed - lost - corrupt))
	echo "$app $setup, $work on $fs: $total states, $lost lost, $corrupt corrupt, $other other (exit $status)"
	jq -r '.states[] | select(.verdict == "failed") | .detail' "$json" | sort | uniq -c | sort -rn | head -n 3
	[ "$other" = 0 ] || fail "$app on $fs: a state failed outside the application: $(jq -r '[.states[] | select(.verdict == "failed" and (.detail | test("^--check exited 1: (lost|corrupt): ") | not))][0].detail' "$json")"
	[ "$total" -gt 0 ] || fail "$app on $fs: no state checked"
	case $want in
	holds)
		assert_eq "$failed" 0 "failed states of $app ($setup) on $fs"
		assert_eq "$status" 0 "exit status of rdcrash run, $app ($setup) on $fs"
		;;
	lost)
		[ "$lost" -gt 0 ] || fail "$app ($setup) on $fs: no state lost a committed write"
		assert_eq "$corrupt" 0 "corrupt states of $app ($setup) on $fs"
		assert_eq "$status" 3 "exit status of rdcrash run, $app ($setup) on $fs"
		;;
	corrupt)
		[ "$corrupt" -gt 0 ] || fail "$app ($setup) on $fs: no state was corrupt"
		assert_eq "$status" 3 "exit status of rdcrash run, $app ($setup) on $fs"
		;;
	*) fail "app_verdict: WANT is holds, lost or corrupt, not $want" ;;
	esac
}
