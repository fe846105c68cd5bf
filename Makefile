# SPDX-License-Identifier: GPL-2.0
#
# ramdisk: RAM-backed block devices. `make help` lists the targets.
#
# Kbuild reads ./Kbuild, never this file: the module is built out of tree in
# build/kernels/KVER/ by scripts/build-module.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build
BIN := $(BUILD)/bin
ASAN_BIN := $(BUILD)/asan/bin

# The kernel to build for: KVER (a version or a prefix such as 6.12), or
# KDIR's version, or the running kernel, or the newest headers installed.
KVER ?=
KDIR ?=
# The kernels `make check` tests.
KVERS ?= 6.1 6.12 7

CC ?= cc
CFLAGS ?= -O2 -g
USER_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -I$(TOP)/userspace/lib \
	-I$(TOP)/include/uapi
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
LDLIBS := -lm
# What a program links beyond libc and libm (its unit tests link it too).
ramdiskctl_LDLIBS := -lz
rdbench_LDLIBS := -luring

PROGRAMS := $(notdir $(patsubst %/,%,$(filter-out $(TOP)/userspace/lib/, \
	$(wildcard $(TOP)/userspace/*/))))
LIB_SRCS := $(wildcard $(TOP)/userspace/lib/*.c)
LIB_HDRS := $(wildcard $(TOP)/userspace/lib/*.h) $(wildcard $(TOP)/include/uapi/*.h)

.DEFAULT_GOAL := all
.PHONY: all module userspace userspace-asan check check-static check-host \
	check-vm check-crash deps demo shell format clean help

all: module userspace

# --- kernel module ---------------------------------------------------------

resolve_kver = $(shell $(TOP)/scripts/kernel resolve $(1))
ifneq ($(KDIR),)
  KVER_FULL = $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)
else
  KVER_FULL = $(call resolve_kver,$(KVER))
endif

# SIGN=1 signs the result as `make sign` does (mk/sign.mk).
module:
	@kver='$(KVER_FULL)'; [ -n "$$kver" ] || exit 1; \
	$(TOP)/scripts/build-module $$kver && \
	echo "built $(BUILD)/kernels/$$kver/ramdisk.ko" \
	$(if $(filter 1,$(SIGN)),&& $(TOP)/scripts/sign-module $$kver)

# --- userspace -------------------------------------------------------------

userspace: $(addprefix $(BIN)/,$(PROGRAMS))
userspace-asan: $(addprefix $(ASAN_BIN)/,$(PROGRAMS))

# One static library of userspace/lib for each flavour.
$(BUILD)/obj/%.o: $(TOP)/userspace/%.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(USER_CFLAGS) -MMD -c -o $@ $<
$(BUILD)/asan/obj/%.o: $(TOP)/userspace/%.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_CFLAGS) $(USER_CFLAGS) -MMD -c -o $@ $<

LIB_OBJS := $(patsubst $(TOP)/userspace/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
ASAN_LIB_OBJS := $(patsubst $(TOP)/userspace/%.c,$(BUILD)/asan/obj/%.o,$(LIB_SRCS))

$(BUILD)/obj/librd.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^
$(BUILD)/asan/obj/librd.a: $(ASAN_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# ramdiskctl prints its tables and JSON with libsmartcols (libsmartcols-dev).
SMARTCOLS_CFLAGS := $(shell pkg-config --cflags smartcols 2>/dev/null || \
	echo -I/usr/include/libsmartcols)
SMARTCOLS_LIBS := $(shell pkg-config --libs smartcols 2>/dev/null || echo -lsmartcols)
$(BUILD)/obj/ramdiskctl/%.o $(BUILD)/asan/obj/ramdiskctl/%.o: USER_CFLAGS += $(SMARTCOLS_CFLAGS)
ramdiskctl_LDLIBS += $(SMARTCOLS_LIBS)
$(BUILD)/obj/rdcrash/%.o $(BUILD)/asan/obj/rdcrash/%.o: USER_CFLAGS += $(SMARTCOLS_CFLAGS)
rdcrash_LDLIBS += $(SMARTCOLS_LIBS)

define program_rules
$(1)_SRCS := $$(wildcard $(TOP)/userspace/$(1)/*.c)
$(1)_OBJS := $$(patsubst $(TOP)/userspace/%.c,$(BUILD)/obj/%.o,$$($(1)_SRCS))
$(1)_ASAN_OBJS := $$(patsubst $(TOP)/userspace/%.c,$(BUILD)/asan/obj/%.o,$$($(1)_SRCS))
$(BIN)/$(1): $$($(1)_OBJS) $(BUILD)/obj/librd.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$($(1)_LDLIBS) $$(LDLIBS)
$(ASAN_BIN)/$(1): $$($(1)_ASAN_OBJS) $(BUILD)/asan/obj/librd.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ASAN_CFLAGS) -o $$@ $$^ $$($(1)_LDLIBS) $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call program_rules,$(p))))

# Host unit tests: each tests/host/unit/test_NAME.c with the library, or,
# when NAME.c lives in a program's folder, with that one module, the
# program's headers and the libraries the program links; NAME_DEPS names
# the other modules of that program NAME.c calls.
fault_rule_DEPS := fault_range
crash_plan_DEPS := crash_zoned crash_plan_parts
crash_zoned_DEPS := crash_plan crash_plan_parts
UNIT_SRCS := $(wildcard $(TOP)/tests/host/unit/test_*.c)
UNIT_BINS := $(patsubst $(TOP)/tests/host/unit/%.c,$(BUILD)/asan/unit/%,$(UNIT_SRCS))
unit_home = $(patsubst $(TOP)/userspace/%/$(1).c,%,$(filter-out $(TOP)/userspace/lib/%, \
	$(wildcard $(TOP)/userspace/*/$(1).c)))
define unit_rules
$(1)_HOME := $$(call unit_home,$(1))
$(1)_OBJ := $$(if $$($(1)_HOME),$$(patsubst %,$(BUILD)/asan/obj/$$($(1)_HOME)/%.o,$(1) $$($(1)_DEPS)))
$(BUILD)/asan/unit/test_$(1): $(TOP)/tests/host/unit/test_$(1).c $$($(1)_OBJ) \
		$(BUILD)/asan/obj/librd.a $(LIB_HDRS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ASAN_CFLAGS) $$(USER_CFLAGS) $$(if $$($(1)_HOME),-I$(TOP)/userspace/$$($(1)_HOME)) \
		-DRD_SOURCE_DIR='"$(TOP)"' -o $$@ $$< $$($(1)_OBJ) $(BUILD)/asan/obj/librd.a \
		$$(LDLIBS) $$($$($(1)_HOME)_LDLIBS)
endef
$(foreach t,$(UNIT_SRCS:$(TOP)/tests/host/unit/test_%.c=%),$(eval $(call unit_rules,$(t))))
.PHONY: unit-tests
unit-tests: $(UNIT_BINS)

# Small programs the VM tests run (tests/vm/helpers/NAME.c -> build/test-bin/NAME),
# built with the tools so that tests/check has them.
TEST_HELPER_SRCS := $(wildcard $(TOP)/tests/vm/helpers/*.c)
TEST_HELPERS := $(patsubst $(TOP)/tests/vm/helpers/%.c,$(BUILD)/test-bin/%,$(TEST_HELPER_SRCS))
$(BUILD)/test-bin/%: $(TOP)/tests/vm/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(USER_CFLAGS) -o $@ $<
userspace: $(TEST_HELPERS)

-include $(shell find $(BUILD)/obj $(BUILD)/asan/obj -name '*.d' 2>/dev/null)
# A header that moved or went away stays named in the dependency files of
# objects built before: it must not stop the build that rebuilds them.
$(TOP)/userspace/%.h: ;

# --- tests -----------------------------------------------------------------

# Everything: static checks, host tests, the VM suite on each kernel.
check:
	@KVERS='$(KVERS)' $(TOP)/tests/check

check-static:
	@KVERS='$(KVERS)' $(TOP)/tests/check --only static
check-host:
	@$(TOP)/tests/check --only host
check-vm:
	@KVERS='$(KVERS)' $(TOP)/tests/check --only vm $(if $(TESTS),--tests '$(TESTS)')
# rdcrash on every built-in workload, ext4, xfs, btrfs and f2fs, and on
# SQLite, git and Redis in each of their settings: too long for make check.
check-crash:
	@KVERS='$(lastword $(KVERS))' $(TOP)/tests/check --only vm --tests '130 142'

# --- set-up and tools ------------------------------------------------------

deps:
	@$(TOP)/scripts/deps

shell: userspace
	@kver='$(KVER_FULL)'; [ -n "$$kver" ] || exit 1; \
	$(TOP)/scripts/build-module $$kver && \
	$(TOP)/tests/vm/run --kernel $$kver $(if $(CPUS),--cpus $(CPUS)) --shell

# Until `make bench` lands, the main job: a device made, used and shown in
# the guest.
demo: userspace
	@kver='$(KVER_FULL)'; [ -n "$$kver" ] || exit 1; \
	$(TOP)/scripts/build-module $$kver && \
	$(TOP)/tests/vm/run --kernel $$kver -- $(TOP)/scripts/demo

format:
	clang-format -i $$(git -C $(TOP) ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

help:
	@echo 'ramdisk targets:'
	@echo '  make [all]          build ramdisk.ko (KVER=6.12, KDIR=...) and the tools'
	@echo '  make module         build ramdisk.ko only, into build/kernels/KVER/'
	@echo '  make sign           sign ramdisk.ko for KVER with the key DKMS uses (SIGN_KEY=, SIGN_CERT=); module SIGN=1'
	@echo '  make userspace      build ramdiskctl and rdbench into build/bin/'
	@echo '  make check          static checks, host tests, VM tests on each of KVERS'
	@echo '  make check-vm       VM tests only (KVERS=6.12 TESTS="101 102")'
	@echo '  make deps           install every package and kernel the build and tests need'
	@echo '  make demo           boot a guest, make a device, mkfs, mount and show it'
	@echo '  make shell          an interactive guest shell with the module loaded (CPUS=1: one vCPU)'
	@echo '  make bench          the comparison with brd, null_blk, zram, tmpfs, a disk (QUICK=1, HOST=1 DISK=)'
	@echo '  make bench-brd      ramdisk against brd only: 4k QD1/QD16, 1 MiB, first-touch writes'
	@echo '  make bench-perf     ramdisk against brd, null_blk and memcpy: issue 10 ratios (KVERS=, REPS=)'
	@echo '  make bench-pair     ramdisk against brd and null_blk in alternating bursts (KVERS=, REPS=)'
	@echo '  make bench-zoned    a zoned ramdisk against zoned null_blk: 4 KiB writes and zone appends (KVERS=, REPS=)'
	@echo '  make bench-nvmeof   a ramdisk locally and through NVMe/TCP on loopback, same fio jobs, one boot (KVERS=, REPS=)'
	@echo '  make bench-crash    rdcrash against dm-log-writes + replay-log: crash states a minute (REPLAY_LOG=)'
	@echo '  make bench-crash-jobs  rdcrash -j 1 against -j 2 on one log: crash states a minute'
	@echo '  (every bench target runs scripts/bench/run KIND; scripts/bench/run --help lists the kinds)'
	@echo '  make stress         every reliability workload at once in one guest (DURATION=10m)'
	@echo '  make build-rt       build against the 6.12 PREEMPT_RT headers'
	@echo '  make debug-kernel   build the 6.12 KASAN/lockdep/kmemleak/fault-injection kernel (KVER=6.12-debug)'
	@echo '  make check-debug    the VM suite on the debug kernel (TESTS="7"); not part of make check'
	@echo '  make check-crash    rdcrash on every built-in workload and file system, and on SQLite, git and Redis (about 40 min); not part of make check'
	@echo '  make install        install the tools and man pages (PREFIX, DESTDIR); uninstall'
	@echo '  make modules_install  install ramdisk.ko through kbuild; dkms-source for dkms add'
	@echo '  make deb            Debian packages ramdisk-dkms and ramdisk-tools into build/deb/, lintian-checked'
	@echo '  make check-deb      make deb, then install, use and purge both in a guest (6-10 min); not part of make check'
	@echo '  make skeleton       regenerate the lab 6 skeleton; lab-solution builds its solution'
	@echo '  make format         clang-format every C file in place'
	@echo '  make clean          remove build/'
	@echo 'variables: KVER, KDIR, KVERS (default: $(KVERS)), CC, CFLAGS'

include $(wildcard $(TOP)/mk/*.mk)
