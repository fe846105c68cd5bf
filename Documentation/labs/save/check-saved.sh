#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdcrash --check for lab 7, run in each crash state's file system. The
# workload marked the write log "saved N" each time save said it had
# saved version N of the file notes; RDCRASH_MARKS lists the marks made
# before the crash. The file must hold that version or a later one.
last=$(printf '%s\n' "$RDCRASH_MARKS" | grep '^saved ' | tail -n 1)
[ -n "$last" ] || exit 0 # nothing was promised yet
want=${last#saved }
if [ ! -f notes ]; then
	echo "notes is missing, but save said version $want was saved"
	exit 1
fi
have=$(cat notes)
have=${have#version }
if [ "$have" -lt "$want" ]; then
	echo "notes holds version $have, but save said version $want was saved"
	exit 1
fi
