// SPDX-License-Identifier: GPL-2.0
/*
 * wlog-slow-reader DEV: reads DEV's write log with RAMDISK_IOC_WLOG_READ
 * into a data buffer whose pages are missing and registered with
 * userfaultfd, so that the module's copy to it blocks on a page fault
 * until this program serves the fault. It prints "blocked" once the fault
 * arrived, waits for a line on stdin, serves the fault (a zero page), and
 * prints "read N entries, D bytes" when the ioctl returned. Test 128 holds
 * the module to copying without its global lock meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ramdisk.h"

#define ENTRIES 16
#define DATA_SIZE (1u << 20)

static struct ramdisk_wlog_entry entries[ENTRIES];
static struct ramdisk_wlog_read req;
static int dev_fd, ioctl_err;

static void *reader(void *arg)
{
	(void)arg;
	if (ioctl(dev_fd, RAMDISK_IOC_WLOG_READ, &req))
		ioctl_err = errno;
	return NULL;
}

static void die(const char *what)
{
	fprintf(stderr, "wlog-slow-reader: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffdio_zeropage zero = { 0 };
	struct uffd_msg msg;
	struct pollfd pfd;
	long page = sysconf(_SC_PAGESIZE);
	char line[16];
	pthread_t th;
	void *buf;
	int uffd;

	if (argc != 2) {
		fprintf(stderr, "usage: wlog-slow-reader DEV\n");
		return 2;
	}
	dev_fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (dev_fd < 0)
		die(argv[1]);
	/* no UFFD_USER_MODE_ONLY: the fault to catch is the kernel's copy_to_user */
	/* non-blocking: poll() on a blocking userfaultfd always reports an error */
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	buf = mmap(NULL, DATA_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		die("mmap");
	reg.range.start = (uintptr_t)buf;
	reg.range.len = DATA_SIZE;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");

	req.count = ENTRIES;
	req.entries = (uintptr_t)entries;
	req.data = (uintptr_t)buf;
	req.data_size = DATA_SIZE;
	errno = pthread_create(&th, NULL, reader, NULL);
	if (errno)
		die("pthread_create");

	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 20000) != 1 || !(pfd.revents & POLLIN)) {
		fprintf(stderr, "wlog-slow-reader: the ioctl never touched its data buffer\n");
		return 1;
	}
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		die("read userfaultfd");
	if (msg.event != UFFD_EVENT_PAGEFAULT) {
		fprintf(stderr, "wlog-slow-reader: userfaultfd event %u\n", msg.event);
		return 1;
	}
	printf("blocked\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		fprintf(stderr, "wlog-slow-reader: stdin closed: serving the fault\n");

	zero.range.start = msg.arg.pagefault.address & ~(uint64_t)(page - 1);
	zero.range.len = (uint64_t)page;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero) && errno != EEXIST)
		die("UFFDIO_ZEROPAGE");
	/* the rest of the buffer faults as well: serve each fault until the ioctl is done */
	for (;;) {
		int n = poll(&pfd, 1, 200);

		if (n < 0)
			die("poll");
		if (!n) {
			if (!pthread_tryjoin_np(th, NULL))
				break;
			continue;
		}
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg)) {
			if (errno == EAGAIN)
				continue;
			die("read userfaultfd");
		}
		zero.range.start = msg.arg.pagefault.address & ~(uint64_t)(page - 1);
		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero) && errno != EEXIST)
			die("UFFDIO_ZEROPAGE");
	}
	if (ioctl_err) {
		errno = ioctl_err;
		die("RAMDISK_IOC_WLOG_READ");
	}
	printf("read %u entries, %llu bytes\n", req.count, (unsigned long long)req.data_used);
	return 0;
}
