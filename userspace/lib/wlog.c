// SPDX-License-Identifier: GPL-2.0
/* Reading a write log (wlog.h). */
#include "wlog.h"

#include "dmlw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* Entries per ioctl, and the data room it starts with (grown for a larger write). */
#define WLOG_BATCH 1024
#define WLOG_DATA_ROOM (4u << 20)

static const char *const type_names[] = {
	[RAMDISK_WLOG_WRITE] = "write",
	[RAMDISK_WLOG_DISCARD] = "discard",
	[RAMDISK_WLOG_WRITE_ZEROES] = "zeroes",
	[RAMDISK_WLOG_FLUSH] = "flush",
	[RAMDISK_WLOG_MARK] = "mark",
	[RAMDISK_WLOG_ZONE_RESET] = "zone-reset",
	[RAMDISK_WLOG_ZONE_FINISH] = "zone-finish",
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

int wlog_flush_durable(const struct ramdisk_wlog_entry *e)
{
	return e->type == RAMDISK_WLOG_FLUSH &&
	       !(e->flags & (RAMDISK_WLOG_FAILED | RAMDISK_WLOG_IGNORED));
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

int wlog_export_dmlw(const struct wlog *w, uint32_t bs, const char *file)
{
	struct dmlw_writer d;
	char text[512] = "";
	size_t i;

	if (dmlw_open(&d, file, bs))
		return -1;
	for (i = 0; i < w->n; i++) {
		const struct ramdisk_wlog_entry *e = &w->e[i];
		const void *data = NULL;
		uint64_t flags = 0;
		size_t len;

		switch (e->type) {
		case RAMDISK_WLOG_FLUSH:
			if (!wlog_flush_durable(e))
				continue;
			flags = DMLW_FLUSH;
			break;
		case RAMDISK_WLOG_MARK:
			flags = DMLW_MARK;
			len = e->data_len < sizeof(text) - 1 ? e->data_len : sizeof(text) - 1;
			memcpy(text, w->data + e->data_offset, len);
			text[len] = '\0';
			break;
		case RAMDISK_WLOG_DISCARD:
		case RAMDISK_WLOG_ZONE_RESET:
			flags = DMLW_DISCARD;
			break;
		case RAMDISK_WLOG_WRITE:
			data = w->data + e->data_offset;
			break;
		case RAMDISK_WLOG_WRITE_ZEROES:
			break;
		default:
			/* a zone finish moves no data; nor would a type of a later module */
			continue;
		}
		if (e->flags & RAMDISK_WLOG_FUA)
			flags |= DMLW_FUA;
		if (dmlw_add(&d, flags, e->sector, e->type == RAMDISK_WLOG_MARK ? 0 : e->nr_sectors,
			     data, text))
			goto fail;
	}
	if (w->state == RAMDISK_WLOG_CUT && dmlw_add(&d, DMLW_MARK, 0, 0, NULL, "power-cut"))
		goto fail;
	return dmlw_close(&d);
fail:
	dmlw_abandon(&d);
	return -1;
}
