/* Test helper of tests/report.test (the bounds of issue 33, rows 5 and 6):
 * the cost of a command, measured here rather than by /usr/bin/time (a
 * package less) or Python (whose own memory a child's peak would count: a
 * process's peak RSS includes what it held before its exec).
 *   cost_of [-n RUNS] [-t SECONDS] [-v KB] -- CMD ARG...
 * Runs CMD RUNS times (default 3), its output to /dev/null, each killed past
 * SECONDS (default 120) and held to KB of address space (RLIMIT_AS; default
 * 3000000; 0: no bound, as under ASan, which maps terabytes). Prints
 * "PEAK_KB CPU_SECONDS": the largest peak RSS of the runs and the smallest
 * user + system time (the run least disturbed by other work). Exit status
 * 0; 1 when a run fails, is killed or passes a bound (said on stderr); 2 on
 * bad usage. Built without the sanitizers. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* One run: 0 with its peak (KB) and CPU time, else 1 after saying why. */
static int run_once(char **cmd, double limit_s, long vmem_kb, long *peak, double *cpu)
{
	struct rusage ru;
	struct timespec nap = { 0, 5 * 1000 * 1000 }, t0, t1;
	int status;
	pid_t pid, w;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("cost_of: fork");
		return 1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (vmem_kb > 0) {
			struct rlimit rl = { (rlim_t)vmem_kb * 1024, (rlim_t)vmem_kb * 1024 };
			setrlimit(RLIMIT_AS, &rl);
		}
		if (null >= 0)
			dup2(null, 1);
		execvp(cmd[0], cmd);
		fprintf(stderr, "cost_of: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			perror("cost_of: wait4");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 > limit_s) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "cost_of: over %g s: %s\n", limit_s, cmd[0]);
			return 1;
		}
		nanosleep(&nap, NULL);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "cost_of: killed by signal %d (past %ld KB of address space?): %s\n", WTERMSIG(status),
				vmem_kb, cmd[0]);
		else
			fprintf(stderr, "cost_of: exit %d: %s\n", WEXITSTATUS(status), cmd[0]);
		return 1;
	}
	*peak = ru.ru_maxrss;
	*cpu = seconds(ru.ru_utime) + seconds(ru.ru_stime);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 3, c;
	double limit_s = 120, best = -1;
	long vmem_kb = 3000000, peak = 0;

	while ((c = getopt(argc, argv, "+n:t:v:")) != -1) {
		switch (c) {
		case 'n': runs = atoi(optarg); break;
		case 't': limit_s = atof(optarg); break;
		case 'v': vmem_kb = atol(optarg); break;
		default: return 2;
		}
	}
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (optind >= argc || runs < 1) {
		fprintf(stderr, "usage: cost_of [-n RUNS] [-t SECONDS] [-v KB] -- CMD ARG...\n");
		return 2;
	}
	for (int i = 0; i < runs; i++) {
		long p;
		double cpu;
		if (run_once(argv + optind, limit_s, vmem_kb, &p, &cpu) != 0)
			return 1;
		if (p > peak)
			peak = p;
		if (best < 0 || cpu < best)
			best = cpu;
	}
	printf("%ld %.3f\n", peak, best);
	return 0;
}
