#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl export/unexport over NVMe/TCP on 127.0.0.1 (and loop where the kernel has it): nvme connect, fio verify through the fabric, the same bytes on the local device, list's EXPORT, remove refused while exported, ports shared and others' nvmet config untouched, every refusal leaving nvmet's configfs as it was
. "${0%/*}/../lib/common.sh"
require_root
require_cmd nvme fio ip python3 blockdev

ctl=$RD_BIN/ramdiskctl
nvmet=/sys/kernel/config/nvmet
base_nqn=nqn.2024-01.io.ramdisk

# The NVMe target, and NVMe/TCP both ways: on every kernel of the matrix
# as modules; a kernel without them has nothing to test.
modprobe nvmet 2>/dev/null || skip "this kernel has no nvmet module (CONFIG_NVME_TARGET)"
on_exit "modprobe -r nvme-loop nvme-tcp nvmet-tcp nvmet 2>/dev/null"
modprobe nvmet-tcp 2>/dev/null || skip "this kernel has no nvmet-tcp module (CONFIG_NVME_TARGET_TCP)"
modprobe nvme-tcp 2>/dev/null || skip "this kernel has no nvme-tcp module (CONFIG_NVME_TCP)"
[ -d "$nvmet" ] || fail "$nvmet missing after modprobe nvmet"
# The guest boots with lo down; 127.0.0.1 needs it.
ip link set lo up

# Whatever a failed run leaves: hosts disconnected, then nvmet's tree
# emptied (links, namespaces, subsystems, ports), so the module can go.
teardown_nvmet() {
	local l d
	nvme disconnect-all >/dev/null 2>&1
	for l in "$nvmet"/ports/*/subsystems/*; do
		[ -L "$l" ] && rm -f "$l"
	done
	for d in "$nvmet"/subsystems/*/namespaces/*; do
		[ -d "$d" ] || continue
		echo 0 >"$d/enable"
		rmdir "$d"
	done
	for d in "$nvmet"/subsystems/* "$nvmet"/ports/*; do
		[ -d "$d" ] && rmdir "$d"
	done
	return 0
}

# The whole tree, names only: what must be as before after every refusal.
snapshot() {
	find "$nvmet" -mindepth 1 | sort
}

load_module nr_devices=0
dev=$("$ctl" create --name exp --size 64M)
on_exit "$ctl" remove exp
dev2=$("$ctl" create --name other --size 16M)
on_exit "$ctl" remove other
# before the removes, which refuse an exported device
on_exit teardown_nvmet
assert_eq "$dev" /dev/ramdisk0 "first device"
assert_eq "$dev2" /dev/ramdisk1 "second device"
before=$(snapshot)
same_tree() {
	assert_eq "$(snapshot)" "$before" "nvmet's configfs tree $1"
}

# nsdev NQN: the block device a host made for subsystem NQN, once it is
# there (its device is the controller, or the multipath subsystem: both
# have subsysnqn).
nsdev() {
	local b i
	for ((i = 0; i < 100; i++)); do
		for b in /sys/block/nvme*; do
			# a multipath kernel's hidden path devices (nvmeXcYnZ) have no node
			[[ ${b##*/} != nvme*c*n* ]] || continue
			if [ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$1" ]; then
				echo "/dev/${b##*/}"
				return 0
			fi
		done
		udevadm settle 2>/dev/null
		sleep 0.1
	done
	return 1
}

