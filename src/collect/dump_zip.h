/* The zip structure of a .pt dump, walked by hand where libzip only says
 * "Not a zip archive" or "CRC error": where the file ends, which record is
 * corrupt, and at which byte, so that a truncated or damaged dump gets a
 * located message; and what libzip does not look at: whether an entry's
 * local header or data descriptor declares what its central directory entry
 * does. libzip still reads the archive; this explains why it could not,
 * where an entry's bytes are, and refuses records that contradict each
 * other. Reads through pread(2) on a descriptor or from memory, never more
 * than the records it looks at. */
#ifndef AUTOTRACE_DUMP_ZIP_H
#define AUTOTRACE_DUMP_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zip_bytes {
	const unsigned char *mem;     /* the archive in memory, or NULL */
	int fd;                       /* else read from here */
	uint64_t size;
};

/* What is wrong with the archive's structure, as "... at byte N" text in
 * msg (capacity cap). True when something was found; false when the
 * records are consistent (the trouble is elsewhere: a CRC, the pickle). */
bool dump_zip_diagnose(const struct zip_bytes *zb, char *msg, size_t cap);

/* What the records of an entry that libzip opened say against each other:
 * each entry's local header (or its data descriptor, when the local header
 * says the CRC-32 and sizes follow the data) must give the CRC-32 and sizes
 * of its central directory entry, by which libzip reads it; a descriptor
 * that disagrees (an entry whose data runs past the size the directory
 * declares, with a CRC-32 over all of it) is corrupt. True, with "entry
 * '...': ..." in msg, when one disagrees; false when all agree. One pass
 * over the directory. */
bool dump_zip_check_declared(const struct zip_bytes *zb, char *msg, size_t cap);

/* Where the data of entry `name` lies: offset of its first byte and its
 * stored size, from the central directory. False when not found. */
bool dump_zip_entry_span(const struct zip_bytes *zb, const char *name, uint64_t *off, uint64_t *len);

#endif
