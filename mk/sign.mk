# SPDX-License-Identifier: GPL-2.0
#
# make sign [KVER=6.12] [SIGN_KEY=key.pem SIGN_CERT=cert.der]
#                       builds ramdisk.ko for KVER and signs it in place with
#                       the kernel's own sign-file (scripts/sign-module), by
#                       default with the key pair DKMS signs with, made once
#                       if the machine has none. A machine that enforces
#                       module signatures loads it once that key is enrolled
#                       (Documentation/install.md).

.PHONY: sign

sign: module
	@kver='$(KVER_FULL)'; [ -n "$$kver" ] || exit 1; \
	SIGN_KEY='$(SIGN_KEY)' SIGN_CERT='$(SIGN_CERT)' $(TOP)/scripts/sign-module $$kver
