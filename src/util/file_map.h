/* A file mapped read-only for one pass from start to end: the part already
 * read can be given back (file_map_release), so that a pass over a trace of
 * gigabytes keeps a few MB of it resident instead of the whole file, as
 * reading it into memory did. Bytes given back stay readable: the kernel
 * reads them again from the file when they are touched (an error message
 * that counts lines from the start, an interned name seen long ago). The
 * file must not be truncated while it is mapped (collect replaces a trace by
 * renaming a new file over it, which leaves the mapped one whole). */
#ifndef AUTOTRACE_FILE_MAP_H
#define AUTOTRACE_FILE_MAP_H

#include <stddef.h>

struct file_map {
	const unsigned char *data;  /* len bytes, not NUL-terminated */
	size_t len;
	size_t released;            /* bytes before this are given back */
};

/* Maps the regular file at `path`. NULL with errno set on failure (EINVAL
 * for a file that is not regular: a FIFO, a device). */
struct file_map *file_map_open(const char *path);
/* Gives back the whole pages before `offset` that are not yet, once they
 * are FILE_MAP_STEP bytes or more: a call per event costs a comparison. */
void file_map_release(struct file_map *m, size_t offset);
#define FILE_MAP_STEP ((size_t)4 << 20)
void file_map_close(struct file_map *m);

#endif