# through_fabric TRANSPORT NQN CONNECT-ARGS...: connect, fio verify on the
# remote namespace, the same bytes in the local device, disconnect.
through_fabric() {
	local transport=$1 nqn=$2 remote status=0
	shift 2
	nvme connect -t "$transport" -n "$nqn" "$@" || fail "nvme connect -t $transport -n $nqn $* failed"
	on_exit "nvme disconnect -n $nqn"
	remote=$(nsdev "$nqn") || fail "no block device for $nqn after nvme connect ($(ls /sys/block))"
	echo "$transport: $nqn is $remote on this host"
	assert_eq "$(blockdev --getsize64 "$remote")" $((64 << 20)) "size of $remote"
	fio --name="verify-$transport" --filename="$remote" --direct=1 --ioengine=libaio --iodepth=8 \
		--rw=randwrite --bssplit=4k/50:64k/50 --blockalign=4k --size=32M \
		--verify=crc32c --verify_fatal=1 --verify_state_save=0 --do_verify=1 --randrepeat=0 \
		--output="$RD_TMP/fio-$transport.out" || status=$?
	[ "$status" = 0 ] || fail "fio over $transport exited with $status: $(grep -iE 'err|verify' "$RD_TMP/fio-$transport.out" | head -n 5)"
	grep -q 'err= 0' "$RD_TMP/fio-$transport.out" || fail "fio over $transport reports errors"
	# What the host wrote is what the RAM disk holds, byte for byte.
	cmp <(dd if="$remote" bs=1M count=32 iflag=direct status=none) \
		<(dd if="$dev" bs=1M count=32 iflag=direct status=none) ||
		fail "$remote and $dev differ after fio over $transport"
	# and the other way round: a local write reads back through the fabric
	head -c 1M /dev/urandom >"$RD_TMP/block"
	dd if="$RD_TMP/block" of="$dev" bs=1M seek=40 oflag=direct status=none
	cmp <(dd if="$remote" bs=1M skip=40 count=1 iflag=direct status=none) "$RD_TMP/block" ||
		fail "a local write to $dev does not read back through $remote"
	nvme disconnect -n "$nqn" >/dev/null || fail "nvme disconnect -n $nqn failed"
	udevadm settle 2>/dev/null
	[ ! -e "$remote" ] || fail "$remote still there after nvme disconnect"
}

echo "--- tcp, default address, default NQN"
run_cmd 0 "$ctl" export exp
nqn=$out
assert_eq "$nqn" "$base_nqn:exp" "NQN export printed"
sub=$nvmet/subsystems/$nqn
assert_eq "$(cat "$sub/namespaces/1/device_path")" "$dev" "namespace device_path"
assert_eq "$(cat "$sub/namespaces/1/enable")" 1 "namespace enabled"
assert_eq "$(cat "$sub/attr_allow_any_host")" 1 "attr_allow_any_host"
assert_eq "$(cat "$sub/attr_model")" ramdiskctl "attr_model, ramdiskctl's mark"
port=$nvmet/ports/29284
[ -d "$port" ] || fail "no port 29284: $(ls "$nvmet/ports")"
assert_eq "$(cat "$port/addr_trtype") $(cat "$port/addr_adrfam") $(cat "$port/addr_traddr"):$(cat "$port/addr_trsvcid")" \
	"tcp ipv4 127.0.0.1:4420" "the port's address"
[ -L "$port/subsystems/$nqn" ] || fail "subsystem not linked into port 29284"

# list and info show it; the EXPORT column appears only now
run_cmd 0 "$ctl" list
echo "$out"
grep -q ' EXPORT$' <<<"$out" || fail "list has no EXPORT column: $out"
grep -Eq "^/dev/ramdisk0 +exp .* tcp 127\.0\.0\.1:4420$" <<<"$out" || fail "list: exp's row lacks its export"
grep -Eq '^/dev/ramdisk1 +other .* -$' <<<"$out" || fail "list: other's row shows an export"
if command -v jq >/dev/null; then
	run_cmd 0 "$ctl" list --json
	assert_eq "$(jq -c '[.devices[] | [.name, .export, .export_nqn]]' <<<"$out")" \
		"[[\"exp\",\"tcp 127.0.0.1:4420\",\"$nqn\"],[\"other\",null,null]]" "list --json export"
fi
run_cmd 0 "$ctl" info exp
grep -qx "export: *tcp 127.0.0.1:4420 (NQN $nqn)" <<<"$out" || fail "info lacks the export line: $out"

