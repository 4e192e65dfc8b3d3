/* The dump container shared by the readers, and reading a file whole with
 * the reader its extension (or its first bytes) calls for. */
#include "dump.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

void dump_free(struct dump *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->ntensors; i++) {
		free(d->tensors[i].name);
		if (!d->tensors[i].borrowed)
			free(d->tensors[i].words);
	}
	for (size_t i = 0; i < d->nblobs; i++)
		free(d->blobs[i]);
	free(d->blobs);
	free(d->tensors);
	free(d->path);
	free(d);
}

struct dump_tensor *dump_add_tensor(struct dump *d, const char *name, int elem_bytes, size_t ndim,
				    size_t rows, size_t cols, int64_t *words)
{
	struct dump_tensor *t;

	d->tensors = xrealloc(d->tensors, (d->ntensors + 1) * sizeof(*d->tensors));
	t = &d->tensors[d->ntensors++];
	t->name = xstrdup(name);
	t->elem_bytes = elem_bytes;
	t->ndim = ndim;
	t->rows = rows;
	t->cols = cols;
	t->words = words;
	t->borrowed = false;
	return t;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Reads the whole file; NULL after reporting. */
static unsigned char *read_whole(const char *path, size_t *len, struct diag *diag)
{
	unsigned char *buf = NULL;
	struct stat st;
	size_t got = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot open dump: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a regular file");
		goto fail;
	}
	if ((uint64_t)st.st_size > DUMP_MAX_BYTES) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "dump too large (%lld bytes)", (long long)st.st_size);
		goto fail;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read dump: %s", strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

struct dump *dump_read(const char *path, struct diag *diag)
{
	struct dump *d = NULL;
	unsigned char *buf;
	size_t len = 0;
	int rc;

	d = xcalloc(1, sizeof(*d));
	d->path = xstrdup(path);
	d->rank = dump_rank_from_name(path);
	if (ends_with(path, ".pt") || ends_with(path, ".pth")) {
		/* libzip reads the entries straight from the file: one copy less */
		struct stat st;
		d->format = DUMP_PT;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
			if (dump_pt_read_file(path, d, diag) != 0) {
				dump_free(d);
				return NULL;
			}
			return d;
		}
	}
	buf = read_whole(path, &len, diag);
	if (!buf) {
		dump_free(d);
		return NULL;
	}
	if (len == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "empty file: no profiling data was saved");
		rc = -1;
	} else if (ends_with(path, ".npy") || (len >= 6 && memcmp(buf, "\x93NUMPY", 6) == 0)) {
		d->format = DUMP_NPY;
		rc = dump_npy_read_mem(path, buf, len, d, diag);
	} else if (ends_with(path, ".pt") || ends_with(path, ".pth") || (len >= 4 && memcmp(buf, "PK\3\4", 4) == 0)) {
		d->format = DUMP_PT;
		rc = dump_pt_read_mem(path, buf, len, d, diag);
	} else {
		d->format = DUMP_BIN;
		rc = dump_bin_read_mem(path, buf, len, d, diag);
	}
	free(buf);
	if (rc != 0) {
		dump_free(d);
		return NULL;
	}
	return d;
}

int dump_rank_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *p;
	long v = 0;

	base = base ? base + 1 : path;
	p = strstr(base, "rank");
	if (!p)
		return -1;
	p += 4;
	if (*p == '_' || *p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > 1000000)
			return -1;
	}
	return (int)v;
}
