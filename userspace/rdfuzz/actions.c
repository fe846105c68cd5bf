// SPDX-License-Identifier: GPL-2.0
/*
 * One step of the fuzzer: draw an action and its arguments, do it, and
 * check the rules that hold whatever the values were. The draws come
 * first and never depend on the kernel's answers (see rdfuzz.h).
 */
#include "rdfuzz.h"
#include "attr_file.h"
#include "ramdisk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum action {
	A_MKDIR,
	A_RMDIR,
	A_ATTR,
	A_POWER,
	A_CUT,
	A_IO,
	A_SYSFS,
	A_BUSY,
	A_SHOW,
	A_CRASH,
	A_NR
};

/* do_io()'s operations: x1 % IO_OPS */
#define IO_OPS 16

static bool badblocks_errno(int err);
static bool slot_has_faults(const struct fuzz *f, const struct slot *s);

static const char *const action_names[A_NR] = {
	"mkdir", "rmdir", "attr", "power", "power_cut", "io", "sysfs", "busy", "show", "crash",
};

/* How often each action is drawn, out of the sum. */
static const unsigned int action_weights[A_NR] = { 5, 3, 26, 10, 8, 25, 8, 3, 5, 9 };

/*
 * The crash machinery's commands, which the attr action reaches one time
 * in forty-odd: checkpoints, rollbacks, clones and the write log meet
 * often enough here for the model of each to be tried (x1 % CRASH_OPS
 * picks); a power cut too, of a device half of whose power-ons here are in
 * writeback mode, so that cuts meet logs that record.
 */
#define CRASH_OPS 12
static const char *const crash_attrs[CRASH_OPS] = {
	"checkpoints", "checkpoints", "checkpoints", "rollback",  "rollback",  "clone_of",
	"write_log",   "write_log",   "write_log",   "write_log", "write_log", "power_cut",
};

/* --- files ---------------------------------------------------------------- */

/* Writes len bytes in one write(2), a short one too; 0 or the errno. */
static int write_file(const char *path, const void *buf, size_t len)
{
	return attr_write(path, buf, len) < 0 ? errno : 0;
}

/* Reads up to size - 1 bytes, NUL-terminated; the length or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t n = attr_read(path, buf, size);

	return n < 0 ? -errno : n;
}

static void slot_path(const struct fuzz *f, const struct slot *s, const char *file, char *out,
		      size_t size)
{
	snprintf(out, size, "%s/%s%s%s", f->root, s->name, file ? "/" : "", file ? file : "");
}

static long slot_read_number(const struct fuzz *f, const struct slot *s, const char *file)
{
	char path[512], buf[64];

	slot_path(f, s, file, path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 0);
}

static bool errno_in(int err, const int *list)
{
	for (; *list; list++)
		if (*list == err)
			return true;
	return false;
}

/* What a configfs store may answer besides success. */
static const int attr_errors[] = { EINVAL, EBUSY,  ENODEV,	 ENOENT, ENOMEM, ENOSPC, EACCES,
				   ENXIO,  ERANGE, ENAMETOOLONG, EEXIST, E2BIG,	 0 };

/* --- checkpoints ----------------------------------------------------------- */

/* The device went (or came): its checkpoints went with it. */
static void checkpoints_forget(struct slot *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_checkpoints; i++)
		free(s->checkpoints[i].seq);
	s->nr_checkpoints = 0;
}

static struct checkpoint *checkpoint_find(struct slot *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nr_checkpoints; i++)
		if (!strcmp(s->checkpoints[i].name, name))
			return &s->checkpoints[i];
	return NULL;
}

/* --- clones ------------------------------------------------------------------ */

/*
 * The powered slots whose clone_of names the device of s, and checkpoint
 * ck of it unless ck is NULL: what the kernel says, not the model.
 */
static unsigned int clones_of(struct fuzz *f, struct slot *s, const char *ck)
{
	long index = slot_read_number(f, s, "index");
	char path[512], buf[128], want[80];
	unsigned int i, n = 0;
	size_t len;

	if (index < 0)
		return 0;
	len = (size_t)snprintf(want, sizeof(want), RAMDISK_NAME "%ld %s", index, ck ? ck : "");
	for (i = 0; i < f->nr_slots; i++) {
		struct slot *c = &f->slots[i];

		if (c == s || slot_read_number(f, c, "power") != 1)
			continue;
		slot_path(f, c, "clone_of", path, sizeof(path));
		if (read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		n += ck ? !strcmp(buf, want) : !strncmp(buf, want, len);
	}
	return n;
}

/*
 * A slot just powered on as a clone: it reads the checkpoint's data, with
 * the records of the origin's power-on. A checkpoint the model does not
 * know makes the device's data unknown, not wrong.
 */
static void clone_started(struct fuzz *f, struct slot *s)
{
	char path[512], buf[128], ck_name[40];
	struct checkpoint *ck = NULL;
	unsigned int i;
	long index;

	slot_path(f, s, "clone_of", path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) <= 0 || buf[0] == '\n')
		return;
	if (sscanf(buf, RAMDISK_NAME "%ld %39s", &index, ck_name) == 2) {
		for (i = 0; i < f->nr_slots && !ck; i++)
			if (&f->slots[i] != s && f->slots[i].powered &&
			    slot_read_number(f, &f->slots[i], "index") == index)
				ck = checkpoint_find(&f->slots[i], ck_name);
	}
	if (!ck || !ck->seq) {
		s->shadow.trusted = false;
		fuzz_log(f, " (a clone of a checkpoint the model lacks)");
		return;
	}
	memcpy(s->shadow.seq, ck->seq, sizeof(s->shadow.seq));
	s->shadow.gen = ck->gen;
	if (s->shadow.trusted)
		s->verify_pending = VERIFY_CLONE;
}

/*
 * value_clone_of() names a slot, so that the draws do not depend on which
 * device number the kernel gave it: "slot:K NAME" becomes "ramdiskN NAME"
 * here, once the step is drawn and logged.
 */
static void clone_of_resolve(struct fuzz *f, struct value *v)
{
	unsigned int k, n;
	char name[40];

	if (v->len < 5 || strncmp(v->buf, "slot:", 5) ||
	    sscanf(v->buf, "slot:%u %39s", &k, name) != 2 || k >= f->nr_slots)
		return;
	/* "ck:N": the slot's Nth checkpoint that the model knows, when it has one */
	if (sscanf(name, "ck:%u", &n) == 1 && f->slots[k].nr_checkpoints)
		snprintf(name, sizeof(name), "%s",
			 f->slots[k].checkpoints[n % f->slots[k].nr_checkpoints].name);
	v->len = (size_t)snprintf(v->buf, sizeof(v->buf), RAMDISK_NAME "%ld %s\n",
				  slot_read_number(f, &f->slots[k], "index"), name);
}

/* "ck:N" for rollback: the slot's Nth checkpoint that the model knows, as above. */
static void rollback_resolve(struct slot *s, struct value *v)
{
	unsigned int n;

	if (sscanf(v->buf, "ck:%u", &n) == 1 && s->nr_checkpoints)
		v->len = (size_t)snprintf(v->buf, sizeof(v->buf), "%s\n",
					  s->checkpoints[n % s->nr_checkpoints].name);
}

/* What a store method reads of v: up to a NUL, then its first line. */
static void first_line(const struct value *v, char *out, size_t size)
{
	size_t n = strnlen(v->buf, v->len);

	if (n > size - 1)
		n = size - 1;
	memcpy(out, v->buf, n);
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* The module's rules: 1 to 31 letters, digits, '.', '_' and '-'. */
static bool checkpoint_name_ok(const char *name)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789._-";
	size_t len = strlen(name);

	return len && len < sizeof(((struct checkpoint *)0)->name) && strspn(name, chars) == len;
}

