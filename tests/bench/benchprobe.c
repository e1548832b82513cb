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
 *   benchprobe ia SECONDS PART... [key=value...]
 *       Interactive workloads (issue 13), all in one window of SECONDS that
 *       every part starts and ends at the same CLOCK_MONOTONIC instants.
 *       Parts:
 *         render    a frame-paced renderer: every period_us (default 16667,
 *                   60 Hz) it sleeps to the period's start (absolute
 *                   deadline, clock_nanosleep TIMER_ABSTIME), then spins
 *                   work_us (default 4000) of its own CPU time
 *                   (CLOCK_THREAD_CPUTIME_ID: work, not wall time).  A frame
 *                   is missed when its work is not done by the period's
 *                   end; periods that began while a late frame still ran
 *                   are dropped (no frame).  Histograms: render_wake (actual
 *                   minus intended wake), render_resp (intended wake to work
 *                   done).
 *         pingpong  two threads pass a byte back and forth over two pipes;
 *                   histogram pp_rtt (one round trip; the first from the
 *                   window's start, so there is always one), pp_trips.
 *         fork=N    N workers that loop fork() -> the child spins child_us
 *                   (default 100) of CPU time and exits -> waitpid() -> the
 *                   parent spins parent_us (default 5000): the stress-ng
 *                   --fork pattern.  fork_cpu_ns is the workers' own CPU
 *                   time (their throughput), fork_loops the loops done.
 *         build=N   a parallel build: N job slots (make -jN), each forks
 *                   jobs one after the other, a job spinning a CPU time
 *                   drawn from job_min_ms..job_max_ms (default 20..200, a
 *                   fixed pseudo-random sequence per slot); build_jobs is
 *                   the jobs finished in the window.
 *         hogs=N    N spinner threads in a process of their own (forked
 *                   before any other thread), measured as `hogs` does:
 *                   hogs_run_ns.
 *       The renderer and the ping-pong run in the calling process, the
 *       fork workers and build slots in a load process of their own, the
 *       hogs in a third: as a desktop's, the interactive threads share no
 *       memory or library locks with the load's forks (ia_main()).
 *       Every thread is named ia_PART (ia_hogs for the hogs; the children
 *       of fork and build inherit their worker's name), so that a trace
 *       (`scx_burst trace --comm ia_render`) tells the parts apart.
 *       For every part, PART_switches and PART_migrations: nr_switches and
 *       se.nr_migrations of /proc/.../sched summed over its tasks (the
 *       children of fork and build read their own before they exit), which
 *       do not depend on the emulator's clock.  Prints "key value" lines
 *       (elapsed_ns, then the parts' numbers) and "hist NAME US COUNT" lines
 *       (us; above 1000 us rounded down to 3 significant digits).
 *
 * Built static by tests/bench/run-bench.sh and copied into the image.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* ---- ia: the interactive workloads --------------------------------------- */

struct hist {
	uint32_t *v;
	size_t n, cap;
};

static void hist_add(struct hist *h, uint64_t ns)
{
	uint64_t us = ns / 1000, d = 1;
	uint32_t *v;

	while (us / d >= 1000)
		d *= 10;
	us = us / d * d;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 4096;
		v = realloc(h->v, h->cap * sizeof(*v));
		if (!v) {
			fprintf(stderr, "benchprobe: out of memory\n");
			exit(1);
		}
		h->v = v;
	}
	h->v[h->n++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

static void hist_print(const char *name, struct hist *h)
{
	size_t i = 0, j;

	qsort(h->v, h->n, sizeof(*h->v), cmp_u32);
	while (i < h->n) {
		for (j = i; j < h->n && h->v[j] == h->v[i]; j++)
			;
		printf("hist %s %u %zu\n", name, h->v[i], j - i);
		i = j;
	}
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* spin ns of this thread's CPU time; 1 if the clock passed end first */
static int cpu_work(uint64_t ns, uint64_t end)
{
	uint64_t c0 = thread_cpu_ns();

	while (thread_cpu_ns() - c0 < ns)
		if (end && now_ns() >= end)
			return 1;
	return 0;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* nr_switches and se.nr_migrations of a /proc .../sched file */
struct sw {
	uint64_t switches, migrations;
};

static struct sw read_sched(const char *path)
{
	struct sw r = { 0, 0 };
	char line[256];
	unsigned long long v;
	FILE *f = fopen(path, "r");

	if (!f)
		return r;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || sscanf(colon + 1, "%llu", &v) != 1)
			continue;
		if (!strncmp(line, "nr_switches ", 12))
			r.switches = v;
		else if (!strncmp(line, "se.nr_migrations ", 17))
			r.migrations = v;
	}
	fclose(f);
	return r;
}

static struct sw self_sched(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
	return read_sched(path);
}

enum { P_RENDER, P_PP, P_FORK, P_BUILD, P_HOGS, NR_PARTS };
static const char *const part_name[NR_PARTS] = { "render", "pp", "fork", "build", "hogs" };

/*
 * What the parts that run in processes of their own count (ia_main()),
 * and every part's switches and migrations, in a MAP_SHARED page: forked
 * children add their own too.  The renderer's and the ping-pong's results
 * stay in struct ia, in the calling process where they run.
 */
struct shared {
	_Atomic uint64_t switches[NR_PARTS], migrations[NR_PARTS];
	_Atomic uint64_t hogs_run_ns, fork_loops, fork_cpu_ns, build_jobs, build_work_ns;
};

struct ia {
	uint64_t start, end;
	uint64_t period_ns, work_ns, child_ns, parent_ns, job_min_ns, job_max_ns;
	struct shared *sh;
	/* results */
	uint64_t frames, misses, dropped;
	struct hist wake, resp, rtt;
	uint64_t trips;
	int pp[4];			/* ping: pp[0] -> pp[1], pong: pp[2] -> pp[3] */
};

struct worker {
	pthread_t thread;
	struct ia *ia;
	int part, index;
};

/* the calling thread's name (comm): ia_PART */
static void name_part(const char *part)
{
	char name[16];

	snprintf(name, sizeof(name), "ia_%s", part);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static void count_sched(struct ia *ia, int part, struct sw a, struct sw b)
{
	atomic_fetch_add(&ia->sh->switches[part], b.switches - a.switches);
	atomic_fetch_add(&ia->sh->migrations[part], b.migrations - a.migrations);
}

/* in a forked child: its own switches and migrations, since fork */
static void child_exit(struct ia *ia, int part, int status)
{
	struct sw s = read_sched("/proc/self/sched");

	atomic_fetch_add(&ia->sh->switches[part], s.switches);
	atomic_fetch_add(&ia->sh->migrations[part], s.migrations);
	_exit(status);
}

static void render(struct ia *ia)
{
	uint64_t w = ia->start, a, d, k;

	while (w + ia->period_ns <= ia->end) {
		sleep_until(w);
		a = now_ns();
		cpu_work(ia->work_ns, 0);
		d = now_ns();
		hist_add(&ia->wake, a - w);
		hist_add(&ia->resp, d - w);
		ia->frames++;
		if (d > w + ia->period_ns)
			ia->misses++;
		/* the next period that begins after this frame is done */
		k = d > w ? (d - w) / ia->period_ns + 1 : 1;
		if (k > 1) {
			uint64_t left = (ia->end - w) / ia->period_ns;

			ia->dropped += (k - 1 < left ? k - 1 : left);
		}
		w += k * ia->period_ns;
	}
}

/*
 * The first round trip counts from the window's start, and there is always
 * one: a ping that cannot even begin within the window (its thread waiting
 * for a CPU) is one long round trip, not none.
 */
static void ping(struct ia *ia)
{
	char c = 'p';
	uint64_t t0 = ia->start, t1;

	do {
		if (write(ia->pp[1], &c, 1) != 1 || read(ia->pp[2], &c, 1) != 1)
			break;
		t1 = now_ns();
		hist_add(&ia->rtt, t1 - t0);
		ia->trips++;
	} while ((t0 = now_ns()) < ia->end);
	c = 'q';
	if (write(ia->pp[1], &c, 1) != 1)
		fprintf(stderr, "benchprobe: ping-pong: cannot stop the partner\n");
}

static void pong(struct ia *ia)
{
	char c;

	while (read(ia->pp[0], &c, 1) == 1 && c != 'q')
		if (write(ia->pp[3], &c, 1) != 1)
			break;
}

static void fork_worker(struct ia *ia)
{
	uint64_t c0 = thread_cpu_ns();
	pid_t pid;
	int status;

	while (now_ns() < ia->end) {
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "benchprobe: fork: %s\n", strerror(errno));
			break;
		}
		if (pid == 0) {
			cpu_work(ia->child_ns, ia->end);
			child_exit(ia, P_FORK, 0);
		}
		waitpid(pid, &status, 0);
		if (!cpu_work(ia->parent_ns, ia->end))
			atomic_fetch_add(&ia->sh->fork_loops, 1);
	}
	atomic_fetch_add(&ia->sh->fork_cpu_ns, thread_cpu_ns() - c0);
}

static void build_slot(struct ia *ia, int slot)
{
	uint32_t x = 2463534242u + 7919u * (uint32_t)slot;
	uint64_t len;
	pid_t pid;
	int status;

	while (now_ns() < ia->end) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		len = ia->job_min_ns + x % (ia->job_max_ns - ia->job_min_ns + 1);
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, "benchprobe: fork: %s\n", strerror(errno));
			break;
		}
		if (pid == 0)	/* exit status 1: cut at the window's end */
			child_exit(ia, P_BUILD, cpu_work(len, ia->end));
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			atomic_fetch_add(&ia->sh->build_jobs, 1);
			atomic_fetch_add(&ia->sh->build_work_ns, len);
		}
	}
}

