/* The registry of temporary files removed on a fatal signal. See
 * tmp_cleanup.h. The handler only calls unlink(2), rmdir(2) and re-raises,
 * all async-signal-safe. The table is changed so that the handler, which
 * interrupts this thread at any instruction, always sees it whole, without
 * a system call to block the signals: an entry is written before the count
 * covers it, a forgotten one is emptied (one pointer store) before its
 * string is freed, and a grown table is published whole while the old one
 * is kept (never freed: at most as large as the last). */
#include "tmp_cleanup.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
#define NSIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

static char *volatile *volatile paths;
static volatile bool *volatile is_dir;
static volatile size_t npaths;
static size_t cap, live;
static bool installed;
static unsigned holds;
/* tables replaced by larger ones: kept, the handler may be reading them */
static void **retired;
static size_t nretired, capretired;

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

static int add(const char *path, bool dir)
{
	char *copy = xstrdup(path);
	int h;

	if (!installed) {
		sigset_t set, old;
		fatal_set(&set);
		sigprocmask(SIG_BLOCK, &set, &old);
		install();
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (npaths == cap) {
		size_t ncap = cap ? cap * 2 : 64;
		char *volatile *grown = xcalloc(ncap, sizeof(*grown));
		volatile bool *grown_dir = xcalloc(ncap, sizeof(*grown_dir));
		for (size_t i = 0; i < npaths; i++) {
			grown[i] = paths[i];
			grown_dir[i] = is_dir[i];
		}
		if (paths) {
			XGROW(retired, capretired, nretired + 2);
			retired[nretired++] = (void *)paths;
			retired[nretired++] = (void *)is_dir;
		}
		is_dir = grown_dir;
		paths = grown;
		cap = ncap;
	}
	/* a new slot at the end, not a freed one: the order of removal is the
	 * reverse order of registration */
	h = (int)npaths;
	is_dir[h] = dir;
	paths[h] = copy;
	npaths = npaths + 1;
	live++;
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
	char *p;

	if (handle < 0 || (size_t)handle >= npaths)
		return;
	p = paths[handle];
	paths[handle] = NULL;
	if (p)
		live--;
	if (live == 0)
		npaths = 0; /* all forgotten: the table starts again empty */
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
