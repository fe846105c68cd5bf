#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DESCRIPTION: ramdiskctl help, argument parsing and bad sizes, with exit status 2 and a one-line reason
. "${0%/*}/../lib/common.sh"

ctl=$RD_BIN/ramdiskctl
[ -x "$ctl" ] || fail "$ctl is missing (make userspace-asan)"
# None of these may get as far as looking for the module.
export RAMDISK_CONFIGFS=$RD_TMP/no-configfs RAMDISKCTL_SYSFS=$RD_TMP/no-sys

# A failure is one line on stderr, naming the program, and nothing on stdout.
one_line_error() {
	assert_eq "$(printf '%s\n' "$err" | wc -l)" 1 "stderr lines of ramdiskctl $*"
	case $err in
	ramdiskctl:*) ;;
	*) fail "error does not start with 'ramdiskctl:': $err" ;;
	esac
	assert_eq "$out" "" "stdout of failing ramdiskctl $*"
}

expect_usage_error() {
	local pattern=$1
	shift
	run_cmd 2 "$ctl" "$@"
	one_line_error "$@"
	grep -q -- "$pattern" <<<"$err" || fail "ramdiskctl $*: error lacks '$pattern': $err"
}

# Help goes to stdout with status 0 and documents every exit status.
for help in --help -h help; do
	run_cmd 0 "$ctl" "$help"
	for word in create remove list info "0  success" "2  bad usage" \
		"3  the ramdisk module is not loaded" "4  a configuration" \
		"5  the device is busy" "6  permission denied" "7  no such device"; do
		grep -q -- "$word" <<<"$out" || fail "ramdiskctl $help lacks '$word'"
	done
done
for cmd in create remove list info export unexport; do
	run_cmd 0 "$ctl" "$cmd" --help
	grep -q "^Usage: ramdiskctl $cmd" <<<"$out" || fail "$cmd --help: $out"
	run_cmd 0 "$ctl" help "$cmd"
	grep -q "^Usage: ramdiskctl $cmd" <<<"$out" || fail "help $cmd: $out"
done
run_cmd 0 "$ctl" create -h
grep -q -- --mem-limit <<<"$out" || fail "create --help does not mention --mem-limit"

# A command with several synopses indents each: in the overview every line
# of the command list is indented, in one command's help each synopsis after
# the first starts under the program's name.
run_cmd 0 "$ctl" --help
unindented=$(sed -n '/^Commands:$/,/^$/p' <<<"$out" | sed '1d;$d' | grep -v '^ ' || :)
assert_eq "$unindented" "" "unindented lines in the overview's command list"
run_cmd 0 "$ctl" help create
grep -q '^       ramdiskctl create \[--name NAME\] --nvram PHYS:SIZE' <<<"$out" ||
	fail "help create: the --nvram synopsis is not under the first: $out"
run_cmd 0 "$ctl" help fault
assert_eq "$(grep -c '^       ramdiskctl fault NAME|DEV ' <<<"$out")" 4 "fault's later synopses under the first"

# No command: the overview on stderr, usage status.
run_cmd 2 "$ctl"
grep -q "^Usage:" <<<"$err" || fail "bare ramdiskctl printed no usage"
assert_eq "$out" "" "stdout of bare ramdiskctl"

expect_usage_error "unknown command 'frobnicate'" frobnicate
expect_usage_error "unknown command 'nope'" help nope
expect_usage_error "unknown option --bogus" --bogus
expect_usage_error "unknown option --bogus" create --size 1M --bogus
expect_usage_error "unknown option -x" create -x
expect_usage_error "unknown option --all" list --all
expect_usage_error "unknown option -q" info -q rd0
expect_usage_error "unknown option --force" remove --force rd0
expect_usage_error "needs a value" create --size
expect_usage_error "needs a value" create --size 1M --name
expect_usage_error "--size is required" create
# create's crash-test options: a cache mode, a profile, spare pages
expect_usage_error "bad cache mode 'sometimes': want writethrough or writeback" \
	create --size 1M --cache-mode sometimes
