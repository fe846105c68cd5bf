// SPDX-License-Identifier: GPL-2.0
/*
 * nvmet's configfs tree, read and changed item by item (see nvmet.h).
 *
 * ramdiskctl writes the tree itself rather than running nvmetcli: the
 * tree is the kernel's interface and a handful of mkdir, write and
 * symlink calls, nvmetcli is Python (and not packaged with this project's
 * dependencies), and it saves and restores whole configurations, which
 * would replace other users' subsystems where ramdiskctl must touch its
 * own only.
 */
#include "ramdiskctl.h"

#include "attr_file.h"
#include "nvmet.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_NVMET "/sys/kernel/config/nvmet"

extern char **environ;

const char *nvmet_root(void)
{
	const char *v = getenv("RAMDISKCTL_NVMET");

	return v && *v ? v : DEFAULT_NVMET;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* modprobe's own complaint would be a second line on stderr: ours says it. */
static bool modprobe(const char *module)
{
	char *argv[] = { "modprobe", "-q", (char *)module, NULL };
	posix_spawn_file_actions_t fa;
	int status, rc;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa))
		return false;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "modprobe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return false;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int nvmet_load(const char *trtype, const char **missing)
{
	char path[PATH_MAX];
	/* nvme-loop is both the loop target and the host that connects to it */
	const char *module = strcmp(trtype, "loop") ? "nvmet-tcp" : "nvme-loop";
	const char *sysname = strcmp(trtype, "loop") ? "nvmet_tcp" : "nvme_loop";

	if (getenv("RAMDISKCTL_NVMET") && *getenv("RAMDISKCTL_NVMET"))
		return 0;
	if (!is_dir(nvmet_root()) && (!modprobe("nvmet") || !is_dir(nvmet_root()))) {
		*missing = "nvmet";
		errno = ENOENT;
		return -1;
	}
	/*
	 * nvmet would load the transport itself when the port is linked, but
	 * only to fail with a bare EINVAL when it cannot; load it first.
	 */
	path_fmt(path, sizeof(path), "/sys/module/%s", sysname);
	if (!is_dir(path) && !modprobe(module)) {
		*missing = module;
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int nvmet_lock(void)
{
	int fd = open(nvmet_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
	}
	return fd;
}

/*
 * A directory entry's name into a buffer of len bytes; false when it does
 * not fit, and then it is no name nvmet would have made (port ids, NSIDs
 * and NQNs all fit).
 */
static bool copy_name(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return false;
	memcpy(dst, src, n + 1);
	return true;
}

/* Every entry of a directory but . and .., through fn; stops at nonzero. */
static int each_entry(const char *dir, int (*fn)(const char *name, void *arg), void *arg)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		rc = fn(e->d_name, arg);
		if (rc)
			break;
	}
	closedir(d);
	return rc;
}

static int read_attr(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int read_attr(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return attr_read_line(path, buf, len);
}

/* --- ports ---------------------------------------------------------------- */

/* A port directory's id, as the kernel reads it; -1 for another name. */
static long port_id(const char *name)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(name, &end, 0);
	if (errno || end == name || *end || v > 65535)
		return -1;
	return (long)v;
}

bool nvmet_port_ours(const char *port)
{
	long id = port_id(port);

	return id >= NVMET_PORT_FIRST && id < NVMET_PORT_FIRST + NVMET_PORT_COUNT;
}

/* Two addresses of one family are the same address, however written. */
static bool same_ip(const char *family, const char *x, const char *y)
{
	unsigned char a[16], b[16];
	int af = strcmp(family, "ipv6") ? AF_INET : AF_INET6;

	if (inet_pton(af, x, a) != 1 || inet_pton(af, y, b) != 1)
		return !strcmp(x, y);
	return !memcmp(a, b, af == AF_INET ? 4 : 16);
}

struct port_search {
	const struct nvmet_addr *want;
	char *found;
	long found_id;
};

