/* Reading a dump file whole with the reader its extension (or its first
 * bytes) calls for; the container they fill is dump_tensors.c. */
#include "dump.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xalloc.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : "not a regular file";
}

/* Opens `path` for reading without ever blocking (a FIFO named like a dump
 * would wait forever for a writer) and checks it is a regular file of a
 * size a dump can have. The descriptor, or -1 after reporting. */
static int open_dump(const char *path, struct stat *st, struct diag *diag)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot open dump: %s%s", strerror(errno),
			 errno == ELOOP ? " (a loop of symbolic links?)" : "");
		return -1;
	}
	if (fstat(fd, st) != 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read dump: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st->st_mode)) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "%s, not a dump", kind_of(st->st_mode));
		goto fail;
	}
	if (st->st_size == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "empty file: no profiling data was saved");
		goto fail;
	}
	if ((uint64_t)st->st_size > DUMP_MAX_BYTES) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "%lld bytes: far more than a profiling dump holds (a few MB; at most %llu bytes are read)",
			 (long long)st->st_size, (unsigned long long)DUMP_MAX_BYTES);
		goto fail;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
fail:
	close(fd);
	return -1;
}

/* Reads the whole file; NULL after reporting. */
static unsigned char *read_whole(const char *path, int fd, size_t size, struct diag *diag)
{
	unsigned char *buf = xmalloc(size + 1);
	size_t got = 0;

	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read dump: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got != size) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "the file shrank from %zu to %zu bytes while it was read: is it still being written?", size, got);
		free(buf);
		return NULL;
	}
	return buf;
}

/* A dump that changed while it was read (a rank still being saved). */
static bool changed_since(const char *path, int fd, const struct stat *before, struct diag *diag)
{
	struct stat now;

	if (fstat(fd, &now) != 0 || (now.st_size == before->st_size && now.st_mtim.tv_sec == before->st_mtim.tv_sec &&
				      now.st_mtim.tv_nsec == before->st_mtim.tv_nsec))
		return false;
	diag_pos(diag, DIAG_ERROR, path, 0, 0,
		 "changed while it was read (%lld bytes, then %lld): is it still being written? Collect once the job "
		 "has saved every rank",
		 (long long)before->st_size, (long long)now.st_size);
	return true;
}

/* After an error: a dump modified in the last seconds may be one that is
 * still being written; say so. */
static void note_if_recent(const char *path, const struct stat *st, struct diag *diag)
{
	struct timespec now;
	double age;

	clock_gettime(CLOCK_REALTIME, &now);
	age = (double)(now.tv_sec - st->st_mtim.tv_sec) + (double)(now.tv_nsec - st->st_mtim.tv_nsec) / 1e9;
	if (age >= 0 && age < DUMP_RECENT_SECONDS)
		diag_pos(diag, DIAG_NOTE, path, 0, 0,
			 "it was modified in the last %.0f s: if the job is still saving it, collect once every rank is saved",
			 DUMP_RECENT_SECONDS);
}

struct dump *dump_read(const char *path, struct diag *diag)
{
	struct dump *d = NULL;
	unsigned char *buf = NULL, magic[6] = { 0 };
	struct stat st;
	size_t len;
	int rc = -1, fd;

	fd = open_dump(path, &st, diag);
	if (fd < 0)
		return NULL;
	len = (size_t)st.st_size;
	d = xcalloc(1, sizeof(*d));
	d->path = xstrdup(path);
	d->rank = dump_rank_from_name(path);
	if (pread(fd, magic, len < 6 ? len : 6, 0) < 0)
		memset(magic, 0, sizeof(magic));
	if (ends_with(path, ".npy") || (len >= 6 && memcmp(magic, "\x93NUMPY", 6) == 0)) {
		d->format = DUMP_NPY;
	} else if (ends_with(path, ".pt") || ends_with(path, ".pth") || (len >= 4 && memcmp(magic, "PK\3\4", 4) == 0)) {
		/* libzip reads the entries straight from the file: one copy less */
		d->format = DUMP_PT;
		rc = dump_pt_read_fd(path, fd, len, d, diag);
		goto done;
	} else {
		d->format = DUMP_BIN;
	}
	buf = read_whole(path, fd, len, diag);
	if (buf)
		rc = d->format == DUMP_NPY ? dump_npy_read_mem(path, buf, len, d, diag)
					   : dump_bin_read_mem(path, buf, len, d, diag);
	free(buf);
done:
	if (rc == 0 && changed_since(path, fd, &st, diag))
		rc = -1;
	if (rc != 0)
		note_if_recent(path, &st, diag);
	close(fd);
	if (rc != 0) {
		dump_free(d);
		return NULL;
	}
	return d;
}

int dump_rank_parse(const char *path, int *rank)
{
	const char *base = strrchr(path, '/');
	const char *p;
	uint64_t v = 0;

	base = base ? base + 1 : path;
	p = strstr(base, "rank");
	*rank = -1;
	if (!p)
		return 0;
	p += 4;
	if (*p == '_' || *p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > DUMP_MAX_RANK)
			return -1;
	}
	*rank = (int)v;
	return 1;
}

int dump_rank_from_name(const char *path)
{
	int rank;

	return dump_rank_parse(path, &rank) == 1 ? rank : -1;
}