/* The checkpoints file names those taken and not dropped, oldest first. */
static void checkpoints_check_list(struct fuzz *f, struct slot *s)
{
	char path[512], buf[4096], got[1024] = "", want[1024] = "", *line, *save;
	size_t o = 0;
	unsigned int i;

	slot_path(f, s, "checkpoints", path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line && o < sizeof(got) - 40;
	     line = strtok_r(NULL, "\n", &save))
		o += (size_t)snprintf(got + o, sizeof(got) - o, "%.*s ", (int)strcspn(line, " "),
				      line);
	for (i = 0, o = 0; i < s->nr_checkpoints; i++)
		o += (size_t)snprintf(want + o, sizeof(want) - o, "%s ", s->checkpoints[i].name);
	if (strcmp(got, want))
		fuzz_report(f, "%s lists '%.200s', not the checkpoints taken '%.200s'", path, got,
			    want);
}

/* A write to checkpoints was taken: a checkpoint came, with the data now, or went. */
static void checkpoints_accepted(struct fuzz *f, struct slot *s, const struct value *v)
{
	char text[64];
	struct checkpoint *c;

	first_line(v, text, sizeof(text));
	if ((text[0] != '+' && text[0] != '-') || !checkpoint_name_ok(text + 1)) {
		fuzz_report(f, "checkpoints took '%.60s', not +NAME or -NAME", text);
		return;
	}
	c = checkpoint_find(s, text + 1);
	if (text[0] == '+') {
		if (c || s->nr_checkpoints == CHECKPOINTS_MAX) {
			fuzz_report(f, "checkpoints took '%s' with %u checkpoints%s", text,
				    s->nr_checkpoints, c ? ", that one among them" : "");
			return;
		}
		c = &s->checkpoints[s->nr_checkpoints++];
		snprintf(c->name, sizeof(c->name), "%.31s", text + 1);
		c->gen = s->shadow.gen;
		c->seq = malloc(sizeof(s->shadow.seq));
		if (c->seq)
			memcpy(c->seq, s->shadow.seq, sizeof(s->shadow.seq));
	} else {
		if (!c) {
			fuzz_report(f, "checkpoints dropped %s, which the device did not have",
				    text + 1);
			return;
		}
		if (clones_of(f, s, c->name))
			fuzz_report(f, "checkpoints dropped %s, which a powered clone starts from",
				    c->name);
		free(c->seq);
		memmove(c, c + 1,
			(size_t)(s->checkpoints + s->nr_checkpoints - (c + 1)) * sizeof(*c));
		s->nr_checkpoints--;
	}
	checkpoints_check_list(f, s);
}

/* A rollback was taken: the device reads what it read when the checkpoint was taken. */
static void rollback_accepted(struct fuzz *f, struct slot *s, const struct value *v)
{
	struct checkpoint *c;
	char text[64];

	first_line(v, text, sizeof(text));
	c = checkpoint_find(s, text);
	if (!c)
		fuzz_report(f,
			    "rollback to '%.40s', a checkpoint the device did not have, succeeded",
			    text);
	if (c && c->seq) {
		memcpy(s->shadow.seq, c->seq, sizeof(s->shadow.seq));
		if (s->shadow.trusted)
			s->verify_pending = VERIFY_ROLLBACK;
	} else {
		memset(s->shadow.seq, 0xff, sizeof(s->shadow.seq));
	}
}

/* --- write logs ------------------------------------------------------------ */

static bool has_attr(const struct fuzz *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nr_attrs; i++)
		if (!strcmp(f->attrs[i], name))
			return true;
	return false;
}

/*
 * A write log keeps up to write_log_limit bytes of the device's writes in
 * the guest's memory, and rdfuzz runs several slots in a guest of 1-2 GiB.
 * Half the draws on write_log_limit are 4K to 8M (value_write_log_limit());
 * the other half are generic values, some huge (4096T), which the parser
 * must see too. So rather than never draw them, a limit above 8M the module
 * took is put back to 8M at once, and so is the default (64M) of a
 * configuration the mkdir step makes or finds: no limit above 8M stays in
 * effect past a step.
 */
static void write_log_limit_cap(struct fuzz *f, struct slot *s)
{
	char path[512], buf[64];
	int err;

	slot_path(f, s, "write_log_limit", path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) > 0 && strtoull(buf, NULL, 10) <= WRITE_LOG_LIMIT_MAX)
		return;
	err = write_file(path, "8M\n", 3);
	fuzz_log(f, " write_log_limit back to 8M: %s", err ? strerror(err) : "ok");
	if (err)
		fuzz_report(f, "%s refused 8M: %s", path, strerror(err));
}

/*
 * A latency is taken up to 2^32-1 ns and a bandwidth down to 1 MB/s, and
 * the generic values reach both ends (2147483648, 1), which the parser
 * must see. Left in effect, one such value made every later write of its
 * slot wait 2 s: half of a 6,000-step run's time on 6.1 was spent so. The
 * throttle's waiting paths (a bio held while the device powers off) need
 * a wait that outlasts a step, not seconds: a latency above 20 ms the
 * module took is put back to 20 ms at once, a bandwidth below 64 MB/s to
 * 64 (a 4 MiB window then reads in 65 ms).
 */
