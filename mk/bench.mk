# SPDX-License-Identifier: GPL-2.0
#
# Every target here calls scripts/bench/run KIND: one table of the kinds
# (guest script, default kernels and repeats, options, guest size, where
# the results go, the report) and one loop over the kernels.
# `scripts/bench/run KIND --help` lists a kind's options.
#
# make bench        the whole comparison (fio on raw targets, file systems,
#                   rdbench) in one VM boot; QUICK=1 for a short run
# make bench HOST=1 DISK=/dev/sdX
#                   the same on this machine's running kernel (needs root;
#                   DISK is overwritten, DESTROY_DATA=1 if it holds data)
# make bench-brd    ramdisk against brd: fio 4k QD1/QD16, 1 MiB sequential,
#                   first-touch writes; one VM boot
# Results: results/DATE-KIND-KERNEL/{results.json,report.md,plots/}.

.PHONY: bench bench-brd

BENCH_FLAGS = $(if $(filter 1,$(QUICK)),--quick) \
	$(if $(filter 1,$(HOST)),--host $(if $(DISK),--disk $(DISK)),$(if $(KVER),--kernels '$(KVER)')) \
	$(if $(REPS),--reps $(REPS))

# The module for the kernel the bench boots (or runs, with HOST=1).
bench-build: userspace
	@kver=$$($(if $(filter 1,$(HOST)),uname -r,$(TOP)/scripts/kernel resolve '$(KVER)')) && \
	$(MAKE) -s -C $(TOP) module KVER=$$kver

bench: bench-build
	@DESTROY_DATA='$(DESTROY_DATA)' $(TOP)/scripts/bench/run bench $(BENCH_FLAGS)

bench-brd: bench-build
	@DESTROY_DATA='$(DESTROY_DATA)' $(TOP)/scripts/bench/run bench --brd-only $(BENCH_FLAGS)

# make bench-perf [KVERS="6.1 6.12 7"] [REPS=5]
#                   ramdisk against brd, null_blk (memory_backed=0) and the
#                   guest's memcpy, the ratios of Documentation/performance.md
.PHONY: bench-perf
bench-perf: userspace
	@$(TOP)/scripts/bench/run perf --kernels '$(KVERS)' $(if $(REPS),--reps $(REPS))

# make bench-pair [KVERS="6.1 6.12 7"] [REPS=3]
#                   ramdisk against brd and null_blk by rdbench pair: bursts
#                   in alternation, the median ratio and its 95% interval
.PHONY: bench-pair
bench-pair: userspace
	@$(TOP)/scripts/bench/run pair --kernels '$(KVERS)' $(if $(REPS),--reps $(REPS))

# make bench-zoned [KVERS="6.12 7"] [REPS=5]
#                   a zoned ramdisk against zoned null_blk (memory_backed=1):
#                   4 KiB sequential writes under fio's zonemode=zbd and
#                   4 KiB zone appends sent from the kernel, the medians
#                   and their ratios
.PHONY: bench-zoned
bench-zoned: userspace
	@$(TOP)/scripts/bench/run zoned --kernels '$(or $(filter-out 6.1,$(KVERS)),6.12 7)' $(if $(REPS),--reps $(REPS))

# make bench-nvmeof [KVERS="6.1 6.12 7"] [REPS=3] [RUNTIME=3]
#                   one ramdisk measured directly and through NVMe/TCP on
#                   the guest's loopback (ramdiskctl export, nvme connect),
#                   the same fio jobs in one boot: medians and the ratio
.PHONY: bench-nvmeof
bench-nvmeof:
	@RD_BUILD='$(BUILD)' $(TOP)/scripts/bench/run nvmeof --kernels '$(KVERS)' \
		$(if $(REPS),--reps $(REPS)) $(if $(RUNTIME),--runtime $(RUNTIME))

# make bench-crash REPLAY_LOG=PATH [KVER=7] [CRASH_ARGS="--populate 256 ..."]
#                   crash states checked per minute, rdcrash against fstests'
#                   way (dm-log-writes, then replay-log from the start to each
#                   FUA write, mount, e2fsck), one workload in one boot.
#                   REPLAY_LOG: fstests' src/log-writes/replay-log, built
#                   from an xfstests checkout (not part of this tree). Up to
#                   two hours: replay-log's side grows with the workload
#                   (the runner's default 900 s stopped a 1 GiB run)
.PHONY: bench-crash
bench-crash: userspace
	@[ -x '$(REPLAY_LOG)' ] || { echo 'bench-crash: REPLAY_LOG=PATH of an executable replay-log (xfstests: make -C src/log-writes)' >&2; exit 2; }
	@$(TOP)/scripts/bench/run crash --kernels '$(or $(KVER),7)' \
		--replay-log '$(abspath $(REPLAY_LOG))' $(CRASH_ARGS)

# make bench-crash-jobs [KVER=7] [CRASH_ARGS="--jobs 2 --rounds 3 ..."]
#                   crash states checked per minute by rdcrash with one
#                   worker and with several (-j), on one log, in one boot
.PHONY: bench-crash-jobs
bench-crash-jobs: userspace
	@$(TOP)/scripts/bench/run crash-jobs --kernels '$(or $(KVER),7)' $(CRASH_ARGS)
