// SPDX-License-Identifier: GPL-2.0
/*
 * export and unexport: serve a device over NVMe-oF through the kernel's
 * NVMe target (nvmet), and take exactly that away again.
 *
 * export makes a subsystem (named by --nqn, or nqn.2024-01.io.ramdisk:
 * and the device's configuration name), gives it one namespace, the
 * device, and links it into a port: one that already serves the same
 * transport and address (shared, as nvmet allows one listener an
 * address), or a new one numbered in ramdiskctl's range. The subsystem's
 * model number, "ramdiskctl", marks it as ramdiskctl's. unexport unlinks
 * and removes such a subsystem, and removes a port only when ramdiskctl
 * numbered it and no subsystem is linked into it any more; everything
 * else in nvmet's tree, anyone's, stays.
 */
#include "ramdiskctl.h"

#include "exported.h"
#include "help.h"
#include "module_check.h"
#include "nvmet.h"
#include "per_device.h"
#include "signals.h"
#include "usage.h"

#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NQN_PREFIX "nqn.2024-01.io.ramdisk:"
#define DEFAULT_TRADDR "127.0.0.1"
/* the IANA port of NVMe/TCP */
#define DEFAULT_TRSVCID "4420"
/* the one namespace of a subsystem export makes */
#define NSID "1"

/* "IP", "IP:PORT", "[IPV6]" or "[IPV6]:PORT" into a tcp address. */
static int parse_addr(const char *arg, struct nvmet_addr *a)
{
	char host[64];
	const char *port = NULL;
	unsigned char bin[16];
	int af = AF_INET;
	size_t len;

	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');

		if (!close || (close[1] && close[1] != ':'))
			return -1;
		len = (size_t)(close - arg - 1);
		port = close[1] ? close + 2 : NULL;
		af = AF_INET6;
		arg++;
	} else {
		const char *colon = strchr(arg, ':');

		len = colon ? (size_t)(colon - arg) : strlen(arg);
		port = colon ? colon + 1 : NULL;
	}
	if (!len || len >= sizeof(host))
		return -1;
	memcpy(host, arg, len);
	host[len] = '\0';
	if (inet_pton(af, host, bin) != 1)
		return -1;
	/* the kernel compares addresses as text: write them one way */
	if (!inet_ntop(af, bin, a->traddr, sizeof(a->traddr)))
		return -1;
	snprintf(a->adrfam, sizeof(a->adrfam), "%s", af == AF_INET ? "ipv4" : "ipv6");
	if (port) {
		char *end;
		unsigned long v;

		if (*port < '0' || *port > '9')
			return -1;
		errno = 0;
		v = strtoul(port, &end, 10);
		if (errno || *end || !v || v > 65535)
			return -1;
		snprintf(a->trsvcid, sizeof(a->trsvcid), "%lu", v);
	} else {
		snprintf(a->trsvcid, sizeof(a->trsvcid), "%s", DEFAULT_TRSVCID);
	}
	return 0;
}

/*
 * An NQN that can be a configfs directory and that hosts accept: "nqn."
 * first, 223 characters at most, printable, no '/' and no blank.
 */
static bool valid_nqn(const char *nqn)
{
	size_t len = strlen(nqn);

	if (strncmp(nqn, "nqn.", 4) || len < 5 || len >= NVMET_NQN_BUF)
		return false;
	for (const char *p = nqn; *p; p++)
		if (*p <= ' ' || *p > '~' || *p == '/')
			return false;
	return true;
}

/* The name in the default NQN: the configuration's, else ramdiskN. */
static const char *device_label(const struct rdctl_device *d, char *buf, size_t len)
{
	if (d->configured)
		return d->name;
	snprintf(buf, len, "ramdisk%d", d->index);
	return buf;
}

/* The messages of a refused link: the address is what the user can change. */
static int link_error(int err, const struct nvmet_addr *a, const char *port)
{
	if (err == EADDRINUSE)
		warnx("export: %s:%s is in use by another program; choose another with --addr",
		      a->traddr, a->trsvcid);
	else if (err == EADDRNOTAVAIL)
		warnx("export: %s is not an address of this machine", a->traddr);
	else
		return report_errno(err, "export: linking the subsystem into port %s", port);
	return RC_ERROR;
}