static void throttle_cap(struct fuzz *f, struct slot *s, const char *attr)
{
	bool bandwidth = !strcmp(attr, "bandwidth_mbps");
	const char *back = bandwidth ? "64\n" : "20000000\n";
	char path[512], buf[64];
	unsigned long long now;
	int err;

	if (!bandwidth && !strstr(attr, "_latency_ns"))
		return;
	slot_path(f, s, attr, path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return;
	now = strtoull(buf, NULL, 10);
	if (bandwidth ? now == 0 || now >= THROTTLE_MBPS_MIN : now <= THROTTLE_LATENCY_MAX_NS)
		return;
	err = write_file(path, back, strlen(back));
	fuzz_log(f, " %s back to %.*s: %s", attr, (int)strlen(back) - 1, back,
		 err ? strerror(err) : "ok");
	if (err)
		fuzz_report(f, "%s refused %.*s: %s", path, (int)strlen(back) - 1, back,
			    strerror(err));
}

/* --- slot state ------------------------------------------------------------ */

/*
 * Learns whether the slot's device came or went: a device that was not
 * powered before and is now is a new device, which must read zeros.
 */
static void slot_sync(struct fuzz *f, struct slot *s)
{
	char path[512], buf[64];
	bool on;

	slot_path(f, s, "power", path, sizeof(path));
	on = read_file(path, buf, sizeof(buf)) > 0 && buf[0] == '1';
	if (on != s->powered) {
		checkpoints_forget(s);
		/* a log goes with its device */
		wlm_reset(&s->wlog);
		s->verify_pending = VERIFY_NONE;
	}
	if (on && !s->powered) {
		slot_path(f, s, "cache_mode", path, sizeof(path));
		s->writeback =
			read_file(path, buf, sizeof(buf)) > 0 && !strncmp(buf, "writeback", 9);
		s->zoned = slot_read_number(f, s, "zoned") == 1;
		shadow_reset(&s->shadow, ++f->next_gen, slot_read_number(f, s, "phys_size") == 0);
		s->cut_unreported = false;
		clone_started(f, s);
	}
	s->powered = on;
}

/* Opens the slot's device; -1 when it has none. */
static int slot_open(struct fuzz *f, struct slot *s, char *dev, size_t size)
{
	long index = slot_read_number(f, s, "index");
	int fd;

	if (index < 0)
		return -1;
	snprintf(dev, size, "/dev/" RAMDISK_NAME "%ld", index);
	fd = open(dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		fuzz_log(f, " open %s: %s", dev, strerror(errno));
	return fd;
}

/* The slot's whole disk, read-only (BLKROSET may be on); -1 when it has none. */
static int slot_open_ro(struct fuzz *f, struct slot *s)
{
	long index = slot_read_number(f, s, "index");
	char dev[64];
	int fd;

	if (index < 0)
		return -1;
	snprintf(dev, sizeof(dev), "/dev/" RAMDISK_NAME "%ld", index);
	fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		fuzz_log(f, " open %s: %s", dev, strerror(errno));
	return fd;
}

/*
 * Reads the first SHADOW_BYTES whole and checks every sector against the
 * model: after a rollback it must be the checkpoint's, on a new clone the
 * checkpoint's too, and the writes of either side since must not show.
 */
static void verify_window(struct fuzz *f, struct slot *s, int fd, const char *what)
{
	uint64_t off, checked = 0;
	unsigned int bad;
	char why[200];
	void *buf;
	ssize_t n;

	if (!s->shadow.trusted || posix_memalign(&buf, 4096, SHADOW_IO_MAX))
		return;
	for (off = 0; off < SHADOW_BYTES; off += SHADOW_IO_MAX) {
		n = pread(fd, buf, SHADOW_IO_MAX, (off_t)off);
		if (n < 0 && badblocks_errno(errno) && slot_has_faults(f, s))
			continue;
		/* a device smaller than the window ends it; blocks above 64K refuse */
		if (n <= 0) {
			if (n < 0 && errno != EINVAL)
				fuzz_report(f, "%s: read %" PRIu64 "+%u: %s", what, off,
					    SHADOW_IO_MAX, strerror(errno));
			break;
		}
		bad = shadow_check(&s->shadow, buf, off, (uint64_t)n, why, sizeof(why));
		checked += (uint64_t)n;
		if (bad) {
			fuzz_report(f, "%s: slot %s read %" PRIu64 "+%zd: %u bad sectors, first %s",
				    what, s->name, off, n, bad, why);
			break;
		}
		if (n < (ssize_t)SHADOW_IO_MAX)
			break;
	}
	free(buf);
	f->bytes_verified += checked;
	f->windows_verified++;
	fuzz_log(f, " %s: %" PRIu64 " bytes read back", what, checked);
}

/* Checks a slot rolled back or a new clone, at the end of the step that made it. */
static void slot_verify_pending(struct fuzz *f, struct slot *s)
{
	int fd;

	if (!s->verify_pending || !s->powered)
		return;
	fd = slot_open_ro(f, s);
	if (fd >= 0) {
		if (s->verify_pending == VERIFY_ROLLBACK) {
			verify_window(f, s, fd, "after the rollback");
			f->rollbacks_verified++;
		} else {
			verify_window(f, s, fd, "the new clone");
			f->clones_verified++;
		}
		close(fd);
	}
	s->verify_pending = VERIFY_NONE;
}

/* Reads the slot's write log and compares it with the model; its state or -1. */
static int slot_wlog_check(struct fuzz *f, struct slot *s)
{
	int fd = slot_open_ro(f, s), state;

	if (fd < 0)
		return -1;
	state = wlm_check(f, s, fd);
	close(fd);
	return state;
}

static uint64_t slot_write_log_limit(const struct fuzz *f, const struct slot *s)
{
	char path[512], buf[64];

	slot_path(f, s, "write_log_limit", path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return strtoull(buf, NULL, 10);
}

/* A write to write_log was taken: the model follows it, and the log is read. */
static void wlog_accepted(struct fuzz *f, struct slot *s, const struct value *v)
{
	struct wlog_model *m = &s->wlog;
	struct value ck;
	char text[160];

	first_line(v, text, sizeof(text));
	f->log_commands++;
	if (!strcmp(text, "start") || !strncmp(text, "start ", 6)) {
		if (m->state != RAMDISK_WLOG_OFF)
			fuzz_report(f, "write_log took '%.60s' with a log that was %s", text,
				    wlm_state_name(m->state));
		wlm_start(m, slot_write_log_limit(f, s));
		/* "start CK" took checkpoint CK too, as "+CK" does */
		if (text[5]) {
			ck.len = (size_t)snprintf(ck.buf, sizeof(ck.buf), "+%s", text + 6);
			checkpoints_accepted(f, s, &ck);
		}
	} else if (!strcmp(text, "stop")) {
		if (m->state != RAMDISK_WLOG_RECORDING)
			fuzz_report(f, "write_log took stop with a log that was %s",
				    wlm_state_name(m->state));
		m->state = RAMDISK_WLOG_STOPPED;
	} else if (!strcmp(text, "clear")) {
		wlm_reset(m);
	} else if (!strncmp(text, "mark ", 5)) {
		if (m->state != RAMDISK_WLOG_RECORDING)
			fuzz_report(f, "write_log took a mark with a log that was %s",
				    wlm_state_name(m->state));
		wlm_add(m, WL_MARK, 0, 0, 0, 0, text + 5);
	} else {
		fuzz_report(f, "write_log took '%.60s', no command of it", text);
		wlm_unsure(m);
	}
	slot_wlog_check(f, s);
}

/* --- actions ----------------------------------------------------------------- */

static void do_mkdir(struct fuzz *f, struct slot *s, uint64_t x1, const struct value *v)
{
	char path[512], name[300];
	size_t i, n;

	if (x1 % 8) {
		slot_path(f, s, NULL, path, sizeof(path));
		if (mkdir(path, 0755) && errno != EEXIST)
			fuzz_report(f, "mkdir %s: %s", path, strerror(errno));
		else if (has_attr(f, "write_log_limit"))
			write_log_limit_cap(f, s);
		fuzz_log(f, " done");
		return;
	}
	/* an odd name: long, dots, control bytes; kept only until rmdir */
	n = v->len < 255 ? v->len : 255;
	for (i = 0; i < n; i++)
		name[i] = v->buf[i] == '/' || !v->buf[i] ? '_' : v->buf[i];
	name[n] = '\0';
	snprintf(path, sizeof(path), "%s/%s", f->root, name);
	if (!mkdir(path, 0755)) {
		if (strlen(name) >= 64)
			fuzz_report(f, "a %zu-byte name was accepted", strlen(name));
		if (rmdir(path))
			fuzz_report(f, "rmdir of a fresh odd name: %s", strerror(errno));
		fuzz_log(f, " made and removed");
	} else {
		fuzz_log(f, " %s", strerror(errno));
	}
}

/* A powered configuration pins its directory: rmdir must refuse it. */
static void do_rmdir(struct fuzz *f, struct slot *s)
{
	char path[512];

	slot_sync(f, s);
	slot_path(f, s, NULL, path, sizeof(path));
	if (rmdir(path)) {
		if (errno != ENOENT && errno != EBUSY)
			fuzz_report(f, "rmdir %s: %s", path, strerror(errno));
		fuzz_log(f, " %s", strerror(errno));
		return;
	}
	if (s->powered)
		fuzz_report(f, "rmdir %s removed a powered configuration", path);
	s->powered = false;
	fuzz_log(f, " removed");
}

/*
 * buf without the counts of fault rules (" # seen=N injected=N"), which
 * move with the I/O in flight (the busy reader's): cut in place.
 */
static char *without_counts(char *buf)
{
	char *in = buf, *out = buf, *hash;

	while (*in) {
		hash = strstr(in, " # seen=");
		if (!hash) {
			memmove(out, in, strlen(in) + 1);
			return buf;
		}
		memmove(out, in, (size_t)(hash - in));
		out += hash - in;
		in = hash + strcspn(hash, "\n");
	}
	*out = '\0';
	return buf;
}

/* The slot's device lost power: in writeback mode, what was not durable. True if so. */
static bool slot_cut(struct fuzz *f, struct slot *s)
{
	if (!s->writeback)
		return false;
	memset(s->shadow.seq, 0xff, sizeof(s->shadow.seq));
	s->cut_unreported = true;
	/* the cut ends a log that records, with every write it acknowledged */
	if (s->wlog.state == RAMDISK_WLOG_RECORDING) {
		s->wlog.state = RAMDISK_WLOG_CUT;
		slot_wlog_check(f, s);
	}
	return true;
}

/* A write the kernel refused must leave the value as it was. */
static int do_attr(struct fuzz *f, struct slot *s, const char *attr, const struct value *v)
{
	char path[512], before[4096], after[4096], text[64];
	ssize_t had;
	int err;

	slot_path(f, s, attr, path, sizeof(path));
	/* the log as it was, before a command (clear) may end it */
	if (!strcmp(attr, "write_log") && s->powered && s->wlog.state != RAMDISK_WLOG_OFF)
		slot_wlog_check(f, s);
	had = read_file(path, before, sizeof(before));
	err = write_file(path, v->buf, v->len);
	if (!err) {
		f->ok++;
		fuzz_log(f, " accepted");
		if (!strcmp(attr, "power_cut"))
			slot_cut(f, s);
		if (!strcmp(attr, "checkpoints"))
			checkpoints_accepted(f, s, v);
		if (!strcmp(attr, "rollback")) {
			rollback_accepted(f, s, v);
			/* refused (EBUSY) while the log records, unless it stopped by itself */
			if (s->wlog.state == RAMDISK_WLOG_RECORDING &&
			    slot_wlog_check(f, s) == RAMDISK_WLOG_RECORDING)
				fuzz_report(f, "rollback succeeded while the write log recorded");
		}
		if (!strcmp(attr, "write_log"))
			wlog_accepted(f, s, v);
		throttle_cap(f, s, attr);
		if (!strcmp(attr, "write_log_limit")) {
			wlm_limit(&s->wlog, slot_write_log_limit(f, s));
			write_log_limit_cap(f, s);
			wlm_limit(&s->wlog, slot_write_log_limit(f, s));
		}
		return 0;
	}
	f->refused++;
	fuzz_log(f, " %s", strerror(err));
	/*
	 * configfs itself answers an empty write with EFAULT; reserved memory
	 * and clones take no checkpoints (nor then start CK)
	 */
	first_line(v, text, sizeof(text));
	if (!errno_in(err, attr_errors) && !(err == EFAULT && !v->len) &&
	    !(err == EOPNOTSUPP && !strcmp(attr, "checkpoints")) &&
	    !(err == EOPNOTSUPP && !strcmp(attr, "write_log") && !strncmp(text, "start ", 6)) &&
	    !(err == ENOTEMPTY && !strcmp(attr, "power")))
		fuzz_report(f, "%s: unexpected error %s", path, strerror(err));
	/* only a device that clones start from stays powered so */
	if (err == ENOTEMPTY && !clones_of(f, s, NULL))
		fuzz_report(f, "%s: ENOTEMPTY, yet no powered clone names the device", path);
	/* only a log that exists refuses start with EBUSY */
	if (err == EBUSY && !strcmp(attr, "write_log") && s->powered &&
	    s->wlog.state == RAMDISK_WLOG_OFF && !strcmp(text, "start"))
		fuzz_report(f, "write_log refused start with EBUSY, with no log");
	/*
	 * write_log reads a state that moves by itself: a log overflows, or
	 * fails, with I/O in flight (the busy reader's flushes), so it may
	 * read "recording" before a refused write and "overflowed" after.
	 */
	if (strcmp(attr, "write_log") && had >= 0 && read_file(path, after, sizeof(after)) >= 0 &&
	    strcmp(without_counts(before), without_counts(after)))
		fuzz_report(f, "%s changed from %.40s to %.40s by a refused write", path, before,
			    after);
	return err;
}

/*
 * A command of the crash machinery: the attribute is drawn, the value
 * made. The slot is made ready first, as a user would: its directory made
 * and its device powered on, or, for a clone, powered off; a clone_of that
 * is taken powers the slot on: a new clone.
 */
static void do_crash(struct fuzz *f, struct slot *s, const char *attr, const struct value *v,
		     uint64_t x3)
{
	const char *mode = x3 % 2 ? "writeback" : "writethrough";
	static struct value cm;
	static const struct value on = { .buf = "1", .len = 1 }, off = { .buf = "0", .len = 1 };
	bool clone = !strcmp(attr, "clone_of");
	char path[512];

	slot_path(f, s, NULL, path, sizeof(path));
	if (access(path, F_OK)) {
		fuzz_log(f, " mkdir");
		if (mkdir(path, 0755) && errno != EEXIST) {
			fuzz_report(f, "mkdir %s: %s", path, strerror(errno));
			return;
		}
		if (has_attr(f, "write_log_limit"))
			write_log_limit_cap(f, s);
	}
	if (s->powered == clone) {
		fuzz_log(f, " power %d", !clone);
		if (!clone) {
			cm.len = (size_t)snprintf(cm.buf, sizeof(cm.buf), "%s", mode);
			do_attr(f, s, "cache_mode", &cm);
		}
		if (do_attr(f, s, "power", clone ? &off : &on))
			return;
		slot_sync(f, s);
	}
	if (do_attr(f, s, attr, v) || !clone || v->buf[0] == '\n')
		return;
	fuzz_log(f, " power 1");
	do_attr(f, s, "power", &on);
}

/*
 * Extents come in order, inside the device, and a last answer covers every
 * sector the shadow knows to hold data.
 */
static void check_extents(struct fuzz *f, struct slot *s, const struct ramdisk_extents *req,
			  uint32_t room, const struct ramdisk_extent *ext, uint64_t dev_size)
{
	uint64_t i, sec, prev_end = req->start;

	if (req->count > room) {
		fuzz_report(f, "%u extents filled into room for %u", req->count, room);
		return;
	}

	for (i = 0; i < req->count; i++) {
		if (ext[i].offset < prev_end || !ext[i].length ||
		    ext[i].offset + ext[i].length > dev_size) {
			fuzz_report(f,
				    "extent %" PRIu64 " (%" PRIu64 "+%" PRIu64
				    ") overlaps, is empty or passes the end",
				    i, (uint64_t)ext[i].offset, (uint64_t)ext[i].length);
			return;
		}
		prev_end = ext[i].offset + ext[i].length;
	}
	/* data written through a writeback cache may not have reached the store */
	if (!(req->flags & RAMDISK_EXTENTS_LAST) || s->writeback || !s->shadow.trusted ||
	    req->start >= SHADOW_BYTES)
		return;
	for (sec = (req->start + 511) / 512; sec < SHADOW_SECTORS; sec++) {
		uint64_t seq = s->shadow.seq[sec], off = sec * 512;
		bool inside = false;

		if (!seq || seq == SEQ_UNKNOWN)
			continue;
		for (i = 0; i < req->count && !inside; i++)
			inside = off >= ext[i].offset && off < ext[i].offset + ext[i].length;
		if (!inside) {
			fuzz_report(f, "sector %" PRIu64 " holds data but no extent covers it",
				    sec);
			return;
		}
	}
}

static void io_extents(struct fuzz *f, struct slot *s, int fd, uint64_t x2, uint64_t x3)
{
	static const uint32_t counts[] = { 0, 1, 2, 3, 17, 4096, 4097, UINT32_MAX };
	struct ramdisk_extent *ext;
	struct ramdisk_extents req = {
		.start = (x2 % 3) ? (x2 >> 8) % (2 * SHADOW_BYTES) : x2,
		.count = counts[(x3 >> 4) % 8],
		.flags = (x3 % 8 == 0) ? (uint32_t)(x3 >> 32) : 0,
	};
	uint32_t room = req.count;
	uint64_t dev_size = 0;
	int err = 0;

	ext = calloc(RAMDISK_EXTENTS_MAX + 1, sizeof(*ext));
	if (!ext)
		return;
	req.extents = x3 % 8 == 1 ? 8 : (uintptr_t)ext; /* 8: an address nobody maps */
	if (ioctl(fd, RAMDISK_IOC_GET_EXTENTS, &req))
		err = errno;
	fuzz_log(f, " extents start %" PRIu64 ": %s", (uint64_t)req.start,
		 err ? strerror(err) : "ok");
	if (err && err != EINVAL && err != EFAULT)
		fuzz_report(f, "RAMDISK_IOC_GET_EXTENTS: unexpected error %s", strerror(err));
	/* with nothing to report it need not touch the array */
	if (!err && x3 % 8 == 1 && req.count)
		fuzz_report(f, "RAMDISK_IOC_GET_EXTENTS filled %u extents at address 8", req.count);
	if (!err && x3 % 8 != 1 && !ioctl(fd, BLKGETSIZE64, &dev_size))
		check_extents(f, s, &req, room, ext, dev_size);
	free(ext);
}

/*
 * Whether the slot injects faults now, bad blocks or schedule rules: then
 * reads, writes and flushes may fail with the errors a fault gives, and a
 * failed write may have moved the sectors before its first bad one.
 */
static bool slot_has_faults(const struct fuzz *f, const struct slot *s)
{
	char path[512], buf[8];

	slot_path(f, s, "badblocks", path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) > 0)
		return true;
	slot_path(f, s, "fault_schedule", path, sizeof(path));
	return read_file(path, buf, sizeof(buf)) > 0;
}

/* Whether a rule of the slot's schedule drops bios: a write that passed may not have landed. */
static bool slot_may_drop(const struct fuzz *f, const struct slot *s)
{
	char path[512], buf[4096];

	slot_path(f, s, "fault_schedule", path, sizeof(path));
	return read_file(path, buf, sizeof(buf)) > 0 && strstr(buf, " drop");
}

/* Block ioctls a user of the device or an administrator may send. */
static void io_block_ioctl(struct fuzz *f, struct slot *s, int fd, uint64_t x2, uint64_t x3)
{
	uint64_t off = (x2 % SHADOW_SECTORS) * 512;
	uint64_t range[2] = { off, 512 * (1 + x3 % 2048) };
	unsigned long cmd = 0;
	const char *name = "";
	int err = 0, arg;

	if (range[0] + range[1] > SHADOW_BYTES)
		range[1] = SHADOW_BYTES - range[0];
	switch ((x2 >> 32) % 8) {
	case 0:
	case 1:
		name = "BLKDISCARD";
		cmd = BLKDISCARD;
		break;
	case 2:
	case 3:
		name = "BLKZEROOUT";
		cmd = BLKZEROOUT;
		break;
	case 4:
		name = "BLKSECDISCARD";
		cmd = BLKSECDISCARD;
		break;
	case 5:
		name = "BLKFLSBUF";
		if (ioctl(fd, BLKFLSBUF, 0))
			err = errno;
		break;
	case 6:
		/* read-only lasts until power off; writes then fail with EPERM */
		name = "BLKROSET";
		arg = (x3 >> 20) % 4 == 0;
		if (ioctl(fd, BLKROSET, &arg))
			err = errno;
		break;
	default:
		name = "BLKRRPART";
		if (ioctl(fd, BLKRRPART, 0))
			err = errno;
		break;
	}
	if (cmd && ioctl(fd, cmd, range))
		err = errno;
	fuzz_log(f, " %s %" PRIu64 "+%" PRIu64 ": %s", name, range[0], range[1],
		 err ? strerror(err) : "ok");
	if (!cmd)
		return;
	if (!err && cmd != BLKSECDISCARD && !slot_may_drop(f, s)) {
		shadow_set(&s->shadow, range[0], range[1], 0);
		wlm_add(&s->wlog, cmd == BLKDISCARD ? WL_DISCARD : WL_ZEROES, range[0], range[1], 0,
			0, NULL);
	} else if (err != EINVAL && err != EOPNOTSUPP && err != EPERM) {
		shadow_set(&s->shadow, range[0], range[1], SEQ_UNKNOWN);
		/* part of it may be in the log, or all of it */
		wlm_unsure(&s->wlog);
	}
}

/* A number from the device's queue directory in sysfs, or -1. */
static long queue_read_number(const struct fuzz *f, const struct slot *s, const char *file)
{
	long index = slot_read_number(f, s, "index");
	char path[512], buf[64];

	if (index < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/block/" RAMDISK_NAME "%ld/queue/%s", index, file);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 0);
}

/*
 * The atomic write limits must be those configured (unit_min 0: one
 * logical block); the module refuses to power on when the block layer
 * lowers them. Kernels without the attributes, or whose queues have no
 * atomic write files, have nothing to check.
 */
static void io_atomic_limits(struct fuzz *f, struct slot *s, long bs)
{
	long want_max = slot_read_number(f, s, "atomic_write_unit_max");
	long want_min = slot_read_number(f, s, "atomic_write_unit_min");
	long got_min, got_max;

	if (want_max < 0)
		return;
	if (!want_max)
		want_min = 0;
	else if (!want_min)
		want_min = bs;
	got_min = queue_read_number(f, s, "atomic_write_unit_min_bytes");
	got_max = queue_read_number(f, s, "atomic_write_unit_max_bytes");
	fuzz_log(f, " atomic %ld-%ld", got_min, got_max);
	/* a queue without the files (6.1) takes no atomic writes, nor does the configuration */
	if (got_min < 0 && got_max < 0 && !want_max)
		return;
	if (got_min != want_min || got_max != want_max)
		fuzz_report(
			f,
			"device takes atomic writes of %ld to %ld bytes, configuration says %ld to %ld",
			got_min, got_max, want_min, want_max);
}

/* The device's geometry must be what its configuration says. */
static void io_geometry(struct fuzz *f, struct slot *s, int fd)
{
	long want_bs = slot_read_number(f, s, "block_size");
	char path[512], buf[64];
	uint64_t size = 0, want_size;
	int bs = 0;

	slot_path(f, s, "size", path, sizeof(path));
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return;
	want_size = strtoull(buf, NULL, 10);
	if (ioctl(fd, BLKGETSIZE64, &size) || ioctl(fd, BLKSSZGET, &bs)) {
		fuzz_report(f, "BLKGETSIZE64 or BLKSSZGET: %s", strerror(errno));
		return;
	}
	fuzz_log(f, " geometry %" PRIu64 "/%d", size, bs);
	if (size != want_size || bs != want_bs)
		fuzz_report(f,
			    "device has %" PRIu64 " bytes of %d, configuration says %" PRIu64
			    " of %ld",
			    size, bs, want_size, want_bs);
	io_atomic_limits(f, s, want_bs);
}

static bool badblocks_errno(int err)
{
	return err == EIO || err == ENODATA || err == ENOSPC || err == ETIMEDOUT;
}

static void io_write(struct fuzz *f, struct slot *s, int fd, uint64_t off, uint64_t len, void *buf)
{
	uint64_t seq = ++f->next_seq;
	bool injected;
	ssize_t n;
	int err;

	shadow_fill(&s->shadow, buf, off, len, seq);
	n = pwrite(fd, buf, len, (off_t)off);
	if (n == (ssize_t)len) {
		if (slot_may_drop(f, s)) {
			shadow_set(&s->shadow, off, len, SEQ_UNKNOWN);
			wlm_unsure(&s->wlog);
		} else {
			shadow_set(&s->shadow, off, len, seq);
			wlm_add(&s->wlog, WL_WRITE, off, len, seq, s->shadow.gen, NULL);
		}
		f->bytes_written += len;
		fuzz_log(f, " write %" PRIu64 "+%" PRIu64 ": ok", off, len);
		return;
	}
	err = n < 0 ? errno : 0;
	injected = err && badblocks_errno(err) && slot_has_faults(f, s);
	fuzz_log(f, " write %" PRIu64 "+%" PRIu64 ": %s%s", off, len, err ? strerror(err) : "short",
		 injected ? " (injected)" : "");
	/* a fault set up, or a zoned device's open and active zone limits (BLK_STS_ZONE_*_RESOURCE) */
	if (err && err != EIO && err != ENOSPC && err != EPERM && !injected &&
	    !(s->zoned && (err == ETOOMANYREFS || err == EOVERFLOW)))
		fuzz_report(f, "write: unexpected error %s", strerror(err));
	/* some of it may have landed, and its parts that completed be in the log */
	if (n != 0 && err != EPERM) {
		shadow_set(&s->shadow, off, len, SEQ_UNKNOWN);
		wlm_unsure(&s->wlog);
	}
}

static void io_read(struct fuzz *f, struct slot *s, int fd, uint64_t off, uint64_t len, void *buf)
{
	char why[200];
	unsigned int bad;
	ssize_t n;
	int err;

	n = pread(fd, buf, len, (off_t)off);
	err = n < 0 ? errno : 0;
	if (err && badblocks_errno(err) && slot_has_faults(f, s)) {
		fuzz_log(f, " read %" PRIu64 "+%" PRIu64 ": %s (injected)", off, len,
			 strerror(err));
		return;
	}
	if (err) {
		fuzz_report(f, "read %" PRIu64 "+%" PRIu64 ": %s", off, len, strerror(err));
		return;
	}
	bad = shadow_check(&s->shadow, buf, off, (uint64_t)n, why, sizeof(why));
	fuzz_log(f, " read %" PRIu64 "+%zd: %u bad", off, n, bad);
	f->bytes_verified += s->shadow.trusted ? (uint64_t)n : 0;
	if (bad)
		fuzz_report(f, "ramdisk slot %s read %" PRIu64 "+%zd: %u bad sectors, first %s",
			    s->name, off, n, bad, why);
}

static void io_random_ioctl(struct fuzz *f, int fd, uint64_t x2, uint64_t x3, void *buf)
{
	unsigned long cmd = _IOC((x2 % 4), RAMDISK_IOC_MAGIC, (x2 >> 8) % 8, (x3 % 64));
	void *arg = x3 % 4 ? buf : (void *)8;
	int err = 0;

	memset(buf, (int)(x3 >> 8) & 0xff, 4096);
	if (ioctl(fd, cmd, arg))
		err = errno;
	fuzz_log(f, " ioctl 0x%lx: %s", cmd, err ? strerror(err) : "ok");
	if (!err && cmd != RAMDISK_IOC_GET_EXTENTS)
		fuzz_report(f, "ioctl 0x%lx, which the module does not have, succeeded", cmd);
	if (err && err != ENOTTY && err != EINVAL && err != EFAULT)
		fuzz_report(f, "ioctl 0x%lx: unexpected error %s", cmd, strerror(err));
}

static void do_io(struct fuzz *f, struct slot *s, uint64_t x1, uint64_t x2, uint64_t x3)
{
	uint64_t off, len, unit = 4096;
	char dev[64];
	void *buf;
	int fd, bs = 0;

	fd = slot_open(f, s, dev, sizeof(dev));
	if (fd < 0)
		return;
	/*
	 * Direct I/O in whole logical blocks: a device with blocks above 4 KiB
	 * refuses less, rightly, and that is not what this step tests.
	 */
	if (!ioctl(fd, BLKSSZGET, &bs) && bs > 4096 && (unsigned int)bs <= SHADOW_IO_MAX)
		unit = (uint64_t)bs;
	off = (x2 % (SHADOW_BYTES / unit)) * unit;
	len = unit * (1 + x3 % (SHADOW_IO_MAX / unit));
	if (off + len > SHADOW_BYTES)
		len = SHADOW_BYTES - off;
	if (posix_memalign(&buf, 4096, SHADOW_IO_MAX)) {
		close(fd);
		return;
	}
	switch (x1 % IO_OPS) {
	case 0:
	case 1:
	case 2:
	case 3:
		io_write(f, s, fd, off, len, buf);
		break;
	case 4:
	case 5:
	case 6:
		io_read(f, s, fd, off, len, buf);
		break;
	case 7:
	case 8:
	case 9:
		io_block_ioctl(f, s, fd, x2, x3);
		break;
	case 10:
		if (!fsync(fd))
			s->cut_unreported = false;
		else if (errno == EIO && s->cut_unreported)
			s->cut_unreported = false;
		else if (badblocks_errno(errno) && slot_has_faults(f, s))
			fuzz_log(f, " fsync: %s (injected)", strerror(errno));
		/* the cache's write-back may meet mem_limit, as a write would */
		else if (errno == ENOSPC && s->writeback)
			fuzz_log(f, " fsync: %s (mem_limit)", strerror(errno));
		else
			fuzz_report(f, "fsync %s: %s", dev, strerror(errno));
		fuzz_log(f, " fsync");
		break;
	case 11:
		io_geometry(f, s, fd);
		break;
	case 12:
		io_extents(f, s, fd, x2, x3);
		break;
	case 14:
		wlm_check(f, s, fd);
		break;
	case 15:
		verify_window(f, s, fd, "the whole window");
		break;
	default:
		io_random_ioctl(f, fd, x2, x3, buf);
		break;
	}
	free(buf);
	close(fd);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A write to a sysfs file of the device or the module. The block layer's
 * queue files may take it or not; the module's own files are read-only
 * and must refuse.
 */
static void do_sysfs(struct fuzz *f, struct slot *s, uint64_t x1, uint64_t x2,
		     const struct value *v)
{
	static const char *const dirs[] = { "/sys/block/%s/queue", "/sys/block/%s",
					    "/sys/block/%s/" RAMDISK_SYSFS_STATS,
					    "/sys/module/" RAMDISK_NAME "/parameters" };
	char dev[32], dir[256], path[600], *names[256];
	unsigned int n = 0, i, which = (unsigned int)(x1 % 4);
	long index = slot_read_number(f, s, "index");
	struct dirent *e;
	struct stat st;
	DIR *d;
	int err;

	if (index < 0)
		return;
	snprintf(dev, sizeof(dev), RAMDISK_NAME "%ld", index);
	snprintf(dir, sizeof(dir), dirs[which], dev);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)) && n < 256) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* the module's files are all tried: they must refuse */
		if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
		    (which < 2 && !(st.st_mode & S_IWUSR)))
			continue;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (!n)
		return;
	qsort(names, n, sizeof(names[0]), name_cmp);
	snprintf(path, sizeof(path), "%s/%s", dir, names[x2 % n]);
	err = write_file(path, v->buf, v->len);
	fuzz_log(f, " %s: %s", path, err ? strerror(err) : "accepted");
	if (!err && which >= 2)
		fuzz_report(f, "read-only %s accepted a write", path);
	for (i = 0; i < n; i++)
		free(names[i]);
}

