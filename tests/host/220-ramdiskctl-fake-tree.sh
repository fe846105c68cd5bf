#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl list, info, remove and create logic against a fake configfs/sysfs tree
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
cfg=$RD_TMP/config/ramdisk
sys=$RD_TMP/sys
export RAMDISK_CONFIGFS=$cfg RAMDISKCTL_SYSFS=$sys

# A disk as the module shows it in sysfs (interface.md): INDEX NAME SECTORS.
fake_disk() {
	local d=$sys/block/ramdisk$1
	mkdir -p "$d/ramdisk" "$d/queue"
	echo "$2" >"$d/ramdisk/name"
	echo "$3" >"$d/size"
	echo 512 >"$d/queue/logical_block_size"
	echo 5 >"$d/ramdisk/allocated_pages"
	echo 20480 >"$d/ramdisk/allocated_bytes"
	echo 0 >"$d/ramdisk/mem_limit"
	echo "7 28672" >"$d/ramdisk/reads"
	echo "5 20480" >"$d/ramdisk/writes"
	echo "1 1048576" >"$d/ramdisk/discards"
	echo "0 0" >"$d/ramdisk/write_zeroes"
	echo 2 >"$d/ramdisk/flushes"
	echo 0 >"$d/ramdisk/alloc_failures"
	echo 3 >"$d/ramdisk/spare_pages"
	# a 4 KiB root and one 512-byte leaf
	echo 4608 >"$d/ramdisk/index_bytes"
}

# A configuration: NAME SIZE BLOCK_SIZE MEM_LIMIT POWER INDEX.
fake_config() {
	local d=$cfg/$1
	mkdir -p "$d"
	echo "$2" >"$d/size"
	echo "$3" >"$d/block_size"
	echo 0 >"$d/max_part"
	echo "$4" >"$d/mem_limit"
	echo -1 >"$d/numa_node"
	echo "$5" >"$d/power"
	echo "$6" >"$d/index"
}

has() {
	grep -q -- "$2" <<<"$1" || fail "missing '$2' in: $1"
}

mkdir -p "$cfg" "$sys/block" "$sys/module/ramdisk/parameters"
echo "block_size,index,mem_limit,max_part,numa_node,power,size" >"$cfg/features"
echo 0 >"$sys/module/ramdisk/parameters/max_part"
# A disk of another driver, and a partition-like name: both ignored.
mkdir -p "$sys/block/sda" "$sys/block/ramdisk01/ramdisk"

# An empty module: an empty table, an empty JSON array.
run_cmd 0 "$ctl" list
has "$out" "DEVICE"
assert_eq "$(printf '%s\n' "$out" | wc -l)" 1 "lines of an empty list"
run_cmd 0 "$ctl" list --json
assert_eq "$(tr -d ' \n' <<<"$out")" '{"devices":[]}' "empty list --json"

# ramdisk0: load-time, 1G. rd0: powered as ramdisk1, 64M, 4K blocks, 1M
# limit. off: configured, never powered.
fake_disk 0 "" 2097152
fake_disk 1 rd0 131072
fake_config rd0 67108864 4096 1048576 1 1
fake_config off 1073741824 512 0 0 -1
# another index size for ramdisk0, so that a mix-up of devices shows
echo 5120 >"$sys/block/ramdisk0/ramdisk/index_bytes"

run_cmd 0 "$ctl" list
echo "$out"
lines=$(printf '%s\n' "$out" | wc -l)
assert_eq "$lines" 4 "lines of list (header and three devices)"
row0=$(sed -n 2p <<<"$out")
row1=$(sed -n 3p <<<"$out")
row2=$(sed -n 4p <<<"$out")
[[ $row0 =~ ^/dev/ramdisk0\ +-\ +1\.0G\ +512\ +0\ +none\ +20K$ ]] || fail "load-time row: $row0"
[[ $row1 =~ ^/dev/ramdisk1\ +rd0\ +64M\ +4096\ +0\ +1\.0M\ +20K$ ]] || fail "rd0 row: $row1"
[[ $row2 =~ ^-\ +off\ +1\.0G\ +512\ +0\ +none\ +-$ ]] || fail "powered-off row: $row2"

