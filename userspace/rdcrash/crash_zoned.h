/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Crash states of a host-managed zoned device; crash_plan.c calls these
 * when the epochs carry a zone map (crash_epochs.zones).
 *
 * A sequential zone holds no sector past one it lost, so what a crash
 * leaves in it is a prefix of the writes it took since its last durable
 * state, in the order it took them (its sector order), the last one kept
 * possibly torn to a prefix of its logical blocks. The module's power cut
 * gives exactly such states (zones.c: the write pointer goes back to the
 * first sector lost). For a crash in an epoch before entry c:
 * - a zone reset before c is durable (the module's reset discards through
 *   its cache, which is durable at once): the zone starts empty there,
 *   and its writes before the reset no longer matter;
 * - of the writes to the zone after its last reset before c (else since
 *   the epoch began), any prefix survives that reaches the last FUA write
 *   among them: a FUA write is durable with everything before it in its
 *   zone (zones.c makes it so, as a disk that writes a zone in order has);
 *   an atomic write is kept whole or not at all;
 * - a finish survives when every write to its zone before it did (the
 *   module's cut moves a finished zone's pointer back like any other);
 * - writes in conventional zones, and discards anywhere, follow the model
 *   of a device without zones (crash_plan.h).
 *
 * Units. An epoch's choices are its units, in the order they first appear
 * in the log: a sequential zone it touches is one unit (its choice is how
 * many of its writes survive, and how much of the next one), any other
 * data entry one. State indices and seeds work as crash_plan.h says.
 */
#ifndef RDCRASH_CRASH_ZONED_H
#define RDCRASH_CRASH_ZONED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crash_plan_parts.h"

/* States of epoch k, with tears or whole writes only (as count_states()). */
uint64_t zoned_count_states(const struct wlog *w, const struct crash_epochs *ep, size_t k,
			    uint32_t per_block, bool tears);
/* crash_state_make() and crash_state_enumerate() of a zoned device. */
int zoned_state_make(const struct wlog *w, const struct crash_epochs *ep, size_t k,
		     unsigned int index, uint64_t seed, uint32_t per_block, struct crash_state *st);
int zoned_state_enumerate(const struct wlog *w, const struct crash_epochs *ep, size_t k,
			  uint64_t index, uint32_t per_block, bool tears, struct crash_state *st);

#endif /* RDCRASH_CRASH_ZONED_H */
