/* Test helper of tests/kill.test: runs a command and kills it with SIGKILL
 * at a chosen moment, to prove that no moment leaves a half-written tree.
 *   kill_at -t US -- CMD ARG...            US microseconds after the start
 *   kill_at -m JOURNAL -t US -- CMD ARG... US microseconds after JOURNAL
 *                                          ends with the commit mark "C\n"
 *   -n N                                   with -m: the mark of the run's Nth
 *                                          batch (its "batch<TAB>N" line)
 *   -a                                     with -m: the abort mark "A\n" (the
 *                                          batch is being rolled back) instead
 *   -d DIR -t US -- CMD ARG...             US microseconds after a first entry
 *                                          appears in DIR (an output begun)
 *   -s SIGNAL                              send SIGNAL (a number) instead
 * The output of CMD goes to /dev/null. Prints "killed" when the command was
 * still running at the kill, else "exited STATUS" (or "unmarked STATUS"
 * when it ended before the journal showed the mark or DIR an entry). Exit status 0, or 2
 * on bad usage. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Does `path` end with the mark `m` ('C' commit, 'A' abort; of batch
 * `batch`, when not 0)? */
static int marked(const char *path, int batch, char m)
{
	char tail[2], head[512], want[32];
	struct stat st;
	int fd = open(path, O_RDONLY), ok = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && st.st_size >= 2 && pread(fd, tail, 2, st.st_size - 2) == 2)
		ok = tail[0] == m && tail[1] == '\n';
	if (ok && batch) {
		n = pread(fd, head, sizeof(head) - 1, 0);
		head[n > 0 ? n : 0] = '\0';
		snprintf(want, sizeof(want), "\nbatch\t%d\n", batch);
		ok = strstr(head, want) != NULL;
	}
	close(fd);
	return ok;
}

/* Does directory `path` hold an entry besides . and ..? */
static int has_entry(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)))
		found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return found;
}

static void pause_us(long long us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (us > 0 && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	const char *mark = NULL, *dir = NULL;
	long long delay = 0, start;
	int opt, status, sig = SIGKILL, batch = 0;
	char m = 'C';
	pid_t pid, done;

	while ((opt = getopt(argc, argv, "+ad:m:n:t:s:")) != -1) {
		if (opt == 'a')
			m = 'A';
		else if (opt == 'm')
			mark = optarg;
		else if (opt == 'd')
			dir = optarg;
		else if (opt == 'n')
			batch = atoi(optarg);
		else if (opt == 's')
			sig = atoi(optarg);
		else if (opt == 't')
			delay = atoll(optarg);
		else
			return 2;
	}
	if (optind >= argc) {
		fputs("usage: kill_at [-m JOURNAL [-n N] [-a] | -d DIR] [-s SIGNAL] -t US -- CMD ARG...\n", stderr);
		return 2;
	}
	start = now_us();
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	if (mark || dir) {
		/* a busy poll: the commit of a small batch on a RAM file system
		 * lasts tens of microseconds */
		while (mark ? !marked(mark, batch, m) : !has_entry(dir)) {
			done = waitpid(pid, &status, WNOHANG);
			if (done == pid) {
				printf("unmarked %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
				return 0;
			}
		}
		start = now_us();
	}
	/* until the moment, or until the command ends by itself */
	for (;;) {
		long long left = delay - (now_us() - start);
		done = waitpid(pid, &status, WNOHANG);
		if (done == pid) {
			printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			return 0;
		}
		if (left <= 0)
			break;
		pause_us(left < 200 ? left : 200);
	}
	kill(pid, sig);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		puts("killed");
	else
		printf("exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	return 0;
}