static void do_busy(struct fuzz *f, struct slot *s, uint64_t x2)
{
	char dev[64];
	long index = slot_read_number(f, s, "index");

	if (f->busy || index < 0)
		return;
	snprintf(dev, sizeof(dev), "/dev/" RAMDISK_NAME "%ld", index);
	f->busy = busy_start(dev, x2, 20 + (unsigned int)(x2 % 400));
	fuzz_log(f, " %s", f->busy ? "reader started" : "no reader");
}

/* Every show method of the slot, of the device's statistics and of the root. */
static void do_show(struct fuzz *f, struct slot *s)
{
	char path[600], buf[4096];
	unsigned int i;
	ssize_t n;

	for (i = 0; i < f->nr_attrs; i++) {
		slot_path(f, s, f->attrs[i], path, sizeof(path));
		n = read_file(path, buf, sizeof(buf));
		if (n < 0 && n != -EACCES && n != -ENOENT && n != -EINVAL)
			fuzz_report(f, "reading %s: %s", path, strerror((int)-n));
	}
	/* the root's files: defaults makes and shows a whole item of its own */
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", f->root, i ? "defaults" : "features");
		if (read_file(path, buf, sizeof(buf)) < 0)
			fuzz_report(f, "reading %s: %s", path, strerror(errno));
	}
	fuzz_log(f, " shown");
}