run_cmd 0 "$ctl" list --json
if command -v jq >/dev/null; then
	assert_eq "$(jq '.devices | length' <<<"$out")" 3 "devices in list --json"
	assert_eq "$(jq -c '[.devices[].name]' <<<"$out")" '[null,"rd0","off"]' "names"
	assert_eq "$(jq -c '[.devices[].index]' <<<"$out")" '[0,1,-1]' "indexes"
	assert_eq "$(jq -c '[.devices[].load_time]' <<<"$out")" '[1,0,0]' "load_time"
	assert_eq "$(jq -c '[.devices[].size]' <<<"$out")" '[1073741824,67108864,1073741824]' "sizes"
	assert_eq "$(jq -c '.devices[1] | [.device, .block_size, .mem_limit, .numa_node]' <<<"$out")" \
		'["/dev/ramdisk1",4096,1048576,-1]' "rd0 configuration"
	assert_eq "$(jq -c '.devices[0] | [.reads, .read_bytes, .discard_bytes, .flushes, .allocated_pages]' <<<"$out")" \
		'[7,28672,1048576,2,5]' "ramdisk0 statistics"
	assert_eq "$(jq -c '.devices[2] | [.device, .reads, .allocated_bytes]' <<<"$out")" \
		'[null,null,null]' "powered-off device has no statistics"
	assert_eq "$(jq -c '[.devices[].index_bytes]' <<<"$out")" '[5120,4608,null]' "index_bytes"
else
	echo "jq missing: JSON contents not checked"
	has "$out" '"name": "rd0"'
fi

# The table options: --raw, --noheadings, --bytes, --output (any case,
# "+COLS" after the defaults), --output-all, alone and with --json.
run_cmd 0 "$ctl" list --raw
assert_eq "$(sed -n 2p <<<"$out")" "/dev/ramdisk0 - 1.0G 512 0 none 20K" "list --raw row"
run_cmd 0 "$ctl" list --noheadings
assert_eq "$(printf '%s\n' "$out" | wc -l)" 3 "lines of list --noheadings"
if grep -q DEVICE <<<"$out"; then fail "list --noheadings printed the header"; fi
run_cmd 0 "$ctl" list --output name,SIZE,Index
assert_eq "$(head -n 1 <<<"$out" | tr -s ' ')" "NAME SIZE INDEX" "header of list --output"
run_cmd 0 "$ctl" list -o +INDEX,POWER_CUTS -r
assert_eq "$(head -n 1 <<<"$out")" "DEVICE NAME SIZE BLOCK PARTS MEM_LIMIT USED INDEX POWER_CUTS" \
	"header of list --output +COLS"
run_cmd 0 "$ctl" list --bytes --raw --noheadings --output NAME,SIZE,MEM_LIMIT,USED
assert_eq "$out" "$(printf '%s\n' "- 1073741824 0 20480" "rd0 67108864 1048576 20480" \
	"off 1073741824 0 -")" "list --bytes"
run_cmd 0 "$ctl" list --output-all --raw
assert_eq "$(head -n 1 <<<"$out" | wc -w)" "$(sed -n 2p <<<"$out" | wc -w)" "list --output-all row width"
has "$out" "WRITE_ZEROES_BYTES"
# an empty cell in JSON is null, a number a bare number
run_cmd 0 "$ctl" list --json -o name,reads,device
if command -v jq >/dev/null; then
	assert_eq "$(jq -c . <<<"$out")" \
		'{"devices":[{"name":null,"reads":7,"device":"/dev/ramdisk0"},{"name":"rd0","reads":7,"device":"/dev/ramdisk1"},{"name":"off","reads":null,"device":null}]}' \
		"list --json --output"
	run_cmd 0 "$ctl" list --json --output-all
	assert_eq "$(jq -c '.devices[1] | [length, .block, .parts, .used, .cache, .power_cuts]' <<<"$out")" \
		'[39,4096,0,20480,null,null]' "list --json --output-all"
fi
has "$out" '"block": 4096'
run_cmd 0 "$ctl" info rd0 --raw --noheadings --output NAME,DEVICE,USED
assert_eq "$out" "rd0 /dev/ramdisk1 20K" "info --raw --noheadings --output"
run_cmd 0 "$ctl" info -b -o used rd0
assert_eq "$out" "$(printf '%s\n' " USED" "20480")" "info --bytes --output"
run_cmd 0 "$ctl" info --json -o size,index_bytes rd0
assert_eq "$(tr -d ' \n' <<<"$out")" '{"devices":[{"size":67108864,"index_bytes":4608}]}' \
	"info --json --output"

# What create sets and info has no line of its own for comes from create's
# table, as the module shows it; an attribute the module lacks, none.
echo 8192 >"$cfg/rd0/io_min"
echo 1 >"$cfg/rd0/rotational"
echo 64 >"$cfg/rd0/spare_pages"
# info by every spelling of the same device.
for spelling in rd0 ramdisk1 /dev/ramdisk1; do
	run_cmd 0 "$ctl" info "$spelling"
	has "$out" "device: *\/dev\/ramdisk1$"
	has "$out" "name: *rd0$"
	has "$out" "size: *67108864 (64M)$"
	has "$out" "block_size: *4096$"
	has "$out" "max_part: *0$"
	has "$out" "mem_limit: *1048576 (1.0M)$"
	has "$out" "numa_node: *-1 (any)$"
	has "$out" "allocated: *5 pages, 20480 bytes (20K)$"
	has "$out" "index_bytes: *4608 (4.5K)$"
	has "$out" "spare: *3 pages$"
	has "$out" "reads: *7 bios, 28672 bytes (28K)$"
	has "$out" "writes: *5 bios, 20480 bytes (20K)$"
	has "$out" "discards: *1 bios, 1048576 bytes (1.0M)$"
	has "$out" "write_zeroes: *0 bios, 0 bytes$"
	has "$out" "flushes: *2$"
	has "$out" "alloc_failures: *0$"
	assert_eq "$(grep -E '^(io_min|rotational|spare_pages|io_opt|cache_size):' <<<"$out" | tr -s ' ')" \
		"$(printf '%s\n' "io_min: 8192 (8.0K)" "rotational: 1" "spare_pages: 64")" \
		"info's lines from create's table"