static void *worker(void *arg)
{
	struct worker *wk = arg;
	struct ia *ia = wk->ia;
	struct sw a, b;

	name_part(part_name[wk->part]);
	sleep_until(ia->start);
	a = self_sched();
	switch (wk->part) {
	case P_RENDER: render(ia); break;
	case P_PP: wk->index ? pong(ia) : ping(ia); break;
	case P_FORK: fork_worker(ia); break;
	case P_BUILD: build_slot(ia, wk->index); break;
	}
	b = self_sched();
	count_sched(ia, wk->part, a, b);
	return NULL;
}

/* a hog of the hogs process: run time without the gaps, as spin() */
struct hog {
	pthread_t thread;
	struct ia *ia;
};

static void *hog(void *arg)
{
	struct ia *ia = ((struct hog *)arg)->ia;
	uint64_t prev, t, gap = 0, first;
	struct sw a, b;

	name_part(part_name[P_HOGS]);
	sleep_until(ia->start);
	a = self_sched();
	first = prev = now_ns();
	while ((t = now_ns()) < ia->end) {
		if (t - prev > 20000)
			gap += t - prev;
		prev = t;
	}
	b = self_sched();
	atomic_fetch_add(&ia->sh->hogs_run_ns, prev - first - gap);
	count_sched(ia, P_HOGS, a, b);
	return NULL;
}

