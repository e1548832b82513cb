// SPDX-License-Identifier: GPL-2.0
/*
 * benchprobe: small helpers for the benchmark scenario inside the VM.
 *
 *   benchprobe now
 *       CLOCK_MONOTONIC in nanoseconds (busybox has no sub-second clock).
 *
 *   benchprobe gaps SECONDS THRESHOLD_US
 *       One spinner pinned to every online CPU reads CLOCK_MONOTONIC in a
 *       loop for SECONDS; whenever two reads are more than THRESHOLD_US
 *       apart, the spinner was not running (emulator running another vCPU,
 *       an interrupt, a preemption).  With one spinner per CPU the guest
 *       scheduler has nothing to decide, so what is left is the emulator's
 *       stall floor.  Prints "total_ns N", "gap_ns N", "gaps N" and one
 *       "hist US COUNT" line per distinct gap length (microseconds, sparse).
 *
 *   benchprobe hogs N SECONDS THRESHOLD_US
 *       N unpinned spinner threads (a CPU load that measures itself): each
 *       sums the intervals between its clock reads that are at most
 *       THRESHOLD_US, i.e. the time it really executed.  Prints "hogs N",
 *       "elapsed_ns N" and "run_ns N" (sum over threads).  run_ns divided
 *       by elapsed_ns times the number of CPUs the hogs kept busy is the
 *       share of virtual time a busy vCPU really executed under the
 *       emulator.
 *
 * Built static by tests/bench/run-bench.sh and copied into the image.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_GAPS (1u << 20)

struct spinner {
	pthread_t thread;
	int cpu;		/* -1: not pinned */
	uint64_t seconds_ns, threshold_ns;
	uint64_t total_ns, gap_ns;
	uint32_t nr_gaps;
	uint32_t *gaps_us;
	int err;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *spin(void *arg)
{
	struct spinner *s = arg;
	cpu_set_t set;
	uint64_t start, prev, t, d;

	if (s->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(s->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			s->err = errno;
			return NULL;
		}
	}
	start = prev = now_ns();
	for (;;) {
		t = now_ns();
		d = t - prev;
		if (d > s->threshold_ns) {
			s->gap_ns += d;
			if (s->gaps_us && s->nr_gaps < MAX_GAPS)
				s->gaps_us[s->nr_gaps++] = (uint32_t)(d / 1000);
		}
		prev = t;
		if (t - start >= s->seconds_ns)
			break;
	}
	s->total_ns = prev - start;
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int gaps(double seconds, double threshold_us)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct spinner *sp;
	uint64_t total = 0, gap = 0;
	uint32_t *all, n = 0, i;
	long c;

	if (ncpu < 1 || seconds <= 0 || threshold_us <= 0) {
		fprintf(stderr, "benchprobe: bad arguments\n");
		return 2;
	}
	sp = calloc((size_t)ncpu, sizeof(*sp));
	if (!sp)
		return 1;
	for (c = 0; c < ncpu; c++) {
		sp[c].cpu = (int)c;
		sp[c].seconds_ns = (uint64_t)(seconds * 1e9);
		sp[c].threshold_ns = (uint64_t)(threshold_us * 1e3);
		sp[c].gaps_us = malloc(MAX_GAPS * sizeof(uint32_t));
		if (!sp[c].gaps_us ||
		    pthread_create(&sp[c].thread, NULL, spin, &sp[c])) {
			fprintf(stderr, "benchprobe: cannot start spinner %ld\n", c);
			return 1;
		}
	}
	for (c = 0; c < ncpu; c++) {
		pthread_join(sp[c].thread, NULL);
		if (sp[c].err) {
			fprintf(stderr, "benchprobe: cpu %ld: %s\n", c, strerror(sp[c].err));
			return 1;
		}
		total += sp[c].total_ns;
		gap += sp[c].gap_ns;
		n += sp[c].nr_gaps;
	}
	all = malloc((size_t)n * sizeof(uint32_t) + 1);
	if (!all)
		return 1;
	n = 0;
	for (c = 0; c < ncpu; c++) {
		memcpy(all + n, sp[c].gaps_us, sp[c].nr_gaps * sizeof(uint32_t));
		n += sp[c].nr_gaps;
	}
	qsort(all, n, sizeof(uint32_t), cmp_u32);
	printf("cpus %ld\ntotal_ns %llu\ngap_ns %llu\ngaps %u\n", ncpu,
	       (unsigned long long)total, (unsigned long long)gap, n);
	for (i = 0; i < n;) {
		uint32_t j = i;

		while (j < n && all[j] == all[i])
			j++;
		printf("hist %u %u\n", all[i], j - i);
		i = j;
	}
	return 0;
}

static int hogs(long n, double seconds, double threshold_us)
{
	struct spinner *sp;
	uint64_t start, end, run = 0;
	long i;

	if (n < 1 || n > 4096 || seconds <= 0 || threshold_us <= 0) {
		fprintf(stderr, "benchprobe: bad arguments\n");
		return 2;
	}
	sp = calloc((size_t)n, sizeof(*sp));
	if (!sp)
		return 1;
	start = now_ns();
	for (i = 0; i < n; i++) {
		sp[i].cpu = -1;
		sp[i].seconds_ns = (uint64_t)(seconds * 1e9);
		sp[i].threshold_ns = (uint64_t)(threshold_us * 1e3);
		if (pthread_create(&sp[i].thread, NULL, spin, &sp[i])) {
			fprintf(stderr, "benchprobe: cannot start hog %ld\n", i);
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(sp[i].thread, NULL);
		run += sp[i].total_ns - sp[i].gap_ns;
	}
	end = now_ns();
	printf("hogs %ld\nelapsed_ns %llu\nrun_ns %llu\n", n,
	       (unsigned long long)(end - start), (unsigned long long)run);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%llu\n", (unsigned long long)now_ns());
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "gaps"))
		return gaps(atof(argv[2]), atof(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "hogs"))
		return hogs(atol(argv[2]), atof(argv[3]), atof(argv[4]));
	fprintf(stderr, "usage: benchprobe now | gaps SECONDS THRESHOLD_US | "
			"hogs N SECONDS THRESHOLD_US\n");
	return 2;
}
