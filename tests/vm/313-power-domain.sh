#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: power domains: one write of a domain's name to power_cut_domain cuts every powered member at one instant (each loses its unflushed writes and keeps its flushed ones, power_cuts moves by one on each) and leaves a device outside the domain untouched; a powered-off member is passed over; rmdir of a member is refused until it leaves; a bad or too long name, and a cut of a domain with no member or none powered, are refused with the reason
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd python3
load_module nr_devices=0
cfg=$RD_CONFIGFS

for n in a b c; do
	rd_configure $n size=64M cache_mode=writeback power=1
	head -c 64K /dev/urandom >"$RD_TMP/$n"
done
head -c 64K /dev/zero >"$RD_TMP/zero"
declare -A dev
for n in a b c; do
	dev[$n]=$(rd_dev $n)
done

# put NAME KIB_OFFSET [sync]: NAME's own 64 KiB at KIB_OFFSET of its device
put() {
	rd_dd_write "${dev[$1]}" "$RD_TMP/$1" "$2" 64 "${3:-}" || fail "write of $1 at $2 KiB"
}
# holds NAME KIB_OFFSET FILE: whether NAME's device holds FILE there
holds() {
	dd if="${dev[$1]}" bs=64K skip=$(($2 / 64)) count=1 iflag=direct status=none |
		cmp -s - "$3"
}
cuts() {
	sysfs_stat "${dev[$1]}" power_cuts
}

assert_eq "$(cat "$cfg/a/power_domain")" "" "power_domain of a fresh item"
echo rack1 >"$cfg/a/power_domain" || fail "a joins rack1"
echo rack1 >"$cfg/b/power_domain" || fail "b joins rack1"
assert_eq "$(cat "$cfg/b/power_domain")" rack1 "power_domain of b"

echo "a domain's cut: both members lose their cached writes, c outside keeps its own"
for n in a b c; do
	put $n 0 sync
	put $n 64
done
ca=$(cuts a) cb=$(cuts b) cc=$(cuts c)
dirty_c=$(sysfs_stat "${dev[c]}" dirty_bytes)
((dirty_c >= 65536)) || fail "c's write was not cached"
echo rack1 >"$cfg/power_cut_domain" || fail "power_cut_domain rack1"
assert_eq "$(cuts a)" $((ca + 1)) "power_cuts of a after the domain's cut"
assert_eq "$(cuts b)" $((cb + 1)) "power_cuts of b after the domain's cut"
assert_eq "$(cuts c)" "$cc" "power_cuts of c, outside the domain"
assert_eq "$(sysfs_stat "${dev[c]}" dirty_bytes)" "$dirty_c" "dirty bytes of c"
for n in a b; do
	holds $n 0 "$RD_TMP/$n" || fail "$n lost its flushed write"
	holds $n 64 "$RD_TMP/zero" || fail "$n kept its cached write through the domain's cut"
done
holds c 64 "$RD_TMP/c" || fail "c lost its cached write to a cut of another domain"

echo "a member's own power_cut cuts that member alone"
put a 64
put b 64
echo 1 >"$cfg/a/power_cut" || fail "a's power_cut"
holds a 64 "$RD_TMP/zero" || fail "a kept its cached write through its own cut"
holds b 64 "$RD_TMP/b" || fail "a's own cut took b's cached write"
assert_eq "$(cuts b)" $((cb + 1)) "power_cuts of b after a's own cut"

# A writer that alternates plain (cached) 4 KiB writes between the two
# devices, one at a time, each carrying its sequence number, while another
# thread cuts; then each block is read back. One instant for both devices
# means every write before it is lost and every write after it kept: the
# kept ones are a suffix of the sequence, and as the writer has one write
# in flight at a time the cut interrupts one write at most (it fails with
# EIO and counts as neither). Exits 1, saying which, when either fails.
cat >"$RD_TMP/race.py" <<'PY'
import errno, mmap, os, struct, sys, threading, time
dev_a, dev_b, total, cut_after, gap = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
# each run its own tag, so that no block can hold an earlier run's write
magic = 0x6e69616d6f640000 | int(sys.argv[6])
cuts = [kv.split("=", 1) for kv in sys.argv[7:]]
fds = [os.open(d, os.O_RDWR | os.O_DIRECT) for d in (dev_a, dev_b)]
buf = mmap.mmap(-1, 4096)
done = 0
failed = set()
def cutter():
    while done < cut_after:
        time.sleep(0.0002)
    for n, (path, value) in enumerate(cuts):
        if n:
            time.sleep(gap)
        with open(path, "w") as f:
            f.write(value + "\n")
