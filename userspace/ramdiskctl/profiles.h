/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Profiles: the latencies and bandwidth of a kind of disk, by name, and
 * the name of the one a device has.
 */
#ifndef RAMDISKCTL_PROFILES_H
#define RAMDISKCTL_PROFILES_H

#include <stdbool.h>

struct rdctl_device;

/* A named set of latencies and bandwidth (profile's, create --profile's). */
struct profile;

/*
 * The configfs attributes of the read, write and flush latencies and the
 * bandwidth, in that order.
 */
extern const char *const throttle_attrs[4];

/* the profile called name; NULL when none is */
const struct profile *rd_profile_find(const char *name);
/* writes the profile to configuration name, errors named after cmd; prints each setting if print */
int rd_profile_apply(const char *cmd, const char *name, const struct profile *p, bool print);
/*
 * The profile whose figures the device has, "custom" for others, NULL
 * when the figures are unknown.
 */
const char *rd_profile_name(const struct rdctl_device *d);

#endif /* RAMDISKCTL_PROFILES_H */