done
run_cmd 0 "$ctl" info /dev/ramdisk0
if grep -q '^io_min:' <<<"$out"; then fail "a load-time device shows a configuration's io_min: $out"; fi
has "$out" "name: *(made at module load)"
has "$out" "index_bytes: *5120 (5.0K)$"
has "$out" "size: *1073741824 (1.0G)"
has "$out" "mem_limit: *0 (unlimited)"
run_cmd 0 "$ctl" info off
has "$out" "device: *none (powered off)"
if grep -q reads <<<"$out"; then fail "powered-off device shows statistics"; fi
if grep -q index_bytes <<<"$out"; then fail "powered-off device shows index_bytes"; fi
run_cmd 0 "$ctl" info --json off
has "$out" '"index": -1'
run_cmd 0 "$ctl" info --json rd0
if command -v jq >/dev/null; then
	assert_eq "$(jq -c '[.devices[0].index_bytes, .devices[0].allocated_bytes]' <<<"$out")" '[4608,20480]' \
		"info --json index_bytes"
else
	has "$out" '"index_bytes": 4608'
fi

# A missing statistic (an older module) shows as unknown, not as a failure.
rm "$sys/block/ramdisk1/ramdisk/write_zeroes"
run_cmd 0 "$ctl" info rd0
has "$out" "write_zeroes: *unknown$"
# index_bytes came later than the other statistics: a module without it
# gets no index_bytes line at all, rather than "unknown", and null in JSON.
rm "$sys/block/ramdisk1/ramdisk/index_bytes"
run_cmd 0 "$ctl" info rd0
if grep -q index_bytes <<<"$out"; then fail "index_bytes shown without its file: $out"; fi
has "$out" "allocated: *5 pages, 20480 bytes (20K)$"
run_cmd 0 "$ctl" list --json
if command -v jq >/dev/null; then
	assert_eq "$(jq -c '[.devices[].index_bytes]' <<<"$out")" '[5120,null,null]' \
		"index_bytes without its file"
fi

# A name longer than create allows, made by hand, still lists and reads.
long=$(printf 'L%.0s' {1..200})
fake_config "$long" 1048576 512 0 0 -1
run_cmd 0 "$ctl" list
has "$out" "$long"
run_cmd 0 "$ctl" info "$long"
has "$out" "name: *$long$"
rm -r "${cfg:?}/$long"

# Output that cannot be written is an error, not a silent success.
if [ -w /dev/full ]; then
	status=0
	"$ctl" list >/dev/full 2>"$RD_TMP/err" || status=$?
	assert_eq "$status" 1 "exit status of list >/dev/full"
	grep -q "writing output" "$RD_TMP/err" || fail "list >/dev/full: $(cat "$RD_TMP/err")"
fi

# Nothing by that name: exit 7.
for name in nosuch ramdisk9 /dev/ramdisk9 /dev/sda ramdisk01 . ..; do
	run_cmd 7 "$ctl" info "$name"
	has "$err" "no such ramdisk device"
	run_cmd 7 "$ctl" remove "$name"
done

# Load-time devices stay until rmmod.
run_cmd 1 "$ctl" remove /dev/ramdisk0
has "$err" "made when the module was loaded"
run_cmd 1 "$ctl" remove ramdisk0
[ -d "$sys/block/ramdisk0" ] || fail "remove touched ramdisk0"