t = threading.Thread(target=cutter)
t.start()
for i in range(1, total + 1):
    buf[0:16] = struct.pack("<QQ", magic, i)
    try:
        os.pwrite(fds[i % 2], buf, (i // 2) * 4096)
    except OSError as e:
        if e.errno != errno.EIO:
            raise
        failed.add(i)
    done = i
t.join()
lost, kept = [], []
for i in range(1, total + 1):
    os.preadv(fds[i % 2], [buf], (i // 2) * 4096)
    got = struct.unpack("<QQ", buf[0:16])
    if i in failed:
        continue
    (kept if got == (magic, i) else lost).append(i)
print(f"{len(lost)} lost (last {max(lost, default=0)}), {len(kept)} kept (first {min(kept, default=0)}), {len(failed)} interrupted")
if not lost or not kept:
    sys.exit("the cut fell outside the writes")
if max(lost) > min(kept):
    sys.exit(f"write {min(kept)} kept but the later write {max(lost)} lost: the devices were not cut at one instant")
# one write at a time: an instant can interrupt only the one in flight
if len(failed) > 1:
    sys.exit(f"writes {sorted(failed)} were all interrupted: one was sent after a cut and met another, so the devices were not cut at one instant")
PY

# race GAP_SECONDS CONFIGFS_FILE=VALUE...: the writer, and a cut made of
# the writes given, GAP_SECONDS apart
races=0
race() {
	races=$((races + 1))
	python3 "$RD_TMP/race.py" "${dev[a]}" "${dev[b]}" 16384 4000 "$1" "$races" "${@:2}"
}

echo "the check sees two cuts 50 ms apart as two instants"
race 0.05 "$cfg/a/power_cut=1" "$cfg/b/power_cut=1" 2>"$RD_TMP/race.err" &&
	fail "two separate cuts passed the one-instant check"
cat "$RD_TMP/race.err"
grep -q "not cut at one instant" "$RD_TMP/race.err" || fail "two separate cuts: $(cat "$RD_TMP/race.err")"

for round in 1 2 3; do
	echo "a domain's cut under alternating writes, round $round"
	race 0 "$cfg/power_cut_domain=rack1" || fail "the domain's cut, round $round"
done

echo "a member powered off is passed over; the others are cut"
rd_power_off b || fail "powering b off"
assert_eq "$(cat "$cfg/b/power_domain")" rack1 "b's domain after its power-off"
ca=$(cuts a)
put a 128
echo rack1 >"$cfg/power_cut_domain" || fail "power_cut_domain rack1 with b off"
assert_eq "$(cuts a)" $((ca + 1)) "power_cuts of a after the cut with b off"
holds a 128 "$RD_TMP/zero" || fail "a kept its cached write with b off"

echo "rmdir of a member is refused until it leaves"
rmdir "$cfg/b" 2>"$RD_TMP/rmdir.err" && fail "rmdir of b, a member of rack1, succeeded"
grep -q "Device or resource busy" "$RD_TMP/rmdir.err" ||
	fail "rmdir of b: $(cat "$RD_TMP/rmdir.err"), want EBUSY"
assert_eq "$(cat "$cfg/b/power_domain")" rack1 "b's domain after the refused rmdir"
echo rack2 >"$cfg/b/power_domain" || fail "b moves to rack2"
rmdir "$cfg/b" 2>/dev/null && fail "rmdir of b, a member of rack2, succeeded"
echo >"$cfg/b/power_domain" || fail "b leaves rack2"
rmdir "$cfg/b" || fail "rmdir of b after it left its domain"

echo "refusals"
rd_refused a power_domain "bad/name" "Invalid argument" \
	"a: power domain name 'bad/name' has a character other than letters, digits, '-', '_' and '.'"
long=$(printf 'x%.0s' {1..32})
rd_refused a power_domain "$long" "Invalid argument" "a: power domain name '$long' is longer than 31"
assert_eq "$(cat "$cfg/a/power_domain")" rack1 "a's domain after the refusals"
rd_refused . power_cut_domain "" "Invalid argument" \
	"power_cut_domain: takes the name of a power domain"
rd_refused . power_cut_domain nowhere "Invalid argument" \
	"power_cut_domain: no configuration is in power domain 'nowhere'"
rd_power_off a || fail "powering a off"
rd_refused . power_cut_domain rack1 "No such device" \
	"power_cut_domain: no device of power domain 'rack1' is powered"
echo >"$cfg/a/power_domain" || fail "a leaves rack1"
rd_refused . power_cut_domain rack1 "Invalid argument" \
	"power_cut_domain: no configuration is in power domain 'rack1'"
echo ok
