/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdfuzz: drives the ramdisk control surface (configfs attributes, block
 * ioctls, sysfs files) with random values in a random order, with I/O in
 * flight, and checks what must hold whatever the input: data written reads
 * back, a new device reads zeros, a refused change leaves the value alone.
 *
 * Every random choice comes from one generator seeded by --seed, and the
 * number of draws per step never depends on what the kernel answered, so a
 * seed always gives the same sequence of actions.
 */
#ifndef RDFUZZ_H
#define RDFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rng.h"

/* --- values.c: random text for attributes and sysfs files ---------------- */

/* Longest value made: longer than a page, so truncation paths run too. */
#define VALUE_MAX 8200

struct value {
	char buf[VALUE_MAX];
	size_t len;
};

/* A random value of a random kind; always draws the same number of times. */
void value_make(struct rng *r, struct value *v);
/* A line for the badblocks attribute, made from two draws x and y. */
void value_badblocks(uint64_t x, uint64_t y, struct value *v);
/* A line for the fault_schedule attribute, made from two draws x and y. */
void value_fault_schedule(uint64_t x, uint64_t y, struct value *v);
/* A line for the checkpoints attribute (+NAME, -NAME, refused ones), from a draw x. */
void value_checkpoints(uint64_t x, struct value *v);
/*
 * A line for clone_of from a draw x: "slot:SLOT NAME", which the step turns
 * into the slot's device and a checkpoint name as value_checkpoints() makes
 * them, or an empty line.
 */
void value_clone_of(uint64_t x, unsigned int slot, struct value *v);
/* A checkpoint name for the rollback attribute, from a draw x. */
void value_rollback(uint64_t x, struct value *v);
/*
 * A line for the write_log attribute from a draw x: start, start CK, stop,
 * clear, mark TEXT, or a line the module must refuse.
 */
void value_write_log(uint64_t x, struct value *v);
/* The most write_log_limit rdfuzz leaves in effect: logs stay small. */
#define WRITE_LOG_LIMIT_MAX (8u << 20)
/* The longest latency and the least bandwidth rdfuzz leaves in effect. */
#define THROTTLE_LATENCY_MAX_NS 20000000ull
#define THROTTLE_MBPS_MIN 64ull
/* A size for write_log_limit from a draw x: 4K to WRITE_LOG_LIMIT_MAX. */
void value_write_log_limit(uint64_t x, struct value *v);
/* A printable form of v for the log (escapes, long runs shortened). */
void value_describe(const struct value *v, char *out, size_t size);

/* --- shadow.c: what each device must read back ---------------------------- */

/* The window of each device that writes and checks cover. */
#define SHADOW_BYTES (4u << 20)
#define SHADOW_SECTORS (SHADOW_BYTES / 512)
#define SHADOW_IO_MAX (64u << 10)

struct shadow {
	/* per 512-byte sector: 0 zeros, SEQ_UNKNOWN anything this device wrote */
	uint64_t seq[SHADOW_SECTORS];
	uint32_t gen; /* which power-on of which slot; in every written record */
	bool trusted; /* false for reserved-memory devices, which keep old data */
};

#define SEQ_UNKNOWN UINT64_MAX

/* A device just powered on: everything reads zeros. */
void shadow_reset(struct shadow *s, uint32_t gen, bool trusted);
void shadow_set(struct shadow *s, uint64_t off, uint64_t len, uint64_t seq);
/* Fill buf (len bytes at off) with the records of a write numbered seq. */
void shadow_fill(const struct shadow *s, void *buf, uint64_t off, uint64_t len, uint64_t seq);
/*
 * Check len bytes read at off. Returns the number of bad sectors and
 * describes the first in why.
 */
unsigned int shadow_check(const struct shadow *s, const void *buf, uint64_t off, uint64_t len,
			  char *why, size_t why_size);

/*
 * Whether len bytes at sector hold, whole, the records of write seq of a
 * device generation gen: what the write log must give as that write's data.
 */
bool shadow_records_are(const void *buf, uint64_t sector, uint64_t len, uint32_t gen, uint64_t seq);

/* --- logmodel.c: what a slot's write log must hold ----------------------------- */

enum wlog_kind { WL_WRITE, WL_DISCARD, WL_ZEROES, WL_MARK };

/* One thing rdfuzz did while the log recorded, in the order it completed. */
struct wlog_item {
	enum wlog_kind kind;
	uint64_t off, len; /* bytes; a mark has none */
	uint64_t seq; /* a write's records */
	uint32_t gen;
	char *mark; /* a mark's text */
};