/* Whether the slot's device is powered and in power domain `domain`. */
static bool slot_in_domain(struct fuzz *f, struct slot *t, const char *domain)
{
	char path[600], name[64];

	slot_path(f, t, "power_domain", path, sizeof(path));
	if (!t->powered || read_file(path, name, sizeof(name)) <= 0)
		return false;
	name[strcspn(name, "\n")] = '\0';
	return !strcmp(name, domain);
}

/*
 * A cut of a power domain, written to the root: every powered member is
 * cut as by its own power_cut, and no other device is. The value is one
 * of the names the power_domain writes draw, or anything.
 */
static void do_domain_cut(struct fuzz *f, const struct value *v)
{
	char path[600], text[64];
	unsigned int i;
	int err;

	snprintf(path, sizeof(path), "%s/power_cut_domain", f->root);
	if (access(path, F_OK)) {
		fuzz_log(f, " no power_cut_domain");
		return;
	}
	err = write_file(path, v->buf, v->len);
	if (err) {
		f->refused++;
		fuzz_log(f, " %s", strerror(err));
		/* no such domain or a bad name, none powered, an empty write */
		if (err != EINVAL && err != ENODEV && !(err == EFAULT && !v->len))
			fuzz_report(f, "%s: unexpected error %s", path, strerror(err));
		return;
	}
	f->ok++;
	f->domain_cuts++;
	fuzz_log(f, " accepted");
	first_line(v, text, sizeof(text));
	for (i = 0; i < f->nr_slots; i++)
		if (slot_in_domain(f, &f->slots[i], text) && slot_cut(f, &f->slots[i]))
			f->domain_members_cut++;
}

