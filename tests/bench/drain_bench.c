// SPDX-License-Identifier: GPL-2.0
/*
 * drain_bench: how fast the drainer of `schedrec record` moves records
 * from a ring to a trace file, on the host, next to the machine's own
 * limits measured in the same run.
 *
 * tests/host/drainrig runs it: a producer thread on CPU 0 writes real
 * records into kmod/ring.c (through the host kernel shim), as fast as it
 * can or paced at a given rate, and the drainer (user/drain.c, ringreader,
 * srecwriter) on CPU 1 writes them to a file in the given directory, raw
 * or zlib-compressed.  Peers: memcpy bandwidth, and write()
 * bandwidth of 1 MiB blocks to a file in the same directory.
 *
 *	drain_bench DIR [SECONDS_PER_RUN]
 *
 * Prints a Markdown table and whether the target (20 M records/s drained
 * raw with no loss) was met; exits 1 only if a run failed.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drainrig.h"
#include "util.h"

#define RING_SIZE	(4u << 20)
#define PREFILL_SIZE	(64u << 20)
#define TARGET_RATE	20e6	/* records/s drained raw, no loss */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* GB/s of memcpy over 256 MiB, best of 3. */
static double memcpy_bw(void)
{
	size_t size = 256u << 20;
	char *a = malloc(size), *b = malloc(size);
	double best = 0;
	int i;

	memset(a, 1, size);
	memset(b, 2, size);
	for (i = 0; i < 3; i++) {
		uint64_t t = now_ns();
		double bw;

		memcpy(b, a, size);
		bw = size / ((now_ns() - t) / 1e9);
		if (bw > best)
			best = bw;
	}
	free(a);
	free(b);
	return best;
}

/*
 * MB/s of write() in 1 MiB blocks to a new file at @path, 512 MiB, best of
 * 3 (removed after each): what the drainer's writes could reach at most.
 */
static double write_bw(const char *path)
{
	size_t block = 1u << 20, n = 512, i;
	char *buf = malloc(block);
	double best = 0, bw;
	uint64_t t;
	int fd, round;

	if (!buf)
		return 0;
	memset(buf, 0x5a, block);
	for (round = 0; round < 3; round++) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			break;
		t = now_ns();
		for (i = 0; i < n; i++)
			if (write(fd, buf, block) != (ssize_t)block)
				break;
		bw = i * block / ((now_ns() - t) / 1e9);
		close(fd);
		unlink(path);
		if (bw > best)
			best = bw;
	}
	free(buf);
	return best;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		double rate;
		int zlib;
		bool prefill;
	} cases[] = {
		{ "raw, drainer alone (64 MiB ring filled first)", 0, 0, true },
		{ "raw, flat out", 0, 0, false },
		{ "raw, paced at 20 M/s", TARGET_RATE, 0, false },
		{ "zlib -z1, drainer alone", 0, 1, true },
		{ "zlib -z1, flat out", 0, 1, false },
	};
	char path[4096], peer[4096];
	double seconds = argc > 2 ? atof(argv[2]) : 3, mc, wb;
	int status = 0, met = 1;
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: drain_bench DIR [SECONDS_PER_RUN]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/drain_bench.srec", argv[1]);
	snprintf(peer, sizeof(peer), "%s/drain_bench.peer", argv[1]);
	mc = memcpy_bw();
	wb = write_bw(peer);
	printf("## Drain throughput (host, producer CPU 0, drainer CPU 1, %.0f s per run)\n\n",
	       seconds);
	printf("Peers in this run: memcpy %.1f GB/s; write() of 1 MiB blocks to %s: %.0f MB/s.\n\n",
	       mc / 1e9, argv[1], wb / 1e6);
	printf("| run | offered M rec/s | drained M rec/s | MB/s of records | MB/s to the file | file / write() peer | lost |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct drainrig rig = {
			.ring_size = RING_SIZE, .rate = cases[i].rate,
			.seconds = seconds, .zlib_level = cases[i].zlib,
			.prefill = cases[i].prefill,
		};
		double rec_mb, file_mb, vs_peer, drained;
		char offered[32] = "-";

		if (rig.prefill)
			rig.ring_size = PREFILL_SIZE;

		rig.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (rig.fd < 0 || drainrig_run(&rig)) {
			printf("| %s | failed |\n", cases[i].name);
			status = 1;
			continue;
		}
		close(rig.fd);
		unlink(path);
		drained = rig.total.records - rig.lost_records;
		rec_mb = drained * 32.0 / rig.elapsed / 1e6;
		file_mb = rig.file_bytes / rig.elapsed / 1e6;
		vs_peer = wb > 0 ? file_mb * 1e6 / wb : 0;
		if (!rig.prefill)
			snprintf(offered, sizeof(offered), "%.1f",
				 rig.produced / rig.elapsed / 1e6);
		printf("| %s | %s | %.1f | %.0f | %.0f | %.2f | %llu |\n",
		       cases[i].name, offered, drained / rig.elapsed / 1e6,
		       rec_mb, file_mb, vs_peer,
		       (unsigned long long)rig.total.lost);
		if (cases[i].rate && rig.total.lost)
			met = 0;
	}
	printf("\nTarget: %.0f M records/s drained raw with no loss (the paced run): %s.\n",
	       TARGET_RATE / 1e6, met ? "met" : "NOT met");
	return status;
}
