// SPDX-License-Identifier: GPL-2.0
/* The help of ramdiskctl and of each command, and the exit status table. */
#include "ramdiskctl.h"

#include "device_table.h"
#include "help.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The options of list and info, and how their columns are chosen. */
#define TABLE_OPTIONS_HELP                                                        \
	"    -j, --json             {\"devices\": [...]}, one object a device,\n" \
	"                           sizes in bytes, unknown values null\n"        \
	"    -r, --raw              no alignment, one space between columns\n"    \
	"    -n, --noheadings       no header line\n"                             \
	"    -b, --bytes            sizes in bytes in the table too\n"            \
	"    -o, --output COLS      these comma-separated columns (+COLS:\n"      \
	"                           the default ones and these)\n"                \
	"    --output-all           every column\n"

struct command {
	const char *name;
	const char *help;
};

static const struct command commands[] = {
	{ "create", "create [--name NAME] --size SIZE [--block-size B]\n"
		    "       [--physical-block-size B] [--io-min B] [--io-opt B]\n"
		    "       [--rotational] [--max-part N] [--mem-limit SIZE]\n"
		    "       [--numa-node NODE] [--atomic-write-unit-min B]\n"
		    "       [--atomic-write-unit-max B] [--atomic-write-boundary B]\n"
		    "       [--zoned [--zone-size B] [--zone-capacity B] [--zone-nr-conv N]\n"
		    "                [--zone-max-open N] [--zone-max-active N]]\n"
		    "       [--cache-mode writethrough|writeback [--cache-size SIZE]]\n"
		    "       [--profile NAME] [--spare-pages N]\n"
		    "create [--name NAME] --nvram PHYS:SIZE [--format] [...]\n"
		    "    Make a device and print its path (/dev/ramdiskN).\n"
		    "    -n, --name NAME        configuration name (default: the lowest\n"
		    "                           free rdN)\n"
		    "    -s, --size SIZE        capacity; a multiple of the block size\n"
		    "                           and of the page size\n"
		    "    -b, --block-size B     logical block size, 512 (default) to\n"
		    "                           4096; to 64K on kernels that cache\n"
		    "                           blocks above the page size (6.15 on)\n"
		    "    --physical-block-size B\n"
		    "                           physical block: a power of two from the\n"
		    "                           logical block to 64K (default: the\n"
		    "                           larger of that and the page size);\n"
		    "                           512 and 4096 make a 512e disk\n"
		    "    --io-min B             minimum I/O size, whole physical blocks\n"
		    "    --io-opt B             optimal I/O size, whole minimum I/Os\n"
		    "    --rotational           report a spinning disk (queue/rotational)\n"
		    "    --atomic-write-unit-max B\n"
		    "                           largest atomic write (RWF_ATOMIC), a\n"
		    "                           power of two of blocks, to 256K; none\n"
		    "                           by default (kernels 6.11 on)\n"
		    "    --atomic-write-unit-min B\n"
		    "                           smallest atomic write (default: one\n"
		    "                           block)\n"
		    "    --atomic-write-boundary B\n"
		    "                           no atomic write crosses a multiple of B,\n"
		    "                           at least the largest one\n"
		    "    --zoned                a host-managed zoned device (kernels\n"
		    "                           6.10 on); with --zone-size B (64M by\n"
		    "                           default; SIZE whole zones),\n"
		    "                           --zone-capacity B (what a sequential\n"
		    "                           zone takes; default all of it),\n"
		    "                           --zone-nr-conv N (conventional zones at\n"
		    "                           the start), --zone-max-open N and\n"
		    "                           --zone-max-active N (0: no limit)\n"
		    "    --cache-mode MODE      writeback: a volatile write cache that\n"
		    "                           flushes and FUA writes make durable and\n"
		    "                           a power cut loses; writethrough\n"
		    "                           (default): none\n"
		    "    --cache-size SIZE      most the writeback cache holds before\n"
		    "                           it writes back on its own\n"
		    "    --profile NAME         latencies and bandwidth of a kind of\n"
		    "                           disk, as the profile command sets them\n"
		    "    --spare-pages N        pages allocated ahead of first writes,\n"
		    "                           0 to 4096 (default 64); 0 for a device\n"
		    "                           that holds exactly the pages written\n"
		    "    -p, --max-part N       partitions allowed, 0 (default) to 255\n"
		    "    -m, --mem-limit SIZE   most RAM the data may take, 0 (default)\n"
		    "                           for no limit\n"
		    "    -N, --numa-node NODE   NUMA node to allocate on, -1 (default)\n"
		    "                           for any\n"
		    "    --nvram PHYS:SIZE      keep the device in reserved memory\n"
		    "                           (memmap=SIZE$PHYS), its first 4K a\n"
		    "                           header; replaces --size\n"
		    "    --format               with --nvram: write a new header and\n"
		    "                           zeros; without it the range must hold\n"
		    "                           a matching header\n" },
	{ "remove", "remove NAME|DEV...\n"
		    "    Power off and drop devices made by create. Devices made when\n"
		    "    the module was loaded go away only with rmmod.\n" },
	{ "apply", "apply [--dry-run] [--force] [FILE]\n"
		   "apply --down [--dry-run] [FILE]\n"
		   "    Make the devices FILE (default /etc/ramdisk/ramdisk.conf)\n"
		   "    declares, one [NAME] section each: create's options as keys,\n"
		   "    and fs, mkfs-options, mount, mount-options and image. A new\n"
		   "    device is restored from its image when the file exists, made\n"
		   "    FS when it holds none, and mounted. Again, it changes only\n"
		   "    what differs, and says nothing when nothing does; a change\n"
		   "    that loses data (a fixed attribute of a device holding data\n"
		   "    or mounted, mkfs over data) is refused, everything unchanged.\n"
		   "    --down: unmount each device, save its image, remove it.\n"
		   "    Devices the file does not declare are never touched.\n"
		   "    -n, --dry-run          say what would be done, do nothing\n"
		   "    -f, --force            make changes that lose data\n"
		   "    -d, --down             take the devices away, images saved\n" },
	{ "list", "list [--json|--raw] [--noheadings] [--bytes]\n"
		  "     [--output COLS|--output-all]\n"
		  "    Every device and configuration, one per line, with its cache\n"
		  "    mode, profile and the bytes not yet durable.\n" TABLE_OPTIONS_HELP },
	{ "info",
	  "info [--json|--raw] [--noheadings] [--bytes]\n"
	  "     [--output COLS|--output-all] NAME|DEV\n"
	  "    Configuration and statistics of one device, one \"key: value\"\n"
	  "    a line; with any option below, list's table (or JSON) of it.\n" TABLE_OPTIONS_HELP },
	{ "powercut", "powercut NAME|DEV\n"
		      "powercut --domain DOMAIN\n"
		      "    Emulate a power loss: in writeback cache_mode every write not\n"
		      "    yet made durable by a flush or FUA is lost; the device then\n"
		      "    takes I/O again. --domain cuts every powered member of a\n"
		      "    power domain (configfs power_domain) at one instant.\n" },
	{ "profile", "profile NAME|DEV nvram|ssd|hdd|disk-1994|none\n"
		     "    Set the device's read, write and flush latency and bandwidth\n"
		     "    to those of a kind of disk, and print what was set.\n" },
	{ "fault", "fault NAME|DEV set RANGE [--rw read|write|both]\n"
		   "      [--error eio|medium|nospc|timeout] [--heal]\n"
		   "fault NAME|DEV list [--json|--raw] [--noheadings]\n"
		   "fault NAME|DEV schedule KINDS --every N|--prob P [--seed S]\n"
		   "      [--after-flush K] [--window MS]\n"
		   "      [--error ERR|--delay US|--drop]\n"
		   "fault NAME|DEV rules [--json|--raw] [--noheadings]\n"
		   "fault NAME|DEV clear [RANGE]\n"
		   "    Bad blocks: I/O that meets a sector of RANGE (START-END or\n"
		   "    START, 512-byte sectors, inclusive) moves the sectors before\n"
		   "    it and fails. set replaces what RANGE covers; clear takes\n"
		   "    RANGE out of the list; clear alone empties the list and the\n"
		   "    schedule.\n"
		   "    --rw OP                the I/O that fails: read, write or both\n"
		   "                           (default)\n"
		   "    --error ERR            eio (default), medium (ENODATA), nospc,\n"
		   "                           or timeout (ETIMEDOUT after a second)\n"
		   "    --heal                 a successful write heals the sectors it\n"
		   "                           covers, as a disk remaps them\n"
		   "    Fault schedule: schedule adds a rule that picks bios of KINDS\n"
		   "    (any, or read, write, flush and discard, comma-separated) and\n"
		   "    fails them with ERR (default eio), delays them or drops them.\n"
		   "    --every N              every Nth bio of KINDS\n"
		   "    --prob P               each bio with probability P (0 < P <= 1,\n"
		   "                           up to 6 decimals), drawn from --seed S\n"
		   "                           (default 0): the same seed and I/O give\n"
		   "                           the same faults\n"
		   "    --after-flush K        only after the Kth flush from now\n"
		   "    --window MS            only for MS milliseconds from when it\n"
		   "                           starts\n"
		   "    --delay US             complete the bio US microseconds late\n"
		   "                           (at most 60000000) instead of failing it\n"
		   "    --drop                 complete writes, flushes or discards\n"
		   "                           without doing them (dm-flakey's\n"
		   "                           drop_writes)\n"
		   "    -j, --json             {\"badblocks\": [...]} or\n"
		   "                           {\"fault_schedule\": [...]}\n"
		   "    -r, --raw              no alignment, one space between columns\n"
		   "    -n, --noheadings       no header line\n" },
	{ "checkpoint", "checkpoint NAME|DEV take CK\n"
			"checkpoint NAME|DEV drop CK\n"
			"checkpoint NAME|DEV list [--json|--raw] [--noheadings]\n"
			"    Checkpoints of a powered device: take keeps its data as it is\n"
			"    now under the name CK (1 to 31 letters, digits, '.', '_' and\n"
			"    '-'; at most 16 a device), copying nothing until a page is\n"
			"    written; drop lets it go; list prints each, oldest first, with\n"
			"    the pages it holds and those only it holds (what dropping it\n"
			"    gives back). They go with the device at power-off.\n"
			"    -j, --json             {\"checkpoints\": [...]}\n"
			"    -r, --raw              no alignment, one space between columns\n"
			"    -n, --noheadings       no header line\n" },
	{ "rollback", "rollback NAME|DEV CK\n"
		      "    Make the device's data checkpoint CK's again. The device must\n"
		      "    not be open or mounted: unmount it first. CK stays.\n" },
	{ "clone", "clone [--name NAME] [--mem-limit SIZE] NAME|DEV CK\n"
		   "    Make a new device that starts as checkpoint CK of a powered\n"
		   "    device and print its path. It shares the checkpoint's pages\n"
		   "    until it writes them; the device goes on by itself. While the\n"
		   "    clone exists, CK cannot be dropped nor the device removed.\n"
		   "    Remove it with remove; powering it off and on starts it\n"
		   "    again from CK.\n"
		   "    -n, --name NAME        the clone's configuration (default rdN)\n"
		   "    -m, --mem-limit SIZE   most RAM the clone's own pages may take\n" },
	{ "wlog", "wlog NAME|DEV start [CK]\n"
		  "wlog NAME|DEV mark TEXT\n"
		  "wlog NAME|DEV stop|clear\n"
		  "wlog NAME|DEV show [--json|--raw] [--noheadings]\n"
		  "wlog NAME|DEV export FILE\n"
		  "    The write log of a powered device: every write, discard,\n"
		  "    write-zeroes and flush it acknowledges, and on a zoned\n"
		  "    device every zone reset and finish, in order, with the\n"
		  "    data. start begins it (with CK: takes checkpoint CK at the\n"
		  "    same moment, so that CK and the log rebuild every state);\n"
		  "    mark puts TEXT in it (1 to 127 characters); stop ends it;\n"
		  "    clear frees it. show prints the entries (EPOCH: the flushes\n"
		  "    completed before each); export writes them in dm-log-writes'\n"
		  "    format, which fstests' replay-log reads. The log keeps at\n"
		  "    most write_log_limit bytes (configfs) and stops there.\n"
		  "    -j, --json             {\"write_log\": [...]}\n"
		  "    -r, --raw              no alignment, one space between columns\n"
		  "    -n, --noheadings       no header line\n" },
	{ "save", "save DEV FILE\n"
		  "    Write the ranges of DEV that hold data into the image FILE,\n"
		  "    with checksums; writes not yet flushed are saved too, and\n"
		  "    stay un-flushed. Keep DEV unwritten while it saves.\n" },
	{ "restore", "restore FILE DEV\n"
		     "    Make DEV equal to the image FILE. The whole image is checked\n"
		     "    first; a bad or mismatched one writes nothing.\n" },
	{ "export", "export [--transport tcp] [--addr IP[:PORT]] [--nqn NQN] NAME|DEV\n"
		    "export --transport loop [--nqn NQN] NAME|DEV\n"
		    "    Serve the device over NVMe-oF through the kernel's NVMe target\n"
		    "    (nvmet, loaded if need be) and print the subsystem's NQN. A\n"
		    "    port already serving the address is shared.\n"
		    "    -t, --transport T      tcp (default) or loop (this machine only)\n"
		    "    -a, --addr IP[:PORT]   where tcp listens (default 127.0.0.1:4420;\n"
		    "                           [IPV6]:PORT for IPv6)\n"
		    "    -q, --nqn NQN          the subsystem's name (default\n"
		    "                           nqn.2024-01.io.ramdisk:NAME)\n" },
	{ "unexport", "unexport NAME|DEV...\n"
		      "    Take away what export made: the subsystem, its links, and each\n"
		      "    port export made that no other subsystem uses. Hosts still\n"
		      "    connected lose the device.\n" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char overview[] =
	"Create, remove and inspect RAM-backed block devices (/dev/ramdiskN)\n"
	"of the ramdisk kernel module.\n";

static const char trailer[] = "DEV is ramdiskN or /dev/ramdiskN; NAME is a configuration name.\n"
			      "SIZE takes K, M, G or T (base 1024), e.g. 64M, 1.5G, 4KiB.\n"
			      "\n"
			      "Exit status:\n"
			      "    0  success\n"
			      "    1  other error\n"
			      "    2  bad usage or invalid value (bad size, block size, ...)\n"
			      "    3  the ramdisk module is not loaded (export: nvmet or its\n"
			      "       transport cannot be loaded)\n"
			      "    4  a configuration or checkpoint with that name already exists\n"
			      "    5  the device is busy (open or mounted, or exported)\n"
			      "    6  permission denied (not root)\n"
			      "    7  no such device, configuration or checkpoint\n"
			      "    8  restore: the image is truncated or corrupted\n"
			      "    9  restore: the image is of another size or block size\n"
			      "    10  apply: a change would lose data (--force makes it)\n"
			      "\n"
			      "RAMDISK_CONFIGFS, RAMDISKCTL_SYSFS and RAMDISKCTL_NVMET, when\n"
			      "set, replace /sys/kernel/config/ramdisk, /sys and\n"
			      "/sys/kernel/config/nvmet (for tests).\n"
			      "See ramdiskctl(8).\n";

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * A command's help text: its synopsis lines, then a description whose
 * lines start with four spaces. The first synopsis line gets lead ("  " in
 * the overview, "Usage: ramdiskctl " in one command's help), any other
 * that starts a synopsis of its own (no leading space) next_lead, and the
 * lines that continue one are moved as far as lead moved the first: their
 * own indent is written for the overview.
 */
static void print_command_help(FILE *out, const char *help, const char *lead, const char *next_lead)
{
	int shift = (int)strlen(lead) - 2;
	bool synopsis = true;
	const char *line = help;

	while (*line) {
		const char *end = strchrnul(line, '\n');

		if (synopsis && !strncmp(line, "    ", 4) && line[4] != ' ')
			synopsis = false;
		if (line == help)
			fputs(lead, out);
		else if (synopsis && *line != ' ')
			fputs(next_lead, out);
		else if (synopsis)
			fprintf(out, "%*s", shift, "");
		fprintf(out, "%.*s\n", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
}

void print_overview(FILE *out)
{
	fprintf(out, "Usage: %s COMMAND [OPTIONS] [ARGS]\n\n%s\nCommands:\n",
		program_invocation_short_name, overview);
	for (size_t i = 0; i < NR_COMMANDS; i++)
		print_command_help(out, commands[i].help, "  ", "  ");
	fprintf(out, "  help [COMMAND]\n    This text, or one command's.\n");
	fprintf(out, "\n%s", trailer);
}

int command_help(const char *cmd)
{
	const struct command *c = cmd ? find_command(cmd) : NULL;

	if (c) {
		char lead[64], next_lead[64];

		snprintf(lead, sizeof(lead), "Usage: %s ", program_invocation_short_name);
		snprintf(next_lead, sizeof(next_lead), "       %s ", program_invocation_short_name);
		print_command_help(stdout, c->help, lead, next_lead);
		if (!strcmp(c->name, "list") || !strcmp(c->name, "info"))
			print_columns_help(stdout);
	} else {
		print_overview(stdout);
	}
	return RC_OK;
}