/*
 * Writes v to the root's file, "DOMAIN COMMAND": an error the file may
 * not answer with is reported, and an accepted line without a domain.
 * The errno (0: taken, counting it in *taken), with the domain and the
 * command in domain and *cmd; -1 when there is nothing for the model to
 * follow (no such file, no domain in the line).
 */
static int domain_command(struct fuzz *f, const char *file, const struct value *v,
			  const int *errors, uint64_t *taken, char *text, size_t size, char *domain,
			  size_t dsize, const char **cmd)
{
	char path[600];
	const char *blank;
	int err;

	snprintf(path, sizeof(path), "%s/%s", f->root, file);
	if (access(path, F_OK)) {
		fuzz_log(f, " no %s", file);
		return -1;
	}
	err = write_file(path, v->buf, v->len);
	first_line(v, text, size);
	blank = strchr(text, ' ');
	if (err) {
		f->refused++;
		fuzz_log(f, " %s", strerror(err));
		if (!errno_in(err, errors) && !(err == EFAULT && !v->len))
			fuzz_report(f, "%s: unexpected error %s", path, strerror(err));
	} else {
		f->ok++;
		(*taken)++;
		fuzz_log(f, " accepted");
		if (!blank)
			fuzz_report(f, "%s took '%.60s', with no domain", file, text);
	}
	if (!blank)
		return -1;
	snprintf(domain, dsize, "%.*s", (int)(blank - text), text);
	*cmd = blank + 1;
	return err;
}

