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
 * or zlib-compressed, through the page cache or with O_DIRECT (--direct).
 * Peers: memcpy bandwidth, and the bandwidth of 1 GiB written in 1 MiB
 * blocks to a new file in the same directory, through the page cache and
 * with O_DIRECT.
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

#define TARGET_RATE	20e6	/* records/s drained raw, no loss */
#define PEER_BYTES	(1ull << 30)

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
 * MB/s of write() in 1 MiB blocks of PEER_BYTES to a new file at @path
 * (removed after), with @flags (O_DIRECT or 0): what the drainer's writes
 * could reach at most, sustained, where the page cache has to take pages
 * it has not held before.
 */
static double write_bw(const char *path, int flags)
{
	size_t block = 1u << 20, n = PEER_BYTES / block, i;
	void *buf;
	double bw;
	uint64_t t;
	int fd;

	if (posix_memalign(&buf, 4096, block))
		return 0;
	memset(buf, 0x5a, block);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | flags, 0644);
	if (fd < 0) {
		free(buf);
		return 0;
	}
	t = now_ns();
	for (i = 0; i < n; i++)
		if (write(fd, buf, block) != (ssize_t)block)
			break;
	bw = i * block / ((now_ns() - t) / 1e9);
	close(fd);
	unlink(path);
	free(buf);
	return bw;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		double rate;
		unsigned int ring_mb;
		int zlib;
		bool direct;
		bool prefill;
		bool target;
	} cases[] = {
		{ "raw, drainer alone (ring filled first)", 0, 64, 0, false, true, false },
		{ "raw, drainer alone (ring filled first)", 0, 64, 0, true, true, false },
		{ "raw, flat out", 0, 4, 0, false, false, false },
		{ "raw, paced at 20 M/s", TARGET_RATE, 4, 0, false, false, false },
		{ "raw, paced at 20 M/s", TARGET_RATE, 4, 0, true, false, false },
		{ "raw, paced at 20 M/s", TARGET_RATE, 64, 0, false, false, false },
		/* the target's run: a ring that outlasts the disk's stalls */
		{ "raw, paced at 20 M/s", TARGET_RATE, 64, 0, true, false,
		  true },
		{ "zlib -z1, drainer alone", 0, 64, 1, false, true, false },
		{ "zlib -z1, flat out", 0, 4, 1, false, false, false },
	};
	char path[4096], peer[4096];
	double seconds = argc > 2 ? atof(argv[2]) : 3, mc, wb, wd;
	int status = 0, met = 1;
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: drain_bench DIR [SECONDS_PER_RUN]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/drain_bench.srec", argv[1]);
	snprintf(peer, sizeof(peer), "%s/drain_bench.peer", argv[1]);
	mc = memcpy_bw();
	wb = write_bw(peer, 0);
	wd = write_bw(peer, O_DIRECT);
	printf("## Drain throughput (host, producer CPU 0, drainer CPU 1, %.0f s per run)\n\n",
	       seconds);
	printf("Peers in this run: memcpy %.1f GB/s; 1 GiB written in 1 MiB blocks to a new file in %s: %.0f MB/s through the page cache, %.0f MB/s with O_DIRECT.\n\n",
	       mc / 1e9, argv[1], wb / 1e6, wd / 1e6);
	printf("| run | ring MiB | writes | offered M rec/s | drained M rec/s | MB/s of records | MB/s to the file | file / write() peer | lost |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct drainrig rig = {
			.ring_size = (uint64_t)cases[i].ring_mb << 20,
			.rate = cases[i].rate, .seconds = seconds,
			.zlib_level = cases[i].zlib,
			.direct = cases[i].direct, .prefill = cases[i].prefill,
		};
		double rec_mb, file_mb, vs_peer, drained, peer_bw;
		const char *writes = "page cache";
		char offered[32] = "-";

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
		peer_bw = wb;
		if (rig.direct) {
			peer_bw = wd;
			writes = "O_DIRECT";
		}
		vs_peer = peer_bw > 0 ? file_mb * 1e6 / peer_bw : 0;
		if (!rig.prefill)
			snprintf(offered, sizeof(offered), "%.1f",
				 rig.produced / rig.elapsed / 1e6);
		printf("| %s | %u | %s | %s | %.1f | %.0f | %.0f | %.2f | %llu |\n",
		       cases[i].name, cases[i].ring_mb,
		       writes, offered,
		       drained / rig.elapsed / 1e6, rec_mb, file_mb, vs_peer,
		       (unsigned long long)rig.total.lost);
		if (cases[i].target && rig.total.lost)
			met = 0;
	}
	printf("\nTarget: %.0f M records/s drained raw with no loss (paced, 64 MiB ring, --direct): %s.\n",
	       TARGET_RATE / 1e6, met ? "met" : "NOT met");
	return status;
}
