# SPDX-License-Identifier: GPL-2.0
#
# make deb              the Debian packages ramdisk-dkms (the module's source,
#                       which DKMS builds for every installed kernel) and
#                       ramdisk-tools (ramdiskctl, rdbench, rdcrash, man
#                       pages, fio jobs), from debian/, into build/deb/;
#                       then lintian on them (warnings fail too)
# make check-deb        make deb, then tests/vm/540-deb-install.sh on the
#                       first of KVERS: both packages installed in a guest
#                       (DKMS builds the module), used, purged; about 5
#                       minutes under TCG (make check runs it too)
#
# The package is built from a copy of the files git knows (new ones
# included) in build/deb/src, so dpkg-buildpackage never writes into the
# checkout and the checkout's build/ (gigabytes of kernels) is not copied.
# Needs debhelper, dh-dkms, dpkg-dev, fakeroot and lintian (make deps).

.PHONY: deb check-deb

DEB_DIR := $(BUILD)/deb

# The files of the working tree git knows or would add (a deleted file is
# listed twice, and dropped); no dbgsym package, only the two. The source
# package (.dsc, .tar.xz) is built too, so that lintian checks debian/
# itself as well as the two .debs.

deb:
	@v=$$(dpkg-parsechangelog -l $(TOP)/debian/changelog -S Version) || exit 1; \
	[ "$$v" = '$(RD_VERSION)' ] || { echo "deb: debian/changelog says $$v, mk/install.mk's RD_VERSION $(RD_VERSION)" >&2; exit 1; }
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/src
	cd $(TOP) && { git ls-files -z --cached --others --exclude-standard; \
		git ls-files -z --deleted; } | sort -z | uniq -zu | \
		xargs -0 cp -P --parents -t $(DEB_DIR)/src
	cd $(DEB_DIR)/src && DEB_BUILD_OPTIONS="parallel=$$(nproc) noautodbgsym $$DEB_BUILD_OPTIONS" \
		dpkg-buildpackage -us -uc
	rm -rf $(DEB_DIR)/src
	lintian --fail-on error,warning \
		$(DEB_DIR)/ramdisk_$(RD_VERSION)_$$(dpkg --print-architecture).changes
	@ls $(DEB_DIR)/*.deb

check-deb: deb
	@KVERS='$(firstword $(KVERS))' $(TOP)/tests/check --only vm --tests 540-deb