/* What a domain's checkpoint may be refused with (the kernel log says why). */
static const int domain_checkpoint_errors[] = { EINVAL, ENODEV, EEXIST, ENOSPC, EOPNOTSUPP,
						ENOENT, EBUSY,	ENOMEM, 0 };

/*
 * A power domain's checkpoint, written to the root: "DOMAIN +NAME" or
 * "DOMAIN -NAME" takes or drops NAME on every member, or on none. The
 * model follows every member when it is taken, and checks every powered
 * member's list when it is refused: a member that moved alone is
 * reported.
 */
static void do_domain_checkpoint(struct fuzz *f, const struct value *v)
{
	char text[80], domain[64];
	const char *cmd;
	unsigned int i;
	int err;

	err = domain_command(f, "checkpoint_domain", v, domain_checkpoint_errors,
			     &f->domain_checkpoints, text, sizeof(text), domain, sizeof(domain),
			     &cmd);
	if (err < 0)
		return;
	for (i = 0; i < f->nr_slots; i++) {
		struct slot *t = &f->slots[i];
		struct value one;

		if (!slot_in_domain(f, t, domain))
			continue;
		if (err) {
			checkpoints_check_list(f, t);
			continue;
		}
		one.len = (size_t)snprintf(one.buf, sizeof(one.buf), "%s", cmd);
		checkpoints_accepted(f, t, &one);
	}
}

/* What a domain's write log command may be refused with. */
static const int domain_wlog_errors[] = { EINVAL,     ENODEV, EEXIST, ENOSPC,
					  EOPNOTSUPP, EBUSY,  ENOMEM, 0 };

/*
 * A power domain's write log, written to the root: "DOMAIN start CK"
 * starts every member's log with checkpoint CK of them all, "DOMAIN stop"
 * stops every member's that records, "DOMAIN clear" clears them all. The
 * model follows every member as if each had been sent the command alone;
 * a refusal must leave every member's log and checkpoints as they were.
 */
static void do_domain_write_log(struct fuzz *f, const struct value *v)
{
	char path[600], text[160], domain[64], state[32];
	const char *cmd;
	struct value one;
	unsigned int i;
	int err;

	err = domain_command(f, "write_log_domain", v, domain_wlog_errors, &f->domain_logs, text,
			     sizeof(text), domain, sizeof(domain), &cmd);
	if (err < 0)
		return;
	one.len = (size_t)snprintf(one.buf, sizeof(one.buf), "%s", cmd);
	for (i = 0; i < f->nr_slots; i++) {
		struct slot *t = &f->slots[i];

		if (!slot_in_domain(f, t, domain))
			continue;
		if (err) {
			slot_wlog_check(f, t);
			checkpoints_check_list(f, t);
			continue;
		}
		/* stop passes over a log that stopped by itself (overflowed, failed) */
		slot_path(f, t, "write_log", path, sizeof(path));
		if (!strcmp(one.buf, "stop") &&
		    (read_file(path, state, sizeof(state)) <= 0 || strncmp(state, "stopped", 7))) {
			slot_wlog_check(f, t);
			continue;
		}
		wlog_accepted(f, t, &one);
	}
}

void fuzz_init(struct fuzz *f)
{
	unsigned int i;

	for (i = 0; i < f->nr_slots; i++) {
		snprintf(f->slots[i].name, sizeof(f->slots[i].name), "rdfuzz%u", i);
		shadow_reset(&f->slots[i].shadow, 0, true);
	}
}