expect_usage_error "--cache-size goes with --cache-mode writeback" create --size 1M --cache-size 1M
expect_usage_error "--cache-size goes with --cache-mode writeback" \
	create --size 1M --cache-mode writethrough --cache-size 1M
expect_usage_error "unknown profile 'fast': want nvram, ssd, hdd, disk-1994 or none" \
	create --size 1M --profile fast
expect_usage_error "--profile hdd says whether the disk spins; leave out --rotational" \
	create --size 1M --profile hdd --rotational
expect_usage_error "bad spare-pages '-1'" create --size 1M --spare-pages -1
expect_usage_error "bad cache size 'lots'" create --size 1M --cache-mode writeback --cache-size lots
expect_usage_error "--size is required" create --name x
expect_usage_error "unexpected argument 'extra'" create --size 1M extra
expect_usage_error "unexpected argument 'extra'" list extra
expect_usage_error "which device" info
expect_usage_error "one device at a time" info rd0 rd1
expect_usage_error "which device" remove
# export's transport, address and NQN are checked before anything is
# looked up or loaded
expect_usage_error "unknown transport 'rdma': want tcp or loop" export --transport rdma rd0
expect_usage_error "bad address '1.2.3': want IP, IP:PORT or " export --addr 1.2.3 rd0
expect_usage_error "bad address '127.0.0.1:0'" export --addr 127.0.0.1:0 rd0
expect_usage_error "bad address '127.0.0.1:65536'" export --addr 127.0.0.1:65536 rd0
expect_usage_error "bad address '::1'" export --addr ::1 rd0
expect_usage_error "bad address '\[::1\]x'" export --addr '[::1]x' rd0
expect_usage_error "--addr goes with --transport tcp" export --transport loop --addr 127.0.0.1 rd0
expect_usage_error "bad NQN 'iqn.2024-01.x:y'" export --nqn iqn.2024-01.x:y rd0
expect_usage_error "bad NQN 'nqn.a/b'" export --nqn nqn.a/b rd0
expect_usage_error "bad NQN" export --nqn "nqn.$(printf 'n%.0s' {1..220})" rd0
expect_usage_error "which device" export
expect_usage_error "one device at a time" export rd0 rd1
expect_usage_error "which device" unexport
expect_usage_error "unknown option --force" unexport --force rd0
# good addresses and NQNs get as far as looking for the module
for args in "--addr 10.0.0.1" "--addr 10.0.0.1:4421" "--addr [::1]:4420" "--addr [fe80::1]" \
	"-t loop -q nqn.2024-01.io.example:disk" "--nqn nqn.2014-08.org.nvmexpress:uuid:x"; do
	# shellcheck disable=SC2086
	run_cmd 3 "$ctl" export $args rd0
done
run_cmd 3 "$ctl" unexport rd0
# --output names columns list knows, in any case; a bad one is refused
# before the module is looked for
expect_usage_error "unknown column 'NOPE' (the columns are in ramdiskctl help list)" \
	list --output NOPE
expect_usage_error "unknown column 'BOGUS'" list -o SIZE,BOGUS,NAME
expect_usage_error "unknown column ''" list --output SIZE,
expect_usage_error "unknown column ''" list --output +
expect_usage_error "unknown column 'NOPE' (the columns are in ramdiskctl help info)" \
	info --output NOPE rd0
expect_usage_error "option --output needs a value" list --output
run_cmd 0 "$ctl" help list
grep -q "^    WRITE_ZEROES_BYTES  *bytes zeroed$" <<<"$out" || fail "list help does not list the columns"