/* What a kernel without module lacks, for the message. */
static const char *lacking(const char *module)
{
	if (!strcmp(module, "nvmet"))
		return "NVMe target (CONFIG_NVME_TARGET)";
	if (!strcmp(module, "nvme-loop"))
		return "NVMe loop transport (CONFIG_NVME_TARGET_LOOP)";
	return "NVMe/TCP target (CONFIG_NVME_TARGET_TCP)";
}

static int export_device(const struct rdctl_device *d, const char *arg, const char *nqn,
			 const struct nvmet_addr *a)
{
	struct nvmet_export e[1];
	char dev[32], port[NVMET_PORT_BUF];
	const char *step;
	bool made_port = false;
	sigset_t old;
	int lock, rc = RC_OK;

	rd_devpath(d, dev, sizeof(dev));
	lock = nvmet_lock();
	if (lock < 0)
		return report_errno(errno, "export: %s", nvmet_root());
	if (nvmet_find_exports(dev, e, 1) > 0) {
		warnx("export: %s is exported already (NQN %s, %s)", arg, e[0].nqn, e[0].where);
		rc = RC_EXISTS;
		goto out_lock;
	}
	if (nvmet_subsys_exists(nqn)) {
		warnx("export: subsystem %s exists already (another device's export, or another "
		      "tool's); choose another with --nqn",
		      nqn);
		rc = RC_EXISTS;
		goto out_lock;
	}

	hold_signals(&old);
	if (nvmet_port_find(a, port)) {
		if (nvmet_port_create(a, port)) {
			if (errno == ENOSPC)
				warnx("export: ports %d to %d, ramdiskctl's, are all taken",
				      NVMET_PORT_FIRST, NVMET_PORT_FIRST + NVMET_PORT_COUNT - 1);
			else
				report_errno(errno, "export: making a port in %s/ports",
					     nvmet_root());
			rc = errno == ENOSPC ? RC_ERROR : rc_from_errno(errno);
			goto out_signals;
		}
		made_port = true;
	}
	if (nvmet_subsys_create(nqn, NSID, dev, &step)) {
		rc = report_errno(errno, "export: %s: %s", nqn, step);
		goto out_port;
	}
	if (nvmet_link(port, nqn)) {
		rc = link_error(errno, a, port);
		if (nvmet_subsys_remove(nqn))
			warn("export: could not remove the half-made %s/subsystems/%s (remove it "
			     "by hand)",
			     nvmet_root(), nqn);
		goto out_port;
	}
	printf("%s\n", nqn);
	fflush(stdout);
	goto out_signals;

out_port:
	if (made_port && nvmet_port_remove(port))
		warn("export: could not remove the half-made %s/ports/%s (rmdir it by hand)",
		     nvmet_root(), port);
out_signals:
	/* A signal that arrived meanwhile is delivered (and acted on) here. */
	sigprocmask(SIG_SETMASK, &old, NULL);
out_lock:
	close(lock);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "transport", required_argument, NULL, 't' },
		{ "addr", required_argument, NULL, 'a' },
		{ "nqn", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *transport = "tcp", *addr = NULL, *nqn_arg = NULL, *missing;
	struct nvmet_addr a = { 0 };
	struct rdctl_device d;
	char nqn[NVMET_NQN_BUF], label[32];
	int opt, rc;

	while ((opt = getopt_long(argc, argv, ":t:a:q:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			transport = optarg;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'q':
			nqn_arg = optarg;
			break;
		case 'h':
			return command_help("export");
		default:
			return option_error("export", argv, opt);
		}
	}
	if (strcmp(transport, "tcp") && strcmp(transport, "loop"))
		return usage_error("export", "unknown transport '%s': want tcp or loop", transport);
	snprintf(a.trtype, sizeof(a.trtype), "%s", transport);
	if (!strcmp(transport, "loop")) {
		if (addr)
			return usage_error("export", "--addr goes with --transport tcp");
	} else if (parse_addr(addr ? addr : DEFAULT_TRADDR, &a)) {
		return usage_error("export", "bad address '%s': want IP, IP:PORT or [IPV6]:PORT",
				   addr);
	}
	if (nqn_arg && !valid_nqn(nqn_arg))
		return usage_error("export",
				   "bad NQN '%s': want nqn.YYYY-MM.DOMAIN:NAME, at most %d "
				   "printable characters, no '/' or blank",
				   nqn_arg, NVMET_NQN_BUF - 1);
	if (optind == argc)
		return usage_error("export", "which device? give NAME or DEV");
	if (optind + 1 < argc)
		return usage_error("export", "one device at a time");
	if ((rc = require_module()))
		return rc;
	if ((rc = rd_resolve(argv[optind], &d)))
		return rc;
	if (d.index < 0) {
		warnx("export: %s is powered off: there is no device to export", argv[optind]);
		return RC_NO_DEVICE;
	}
	if (nqn_arg)
		snprintf(nqn, sizeof(nqn), "%s", nqn_arg);
	else
		/* the module takes names of 63 characters at most */
		snprintf(nqn, sizeof(nqn), NQN_PREFIX "%.63s",
			 device_label(&d, label, sizeof(label)));
	if (nvmet_load(transport, &missing)) {
		if (geteuid())
			return report_errno(EACCES, "export: loading %s", missing);
		warnx("export: cannot load %s (modprobe %s failed): this kernel has no %s", missing,
		      missing, lacking(missing));
		return RC_NO_MODULE;
	}
	return export_device(&d, argv[optind], nqn, &a);
}

/* Take one ramdiskctl subsystem away: its links, its ports if ours, itself. */
static int unexport_one(const struct nvmet_export *e)
{
	char ports[16][NVMET_PORT_BUF];
	int n = nvmet_subsys_ports(e->nqn, ports, 16);

	if (n < 0)
		return report_errno(errno, "unexport: reading %s/ports", nvmet_root());
	for (int i = 0; i < n && i < 16; i++) {
		/* the hosts connected through the port lose the subsystem here */
		if (nvmet_unlink(ports[i], e->nqn) && errno != ENOENT)
			return report_errno(errno, "unexport: unlinking %s from port %s", e->nqn,
					    ports[i]);
		if (nvmet_port_ours(ports[i]) && nvmet_port_links(ports[i]) == 0 &&
		    nvmet_port_remove(ports[i]) && errno != ENOENT)
			return report_errno(errno, "unexport: removing port %s", ports[i]);
	}
	if (nvmet_subsys_remove(e->nqn) && errno != ENOENT)
		return report_errno(errno, "unexport: removing subsystem %s", e->nqn);
	return RC_OK;
}

static int unexport_device(const char *arg)
{
	struct nvmet_export e[MAX_EXPORTS];
	struct rdctl_device d;
	char dev[32];
	int n, lock, rc, done = 0;
	sigset_t old;

	if ((rc = rd_resolve(arg, &d)))
		return rc;
	if (d.index < 0) {
		warnx("unexport: %s is not exported (it is powered off)", arg);
		return RC_NO_DEVICE;
	}
	rd_devpath(&d, dev, sizeof(dev));
	/* without nvmet's tree nothing is exported; no need to load it */
	lock = nvmet_lock();
	if (lock < 0) {
		if (errno == ENOENT) {
			warnx("unexport: %s is not exported (nvmet is not loaded)", arg);
			return RC_NO_DEVICE;
		}
		return report_errno(errno, "unexport: %s", nvmet_root());
	}
	n = nvmet_find_exports(dev, e, MAX_EXPORTS);
	if (n < 0) {
		rc = report_errno(errno, "unexport: reading %s/subsystems", nvmet_root());
		goto out;
	}
	if (n == 0) {
		warnx("unexport: %s is not exported", arg);
		rc = RC_NO_DEVICE;
		goto out;
	}
	hold_signals(&old);
	for (int i = 0; i < n && i < MAX_EXPORTS && !rc; i++) {
		if (!e[i].ours)
			continue;
		rc = unexport_one(&e[i]);
		done++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!rc && !done) {
		warnx("unexport: %s is exported by subsystem %s, which ramdiskctl did not make; "
		      "leaving it to the tool that made it",
		      arg, e[0].nqn);
		rc = RC_ERROR;
	}
out:
	close(lock);
	return rc;
}

int cmd_unexport(int argc, char **argv)
{
	return run_per_device("unexport", argc, argv, unexport_device);
}
