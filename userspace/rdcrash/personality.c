// SPDX-License-Identifier: GPL-2.0
/*
 * How the device fails at a power cut (configfs power_cut_personality),
 * set for a run and taken into the crash model.
 *
 * The write log already tells what a lying device (lying-flush) did not
 * make durable: its flushes and the FUA writes it took are marked ignored,
 * and so none of them ends an epoch or is kept whole. A device with
 * power-loss protection (plp) makes every completed write durable, which
 * the log cannot say, so its data entries are taken as FUA writes: each
 * survives whole once completed, and a state is the log up to a point.
 */
#include "rdcrash.h"

#include <err.h>
#include <errno.h>
#include <string.h>

int personality_set(const struct target *t, const char *name)
{
	int e = target_write(t, "power_cut_personality", name);

	if (e == ENOENT)
		warnx("%s: this module has no power_cut_personality: it fails at a cut in one "
		      "way, unordered",
		      t->item);
	else if (e)
		warnx("%s: power_cut_personality %s: %s", t->item, name, strerror(e));
	return e ? -1 : 0;
}

int personality_apply(const struct target *t, struct wlog *w)
{
	char name[32];
	size_t i;

	/* a module without the attribute has today's behaviour alone */
	if (target_read(t, "power_cut_personality", name, sizeof(name)) ||
	    !strcmp(name, "unordered") || !strcmp(name, "lying-flush"))
		return 0;
	/* misdirected among them: a state could hold any cached write anywhere */
	if (strcmp(name, "plp")) {
		warnx("%s: power_cut_personality %s: rdcrash has no crash model for it", t->item,
		      name);
		return -1;
	}
	for (i = 0; i < w->n; i++)
		if (wlog_is_data(&w->e[i]))
			w->e[i].flags |= RAMDISK_WLOG_FUA;
	fprintf(stderr,
		"rdcrash: %s has power-loss protection (plp): every completed write is "
		"durable\n",
		t->item);
	return 0;
}