# refusals, each leaving the tree as it is
exported=$(snapshot)
expect_refusal 4 "exp is exported already (NQN $nqn, tcp 127.0.0.1:4420)" "$ctl" export exp
expect_refusal 4 "exported already" "$ctl" export --transport tcp --addr 127.0.0.1:4421 /dev/ramdisk0
expect_refusal 4 "subsystem $nqn exists already" "$ctl" export --nqn "$nqn" other
expect_refusal 5 "exp is exported over NVMe-oF (NQN $nqn); run ramdiskctl unexport exp first" \
	"$ctl" remove exp
expect_refusal 5 "/dev/ramdisk0 is exported over NVMe-oF (NQN $nqn); run ramdiskctl unexport /dev/ramdisk0 first" \
	"$ctl" remove /dev/ramdisk0
assert_eq "$(cat /sys/kernel/config/ramdisk/exp/power)" 1 "exp still powered after a refused remove"
assert_eq "$(snapshot)" "$exported" "the tree after refusals"

# A second export on the same address shares the port.
run_cmd 0 "$ctl" export --nqn nqn.2024-01.test:second --addr 127.0.0.1 other
assert_eq "$(ls "$nvmet/ports")" 29284 "ports with two exports on one address"
assert_eq "$(find "$port/subsystems" -mindepth 1 -printf '%f\n' | sort | tr '\n' ' ')" "$nqn nqn.2024-01.test:second " "subsystems on the shared port"
run_cmd 0 "$ctl" unexport other
assert_eq "$(ls "$port/subsystems")" "$nqn" "the shared port after unexporting one"
assert_eq "$(snapshot)" "$exported" "the tree after the second export went"

through_fabric tcp "$nqn" -a 127.0.0.1 -s 4420

run_cmd 0 "$ctl" unexport exp
same_tree "after unexport"
expect_refusal 7 "exp is not exported" "$ctl" unexport exp
run_cmd 0 "$ctl" list
grep -q EXPORT <<<"$out" && fail "list shows EXPORT with nothing exported: $out"

echo "--- others' nvmet configuration: shared, never removed"
# Someone's port 7 on 127.0.0.1:4420 with their subsystem linked, and
# their subsystem serving ramdisk1.
mkdir "$nvmet/ports/7" "$nvmet/subsystems/nqn.2024-01.test:theirs"
echo tcp >"$nvmet/ports/7/addr_trtype"
echo ipv4 >"$nvmet/ports/7/addr_adrfam"
echo 127.0.0.1 >"$nvmet/ports/7/addr_traddr"
echo 4420 >"$nvmet/ports/7/addr_trsvcid"
theirs=$nvmet/subsystems/nqn.2024-01.test:theirs
echo 1 >"$theirs/attr_allow_any_host"
mkdir "$theirs/namespaces/5"
echo "$dev2" >"$theirs/namespaces/5/device_path"
echo 1 >"$theirs/namespaces/5/enable"
ln -s "$theirs" "$nvmet/ports/7/subsystems/nqn.2024-01.test:theirs"
theirs_tree=$(snapshot)

run_cmd 0 "$ctl" export exp
assert_eq "$(ls "$nvmet/ports")" 7 "ports: exp shares port 7"
[ -L "$nvmet/ports/7/subsystems/$nqn" ] || fail "exp not linked into the shared port 7"
run_cmd 0 "$ctl" list
grep -Eq '^/dev/ramdisk1 +other .* tcp 127\.0\.0\.1:4420$' <<<"$out" || fail "list: their export of other not shown"
expect_refusal 1 "other is exported by subsystem nqn.2024-01.test:theirs, which ramdiskctl did not make" \
	"$ctl" unexport other
expect_refusal 5 "other is exported over NVMe-oF (NQN nqn.2024-01.test:theirs), by a subsystem ramdiskctl did not make" \
	"$ctl" remove other
