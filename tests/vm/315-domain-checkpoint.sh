#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a power domain's checkpoint: "DOMAIN +NAME" written to the root's checkpoint_domain takes checkpoint NAME of every member at one instant, so that clones of the members, taken while a writer alternates writes between them, hold a prefix of its writes; a device outside the domain takes none; "DOMAIN -NAME" drops it from all, and not while a clone starts from it; an unknown domain, a member powered off, a name one member has already and bad syntax are refused with the reason, and leave every member as it was
. "${0%/*}/../lib/common.sh"
require_root
require_cmd cmp dd
# the test build: it spins 300 ms between one member's checkpoint and the
# next's, so that a checkpoint that let the members' I/O run between them
# would hold a write of b after one of a that it lacks
load_test_module nr_devices=0
cfg=$RD_CONFIGFS
domain_member_taken=4 # enum rd_test_point in module/test_hooks.h

rd_configure a size=16M cache_mode=writeback power=1
rd_configure b size=16M power=1
rd_configure c size=16M power=1
for n in a b; do
	echo rack >"$cfg/$n/power_domain" || fail "$n joins rack"
done
declare -A dev
for n in a b c; do
	dev[$n]=$(rd_dev $n)
done

# ck_names NAME: the checkpoints NAME's device has, on one line
ck_names() {
	awk '{ printf "%s%s", sep, $1; sep = " " }' "$cfg/$1/checkpoints"
}
# refused VALUE ERRNO_TEXT WHY: a write of VALUE to checkpoint_domain is
# refused with that error, the kernel log says WHY, and no member changed
refused() {
	local before after
	before="$(ck_names a)|$(ck_names b)|$(ck_names c)"
	dmesg -C
	if echo "$1" 2>"$RD_TMP/err" >"$cfg/checkpoint_domain"; then
		fail "checkpoint_domain '$1' was accepted"
	fi
	grep -q "$2" "$RD_TMP/err" || fail "checkpoint_domain '$1': $(cat "$RD_TMP/err"), want $2"
	kernel_log | grep -qF "$3" || fail "checkpoint_domain '$1': no '$3' in the kernel log: $(kernel_log | tail -n 2)"
	after="$(ck_names a)|$(ck_names b)|$(ck_names c)"
	assert_eq "$after" "$before" "checkpoints after the refused '$1'"
}

echo "refusals"
refused "nosuch +x" "Invalid argument" "no configuration is in power domain 'nosuch'"
refused "rack x" "Invalid argument" "takes 'DOMAIN +NAME'"
refused "rack" "Invalid argument" "takes 'DOMAIN +NAME'"
refused "rack +" "Invalid argument" "a checkpoint name has 1 to"
refused "ra/ck +x" "Invalid argument" "power domain name 'ra/ck' has a character other than"
echo "+dup" >"$cfg/b/checkpoints" || fail "b's own checkpoint dup"
refused "rack +dup" "File exists" "checkpoint dup exists already"
refused "rack -dup" "No such file" "has no checkpoint dup"
echo "-dup" >"$cfg/b/checkpoints" || fail "dropping b's dup"
rd_configure d size=16M
echo rack >"$cfg/d/power_domain" || fail "d joins rack, powered off"
refused "rack +x" "No such device" "d of power domain 'rack' is not powered"
echo >"$cfg/d/power_domain"
rd_unconfigure d

echo "one instant across the members, under a writer that alternates between them"
# write I goes to member I % 2, at its 4 KiB block I / 2, and holds I
(
	for ((i = 0; i < 4000; i++)); do
		n=a
		((i % 2)) && n=b
		printf '%08d' "$i" | head -c 4096 | dd of="${dev[$n]}" bs=4096 seek=$((i / 2)) \
			conv=sync oflag=direct status=none || exit 1
	done
) &
writer=$!
sleep 3
echo 300000 >"$RD_TEST_PARAMS/test_delay_us"
echo $domain_member_taken >"$RD_TEST_PARAMS/test_delay_point"
echo "rack +mid" >"$cfg/checkpoint_domain" || fail "checkpoint_domain rack +mid"
echo 0 >"$RD_TEST_PARAMS/test_delay_point"
sleep 1
kill $writer 2>/dev/null || :
wait $writer 2>/dev/null || :
assert_eq "$(ck_names a)|$(ck_names b)|$(ck_names c)" "mid|mid|" "checkpoints after rack +mid"
rd_configure ca "clone_of=${dev[a]#/dev/} mid" power=1
rd_configure cb "clone_of=${dev[b]#/dev/} mid" power=1
# the writes each clone holds: block J of member M is write 2J + M, or
# zeros; the first missing write on either member ends the prefix
python3 - "$(rd_dev ca)" "$(rd_dev cb)" >"$RD_TMP/prefix" <<'PY'
import sys
imgs = [open(p, "rb").read(2000 * 4096) for p in sys.argv[1:3]]
held = []
for i in range(4000):
    blk = imgs[i % 2][(i // 2) * 4096:(i // 2 + 1) * 4096]
    if blk == b"%08d" % i + bytes(4088):
        held.append(i)
    elif blk != bytes(4096):
        sys.exit("write %d's block holds something else" % i)
n = len(held)
print(n, "prefix" if held == list(range(n)) else "gap at %d" % next(i for i in range(n) if held[i] != i))
PY
read -r kept shape <"$RD_TMP/prefix"
echo "the clones hold $kept writes: $shape"
assert_eq "$shape" prefix "the writes the domain's checkpoint holds"
[ "$kept" -gt 0 ] || fail "the checkpoint came before the first write"
live=$(python3 -c '
import sys
a = open(sys.argv[1], "rb").read(4096 * 2000)
print(sum(1 for j in range(2000) if a[j * 4096:j * 4096 + 8] != bytes(8)))' "${dev[a]}")
[ $((live * 2)) -gt "$kept" ] || fail "no write came after the checkpoint: $live on a, $kept kept"

echo "drop: refused while a clone starts from it, then from every member"
refused "rack -mid" "Device or resource busy" "is the start of 1 clone(s)"
rd_unconfigure ca
rd_unconfigure cb
echo "rack -mid" >"$cfg/checkpoint_domain" || fail "checkpoint_domain rack -mid"
assert_eq "$(ck_names a)|$(ck_names b)|$(ck_names c)" "||" "checkpoints after rack -mid"
echo ok