static int match_port(const char *name, void *arg)
{
	struct port_search *s = arg;
	struct nvmet_addr a;
	const char *root = nvmet_root();
	long id = port_id(name);

	if (id < 0 || strlen(name) >= NVMET_PORT_BUF ||
	    read_attr(a.trtype, sizeof(a.trtype), "%s/ports/%s/addr_trtype", root, name))
		return 0;
	if (strcmp(a.trtype, s->want->trtype))
		return 0;
	if (strcmp(a.trtype, "loop")) {
		if (read_attr(a.adrfam, sizeof(a.adrfam), "%s/ports/%s/addr_adrfam", root, name) ||
		    read_attr(a.traddr, sizeof(a.traddr), "%s/ports/%s/addr_traddr", root, name) ||
		    read_attr(a.trsvcid, sizeof(a.trsvcid), "%s/ports/%s/addr_trsvcid", root, name))
			return 0;
		if (strcmp(a.adrfam, s->want->adrfam) || strcmp(a.trsvcid, s->want->trsvcid) ||
		    !same_ip(a.adrfam, a.traddr, s->want->traddr))
			return 0;
	}
	if (s->found_id < 0 || id < s->found_id) {
		s->found_id = id;
		copy_name(s->found, NVMET_PORT_BUF, name);
	}
	return 0;
}

