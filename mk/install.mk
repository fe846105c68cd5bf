# SPDX-License-Identifier: GPL-2.0
#
# make install          the tools and their man pages under PREFIX
#                       (default /usr/local), staged below DESTDIR if set:
#                       ramdiskctl in sbin (man 8), rdbench and rdcrash in
#                       bin (man 1); ramdisk-setup.service in UNITDIR
#                       (PREFIX/lib/systemd/system) and the commented
#                       example ramdisk.conf as
#                       SYSCONFDIR/ramdisk/ramdisk.conf.example (/etc);
#                       rdcrash's worked examples (SQLite, git, Redis) in
#                       EXAMPLESDIR (PREFIX/share/doc/ramdisk/examples)
# make uninstall        removes what install put there
# make modules_install  ramdisk.ko for KVER (or KDIR) through kbuild's own
#                       modules_install: /lib/modules/KVER/updates/, then
#                       depmod; DESTDIR becomes INSTALL_MOD_PATH (and
#                       depmod is left to the package that ships it);
#                       NO_BUILD=1 installs the module already built
#                       signed (scripts/sign-module) with the key pair
#                       DKMS signs with when the machine has one, so that
#                       it loads where DKMS's modules do; SIGN=1 makes the
#                       pair if missing, SIGN=0 never signs
# make dkms-source      the files DKMS builds from, in
#                       $(DESTDIR)/usr/src/ramdisk-$(RD_VERSION); then
#                       dkms add|build|install ramdisk/$(RD_VERSION)
# make skeleton         regenerates Documentation/labs/skeleton from the
#                       lab 6 solution (scripts/lab-skeleton)
# make lab-solution     builds lab 6's minird.ko for KVER with W=1

.PHONY: install uninstall modules_install dkms-source skeleton lab-solution

# Must match PACKAGE_VERSION in dkms.conf (tests/host/560-dkms.sh checks).
RD_VERSION := 0.1

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
# systemd reads units from /usr/local/lib/systemd/system too
UNITDIR ?= $(PREFIX)/lib/systemd/system
# where ramdiskctl apply reads ramdisk/ramdisk.conf: /etc whatever PREFIX is
SYSCONFDIR ?= /etc
EXAMPLESDIR ?= $(PREFIX)/share/doc/ramdisk/examples
RDCRASH_EXAMPLES := $(notdir $(wildcard $(TOP)/Documentation/examples/rdcrash/*.sh))
INSTALL ?= install
# Below /lib/modules/KVER/: "updates" wins over the kernel's own modules.
INSTALL_MOD_DIR ?= updates

install: userspace
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/ramdisk \
		$(DESTDIR)$(EXAMPLESDIR)/rdcrash
	$(INSTALL) -m 0755 $(BIN)/ramdiskctl $(DESTDIR)$(SBINDIR)/ramdiskctl
	$(INSTALL) -m 0755 $(BIN)/rdbench $(DESTDIR)$(BINDIR)/rdbench
	$(INSTALL) -m 0755 $(BIN)/rdcrash $(DESTDIR)$(BINDIR)/rdcrash
	$(INSTALL) -m 0644 $(TOP)/Documentation/man/ramdiskctl.8 $(DESTDIR)$(MANDIR)/man8/ramdiskctl.8
	$(INSTALL) -m 0644 $(TOP)/Documentation/man/rdbench.1 $(DESTDIR)$(MANDIR)/man1/rdbench.1
	$(INSTALL) -m 0644 $(TOP)/Documentation/man/rdcrash.1 $(DESTDIR)$(MANDIR)/man1/rdcrash.1
	$(INSTALL) -m 0644 $(TOP)/systemd/ramdisk-setup.service \
		$(DESTDIR)$(UNITDIR)/ramdisk-setup.service
	$(INSTALL) -m 0644 $(TOP)/Documentation/examples/ramdisk.conf \
		$(DESTDIR)$(SYSCONFDIR)/ramdisk/ramdisk.conf.example
	$(INSTALL) -m 0755 $(addprefix $(TOP)/Documentation/examples/rdcrash/,$(RDCRASH_EXAMPLES)) \
		$(DESTDIR)$(EXAMPLESDIR)/rdcrash/

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/ramdiskctl $(DESTDIR)$(BINDIR)/rdbench \
		$(DESTDIR)$(BINDIR)/rdcrash $(DESTDIR)$(MANDIR)/man8/ramdiskctl.8 \
		$(DESTDIR)$(MANDIR)/man1/rdbench.1 $(DESTDIR)$(MANDIR)/man1/rdcrash.1 \
		$(DESTDIR)$(UNITDIR)/ramdisk-setup.service \
		$(DESTDIR)$(SYSCONFDIR)/ramdisk/ramdisk.conf.example \
		$(addprefix $(DESTDIR)$(EXAMPLESDIR)/rdcrash/,$(RDCRASH_EXAMPLES))

# kbuild installs (and signs or compresses, as the kernel's configuration
# says) the module it built in build/kernels/KVER. The Debian header
# packages carry no System.map, so kbuild skips depmod: run it here.
modules_install: $(if $(filter 1,$(NO_BUILD)),,module)
	@kver='$(KVER_FULL)'; [ -n "$$kver" ] || exit 1; \
	kdir=$$($(TOP)/scripts/kernel kdir $$kver) || exit 1; \
	case $$kdir in $(BUILD)/chroot/*) \
		echo "modules_install: $$kver is built in a chroot; install on a machine running it" >&2; \
		exit 1 ;; \
	esac; \
	case '$(SIGN)' in \
	0) ;; \
	1) $(TOP)/scripts/sign-module $$kver || exit 1 ;; \
	*) $(TOP)/scripts/sign-module --if-key $$kver || exit 1 ;; \
	esac; \
	$(MAKE) -C $$kdir M=$(BUILD)/kernels/$$kver INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install && \
	$(if $(DESTDIR),true,depmod -a $$kver)

# Only what `make module` and `make modules_install` (which signs) need:
# DKMS copies the whole folder it is given, and build/ may hold gigabytes.
DKMS_FILES := Makefile Kbuild dkms.conf mk/install.mk mk/sign.mk module include scripts/build-module \
	scripts/sign-module scripts/kernel scripts/chroot-make
DKMS_SRC ?= /usr/src/ramdisk-$(RD_VERSION)

# The files as they are in the working tree, new ones included, as `make
# module` would build them; outside a git checkout of its own (a copy
# below another checkout, as `make deb` builds in), the folders whole.
dkms-source:
	@rm -rf $(DESTDIR)$(DKMS_SRC)
	@mkdir -p $(DESTDIR)$(DKMS_SRC)
	cd $(TOP) && if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ]; then \
		git ls-files -z --cached --others --exclude-standard -- $(DKMS_FILES) | \
			xargs -0 cp --parents -t $(DESTDIR)$(DKMS_SRC); \
	else \
		cp -r --parents $(DKMS_FILES) $(DESTDIR)$(DKMS_SRC); \
	fi
	@echo "dkms-source: $(DESTDIR)$(DKMS_SRC); next: dkms add ramdisk/$(RD_VERSION)"

skeleton:
	@$(TOP)/scripts/lab-skeleton

lab-solution:
	@kver='$(KVER_FULL)'; [ -n "$$kver" ] || exit 1; \
	$(TOP)/scripts/build-lab $$kver
