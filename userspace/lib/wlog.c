// SPDX-License-Identifier: GPL-2.0
/* Reading a write log (wlog.h). */
#include "wlog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* Entries per ioctl, and the data room it starts with (grown for a larger write). */
#define WLOG_BATCH 1024
#define WLOG_DATA_ROOM (4u << 20)

static const char *const type_names[] = {
	[RAMDISK_WLOG_WRITE] = "write",		[RAMDISK_WLOG_DISCARD] = "discard",
	[RAMDISK_WLOG_WRITE_ZEROES] = "zeroes", [RAMDISK_WLOG_FLUSH] = "flush",
	[RAMDISK_WLOG_MARK] = "mark",
};

const char *wlog_type_name(unsigned int type)
{
	return type < sizeof(type_names) / sizeof(type_names[0]) && type_names[type] ?
		       type_names[type] :
		       "?";
}

int wlog_is_data(const struct ramdisk_wlog_entry *e)
{
	return e->type == RAMDISK_WLOG_WRITE || e->type == RAMDISK_WLOG_DISCARD ||
	       e->type == RAMDISK_WLOG_WRITE_ZEROES;
}

void wlog_free(struct wlog *w)
{
	free(w->e);
	free(w->data);
	memset(w, 0, sizeof(*w));
}

/* realloc that keeps p on failure; size 0 allocates a byte */
static int grow(void **p, size_t size)
{
	void *q = realloc(*p, size ? size : 1);

	if (!q) {
		errno = ENOMEM;
		return -1;
	}
	*p = q;
	return 0;
}

int wlog_read(int fd, struct wlog *w)
{
	struct ramdisk_wlog_entry *batch = malloc(WLOG_BATCH * sizeof(*batch));
	size_t room = WLOG_DATA_ROOM, i;
	unsigned char *buf = malloc(room);
	struct ramdisk_wlog_read req;
	int err = 0;

	memset(w, 0, sizeof(*w));
	if (!batch || !buf) {
		err = ENOMEM;
		goto out;
	}
	for (;;) {
		memset(&req, 0, sizeof(req));
		req.first = w->n;
		req.count = WLOG_BATCH;
		req.entries = (uintptr_t)batch;
		req.data = (uintptr_t)buf;
		req.data_size = room;
		if (ioctl(fd, RAMDISK_IOC_WLOG_READ, &req)) {
			err = errno;
			if (err == EMSGSIZE && req.data_used > room) {
				room = req.data_used;
				err = grow((void **)&buf, room) ? ENOMEM : 0;
				if (!err)
					continue;
			}
			goto out;
		}
		w->state = req.state;
		if (grow((void **)&w->e, (w->n + req.count) * sizeof(*w->e)) ||
		    grow((void **)&w->data, w->data_len + req.data_used)) {
			err = ENOMEM;
			goto out;
		}
		memcpy(w->data + w->data_len, buf, req.data_used);
		for (i = 0; i < req.count; i++) {
			w->e[w->n + i] = batch[i];
			w->e[w->n + i].data_offset += w->data_len;
		}
		w->n += req.count;
		w->data_len += req.data_used;
		/* a log that still records ends, for this read, where it is now */
		if ((req.flags & RAMDISK_WLOG_END) || !req.count)
			break;
	}
out:
	free(batch);
	free(buf);
	if (err) {
		wlog_free(w);
		errno = err;
		return -1;
	}
	return 0;
}
