/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's NVMe target (nvmet) as its configfs tree lays it out:
 *
 *   /sys/kernel/config/nvmet/
 *     subsystems/NQN/attr_allow_any_host, attr_model
 *     subsystems/NQN/namespaces/NSID/device_path, enable
 *     ports/ID/addr_trtype, addr_adrfam, addr_traddr, addr_trsvcid
 *     ports/ID/subsystems/NQN -> ../../../subsystems/NQN
 *
 * These functions read and change that tree one item at a time and print
 * nothing; each returns 0, or -1 with errno from the failing call, so that
 * export.c can word the message and undo what it made.
 */
#ifndef RAMDISKCTL_NVMET_H
#define RAMDISKCTL_NVMET_H

#include <stdbool.h>
#include <stddef.h>

/* NVMF_NQN_SIZE: 223 characters and the NUL. */
#define NVMET_NQN_BUF 224
/*
 * A port's directory name: its id as whoever made it wrote it ("1",
 * "0x10": the kernel reads it with kstrtou16(..., 0)), kept as a name so
 * the path is rebuilt exactly.
 */
#define NVMET_PORT_BUF 32

/*
 * The model number ramdiskctl gives the subsystems it makes, and by which
 * unexport tells them from anyone else's (nvmetcli, a script): a host sees
 * it too, in nvme list.
 */
#define NVMET_MODEL "ramdiskctl"

/*
 * The port ids ramdiskctl numbers its own ports with: 29284 is "rd" in
 * ASCII (0x7264). Hand-made configurations number from 1 (nvmetcli's
 * examples, every howto), so a port in this range is one ramdiskctl made,
 * and the only kind unexport may remove (when no subsystem is linked into
 * it any more).
 */
#define NVMET_PORT_FIRST 29284
#define NVMET_PORT_COUNT 64

/* Where a subsystem is reachable: a transport and, for tcp, an address. */
struct nvmet_addr {
	char trtype[8]; /* "tcp" or "loop" */
	char adrfam[8]; /* "ipv4" or "ipv6"; "" for loop */
	char traddr[64]; /* "127.0.0.1"; "" for loop */
	char trsvcid[8]; /* "4420"; "" for loop */
};

/* One namespace of a subsystem that serves a given block device. */
struct nvmet_export {
	char nqn[NVMET_NQN_BUF];
	char nsid[16];
	bool ours; /* the subsystem's model is NVMET_MODEL */
	/* "tcp 127.0.0.1:4420", "loop", comma-separated; "none" when no port */
	char where[160];
};

/* The tree's root; RAMDISKCTL_NVMET replaces it (for tests). */
const char *nvmet_root(void);

/*
 * Load nvmet and the module of the transport ("tcp": nvmet-tcp, "loop":
 * nvme-loop) with modprobe, unless the tree is there already (nvmet) or
 * RAMDISKCTL_NVMET is set (a test tree). 0, or -1 with *missing naming
 * the module that could not be loaded.
 */
int nvmet_load(const char *trtype, const char **missing);

/*
 * An exclusive flock on the tree's root, so that two ramdiskctl export or
 * unexport runs do not pick the same port id or share a port one of them
 * is about to remove. Returns the descriptor to close, or -1 with errno.
 */
int nvmet_lock(void);

/*
 * The namespaces whose device_path is devpath (the same string, or the
 * same block device), at most max of them into out. Returns how many
 * there are (which may be more than max), 0 when nvmet is not loaded.
 */
int nvmet_find_exports(const char *devpath, struct nvmet_export *out, int max);

/* Whether subsystems/NQN exists. */
bool nvmet_subsys_exists(const char *nqn);

/*
 * A port already serving a: for tcp the port with the same transport,
 * family, address and service id; for loop the lowest-numbered loop port
 * (nvme-loop connects to the first one it knows). Its name into port
 * (NVMET_PORT_BUF bytes); 0 when found, -1 when none is.
 */
int nvmet_port_find(const struct nvmet_addr *a, char *port);

/*
 * A new port with a's address, the first free id from NVMET_PORT_FIRST:
 * its name into port. On failure nothing is left (ENOSPC: the range is
 * full).
 */
int nvmet_port_create(const struct nvmet_addr *a, char *port);

/* rmdir ports/PORT. */
int nvmet_port_remove(const char *port);

/* Whether PORT is one ramdiskctl made: its id is in ramdiskctl's range. */
bool nvmet_port_ours(const char *port);

/* How many subsystems are linked into ports/PORT; -1 with errno. */
int nvmet_port_links(const char *port);

/* "tcp 127.0.0.1:4420", "tcp [::1]:4420" or "loop" for ports/PORT. */
int nvmet_port_describe(const char *port, char *buf, size_t len);

/*
 * subsystems/NQN with attr_allow_any_host 1 and model NVMET_MODEL, and
 * namespace nsid serving devpath, enabled. On failure nothing is left,
 * and *step names what failed ("making the subsystem", ...).
 */
int nvmet_subsys_create(const char *nqn, const char *nsid, const char *devpath, const char **step);

/*
 * Disable and remove every namespace of subsystems/NQN, then the
 * subsystem itself (unlink it from its ports first).
 */
int nvmet_subsys_remove(const char *nqn);

/* ports/PORT/subsystems/NQN -> subsystems/NQN, and its removal. */
int nvmet_link(const char *port, const char *nqn);
int nvmet_unlink(const char *port, const char *nqn);

/*
 * The ports subsystems/NQN is linked into, lowest id first: at most max
 * names into ports; returns how many there are, or -1 with errno.
 */
int nvmet_subsys_ports(const char *nqn, char (*ports)[NVMET_PORT_BUF], int max);

#endif /* RAMDISKCTL_NVMET_H */
