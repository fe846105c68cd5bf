#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: atomic writes through xfs: a file's RWF_ATOMIC 4 KiB overwrites are never torn by seeded sector power cuts, while the plain overwrites beside them are; skipped where xfs gives files no atomic writes
. "${0%/*}/../lib/common.sh"
require_root
require_cmd mkfs.xfs python3
load_module nr_devices=0
[[ ,$(cat "$RD_CONFIGFS/features"), == *,atomic_write_unit_max,* ]] ||
	skip "$RD_KVER's block layer takes no atomic writes from a bio-based driver"
mnt=$RD_TMP/mnt
mkdir -p "$mnt"
on_exit "umount $mnt 2>/dev/null || true"

# af statx FILE: "UNIT_MIN UNIT_MAX" of statx(STATX_WRITE_ATOMIC), 0 0 when
# the file system gives none; af write FILE BYTE: 128 O_DIRECT 4 KiB
# overwrites of the file's first 512 KiB with BYTE, the even ones
# RWF_ATOMIC; af sort FILE BYTE: counts of the even (atomic) and the odd
# (plain) blocks that are all BYTE, all the byte before it, or torn
cat >"$RD_TMP/af.py" <<'PY'
import ctypes, mmap, os, struct, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.pwritev2.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_long, ctypes.c_int]
STATX_WRITE_ATOMIC, RWF_ATOMIC, AT_FDCWD, BS = 0x10000, 0x40, -100, 4096


class Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


cmd, path = sys.argv[1], sys.argv[2]
if cmd == "statx":
    buf = ctypes.create_string_buffer(256)
    if libc.statx(AT_FDCWD, path.encode(), 0, STATX_WRITE_ATOMIC, buf):
        sys.exit("statx: " + os.strerror(ctypes.get_errno()))
    mask = struct.unpack_from("I", buf, 0)[0]
    print(*(struct.unpack_from("II", buf, 168) if mask & STATX_WRITE_ATOMIC else (0, 0)))
elif cmd == "write":
    byte = int(sys.argv[3])
    fd = os.open(path, os.O_RDWR | os.O_DIRECT)
    mem = mmap.mmap(-1, BS)
    mem.write(bytes([byte]) * BS)
    base = ctypes.c_char.from_buffer(mem)
    iov = Iovec(ctypes.addressof(base), BS)
    for i in range(128):
        if libc.pwritev2(fd, ctypes.byref(iov), 1, i * BS, RWF_ATOMIC if i % 2 == 0 else 0) != BS:
            sys.exit(f"write {i}: " + os.strerror(ctypes.get_errno()))
else:
    byte = int(sys.argv[3])
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, 128 * BS)
    os.preadv(fd, [buf], 0)
    new, old = bytes([byte]) * BS, bytes([byte - 1]) * BS
    count = [[0, 0, 0], [0, 0, 0]]
    for i in range(128):
        b = buf[i * BS:(i + 1) * BS]
        count[i % 2][0 if b == new else 1 if b == old else 2] += 1
    print(*count[0], *count[1])
PY
af() { python3 "$RD_TMP/af.py" "$@"; }

rd_configure axfs size=512M cache_mode=writeback power_cut_unit=sector power_cut_drop_percent=50 \
	atomic_write_unit_max=65536 atomic_write_unit_min=4096 power=1
dev=$RD_DEV
mkfs.xfs -q -f -b size=4096 "$dev"
mount "$dev" "$mnt"
head -c 524288 /dev/zero | tr '\0' '\001' >"$mnt/f"
sync -f "$mnt"
read -r umin umax < <(af statx "$mnt/f") || fail "statx of a file on xfs"
echo "xfs gives the file atomic writes of $umin to $umax bytes"
((umin > 0 && umin <= 4096 && umax >= 4096)) ||
	skip "xfs on $RD_KVER gives files no 4 KiB atomic writes (statx: $umin $umax)"

# Each round overwrites the file with the next byte value, cuts the power
# (losing about half of the not-durable sectors), and sorts the blocks
# after xfs mounts again.
totals=(0 0 0 0 0 0)
for round in $(seq 2 11); do
	rd_set axfs power_cut_seed="$round" || fail "power_cut_seed"
	af write "$mnt/f" "$round" || fail "round $round: the overwrites"
	echo 1 >"$RD_CONFIGFS/axfs/power_cut"
	umount "$mnt"
	mount "$dev" "$mnt" || fail "round $round: xfs did not mount after the cut"
	read -r -a c < <(af sort "$mnt/f" "$round") || fail "round $round: reading back"
	echo "round $round: atomic new/old/torn ${c[0]}/${c[1]}/${c[2]}, plain ${c[3]}/${c[4]}/${c[5]}"
	for i in 0 1 2 3 4 5; do
		totals[i]=$((totals[i] + c[i]))
	done
	# whatever survived, the next round's "old" is this round's byte
	af write "$mnt/f" "$round" || fail "round $round: rewriting"
	sync -f "$mnt"
done
echo "10 rounds: atomic new/old/torn ${totals[0]}/${totals[1]}/${totals[2]}," \
	"plain ${totals[3]}/${totals[4]}/${totals[5]}"
assert_eq "${totals[2]}" 0 "atomic 4 KiB writes torn by a power cut"
assert_eq "$((totals[0] + totals[1]))" 640 "atomic blocks all new or all old"
((totals[5] > 320)) || fail "only ${totals[5]} of 640 plain writes torn: the cuts did not tear"
echo ok
