# SPDX-License-Identifier: GPL-2.0
#
# make debug-kernel   build (once, then cached) a 6.12 kernel with KASAN,
#                     lockdep, kmemleak, list debugging and fault injection
#                     into build/debug-kernel/; KVER=6.12-debug selects it
# make check-debug    the whole VM suite on that kernel (TESTS="7" for some);
#                     any KASAN, lockdep or kmemleak report fails it
# Neither is part of `make check`: the debug kernel is several times slower.

.PHONY: debug-kernel check-debug

debug-kernel:
	@$(TOP)/scripts/debug-kernel

# The debug kernel boots slowly under TCG and its checks slow every
# system call: a longer wait for the first command than tests/vm/run's
# default, longer timeouts for each test and each boot's tests, and a
# longer silence before a guest counts as wedged (a warm reboot takes ~3 min).
check-debug: debug-kernel
	@RD_VM_BOOT_TIMEOUT=$${RD_VM_BOOT_TIMEOUT:-900} KVERS=6.12-debug \
		RD_TEST_TIMEOUT=$${RD_TEST_TIMEOUT:-3600} \
		RD_HARNESS_VM_TIMEOUT=$${RD_HARNESS_VM_TIMEOUT:-1800} \
		RD_VM_SUITE_TIMEOUT=$${RD_VM_SUITE_TIMEOUT:-21600} \
		RD_VM_HEARTBEAT_LIMIT=$${RD_VM_HEARTBEAT_LIMIT:-900} \
		$(TOP)/tests/check --only vm $(if $(TESTS),--tests '$(TESTS)')
