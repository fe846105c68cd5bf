# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the harness self-tests: they run tests/vm/run on the host.
# shellcheck source=../lib/common.sh
. "${BASH_SOURCE[0]%/*}/../lib/common.sh"

kver=${RD_HARNESS_KVER:-$("$RD_TOP/scripts/kernel" resolve)}
# RD_HARNESS_VM_TIMEOUT: seconds one guest may take (a debug kernel boots
# for minutes)
vm_run() {
	"$RD_TOP/tests/vm/run" --kernel "$kver" --timeout "${RD_HARNESS_VM_TIMEOUT:-300}" "$@"
}