void fuzz_step(struct fuzz *f)
{
	unsigned int total = 0, pick, a, i;
	uint64_t x1, x2, x3;
	struct value v;
	char text[160];
	struct slot *s;

	/* the draws: the same for a seed whatever happens below */
	for (a = 0; a < A_NR; a++)
		total += action_weights[a];
	pick = (unsigned int)rng_below(&f->rng, total);
	for (a = 0; pick >= action_weights[a]; a++)
		pick -= action_weights[a];
	s = &f->slots[rng_below(&f->rng, f->nr_slots)];
	x1 = rng_next(&f->rng);
	x2 = rng_next(&f->rng);
	x3 = rng_next(&f->rng);
	value_make(&f->rng, &v);
	f->step++;

	/* half the fault writes are lines of their syntax, which reach the checks */
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "badblocks") && x2 % 2)
		value_badblocks(x2 >> 1, x3, &v);
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "fault_schedule") && x2 % 2)
		value_fault_schedule(x2 >> 1, x3, &v);
	/* and half the checkpoint writes name checkpoints, which meet each other */
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "checkpoints") && x2 % 2)
		value_checkpoints(x2 >> 1, &v);
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "rollback") && x2 % 2)
		value_rollback(x2 >> 1, &v);
	/* and half the clone_of writes name a checkpoint of one slot's device */
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "clone_of") && x2 % 2)
		value_clone_of(x2 >> 4, (unsigned int)((x2 >> 1) % f->nr_slots), &v);
	/*
	 * and half the write log writes are its commands, never "start CK":
	 * the checkpoint that takes would be unknown to the model, and a
	 * later +CK or rollback to it would be reported wrongly
	 */
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "write_log") && x2 % 2)
		value_write_log(x2 >> 1, &v);
	/* and half the limits are small; do_attr() puts larger ones back to 8M */
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "write_log_limit") && x2 % 2)
		value_write_log_limit(x2 >> 1, &v);
	/* the crash action always makes a value of its attribute's syntax */
	if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "checkpoints"))
		value_checkpoints(x2, &v);
	/*
	 * and most rollbacks and clones name a checkpoint the slot has:
	 * "ck:N" becomes its name once the step is drawn and logged
	 */
	if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "rollback") && x2 % 4)
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), "ck:%u",
					 (unsigned int)(x2 >> 8) % 16);
	else if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "rollback"))
		value_rollback(x2 >> 2, &v);
	if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "clone_of") && x2 % 4)
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), "slot:%u ck:%u\n",
					 (unsigned int)((x2 >> 2) % f->nr_slots),
					 (unsigned int)(x2 >> 8) % 16);
	else if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "clone_of"))
		value_clone_of(x2 >> 3, (unsigned int)(x2 % f->nr_slots), &v);
	if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "write_log"))
		value_write_log(x2, &v);
	if (a == A_CRASH && !strcmp(crash_attrs[x1 % CRASH_OPS], "power_cut"))
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), "1\n");
	/*
	 * power domains: most joins name one of three domains (or leave), so
	 * that slots meet in them, and half the cuts are of a domain, most of
	 * one of those names
	 */
	if (a == A_ATTR && !strcmp(f->attrs[x1 % f->nr_attrs], "power_domain") && x2 % 4)
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), x2 % 8 == 1 ? "\n" : "d%u\n",
					 (unsigned int)(x2 >> 3) % 3);
	if (a == A_CUT && x1 % 4 == 1 && x2 % 4)
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), "d%u\n",
					 (unsigned int)(x2 >> 2) % 3);
	/*
	 * and an eighth of them a domain's checkpoint instead, an eighth its
	 * write log, most of them of that syntax
	 */
	if (a == A_CUT && x1 % 8 == 7 && x2 % 4) {
		struct value wl;

		value_write_log(x2 >> 4, &wl);
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), "d%u %.*s",
					 (unsigned int)(x2 >> 2) % 3, (int)wl.len, wl.buf);
	}
	if (a == A_CUT && x1 % 8 == 3 && x2 % 4) {
		struct value ck;

		value_checkpoints(x2 >> 4, &ck);
		v.len = (size_t)snprintf(v.buf, sizeof(v.buf), "d%u %.*s",
					 (unsigned int)(x2 >> 2) % 3, (int)ck.len, ck.buf);
	}

	fuzz_log(f, "%" PRIu64 " %s %s", f->step, action_names[a], s->name);
	switch (a) {
	case A_ATTR:
		value_describe(&v, text, sizeof(text));
		fuzz_log(f, " %s=%s", f->attrs[x1 % f->nr_attrs], text);
		break;
	case A_CRASH:
		value_describe(&v, text, sizeof(text));
		fuzz_log(f, " %s=%s", crash_attrs[x1 % CRASH_OPS], text);
		break;
	case A_POWER:
		fuzz_log(f, " %d", (int)(x1 % 2));
		break;
	case A_CUT:
		value_describe(&v, text, sizeof(text));
		if (x1 % 4 == 1)
			fuzz_log(f, " domain=%s", text);
		if (x1 % 8 == 3)
			fuzz_log(f, " checkpoint_domain=%s", text);
		if (x1 % 8 == 7)
			fuzz_log(f, " write_log_domain=%s", text);
		break;
	case A_IO:
		fuzz_log(f, " op %u at %" PRIu64, (unsigned int)(x1 % IO_OPS), x2 % SHADOW_SECTORS);
		break;
	case A_SYSFS:
		value_describe(&v, text, sizeof(text));
		fuzz_log(f, " dir %u file %u =%s", (unsigned int)(x1 % 4), (unsigned int)(x2 % 256),
			 text);
		break;
	default:
		break;
	}
	fuzz_log(f, " |");
	if (f->dry_run) {
		fuzz_log(f, "\n");
		return;
	}

	if (f->busy && !busy_running(f->busy)) {
		busy_stop(f->busy);
		f->busy = NULL;
	}
	switch (a) {
	case A_MKDIR:
		do_mkdir(f, s, x1, &v);
		break;
	case A_RMDIR:
		do_rmdir(f, s);
		break;
	case A_ATTR:
		clone_of_resolve(f, &v);
		do_attr(f, s, f->attrs[x1 % f->nr_attrs], &v);
		break;
	case A_POWER:
		do_attr(f, s, "power", &(struct value){ .buf = { x1 % 2 ? '1' : '0' }, .len = 1 });
		break;
	case A_CUT:
		if (x1 % 4 == 1)
			do_domain_cut(f, &v);
		else if (x1 % 8 == 3)
			do_domain_checkpoint(f, &v);
		else if (x1 % 8 == 7)
			do_domain_write_log(f, &v);
		else
			do_attr(f, s, "power_cut", &(struct value){ .buf = "1\n", .len = 2 });
		break;
	case A_CRASH:
		clone_of_resolve(f, &v);
		rollback_resolve(s, &v);
		do_crash(f, s, crash_attrs[x1 % CRASH_OPS], &v, x3);
		break;
	case A_IO:
		if (s->powered)
			do_io(f, s, x1, x2, x3);
		break;
	case A_SYSFS:
		if (s->powered)
			do_sysfs(f, s, x1, x2, &v);
		break;
	case A_BUSY:
		if (s->powered)
			do_busy(f, s, x2);
		break;
	default:
		do_show(f, s);
		break;
	}
	for (i = 0; i < f->nr_slots; i++)
		slot_sync(f, &f->slots[i]);
	for (i = 0; i < f->nr_slots; i++)
		slot_verify_pending(f, &f->slots[i]);
	fuzz_log(f, "\n");
}

int fuzz_cleanup(struct fuzz *f)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	char path[512], buf[128];
	unsigned int i, tries;
	int left = 0;

	if (f->busy)
		busy_stop(f->busy);
	f->busy = NULL;
	if (f->dry_run)
		return 0;
	/* clones first: their origins stay powered while they exist */
	for (i = 0; i < f->nr_slots; i++) {
		if (slot_read_number(f, &f->slots[i], "power") != 1)
			continue;
		slot_path(f, &f->slots[i], "clone_of", path, sizeof(path));
		if (read_file(path, buf, sizeof(buf)) <= 0 || buf[0] == '\n')
			continue;
		slot_path(f, &f->slots[i], "power", path, sizeof(path));
		for (tries = 0; write_file(path, "0", 1) == EBUSY && tries < 100; tries++)
			nanosleep(&pause, NULL);
	}
	for (i = 0; i < f->nr_slots; i++) {
		struct slot *s = &f->slots[i];

		checkpoints_forget(s);
		wlm_reset(&s->wlog);
		free(s->wlog.items);
		s->wlog.items = NULL;
		s->wlog.room = 0;
		slot_path(f, s, NULL, path, sizeof(path));
		if (access(path, F_OK))
			continue;
		/* udev may still be reading a new disk: a busy power-off is retried */
		slot_path(f, s, "power", path, sizeof(path));
		for (tries = 0; write_file(path, "0", 1) == EBUSY && tries < 100; tries++)
			nanosleep(&pause, NULL);
		/* a power domain's member pins its directory too; no file: an older module */
		slot_path(f, s, "power_domain", path, sizeof(path));
		if (!access(path, F_OK))
			write_file(path, "\n", 1);
		slot_path(f, s, NULL, path, sizeof(path));
		if (rmdir(path)) {
			fprintf(stderr, "rdfuzz: cannot remove %s: %s\n", path, strerror(errno));
			left++;
		}
	}
	return left;
}