# Bad sizes, each with its reason.
expect_usage_error "bad size '': empty" create --size ''
expect_usage_error "negative" create --size -1G
expect_usage_error "not a number" create --size abc
expect_usage_error "not a number" create --size K
expect_usage_error "unknown suffix" create --size 4X
expect_usage_error "unknown suffix" create --size 1P
expect_usage_error "unknown suffix" create --size '4 K'
expect_usage_error "not a whole number of bytes" create --size 1.1K
expect_usage_error "too large for 64 bits" create --size 16777216T
expect_usage_error "too large for 64 bits" create --size 99999999999999999999
expect_usage_error "must not be zero" create --size 0
expect_usage_error "not a multiple of the block size 512" create --size 1000
expect_usage_error "not a multiple of the block size 4096" create --size 6K --block-size 4K
expect_usage_error "not a multiple of the page size" create --size 2560
expect_usage_error "want a power of two from 512 to 65536" create --size 1M --block-size 3072
expect_usage_error "want a power of two from 512 to 65536" create --size 1M -b 0
expect_usage_error "want a power of two from 512 to 65536" create --size 1M -b 256
expect_usage_error "want a power of two from 512 to 65536" create --size 1M -b 128K
expect_usage_error "not a multiple of the block size 16384" create --size 8K -b 16K
expect_usage_error "bad physical block size 256: want a power of two from the block size, 512, to 65536" \
	create --size 1M --physical-block-size 256
expect_usage_error "bad physical block size 2048: want a power of two from the block size, 4096," \
	create --size 1M -b 4K --physical-block-size 2K
expect_usage_error "bad physical block size 6144" create --size 1M --physical-block-size 6K
expect_usage_error "bad physical block size 131072" create --size 1M --physical-block-size 128K
expect_usage_error "bad physical block size 'x'" create --size 1M --physical-block-size x
expect_usage_error "bad minimum I/O size 6144: want a multiple of the physical block size, 4096" \
	create --size 1M --io-min 6K
expect_usage_error "bad minimum I/O size 8192: want a multiple of the physical block size, 16384" \
	create --size 1M --physical-block-size 16K --io-min 8K
expect_usage_error "bad optimal I/O size 12288: want a multiple of the minimum I/O size, 8192" \
	create --size 1M --io-min 8K --io-opt 12K
expect_usage_error "bad optimal I/O size 6144: want a multiple of the minimum I/O size, 4096" \
	create --size 1M --io-opt 6K
expect_usage_error "bad optimal I/O size" create --size 1M --io-opt 8589934592
expect_usage_error "bad block size" create --size 1M --block-size 4Q
expect_usage_error "bad mem-limit" create --size 1M --mem-limit -5
expect_usage_error "bad mem-limit" create --size 1M --mem-limit 1.5
expect_usage_error "bad max-part '256'" create --size 1M --max-part 256
expect_usage_error "bad max-part '-1'" create --size 1M --max-part -1
expect_usage_error "bad max-part '2x'" create --size 1M --max-part 2x
expect_usage_error "bad max-part ''" create --size 1M --max-part ''
expect_usage_error "bad numa-node '-2'" create --size 1M --numa-node -2
expect_usage_error "bad numa-node 'any'" create --size 1M --numa-node any

# Names that cannot be a configfs directory, or read as a device.
expect_usage_error "bad name 'a/b'" create --size 1M --name a/b
expect_usage_error "bad name '.hidden'" create --size 1M --name .hidden
expect_usage_error "bad name '-x'" create --size 1M --name=-x
expect_usage_error "bad name 'sp ace'" create --size 1M --name 'sp ace'
expect_usage_error "looks like a device name" create --size 1M --name ramdisk3
expect_usage_error "1 to 64 characters" create --size 1M --name ''
expect_usage_error "1 to 64 characters" create --size 1M --name "$(printf 'n%.0s' {1..65})"

# Sizes that must get past parsing (and then fail only for the module).
for size in 4k 4K 4KiB 4kb 1M 1.5G 1T 8192 8192B 0.5M; do
	run_cmd 3 "$ctl" create --size "$size"
done
run_cmd 3 "$ctl" create --size 1M --block-size 4096 --max-part 255 --mem-limit 1.5G \
	--numa-node -1 --name "$(printf 'n%.0s' {1..64})"
run_cmd 3 "$ctl" create -s 64M -b 512 -p 0 -m 0 -N 0 -n rd.test_1-a
run_cmd 3 "$ctl" create -s 64M -b 512 --physical-block-size 4K --io-min 8K --io-opt 64K --rotational
run_cmd 3 "$ctl" create -s 64M -b 16K
echo "all usage errors reported"
