#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: atomic writes: the limits reach the queue and statx, RWF_ATOMIC writes within them succeed and others fail, invalid limits are refused unchanged, seeded sector power cuts never tear an atomic write (plain writes tear), an atomic write over a bad sector fails whole, so does one that needs more pages than mem_limit leaves (old data intact, cache or not); kernels without support leave the attributes out of features and refuse them
# VMOPTS: --mem 1G --memmap 64M@512M
. "${0%/*}/../lib/common.sh"
require_root
require_cmd blkdiscard dd python3
load_module nr_devices=0
queue() { cat "/sys/block/${RD_DEV#/dev/}/queue/$1"; }
attrs="atomic_write_boundary atomic_write_unit_max atomic_write_unit_min"
features=$(cat "$RD_CONFIGFS/features")

# aw statx DEV: prints "MASK_HAS_ATOMIC UNIT_MIN UNIT_MAX SEGMENTS_MAX" from
# statx(STATX_WRITE_ATOMIC); aw pwrite DEV OFF LEN BYTE [atomic]: one
# O_DIRECT pwritev2 of LEN bytes of BYTE, with RWF_ATOMIC if asked, one
# iovec, as xfs_io's 'pwrite -A -V1' (the guest's xfs_io may predate -A);
# aw cuts DEV POWER_CUT_FILE ROUNDS: the power-cut rounds below, in one
# process (Python starts slowly over the guest's 9p root).
cat >"$RD_TMP/aw.py" <<'EOF'
import ctypes, fcntl, mmap, os, struct, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.pwritev2.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_long, ctypes.c_int]
STATX_WRITE_ATOMIC, RWF_ATOMIC, AT_FDCWD, BLKDISCARD = 0x10000, 0x40, -100, 0x1277


class Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def pwrite(fd, off, length, byte, atomic):
    """One O_DIRECT pwritev2 from one page-aligned iovec; "" or the error."""
    mem = mmap.mmap(-1, length)
    mem.write(bytes([byte]) * length)
    base = ctypes.c_char.from_buffer(mem)
    iov = Iovec(ctypes.addressof(base), length)
    n = libc.pwritev2(fd, ctypes.byref(iov), 1, off, RWF_ATOMIC if atomic else 0)
    err = "" if n == length else os.strerror(ctypes.get_errno()) if n < 0 else f"short, {n}"
    del base
    mem.close()
    return err


def cuts(dev, cut_file, rounds):
    """Each round: zero the device (a discard is durable at once), write 8
    atomic and 8 plain 64 KiB writes of one byte value, interleaved, cut
    the power, read the first MiB back and sort each range into all new,
    all old (zeros) or torn."""
    fd = os.open(dev, os.O_RDWR | os.O_DIRECT)
    size = os.lseek(fd, 0, os.SEEK_END)
    buf = mmap.mmap(-1, 1 << 20)
    count = {"atomic": [0, 0, 0], "plain": [0, 0, 0]}
    for rnd in range(1, rounds + 1):
        fcntl.ioctl(fd, BLKDISCARD, struct.pack("QQ", 0, size))
        byte = rnd % 250 + 1
        for i in range(16):
            err = pwrite(fd, i * 65536, 65536, byte, i % 2 == 0)
            if err:
                sys.exit(f"round {rnd}, write {i}: {err}")
        with open(cut_file, "w") as f:
            f.write("1\n")
        os.preadv(fd, [buf], 0)
        new, old = bytes([byte]) * 65536, bytes(65536)
        for i in range(16):
            r = buf[i * 65536:(i + 1) * 65536]
            count["atomic" if i % 2 == 0 else "plain"][0 if r == new else 1 if r == old else 2] += 1
    print(*count["atomic"], *count["plain"])


if sys.argv[1] == "statx":
    buf = ctypes.create_string_buffer(256)
    if libc.statx(AT_FDCWD, sys.argv[2].encode(), 0, STATX_WRITE_ATOMIC, buf):
        sys.exit("statx: " + os.strerror(ctypes.get_errno()))
    mask = struct.unpack_from("I", buf, 0)[0]
    print(int(bool(mask & STATX_WRITE_ATOMIC)), *struct.unpack_from("III", buf, 168))
