/* fsync of many paths by a few threads. See sync_files.h. */
#include "sync_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <threads.h>
#include <unistd.h>

/* Threads at most, and paths per thread below which one thread does it. */
#define SYNC_THREADS 8
#define SYNC_PER_THREAD 8

struct work {
	const char *const *paths;
	size_t n;
	atomic_size_t next;
	atomic_int err;
};

static int sync_one(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return errno;
	rc = fsync(fd) != 0 ? errno : 0;
	close(fd);
	return rc;
}

static int worker(void *arg)
{
	struct work *w = arg;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n) {
		int e = sync_one(w->paths[i]), none = 0;
		if (e)
			atomic_compare_exchange_strong(&w->err, &none, e);
	}
	return 0;
}

int sync_files(const char *const *paths, size_t n)
{
	struct work w = { paths, n, 0, 0 };
	thrd_t t[SYNC_THREADS];
	size_t nt = n / SYNC_PER_THREAD, started = 0;

	if (nt > SYNC_THREADS)
		nt = SYNC_THREADS;
	/* this thread works too: nt - 1 others */
	for (size_t k = 1; k < nt; k++)
		if (thrd_create(&t[started], worker, &w) == thrd_success)
			started++;
	worker(&w);
	for (size_t k = 0; k < started; k++)
		thrd_join(t[k], NULL);
	if (atomic_load(&w.err)) {
		errno = atomic_load(&w.err);
		return -1;
	}
	return 0;
}
