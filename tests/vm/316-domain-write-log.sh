#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: a power domain's write log: "DOMAIN start CK" written to the root's write_log_domain starts every member's log with a checkpoint of them all at one instant, while a writer alternates writes between two members; each write is then in its member's checkpoint or in its log, the checkpoints hold a prefix of the writes and the logs the rest, and the logs' entries merged by their order field come in the order the writer made them; "DOMAIN stop" and "DOMAIN clear" end every member's log, a domain's power cut ends them all, and an unknown domain, bad syntax, a member with a log already and a stop with none recording are refused with the reason, leaving every member as it was
. "${0%/*}/../lib/common.sh"
require_root
require_cmd dd jq python3
load_module nr_devices=0
cfg=$RD_CONFIGFS
ctl=$RD_BIN/ramdiskctl

for n in a b c; do
	rd_configure $n size=16M cache_mode=writeback power=1
done
for n in a b; do
	echo rack >"$cfg/$n/power_domain" || fail "$n joins rack"
done
declare -A dev
for n in a b c; do
	dev[$n]=$(rd_dev $n)
done
states() {
	echo "$(cat "$cfg/a/write_log")|$(cat "$cfg/b/write_log")|$(cat "$cfg/c/write_log")"
}
# refused VALUE ERRNO_TEXT WHY: the write of VALUE to write_log_domain
# fails so, the kernel log says WHY, and no log or checkpoint changed
refused() {
	local before
	before="$(states) $(cat "$cfg/a/checkpoints" "$cfg/b/checkpoints" | tr '\n' ' ')"
	dmesg -C
	if echo "$1" 2>"$RD_TMP/err" >"$cfg/write_log_domain"; then
		fail "write_log_domain '$1' was accepted"
	fi
	grep -q "$2" "$RD_TMP/err" || fail "write_log_domain '$1': $(cat "$RD_TMP/err"), want $2"
	kernel_log | grep -qF "$3" || fail "write_log_domain '$1': no '$3' in the kernel log: $(kernel_log | tail -n 2)"
	assert_eq "$(states) $(cat "$cfg/a/checkpoints" "$cfg/b/checkpoints" | tr '\n' ' ')" "$before" \
		"logs and checkpoints after the refused '$1'"
}

echo "refusals"
refused "nosuch start base" "Invalid argument" "no configuration is in power domain 'nosuch'"
refused "rack go" "Invalid argument" "takes 'DOMAIN start CHECKPOINT'"
refused "rack start" "Invalid argument" "takes 'DOMAIN start CHECKPOINT'"
refused "rack start b/d" "Invalid argument" "a checkpoint name has letters"
refused "rack stop" "Invalid argument" "no member's write log is recording"
echo start >"$cfg/b/write_log" || fail "b's own log"
refused "rack start base" "Device or resource busy" "is recording; clear it first"
echo clear >"$cfg/b/write_log"

echo "started at one instant under a writer that alternates between the members"
# write I goes to member I % 2, at its 4 KiB block I / 2, and holds I
# (it stops between two writes, so that none lands after the logs stop)
(
	for ((i = 0; i < 4000; i++)); do
		[ ! -e "$RD_TMP/stop" ] || exit 0
		n=a
		((i % 2)) && n=b
		printf '%08d' "$i" | dd of="${dev[$n]}" bs=4096 seek=$((i / 2)) conv=sync oflag=direct \
			status=none || exit 1
	done
) &
writer=$!
sleep 2
echo "rack start base" >"$cfg/write_log_domain" || fail "write_log_domain rack start base"
sleep 2
touch "$RD_TMP/stop"
wait $writer || fail "the writer failed"
assert_eq "$(states)" "recording|recording|off" "the logs after rack start"
echo "rack stop" >"$cfg/write_log_domain" || fail "write_log_domain rack stop"
assert_eq "$(states)" "stopped|stopped|off" "the logs after rack stop"
for n in a b; do
	"$ctl" wlog $n show --json >"$RD_TMP/$n.json" || fail "reading $n's log"
done
rd_configure ca "clone_of=${dev[a]#/dev/} base" power=1
rd_configure cb "clone_of=${dev[b]#/dev/} base" power=1
# every write made is in its member's checkpoint or in its log, not both;
# the checkpoints hold writes 0 to K-1, the logs K to the last; the logs'
# writes sorted by order are K, K+1, ... and each log's order rises
python3 - "$(rd_dev ca)" "$(rd_dev cb)" "${dev[a]}" "${dev[b]}" "$RD_TMP/a.json" "$RD_TMP/b.json" <<'PY' ||
import json, sys
base = [open(p, "rb").read(2000 * 4096) for p in sys.argv[1:3]]
live = [open(p, "rb").read(2000 * 4096) for p in sys.argv[3:5]]
logs = [json.load(open(p))["write_log"] for p in sys.argv[5:7]]
def held(img, i):
    blk = img[i % 2][(i // 2) * 4096:(i // 2 + 1) * 4096]
    if blk == b"%08d" % i + bytes(4088):
        return True
    if blk == bytes(4096) or blk[:8].isdigit():
        return False
    sys.exit("write %d's block holds something else" % i)
made = [i for i in range(4000) if held(live, i)]
in_base = [i for i in made if held(base, i)]
k = len(in_base)
if in_base != list(range(k)):
    sys.exit("the checkpoints hold %s..., not a prefix" % in_base[:k + 3])
logged = []
for m, log in enumerate(logs):
    orders = [e["order"] for e in log]
    if any((b - a) % 2**32 >= 2**31 or a == b for a, b in zip(orders, orders[1:])):
        sys.exit("member %d's log: order does not rise with seq" % m)
    for e in log:
        if e["type"] == "write":
            logged.append((e["order"], 2 * (e["sector"] // 8) + m))
logged.sort()
want = list(range(k, len(made)))
got = [i for _, i in logged]
if got != want:
    sys.exit("the logs merged by order: %s..., want %s..." % (got[:8], want[:8]))
print("made %d writes: %d in the checkpoints, %d in the logs, in the writer's order"
      % (len(made), k, len(got)))
if not k or len(got) < 2:
    sys.exit("the start did not fall inside the writer's run")
PY
	fail "the domain's checkpoints and logs"
rd_unconfigure ca
rd_unconfigure cb

echo "clear, and a domain's power cut ends every member's log"
echo "rack clear" >"$cfg/write_log_domain" || fail "write_log_domain rack clear"
assert_eq "$(states)" "off|off|off" "the logs after rack clear"
echo "rack -base" >"$cfg/checkpoint_domain" || fail "dropping base"
echo "rack start again" >"$cfg/write_log_domain" || fail "write_log_domain rack start again"
dd if=/dev/urandom of="${dev[a]}" bs=4096 count=1 oflag=direct status=none
dd if=/dev/urandom of="${dev[b]}" bs=4096 count=1 oflag=direct status=none
echo rack >"$cfg/power_cut_domain" || fail "the domain's cut"
assert_eq "$(states)" "cut|cut|off" "the logs after the domain's cut"
echo "rack clear" >"$cfg/write_log_domain"
echo "rack -again" >"$cfg/checkpoint_domain"
echo ok