/*
 * The log as rdfuzz believes it: the state its commands left (RAMDISK_WLOG_*;
 * overflowed and failed are learnt from the log, which stops by itself) and
 * what it must hold. Unsure once rdfuzz cannot know (a write that failed
 * part-way, a rule that drops writes): the entries are no longer compared.
 */
struct wlog_model {
	int state;
	bool unsure;
	struct wlog_item *items;
	unsigned int nr, room;
	/* write_log_limit while the log recorded: the least and the most */
	uint64_t limit_min, limit_max;
};

/* The most items the model keeps; past them it is unsure. */
#define WLOG_ITEMS_MAX 65536u

/* --- actions.c: one step of the fuzzer ----------------------------------- */

#define SLOTS_MAX 8
#define ATTRS_MAX 64
/* The module keeps at most 16 checkpoints a device. */
#define CHECKPOINTS_MAX 16

/* A checkpoint the slot's device took: its name and what it must read back. */
struct checkpoint {
	char name[32];
	uint64_t *seq; /* a copy of shadow.seq when it was taken; NULL if none */
	uint32_t gen; /* shadow.gen when it was taken: a clone reads its records */
};

struct slot {
	char name[32];
	struct shadow shadow;
	bool powered; /* after our last successful power write */
	bool writeback;
	/* host-managed zones: writes off a write pointer or past a zone limit fail */
	bool zoned;
	/*
	 * a power cut was accepted since the last flush that succeeded: the
	 * next flush may fail with EIO, once, for completed writes the cut
	 * lost while the device was open (the busy thread's open is enough)
	 */
	bool cut_unreported;
	/* the checkpoints taken and not dropped, oldest first; none while off */
	struct checkpoint checkpoints[CHECKPOINTS_MAX];
	unsigned int nr_checkpoints;
	struct wlog_model wlog;
	/* rolled back, or a new clone: read the whole window at the step's end */
	enum { VERIFY_NONE, VERIFY_ROLLBACK, VERIFY_CLONE } verify_pending;
};

struct fuzz {
	struct rng rng;
	const char *root; /* the configfs root */
	bool dry_run;
	FILE *log; /* NULL: no log */
	unsigned int nr_slots;
	struct slot slots[SLOTS_MAX];
	char *attrs[ATTRS_MAX];
	unsigned int nr_attrs;
	uint64_t step;
	uint64_t next_seq;
	uint32_t next_gen;
	/* results */
	uint64_t ok, refused, reports;
	uint64_t bytes_written, bytes_verified;
	uint64_t rollbacks_verified, clones_verified, windows_verified;
	/* power domains' cuts taken, and the members they cut in writeback mode */
	uint64_t domain_cuts, domain_members_cut;
	/* power domains' checkpoints taken or dropped, and write log commands taken */
	uint64_t domain_checkpoints, domain_logs;
	uint64_t logs_checked, log_entries_checked, log_commands;
	/* the background reader keeping a device open */
	struct busy *busy;
};

void fuzz_init(struct fuzz *f);
/* One random action; every outcome is logged, every broken rule reported. */
void fuzz_step(struct fuzz *f);
/* Stop the reader, power off and remove every slot. Returns 0 when clean. */
int fuzz_cleanup(struct fuzz *f);

/* --- report.c: the log of each step, and the broken rules ----------------- */

/* A broken rule: counted, printed on stderr and in the log. */
void fuzz_report(struct fuzz *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fuzz_log(struct fuzz *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* logmodel.c */
const char *wlm_state_name(int state);
void wlm_reset(struct wlog_model *m);
void wlm_start(struct wlog_model *m, uint64_t limit);
void wlm_limit(struct wlog_model *m, uint64_t limit);
/* Something rdfuzz completed; noted only while the model records. */
void wlm_add(struct wlog_model *m, enum wlog_kind kind, uint64_t off, uint64_t len, uint64_t seq,
	     uint32_t gen, const char *mark);
void wlm_unsure(struct wlog_model *m);
/*
 * Reads the slot's log through fd (its whole disk) and compares it with
 * the model; every difference is a report. Returns the state the device
 * gave, or -1 when the log could not be read.
 */
int wlm_check(struct fuzz *f, struct slot *s, int fd);

/* --- busy.c: I/O in flight while the control surface changes ------------- */

struct busy *busy_start(const char *dev, uint64_t seed, unsigned int ms);
/* True while the reader still runs. */
bool busy_running(struct busy *b);
void busy_stop(struct busy *b);

#endif /* RDFUZZ_H */