elif sys.argv[1] == "cuts":
    cuts(sys.argv[2], sys.argv[3], int(sys.argv[4]))
else:
    fd = os.open(sys.argv[2], os.O_WRONLY | os.O_DIRECT)
    err = pwrite(fd, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5], 0), sys.argv[6:] == ["atomic"])
    if err:
        sys.exit("pwritev2: " + err)
EOF
aw() { python3 "$RD_TMP/aw.py" "$@"; }

# --- kernels whose block layer takes no atomic writes from a bio-based driver
IFS=. read -r major minor _ <<<"$RD_KVER"
if [[ ,$features, != *,atomic_write_unit_max,* ]]; then
	((major < 6 || (major == 6 && minor < 11))) ||
		fail "features lacks the atomic write attributes on $RD_KVER, which has the limits: $features"
	for a in $attrs; do
		[[ ,$features, != *,$a,* ]] || fail "features lists $a but not atomic_write_unit_max"
	done
	rd_configure old size=16M
	for a in $attrs; do
		run_cmd 1 bash -c "echo 4096 >$RD_CONFIGFS/old/$a"
		grep -q "Operation not supported" <<<"$err" || fail "$a on $RD_KVER: $err"
		kernel_log | grep -q "old: $a is not supported: this kernel's block layer takes no atomic writes" ||
			fail "no log line for $a"
		assert_eq "$(cat "$RD_CONFIGFS/old/$a")" 0 "$a after the refusal"
	done
	run_cmd 1 "$RD_BIN/ramdiskctl" create --size 16M --atomic-write-unit-max 64K
	grep -q "no atomic_write_unit_max attribute" <<<"$err" || fail "ramdiskctl create: $err"
	echo "$RD_KVER: no atomic writes; the attributes are refused"
	echo ok
	exit 0
fi
for a in $attrs; do
	[[ ,$features, == *,$a,* ]] || fail "features lacks $a: $features"
done

# --- the limits reach the queue and statx
rd_configure aw size=64M atomic_write_unit_max=65536 atomic_write_unit_min=4096 \
	atomic_write_boundary=65536 power=1
assert_eq "$(queue atomic_write_unit_min_bytes) $(queue atomic_write_unit_max_bytes)" \
	"4096 65536" "queue atomic write units"
assert_eq "$(queue atomic_write_max_bytes) $(queue atomic_write_boundary_bytes)" \
	"65536 65536" "queue atomic write max and boundary"
read -r has umin umax _ < <(aw statx "$RD_DEV") || fail "statx of $RD_DEV"
assert_eq "$has $umin $umax" "1 4096 65536" "statx STATX_WRITE_ATOMIC of $RD_DEV"

# RWF_ATOMIC within the limits succeeds; too big, too small or misaligned fails
run_cmd 0 aw pwrite "$RD_DEV" 0 16384 0x5a atomic
run_cmd 0 aw pwrite "$RD_DEV" 131072 65536 0x5a atomic
run_cmd 0 aw pwrite "$RD_DEV" 200704 4096 0x5a atomic
run_cmd 1 aw pwrite "$RD_DEV" 0 131072 0x5a atomic
grep -q "Invalid argument" <<<"$err" || fail "a 128 KiB atomic write: $err"
run_cmd 1 aw pwrite "$RD_DEV" 0 2048 0x5a atomic
grep -q "Invalid argument" <<<"$err" || fail "a 2 KiB atomic write: $err"
run_cmd 1 aw pwrite "$RD_DEV" 4096 16384 0x5a atomic
grep -q "Invalid argument" <<<"$err" || fail "a misaligned atomic write: $err"
run_cmd 0 aw pwrite "$RD_DEV" 4096 16384 0x5a
if xfs_io -c 'help pwrite' 2>/dev/null | grep -q -- ' -A '; then
	run_cmd 0 xfs_io -d -c 'pwrite -A -D -V1 0 16k' "$RD_DEV"
	run_cmd 1 xfs_io -d -c 'pwrite -A -D -V1 0 128k' "$RD_DEV"
	run_cmd 1 xfs_io -d -c 'pwrite -A -D -V1 4k 16k' "$RD_DEV"
