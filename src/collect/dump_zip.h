/* The zip structure of a .pt dump, walked by hand where libzip only says
 * "Not a zip archive" or "CRC error": where the file ends, which record is
 * corrupt, and at which byte, so that a truncated or damaged dump gets a
 * located message. libzip still reads the archive; this only explains why
 * it could not, and where an entry's bytes are. Reads through pread(2) on
 * a descriptor or from memory, never more than the records it looks at. */
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

/* Where the data of entry `name` lies: offset of its first byte and its
 * stored size, from the central directory. False when not found. */
bool dump_zip_entry_span(const struct zip_bytes *zb, const char *name, uint64_t *off, uint64_t *len);

#endif