static void hogs_process(struct ia *ia, long n)
{
	struct hog *h = calloc((size_t)n, sizeof(*h));
	long i;

	if (!h)
		_exit(1);
	for (i = 0; i < n; i++) {
		h[i].ia = ia;
		if (pthread_create(&h[i].thread, NULL, hog, &h[i]))
			_exit(1);
	}
	for (i = 0; i < n; i++)
		pthread_join(h[i].thread, NULL);
	_exit(0);
}

/* a thread per worker, then wait for them all; 1 if one could not start */
static int run_workers(struct ia *ia, struct worker *wk, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		wk[i].ia = ia;
		if (pthread_create(&wk[i].thread, NULL, worker, &wk[i])) {
			fprintf(stderr, "benchprobe: cannot start a thread\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(wk[i].thread, NULL);
	return 0;
}

/* wait for a part's process (none if pid < 0); 1 if it failed */
static int reap(pid_t pid, const char *what)
{
	int status;

	if (pid < 0)
		return 0;
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fprintf(stderr, "benchprobe: the %s process failed\n", what);
	return 1;
}

/* kill a part's process (none if pid < 0) and wait for it */
static void stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static int ia_usage(void)
{
	fprintf(stderr, "usage: benchprobe ia SECONDS [render] [pingpong] [fork=N] [build=N] [hogs=N] "
			"[period_us=U] [work_us=U] [child_us=U] [parent_us=U] [job_min_ms=M] "
			"[job_max_ms=M]\n");
	return 2;
}

static int ia_main(int argc, char **argv)
{
	struct ia *ia = calloc(1, sizeof(*ia));
	long nfork = 0, nbuild = 0, nhogs = 0, nw = 0, nload, i;
	int do_render = 0, do_pp = 0;
	double seconds = argc > 0 ? atof(argv[0]) : 0;
	struct worker *wk;
	pid_t hogs_pid = -1, load_pid = -1;

	if (!ia || seconds <= 0 || seconds > 3600)
		return ia_usage();
	ia->period_ns = 16667000;
	ia->work_ns = 4000000;
	ia->child_ns = 100000;
	ia->parent_ns = 5000000;
	ia->job_min_ns = 20000000;
	ia->job_max_ns = 200000000;
	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		long v = eq ? atol(eq + 1) : 0;
		size_t k = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

#define KEY(name) (k == strlen(name) && !strncmp(argv[i], name, k))
		if (!eq && KEY("render"))
			do_render = 1;
		else if (!eq && KEY("pingpong"))
			do_pp = 1;
		else if (eq && v >= 1 && v <= 4096 && KEY("fork"))
			nfork = v;
		else if (eq && v >= 1 && v <= 4096 && KEY("build"))
			nbuild = v;
		else if (eq && v >= 1 && v <= 4096 && KEY("hogs"))
			nhogs = v;
		else if (eq && v >= 1 && KEY("period_us"))
			ia->period_ns = (uint64_t)v * 1000;
		else if (eq && v >= 1 && KEY("work_us"))
			ia->work_ns = (uint64_t)v * 1000;
		else if (eq && v >= 1 && KEY("child_us"))
			ia->child_ns = (uint64_t)v * 1000;
		else if (eq && v >= 1 && KEY("parent_us"))
			ia->parent_ns = (uint64_t)v * 1000;
		else if (eq && v >= 1 && KEY("job_min_ms"))
			ia->job_min_ns = (uint64_t)v * 1000000;
		else if (eq && v >= 1 && KEY("job_max_ms"))
			ia->job_max_ns = (uint64_t)v * 1000000;
		else
			return ia_usage();
#undef KEY
	}
	if (ia->job_max_ns < ia->job_min_ns || !(do_render || do_pp || nfork || nbuild || nhogs))
		return ia_usage();
	ia->sh = mmap(NULL, sizeof(*ia->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ia->sh == MAP_FAILED)
		return 1;
	/* every part starts at the same instant, once all are set up */
	ia->start = now_ns() + 300000000ull;
	ia->end = ia->start + (uint64_t)(seconds * 1e9);
	/*
	 * Up to three processes, each forked before any thread: the hogs; the
	 * load (fork workers, build slots); and this one, the interactive
	 * parts (renderer, ping-pong).  A fork write-protects its process's
	 * memory, holds glibc's fork locks (malloc, stdio) across the system
	 * call and the process's mmap_lock while it copies the address space,
	 * including any time the forking thread waits for a CPU in between;
	 * in one process with the load the renderer's page faults and library
	 * calls would wait for the load's forks.  stress-ng's and make's
	 * workers are processes of their own, as the load is here.  On an
	 * error the processes already started are killed, not left to run
	 * into the next workload.
	 */
	if (nhogs) {
		hogs_pid = fork();
		if (hogs_pid < 0)
			return 1;
		if (hogs_pid == 0)
			hogs_process(ia, nhogs);
	}
	wk = calloc((size_t)(2 + 2 + nfork + nbuild), sizeof(*wk));
	if (!wk)
		goto fail;
	for (i = 0; i < nfork; i++)
		wk[nw++] = (struct worker){ .part = P_FORK, .index = (int)i };
	for (i = 0; i < nbuild; i++)
		wk[nw++] = (struct worker){ .part = P_BUILD, .index = (int)i };
	nload = nw;
	if (nload) {
		load_pid = fork();
		if (load_pid < 0)
			goto fail;
		if (load_pid == 0)
			_exit(run_workers(ia, wk, nload));
	}
	if (do_render)
		wk[nw++] = (struct worker){ .part = P_RENDER };
	for (i = 0; do_pp && i < 2; i++)
		wk[nw++] = (struct worker){ .part = P_PP, .index = (int)i };
	if (do_pp && (pipe(ia->pp) || pipe(ia->pp + 2)))
		goto fail;
	if (run_workers(ia, wk + nload, nw - nload))
		goto fail;
	/* both, whatever the first says */
	if (reap(hogs_pid, "hogs") | reap(load_pid, "load"))
		return 1;
	printf("elapsed_ns %llu\n", (unsigned long long)(ia->end - ia->start));
	if (do_render)
		printf("render_period_us %llu\nrender_work_us %llu\nrender_frames %llu\n"
		       "render_misses %llu\nrender_dropped %llu\n",
		       (unsigned long long)(ia->period_ns / 1000), (unsigned long long)(ia->work_ns / 1000),
		       (unsigned long long)ia->frames, (unsigned long long)ia->misses,
		       (unsigned long long)ia->dropped);
	if (do_pp)
		printf("pp_trips %llu\n", (unsigned long long)ia->trips);
	if (nfork)
		printf("fork_workers %ld\nfork_loops %llu\nfork_cpu_ns %llu\n", nfork,
		       (unsigned long long)ia->sh->fork_loops, (unsigned long long)ia->sh->fork_cpu_ns);
	if (nbuild)
		printf("build_slots %ld\nbuild_jobs %llu\nbuild_work_ms %llu\n", nbuild,
		       (unsigned long long)ia->sh->build_jobs,
		       (unsigned long long)(ia->sh->build_work_ns / 1000000));
	if (nhogs)
		printf("hogs_n %ld\nhogs_run_ns %llu\n", nhogs, (unsigned long long)ia->sh->hogs_run_ns);
	for (i = 0; i < NR_PARTS; i++) {
		int on = (i == P_RENDER && do_render) || (i == P_PP && do_pp) || (i == P_FORK && nfork) ||
			 (i == P_BUILD && nbuild) || (i == P_HOGS && nhogs);

		if (on)
			printf("%s_switches %llu\n%s_migrations %llu\n", part_name[i],
			       (unsigned long long)ia->sh->switches[i], part_name[i],
			       (unsigned long long)ia->sh->migrations[i]);
	}
	if (do_render) {
		hist_print("render_wake", &ia->wake);
		hist_print("render_resp", &ia->resp);
	}
	if (do_pp)
		hist_print("pp_rtt", &ia->rtt);
	return 0;
fail:
	stop(hogs_pid);
	stop(load_pid);
	return 1;
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
	if (argc >= 3 && !strcmp(argv[1], "ia"))
		return ia_main(argc - 2, argv + 2);
	fprintf(stderr, "usage: benchprobe now | gaps SECONDS THRESHOLD_US | "
			"hogs N SECONDS THRESHOLD_US | ia SECONDS PART...\n");
	return 2;
}