else
	echo "xfs_io $(xfs_io -V | awk '{print $3}') has no pwrite -A: RWF_ATOMIC by pwritev2 alone"
fi

# the limits are fixed while powered
run_cmd 1 bash -c "echo 8192 >$RD_CONFIGFS/aw/atomic_write_unit_max"
grep -q "Device or resource busy" <<<"$err" || fail "atomic_write_unit_max while powered: $err"
rd_unconfigure aw

# ramdiskctl create: each option reaches its attribute and the queue
RD_DEV=$("$RD_BIN/ramdiskctl" create --name awctl --size 64M --atomic-write-unit-max 32K \
	--atomic-write-unit-min 8K --atomic-write-boundary 128K) || fail "ramdiskctl create with atomic write options"
on_exit "$RD_BIN/ramdiskctl remove awctl"
assert_eq "$(queue atomic_write_unit_min_bytes) $(queue atomic_write_unit_max_bytes) $(queue atomic_write_boundary_bytes)" \
	"8192 32768 131072" "the queue of a device made by ramdiskctl create"

# --- invalid limits: EINVAL, one log line naming item, attribute and value, nothing changed
rd_configure bad size=16M atomic_write_unit_max=16384 atomic_write_unit_min=4096
# refuse ATTR VALUE PATTERN: the write fails, the log says PATTERN, ATTR keeps its value
refuse() {
	local before lines
	before=$(cat "$RD_CONFIGFS/bad/$1")
	lines=$(dmesg | wc -l)
	run_cmd 1 bash -c "echo $2 >$RD_CONFIGFS/bad/$1"
	grep -q "Invalid argument" <<<"$err" || fail "$1=$2: $err"
	dmesg | tail -n +$((lines + 1)) | grep -q "bad: $3" || fail "$1=$2: no log line 'bad: $3'"
	assert_eq "$(cat "$RD_CONFIGFS/bad/$1")" "$before" "$1 after refusing $2"
}
refuse atomic_write_unit_max 12288 "atomic_write_unit_max 12288 is not a power of two at least block_size 512"
refuse atomic_write_unit_max 256 "atomic_write_unit_max 256 is not a power of two"
refuse atomic_write_unit_max 524288 "atomic_write_unit_max 524288 is above 262144"
refuse atomic_write_unit_max 2048 "atomic_write_unit_min 4096 is above atomic_write_unit_max 2048"
refuse atomic_write_unit_min 32768 "atomic_write_unit_min 32768 is above atomic_write_unit_max 16384"
refuse atomic_write_unit_min 1000 "atomic_write_unit_min 1000 is not a power of two"
refuse atomic_write_boundary 8192 "atomic_write_boundary 8192 is below atomic_write_unit_max 16384"
rd_set bad atomic_write_unit_min=2048 || fail "atomic_write_unit_min=2048"
refuse block_size 4096 "atomic_write_unit_min 2048 is not a power of two at least block_size 4096"
rd_set bad atomic_write_unit_min=0 atomic_write_unit_max=0 || fail "turning atomic writes off"
refuse atomic_write_boundary 65536 "atomic_write_boundary 65536 needs atomic_write_unit_max set first"
rd_unconfigure bad

# --- power cuts: each round writes 8 atomic and 8 plain 64 KiB writes into
# a zeroed writeback device with power_cut_unit=sector, cuts the power
# (losing about half the not-durable blocks) and sorts each write's range
# into all new, all old or torn (aw cuts).
rd_configure cut size=64M cache_mode=writeback power_cut_unit=sector power_cut_drop_percent=50 \
	power_cut_seed=7 atomic_write_unit_max=65536 power=1
read -r atomic_kept atomic_lost atomic_torn plain_kept plain_lost plain_torn < <(
	aw cuts "$RD_DEV" "$RD_CONFIGFS/cut/power_cut" 40) || fail "the power-cut rounds"
