/* Making a batch of files (or directories) durable: fsync(2) of each, by a
 * few threads at once. One fsync waits for the device to flush its cache;
 * issued together, the flushes of many files overlap (2,000 small files on
 * this project's VM: 0.77 s one after the other, 0.14 s by 8 threads),
 * which keeps "sync only what was written" (never sync(2) of the whole
 * system) as fast as one global sync. */
#ifndef AUTOTRACE_SYNC_FILES_H
#define AUTOTRACE_SYNC_FILES_H

#include <stddef.h>

/* Opens each of the `n` paths for reading and fsyncs it. 0, or -1 with
 * errno set to the first failure (every path is still tried). */
int sync_files(const char *const *paths, size_t n);

#endif
