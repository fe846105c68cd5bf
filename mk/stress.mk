# SPDX-License-Identifier: GPL-2.0
#
# make stress [DURATION=10m] [KVER=6.12]: every reliability workload at once
# in one guest (tests/stress/); not part of make check.

DURATION ?= 10m

.PHONY: stress
stress: userspace
	@$(TOP)/tests/stress/run --duration '$(DURATION)' $(if $(KVER),--kernel '$(KVER)')
