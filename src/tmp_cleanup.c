/* The registry of temporary files removed on a fatal signal. See
 * tmp_cleanup.h. The handler only calls unlink(2) and re-raises, both
 * async-signal-safe; the table is changed with the signals blocked, so the
 * handler never sees it half-updated. */
#include "tmp_cleanup.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
#define NSIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static char **volatile paths;
static bool *volatile is_dir;
static volatile size_t npaths;
static size_t cap, live;
static bool installed;
static unsigned holds;

static void fatal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaddset(set, fatal_signals[i]);
}

static void on_fatal(int sig)
{
	for (size_t i = npaths; i-- > 0;)
		if (paths[i]) {
			if (is_dir[i])
				rmdir(paths[i]);
			else
				unlink(paths[i]);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	fatal_set(&sa.sa_mask);
	for (size_t i = 0; i < NSIGNALS; i++) {
		struct sigaction old;
		/* a signal the caller ignores (nohup, a shell's `trap '' INT`) stays ignored */
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
	installed = true;
}

static void block(sigset_t *old)
{
	sigset_t set;

	fatal_set(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

static int add(const char *path, bool dir)
{
	sigset_t old;
	char *copy = xstrdup(path);
	int h;

	block(&old);
	if (!installed)
		install();
	/* a new slot at the end, not a freed one: the order of removal is the
	 * reverse order of registration */
	if (npaths == cap) {
		size_t ncap = cap ? cap * 2 : 64;
		char **grown = xcalloc(ncap, sizeof(*grown));
		bool *grown_dir = xcalloc(ncap, sizeof(*grown_dir));
		if (npaths) {
			memcpy(grown, (char **)paths, npaths * sizeof(*grown));
			memcpy(grown_dir, (bool *)is_dir, npaths * sizeof(*grown_dir));
		}
		free((char **)paths);
		free((bool *)is_dir);
		paths = grown;
		is_dir = grown_dir;
		cap = ncap;
	}
	h = (int)npaths;
	npaths = npaths + 1;
	is_dir[h] = dir;
	paths[h] = copy;
	live++;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return h;
}

int tmp_cleanup_add(const char *path)
{
	return add(path, false);
}

int tmp_cleanup_add_dir(const char *path)
{
	return add(path, true);
}

void tmp_cleanup_forget(int handle)
{
	sigset_t old;
	char *p;

	if (handle < 0 || (size_t)handle >= npaths)
		return;
	block(&old);
	p = paths[handle];
	paths[handle] = NULL;
	if (p)
		live--;
	if (live == 0)
		npaths = 0; /* all forgotten: the table starts again empty */
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(p);
}

void tmp_cleanup_hold(bool hold)
{
	sigset_t set;

	fatal_set(&set);
	if (hold) {
		if (holds++ == 0)
			sigprocmask(SIG_BLOCK, &set, NULL);
	} else if (holds && --holds == 0) {
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
}