run_cmd 0 "$ctl" unexport exp
assert_eq "$(snapshot)" "$theirs_tree" "their port, subsystem and link after unexport exp"
rm "$nvmet/ports/7/subsystems/nqn.2024-01.test:theirs"
echo 0 >"$theirs/namespaces/5/enable"
rmdir "$theirs/namespaces/5" "$theirs" "$nvmet/ports/7"
same_tree "after their configuration went"

echo "--- refusals that must leave nothing half-made"
expect_refusal 2 "unknown transport 'rdma': want tcp or loop" "$ctl" export --transport rdma exp
expect_refusal 2 "bad address '127.0.0.1:99999'" "$ctl" export --addr 127.0.0.1:99999 exp
expect_refusal 2 "--addr goes with --transport tcp" "$ctl" export --transport loop --addr 127.0.0.1 exp
expect_refusal 2 "bad NQN 'iqn.x'" "$ctl" export --nqn iqn.x exp
expect_refusal 7 "nosuch: no such ramdisk device or configuration" "$ctl" export nosuch
expect_refusal 7 "nosuch: no such ramdisk device or configuration" "$ctl" unexport nosuch
expect_refusal 7 "other is not exported" "$ctl" unexport other
rd_configure off size=1M
expect_refusal 7 "off is powered off: there is no device to export" "$ctl" export off
same_tree "after usage refusals"
# an address in use by another program: the port, made, is taken back
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 4425)); s.listen(1)
open(sys.argv[1], "w").close(); time.sleep(60)' "$RD_TMP/listening" &
listener=$!
on_exit "kill $listener"
for ((i = 0; i < 100; i++)); do
	[ -e "$RD_TMP/listening" ] && break
	sleep 0.1
done
expect_refusal 1 "127.0.0.1:4425 is in use by another program" "$ctl" export --addr 127.0.0.1:4425 exp
kill "$listener"
same_tree "after a port in use"
expect_refusal 1 "10.99.99.99 is not an address of this machine" "$ctl" export --addr 10.99.99.99 exp
same_tree "after an address not here"
# a transport the kernel cannot load (modprobe made to fail)
mkdir "$RD_TMP/bin"
printf '#!/bin/sh\nexit 1\n' >"$RD_TMP/bin/modprobe"
chmod +x "$RD_TMP/bin/modprobe"
if [ ! -d /sys/module/nvme_loop ]; then
	expect_refusal 3 "cannot load nvme-loop (modprobe nvme-loop failed): this kernel has no NVMe loop transport" \
		env PATH="$RD_TMP/bin:$PATH" "$ctl" export --transport loop exp
	same_tree "after a transport that cannot be loaded"
fi
# not root: refused, nothing made
if command -v setpriv >/dev/null; then
	expect_refusal 6 "are you root" setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$ctl" export exp
	same_tree "after export as nobody"
fi

echo "--- loop"
if modprobe nvme-loop 2>/dev/null; then
	run_cmd 0 "$ctl" export --transport loop --nqn "$base_nqn:loop-test" exp
	loop_nqn=$out
	assert_eq "$loop_nqn" "$base_nqn:loop-test" "NQN of the loop export"
	assert_eq "$(cat "$nvmet/ports/29284/addr_trtype")" loop "the loop port's transport"
	run_cmd 0 "$ctl" list -o name,export -r
	grep -qx 'exp loop' <<<"$out" || fail "list: exp's loop export: $out"
	through_fabric loop "$loop_nqn"
	run_cmd 0 "$ctl" unexport /dev/ramdisk0
	same_tree "after unexporting the loop export"
else
	expect_refusal 3 "cannot load nvme-loop (modprobe nvme-loop failed): this kernel has no NVMe loop transport" \
		"$ctl" export --transport loop exp
	same_tree "after a refused loop export"
	echo "loop: this kernel has no nvme-loop module; its refusal checked instead"
fi

# removal works again once unexported
run_cmd 0 "$ctl" remove exp other
echo ok
