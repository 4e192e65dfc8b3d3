/* G3: the team's whole build command succeeds. It runs through /bin/sh in
 * the operator directory, its output kept in a log whose path is reported
 * with the exit status and, on failure, the log's last lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gate_run.h"
#include "xalloc.h"

#define TAIL_LINES 15

/* The last `lines` lines of the file at `path` (newly allocated). */
static char *log_tail(const char *path, int lines)
{
	FILE *f = fopen(path, "rb");
	long size, from;
	char *buf, *p;
	size_t n;
	int seen = 0;

	if (!f)
		return xstrdup("");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	from = size > 8192 ? size - 8192 : 0;
	fseek(f, from, SEEK_SET);
	buf = xmalloc((size_t)(size - from) + 1);
	n = fread(buf, 1, (size_t)(size - from), f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	p = buf + n;
	while (p > buf) {
		if (p[-1] == '\n' && ++seen == lines)
			break;
		p--;
	}
	p = xstrdup(p);
	free(buf);
	return p;
}

static char *make_log(const char *given, int *fd)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	size_t n;

	if (given) {
		*fd = open(given, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		return xstrdup(given);
	}
	n = strlen(tmp && *tmp ? tmp : "/tmp") + 40;
	path = xmalloc(n);
	snprintf(path, n, "%s/autotrace-gate-G3-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	*fd = mkstemp(path);
	return path;
}

void gate_g3(struct project_model *p, struct gate_report *r)
{
	const char *cmd = p->opts->build_cmd ? p->opts->build_cmd : p->policy->gate_build.value;
	struct gate_loc where = gate_loc_path(NULL, 0, 0);
	struct timespec t0, t1;
	char *log, *note;
	int fd, status;
	pid_t pid;
	size_t nn;
	double secs;

	if (!cmd || !*cmd) {
		gate_add(r, GATE_RULE_G3_BUILD, DIAG_ERROR, gate_loc_path(NULL, 0, 0),
			 "set the team's build command in the rules (gate { build \"bash compile_ascend_proj.sh\"; }) or "
			 "pass --build-cmd; on a machine that cannot build, --skip G3",
			 "no build command: G3 needs the team's whole build, static checks are not a build");
		return;
	}
	if (!p->opts->build_cmd && p->policy->gate_build.loc.file)
		where = gate_loc_at(p->policy->gate_build.loc.file, p->policy->gate_build.loc.start,
				    p->policy->gate_build.loc.end);
	log = make_log(p->opts->build_log, &fd);
	if (fd < 0) {
		gate_add(r, GATE_RULE_G3_BUILD, DIAG_ERROR, where, NULL, "cannot create the build log %s: %s", log,
			 strerror(errno));
		free(log);
		return;
	}
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (chdir(p->opts->opdir) != 0)
			_exit(126);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd);
	status = -1;
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		gate_add(r, GATE_RULE_G3_BUILD, DIAG_ERROR, where, NULL, "cannot run the build command: %s",
			 strerror(errno));
		free(log);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	nn = strlen(cmd) + strlen(log) + 96;
	note = xmalloc(nn);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		snprintf(note, nn, "'%s' exited with status 0 in %.1f s; log: %s", cmd, secs, log);
		gate_loc_release(&where);
	} else {
		char *tail = log_tail(log, TAIL_LINES);
		if (WIFEXITED(status))
			snprintf(note, nn, "'%s' exited with status %d; log: %s", cmd, WEXITSTATUS(status), log);
		else
			snprintf(note, nn, "'%s' was killed by signal %d; log: %s", cmd,
				 WIFSIGNALED(status) ? WTERMSIG(status) : 0, log);
		gate_add(r, GATE_RULE_G3_BUILD, DIAG_ERROR, where,
			 "fix the build: the log holds its whole output",
			 "the build failed: %s\nlast lines of the log:\n%s", note, tail);
		free(tail);
	}
	free(r->gates[GATE_G3].note);
	r->gates[GATE_G3].note = note;
	free(log);
}
