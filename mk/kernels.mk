# SPDX-License-Identifier: GPL-2.0
#
# make build-rt     build ramdisk.ko against the 6.12 PREEMPT_RT headers
#                   (bookworm-backports; make deps installs them) with W=1
#                   and sparse, warnings failing the build; never booted
# The 7.x kernels need no target of their own: KVER=7 and KVERS="... 7"
# build them in the trixie chroot through scripts/chroot-make.

.PHONY: build-rt

# The newest 6.12 rt flavour installed; empty when there is none.
RT_KVER = $(shell $(TOP)/scripts/kernel list | grep -E '^6\.12\..*-rt-amd64$$' | tail -n 1)

build-rt:
	@kver='$(RT_KVER)'; \
	if [ -z "$$kver" ]; then \
		echo "build-rt: no 6.12 PREEMPT_RT headers installed; run: make deps" >&2; \
		exit 1; \
	fi; \
	$(TOP)/scripts/build-module --strict --sparse $$kver && \
	echo "built $(BUILD)/kernels/$$kver/ramdisk.ko"