echo "after 40 cuts: atomic writes kept $atomic_kept, lost $atomic_lost, torn $atomic_torn;" \
	"plain writes kept $plain_kept, lost $plain_lost, torn $plain_torn"
assert_eq "$atomic_torn" 0 "atomic writes torn by a power cut"
((plain_torn > 160)) || fail "only $plain_torn of 320 plain writes torn: the cuts did not tear by block"
# durable before it completed, every atomic write survives the cut after it
assert_eq "$atomic_kept" 320 "atomic writes that survived a cut"
rd_unconfigure cut

# --- bad blocks: an atomic write over a bad sector moves nothing; a plain
# one moves the blocks before it (sectors 1152..1199 of its 1152..1279)
rd_configure bb size=16M atomic_write_unit_max=65536 power=1
printf '+1100-1100 rw=write\n+1200-1200 rw=write\n' >"$RD_CONFIGFS/bb/badblocks"
run_cmd 1 aw pwrite "$RD_DEV" 524288 65536 0x77 atomic
run_cmd 1 aw pwrite "$RD_DEV" 589824 65536 0x77
echo clear >"$RD_CONFIGFS/bb/badblocks"
dd if="$RD_DEV" of="$RD_TMP/bb" bs=64K skip=8 count=2 iflag=direct status=none || fail "reading back"
read -r atomic_new plain_new < <(python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
print(d[:65536].count(0x77), d[65536:].count(0x77))' "$RD_TMP/bb")
assert_eq "$atomic_new" 0 "bytes the failed atomic write left"
assert_eq "$plain_new" $((48 * 512)) "bytes the failed plain write left"
assert_eq "$(sysfs_stat "$RD_DEV" badblock_write_errors)" 2 "badblock_write_errors"
rd_unconfigure bb

# --- no room: an atomic write that needs more new pages than mem_limit
# leaves fails whole, with ENOSPC, and the old data reads back byte for
# byte. 20 pages of 0x5a at 0, durable; mem_limit 24 pages; the 64 KiB
# write at 64 KiB (pages 16..31) has 4 pages in place and needs 12 new,
# room for 4. In writeback mode the atomic write goes to the durable store
# at once; through the cache, its first pages were made durable before
# the store ran out of room, and the rest was read back from the cache.
python3 -c 'import sys; sys.stdout.buffer.write(b"\x5a" * 81920 + bytes(49152))' >"$RD_TMP/room-old"
for mode in writethrough writeback; do
	rd_configure room size=16M cache_mode=$mode mem_limit=98304 atomic_write_unit_max=65536 power=1
	dd if="$RD_TMP/room-old" of="$RD_DEV" bs=4K count=20 oflag=direct conv=fsync status=none ||
		fail "$mode: writing the old data"
	run_cmd 1 aw pwrite "$RD_DEV" 65536 65536 0x77 atomic
	grep -q "No space left on device" <<<"$err" ||
		fail "$mode: an atomic write beyond mem_limit: $err, want ENOSPC"
	dd if="$RD_DEV" of="$RD_TMP/room-got" bs=128K count=1 iflag=direct status=none ||
		fail "$mode: reading back"
	cmp "$RD_TMP/room-got" "$RD_TMP/room-old" ||
		fail "$mode: the failed atomic write changed the data: $(tr -d '\000\132' <"$RD_TMP/room-got" | wc -c) bytes of it are there"
	# with room, the same write goes in whole
	rd_set room mem_limit=0 || fail "$mode: lifting mem_limit"
	run_cmd 0 aw pwrite "$RD_DEV" 65536 65536 0x77 atomic
	dd if="$RD_DEV" of="$RD_TMP/room-got" bs=64K skip=1 count=1 iflag=direct status=none
	assert_eq "$(tr -d '\167' <"$RD_TMP/room-got" | wc -c)" 0 "$mode: bytes not written by the atomic write with room"
	rd_unconfigure room
	echo "$mode: an atomic write beyond mem_limit failed whole"
done
echo ok