int nvmet_port_find(const struct nvmet_addr *a, char *port)
{
	struct port_search s = { a, port, -1 };
	char dir[PATH_MAX];

	path_fmt(dir, sizeof(dir), "%s/ports", nvmet_root());
	if (each_entry(dir, match_port, &s))
		return -1;
	if (s.found_id < 0) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

static int write_attr(const char *dir, const char *attr, const char *value)
{
	char path[PATH_MAX];

	path_fmt(path, sizeof(path), "%s/%s", dir, attr);
	return attr_write_line(path, value);
}

int nvmet_port_create(const struct nvmet_addr *a, char *port)
{
	char dir[PATH_MAX];

	for (int i = 0; i < NVMET_PORT_COUNT; i++) {
		int saved;

		snprintf(port, NVMET_PORT_BUF, "%d", NVMET_PORT_FIRST + i);
		path_fmt(dir, sizeof(dir), "%s/ports/%s", nvmet_root(), port);
		if (mkdir(dir, 0755)) {
			if (errno == EEXIST)
				continue;
			return -1;
		}
		if (!write_attr(dir, "addr_trtype", a->trtype) &&
		    (!*a->adrfam || !write_attr(dir, "addr_adrfam", a->adrfam)) &&
		    (!*a->traddr || !write_attr(dir, "addr_traddr", a->traddr)) &&
		    (!*a->trsvcid || !write_attr(dir, "addr_trsvcid", a->trsvcid)))
			return 0;
		saved = errno;
		rmdir(dir);
		errno = saved;
		return -1;
	}
	errno = ENOSPC;
	return -1;
}

int nvmet_port_remove(const char *port)
{
	char dir[PATH_MAX];

	path_fmt(dir, sizeof(dir), "%s/ports/%s", nvmet_root(), port);
	return rmdir(dir);
}

static int count_entry(const char *name, void *arg)
{
	(void)name;
	(*(int *)arg)++;
	return 0;
}

int nvmet_port_links(const char *port)
{
	char dir[PATH_MAX];
	int n = 0;

	path_fmt(dir, sizeof(dir), "%s/ports/%s/subsystems", nvmet_root(), port);
	if (each_entry(dir, count_entry, &n))
		return -1;
	return n;
}

int nvmet_port_describe(const char *port, char *buf, size_t len)
{
	struct nvmet_addr a;
	const char *root = nvmet_root();

	if (read_attr(a.trtype, sizeof(a.trtype), "%s/ports/%s/addr_trtype", root, port))
		return -1;
	if (!strcmp(a.trtype, "loop") || !*a.trtype) {
		snprintf(buf, len, "%s", *a.trtype ? a.trtype : "unset");
		return 0;
	}
	if (read_attr(a.adrfam, sizeof(a.adrfam), "%s/ports/%s/addr_adrfam", root, port) ||
	    read_attr(a.traddr, sizeof(a.traddr), "%s/ports/%s/addr_traddr", root, port) ||
	    read_attr(a.trsvcid, sizeof(a.trsvcid), "%s/ports/%s/addr_trsvcid", root, port))
		return -1;
	if (!strcmp(a.adrfam, "ipv6"))
		snprintf(buf, len, "%s [%s]:%s", a.trtype, a.traddr, a.trsvcid);
	else
		snprintf(buf, len, "%s %s:%s", a.trtype, a.traddr, a.trsvcid);
	return 0;
}

/* --- links ---------------------------------------------------------------- */

int nvmet_link(const char *port, const char *nqn)
{
	char target[PATH_MAX], link[PATH_MAX];

	path_fmt(target, sizeof(target), "%s/subsystems/%s", nvmet_root(), nqn);
	path_fmt(link, sizeof(link), "%s/ports/%s/subsystems/%s", nvmet_root(), port, nqn);
	return symlink(target, link);
}

int nvmet_unlink(const char *port, const char *nqn)
{
	char link[PATH_MAX];

	path_fmt(link, sizeof(link), "%s/ports/%s/subsystems/%s", nvmet_root(), port, nqn);
	return unlink(link);
}

struct linked_search {
	const char *nqn;
	char (*ports)[NVMET_PORT_BUF];
	int max, n;
};

static int linked_port(const char *name, void *arg)
{
	struct linked_search *s = arg;
	char link[PATH_MAX];
	struct stat st;

	path_fmt(link, sizeof(link), "%s/ports/%s/subsystems/%s", nvmet_root(), name, s->nqn);
	if (lstat(link, &st) || strlen(name) >= NVMET_PORT_BUF)
		return 0;
	if (s->n < s->max)
		copy_name(s->ports[s->n], NVMET_PORT_BUF, name);
	s->n++;
	return 0;
}

static int compare_ports(const void *x, const void *y)
{
	long a = port_id(x), b = port_id(y);

	return a < b ? -1 : a > b;
}

int nvmet_subsys_ports(const char *nqn, char (*ports)[NVMET_PORT_BUF], int max)
{
	struct linked_search s = { nqn, ports, max, 0 };
	char dir[PATH_MAX];

	path_fmt(dir, sizeof(dir), "%s/ports", nvmet_root());
	if (each_entry(dir, linked_port, &s))
		return -1;
	qsort(ports, (size_t)(s.n < max ? s.n : max), NVMET_PORT_BUF, compare_ports);
	return s.n;
}

/* --- subsystems and namespaces -------------------------------------------- */

bool nvmet_subsys_exists(const char *nqn)
{
	char dir[PATH_MAX];

	path_fmt(dir, sizeof(dir), "%s/subsystems/%s", nvmet_root(), nqn);
	return is_dir(dir);
}

int nvmet_subsys_create(const char *nqn, const char *nsid, const char *devpath, const char **step)
{
	char dir[PATH_MAX], ns[PATH_MAX];
	int saved;

	path_fmt(dir, sizeof(dir), "%s/subsystems/%s", nvmet_root(), nqn);
	path_fmt(ns, sizeof(ns), "%s/namespaces/%s", dir, nsid);
	*step = "making the subsystem";
	if (mkdir(dir, 0755))
		return -1;
	/*
	 * Any host may connect: the export is for a test bench, and the
	 * address (127.0.0.1 by default) is what limits who can reach it.
	 */
	*step = "writing attr_allow_any_host";
	if (write_attr(dir, "attr_allow_any_host", "1"))
		goto out_subsys;
	*step = "writing attr_model";
	if (write_attr(dir, "attr_model", NVMET_MODEL))
		goto out_subsys;
	*step = "making the namespace";
	if (mkdir(ns, 0755))
		goto out_subsys;
	*step = "writing the namespace's device_path";
	if (write_attr(ns, "device_path", devpath))
		goto out_ns;
	/* nvmet opens the block device here: EBUSY, ENOENT come from this */
	*step = "enabling the namespace";
	if (write_attr(ns, "enable", "1"))
		goto out_ns;
	return 0;
out_ns:
	saved = errno;
	rmdir(ns);
	errno = saved;
out_subsys:
	saved = errno;
	rmdir(dir);
	errno = saved;
	return -1;
}

static int remove_ns(const char *name, void *arg)
{
	const char *dir = arg;
	char ns[PATH_MAX];

	path_fmt(ns, sizeof(ns), "%s/%s", dir, name);
	/* a disabled namespace refuses nothing: the write only closes the device */
	write_attr(ns, "enable", "0");
	return rmdir(ns) ? -1 : 0;
}

int nvmet_subsys_remove(const char *nqn)
{
	char dir[PATH_MAX], nss[PATH_MAX];

	path_fmt(dir, sizeof(dir), "%s/subsystems/%s", nvmet_root(), nqn);
	path_fmt(nss, sizeof(nss), "%s/namespaces", dir);
	if (each_entry(nss, remove_ns, nss))
		return -1;
	return rmdir(dir);
}

/* --- what serves a device ------------------------------------------------- */

struct export_search {
	const char *devpath;
	bool have_rdev;
	dev_t rdev;
	struct nvmet_export *out;
	int max, n;
	const char *nqn; /* the subsystem being looked at */
};

static bool same_device(const struct export_search *s, const char *path)
{
	struct stat st;

	if (!strcmp(path, s->devpath))
		return true;
	/* another tool may name the device by a /dev/disk/by-... link */
	return s->have_rdev && !stat(path, &st) && S_ISBLK(st.st_mode) && st.st_rdev == s->rdev;
}

static void describe_ports(const char *nqn, char *buf, size_t len)
{
	char ports[8][NVMET_PORT_BUF];
	int n = nvmet_subsys_ports(nqn, ports, 8);
	size_t used = 0;

	*buf = '\0';
	for (int i = 0; i < n && i < 8; i++) {
		char one[96];

		if (nvmet_port_describe(ports[i], one, sizeof(one)))
			snprintf(one, sizeof(one), "port %.31s", ports[i]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", one);
		if (used >= len)
			break;
	}
	if (!*buf)
		snprintf(buf, len, "none");
}

static int match_ns(const char *name, void *arg)
{
	struct export_search *s = arg;
	char path[PATH_MAX], model[64];
	struct nvmet_export *e;

	if (read_attr(path, sizeof(path), "%s/subsystems/%s/namespaces/%s/device_path",
		      nvmet_root(), s->nqn, name) ||
	    !same_device(s, path) || strlen(name) >= sizeof(e->nsid) ||
	    strlen(s->nqn) >= sizeof(e->nqn))
		return 0;
	if (s->n++ >= s->max)
		return 0;
	e = &s->out[s->n - 1];
	copy_name(e->nqn, sizeof(e->nqn), s->nqn);
	copy_name(e->nsid, sizeof(e->nsid), name);
	e->ours = !read_attr(model, sizeof(model), "%s/subsystems/%s/attr_model", nvmet_root(),
			     s->nqn) &&
		  !strcmp(model, NVMET_MODEL);
	describe_ports(s->nqn, e->where, sizeof(e->where));
	return 0;
}

static int match_subsys(const char *name, void *arg)
{
	struct export_search *s = arg;
	char dir[PATH_MAX];

	s->nqn = name;
	path_fmt(dir, sizeof(dir), "%s/subsystems/%s/namespaces", nvmet_root(), name);
	/* a subsystem going away meanwhile has nothing to show */
	each_entry(dir, match_ns, s);
	return 0;
}

int nvmet_find_exports(const char *devpath, struct nvmet_export *out, int max)
{
	struct export_search s = { .devpath = devpath, .out = out, .max = max };
	char dir[PATH_MAX];
	struct stat st;

	if (!stat(devpath, &st) && S_ISBLK(st.st_mode)) {
		s.have_rdev = true;
		s.rdev = st.st_rdev;
	}
	path_fmt(dir, sizeof(dir), "%s/subsystems", nvmet_root());
	if (each_entry(dir, match_subsys, &s))
		return errno == ENOENT ? 0 : -1;
	return s.n;
}