# An NVMe-oF export in a fake nvmet tree (RAMDISKCTL_NVMET): list grows
# its EXPORT column, JSON has export and export_nqn, info says it, and
# remove refuses the device, naming the way out.
nv=$RD_TMP/nvmet
q=nqn.2024-01.io.ramdisk:rd0
mkdir -p "$nv/subsystems/$q/namespaces/1" "$nv/ports/29284/subsystems"
echo /dev/ramdisk1 >"$nv/subsystems/$q/namespaces/1/device_path"
echo ramdiskctl >"$nv/subsystems/$q/attr_model"
echo tcp >"$nv/ports/29284/addr_trtype"
echo ipv4 >"$nv/ports/29284/addr_adrfam"
echo 127.0.0.1 >"$nv/ports/29284/addr_traddr"
echo 4420 >"$nv/ports/29284/addr_trsvcid"
ln -s "$nv/subsystems/$q" "$nv/ports/29284/subsystems/$q"
RAMDISKCTL_NVMET=$nv run_cmd 0 "$ctl" list
has "$(head -n 1 <<<"$out")" " EXPORT$"
grep -Eq '^/dev/ramdisk1 +rd0 .* tcp 127\.0\.0\.1:4420$' <<<"$out" || fail "list: rd0's export: $out"
grep -Eq '^/dev/ramdisk0 .* -$' <<<"$out" || fail "list: ramdisk0 shows an export: $out"
RAMDISKCTL_NVMET=$nv run_cmd 0 "$ctl" list -r -n -o name,export_nqn
has "$out" "^rd0 $q$"
if command -v jq >/dev/null; then
	RAMDISKCTL_NVMET=$nv run_cmd 0 "$ctl" list --json
	assert_eq "$(jq -c '[.devices[] | [.export, .export_nqn]]' <<<"$out")" \
		"[[null,null],[\"tcp 127.0.0.1:4420\",\"$q\"],[null,null]]" "list --json export"
fi
RAMDISKCTL_NVMET=$nv run_cmd 0 "$ctl" info rd0
has "$out" "^export: *tcp 127.0.0.1:4420 (NQN $q)$"
RAMDISKCTL_NVMET=$nv run_cmd 5 "$ctl" remove rd0
has "$err" "rd0 is exported over NVMe-oF (NQN $q); run ramdiskctl unexport rd0 first"
assert_eq "$(cat "$cfg/rd0/power")" 1 "rd0 power after a refused remove"
# not ramdiskctl's subsystem: remove says whose it is
echo Linux >"$nv/subsystems/$q/attr_model"
RAMDISKCTL_NVMET=$nv run_cmd 5 "$ctl" remove rd0
has "$err" "by a subsystem ramdiskctl did not make"
rm -r "$nv"

# remove powers off before rmdir. (A fake directory holds regular files,
# so rmdir fails here with ENOTEMPTY; configfs would drop it.)
run_cmd 1 "$ctl" remove rd0
assert_eq "$(cat "$cfg/rd0/power")" 0 "rd0 power after remove"
has "$err" "rd0: Directory not empty"
# A configuration without a power attribute is reported, not guessed at.
mkdir "$cfg/nopower"
run_cmd 1 "$ctl" remove nopower
has "$err" "nopower: reading power"
rmdir "$cfg/nopower"
# Every name is tried; the first failure's status wins.
run_cmd 7 "$ctl" remove nosuch1 off nosuch2
has "$err" "nosuch2: no such"
assert_eq "$(cat "$cfg/off/power")" 0 "off after remove (was off already)"

# create: an existing name is exit 4, and nothing is touched.
run_cmd 4 "$ctl" create --name off --size 1M
has "$err" "off already exists"
assert_eq "$(cat "$cfg/off/size")" 1073741824 "size of the existing off"

# create without --name takes the lowest free rdN (rd0 is taken), and a
# failure after mkdir removes the directory again. mkdir here makes a
# plain empty directory, so writing "size" fails like a module without it.
mkdir "$cfg/rd2"
run_cmd 1 "$ctl" create --size 1M
has "$err" "create: rd1: no size attribute"
[ ! -e "$cfg/rd1" ] || fail "create left the half-made rd1 behind"
run_cmd 1 "$ctl" create --name fresh --size 1M
[ ! -e "$cfg/fresh" ] || fail "create left the half-made fresh behind"
rmdir "$cfg/rd2"

# Options the module does not list in features are refused before mkdir.
echo "index,power,size" >"$cfg/features"
run_cmd 1 "$ctl" create --name nonuma --size 1M --numa-node 0
has "$err" "no numa_node attribute"
run_cmd 1 "$ctl" create --name nolimit --size 1M --mem-limit 1G
has "$err" "no mem_limit attribute"
run_cmd 1 "$ctl" create --name nospare --size 1M --spare-pages 0
has "$err" "no spare_pages attribute"
run_cmd 1 "$ctl" create --name nocache --size 1M --cache-mode writeback
has "$err" "--cache-mode: this ramdisk module has no cache_mode attribute"
run_cmd 1 "$ctl" create --name noprofile --size 1M --profile ssd
has "$err" "--profile: this ramdisk module has no read_latency_ns attribute"
for d in nonuma nolimit nospare nocache noprofile; do
	[ ! -e "$cfg/$d" ] || fail "refused create made $d"
done
# A module older than power domains: the root has no power_cut_domain
run_cmd 3 "$ctl" powercut --domain rack
has "$err" "the loaded module has no power domains"
echo "fake-tree checks passed"
