/* Test helper (LD_PRELOAD=tests/failinj.so): makes chosen rename(2),
 * link(2), unlink(2), fsync(2) and fdatasync(2) calls of a program fail,
 * for the failures no check of autotrace can foresee (an I/O error, a full
 * disk) in the middle of a batch of renames, or a disk that cannot flush.
 * Built by the test suite only; nothing of it is in autotrace. The
 * environment says which calls:
 *
 *   FAILINJ_RENAME=SPEC   SPEC: comma-separated items, each N (the N-th
 *   FAILINJ_LINK=SPEC     call, counted from 1 among those the filter lets
 *   FAILINJ_UNLINK=SPEC   through), an absolute path P (every call whose
 *   FAILINJ_FSYNC=SPEC    destination is P: the new name of a rename or
 *                         link, the name unlinked, the file an fsync or
 *                         fdatasync flushes, read from /proc/self/fd) or
 *                         `all` (every call the filter lets through);
 *                         FAILINJ_FSYNC counts fsync and fdatasync as one
 *   FAILINJ_UNDER=DIR     count and fail only calls whose destination lies
 *                         under DIR (absolute, physical); default: all
 *   FAILINJ_ERRNO=NAME    the error: EIO (default), ENOSPC, EXDEV, EPERM, or
 *                         a number
 *   FAILINJ_LOG=FILE      appends "rename|link|unlink|fsync|fdatasync DEST"
 *                         for every call the filter lets through (to count
 *                         them)
 *
 * A destination is compared by the physical path of its directory and its
 * last component, however the program wrote it (relative, through links). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The physical path of `path` (its directory resolved, the last component
 * kept) in out; 0, or -1 when its directory does not resolve. */
static int physical(const char *path, char *out, size_t cap)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (!realpath(dir, real))
		return -1;
	snprintf(out, cap, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
	return 0;
}

static int chosen_errno(void)
{
	const char *e = getenv("FAILINJ_ERRNO");

	if (!e || !*e || strcmp(e, "EIO") == 0)
		return EIO;
	if (strcmp(e, "ENOSPC") == 0)
		return ENOSPC;
	if (strcmp(e, "EXDEV") == 0)
		return EXDEV;
	if (strcmp(e, "EPERM") == 0)
		return EPERM;
	return atoi(e) > 0 ? atoi(e) : EIO;
}

/* Should the call `what` (its counter `count`, its spec in the variable
 * `var`) on destination `dest` fail? */
static int should_fail(const char *what, const char *var, unsigned *count, const char *dest)
{
	const char *spec = getenv(var), *under = getenv("FAILINJ_UNDER"), *log = getenv("FAILINJ_LOG");
	char phys[PATH_MAX + 1];
	int known = physical(dest, phys, sizeof(phys)) == 0;
	size_t ul = under ? strlen(under) : 0;
	unsigned n;

	if ((!spec || !*spec) && (!log || !*log))
		return 0;
	if (ul && (!known || strncmp(phys, under, ul) != 0 || (phys[ul] != '/' && phys[ul] != '\0')))
		return 0;
	n = __atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST); /* fsync runs in threads too */
	if (log && *log) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dprintf(fd, "%s %s\n", what, known ? phys : dest);
			close(fd);
		}
	}
	for (const char *s = spec; s && *s;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (len == 3 && strncmp(s, "all", 3) == 0)
			return 1;
		if (*s == '/' ? known && strlen(phys) == len && strncmp(phys, s, len) == 0
			      : strtoul(s, NULL, 10) == n)
			return 1;
		s = comma ? comma + 1 : s + len;
	}
	return 0;
}

/* A call of `sym`(from, to) through libc, unless it is to fail. */
static int two_paths(const char *sym, const char *var, unsigned *count, const char *from, const char *to)
{
	int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, sym);

	if (should_fail(sym, var, count, to)) {
		errno = chosen_errno();
		return -1;
	}
	return real(from, to);
}

int rename(const char *from, const char *to)
{
	static unsigned count;

	return two_paths("rename", "FAILINJ_RENAME", &count, from, to);
}

int link(const char *from, const char *to)
{
	static unsigned count;

	return two_paths("link", "FAILINJ_LINK", &count, from, to);
}

int unlink(const char *path)
{
	static unsigned count;
	static int (*real)(const char *);

	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	if (should_fail("unlink", "FAILINJ_UNLINK", &count, path)) {
		errno = chosen_errno();
		return -1;
	}
	return real(path);
}

/* A call of `sym`(fd) through libc, unless it is to fail; its destination
 * the file fd is open on. */
static int one_fd(const char *sym, unsigned *count, int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, sym);
	char proc[64], dest[PATH_MAX];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, dest, sizeof(dest) - 1);
	if (n < 0)
		snprintf(dest, sizeof(dest), "fd %d", fd);
	else
		dest[n] = '\0';
	if (should_fail(sym, "FAILINJ_FSYNC", count, dest)) {
		errno = chosen_errno();
		return -1;
	}
	return real(fd);
}

/* fsync and fdatasync share one count: a flush is a flush */
static unsigned sync_count;

int fsync(int fd)
{
	return one_fd("fsync", &sync_count, fd);
}

int fdatasync(int fd)
{
	return one_fd("fdatasync", &sync_count, fd);
}
