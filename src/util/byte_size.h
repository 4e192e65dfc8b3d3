/* Sizes in bytes as a person writes and reads them: "16M", "512KiB",
 * "1048576" on a command line; "16 MiB" in a message. Binary multiples
 * (K = 1024), as every bound autotrace states is. */
#ifndef AUTOTRACE_BYTE_SIZE_H
#define AUTOTRACE_BYTE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* Reads a size: digits, then optionally K, M or G (case ignored), then
 * optionally "iB" or "B". 0 with *out set, or -1 for anything else
 * (empty, a sign, a fraction, trailing words, over UINT64_MAX). */
int byte_size_parse(const char *text, uint64_t *out);

/* "16 MiB", "512 KiB", "1 GiB" when `bytes` is a whole number of one of
 * those, else "N bytes"; into buf (at least 32 bytes). Returns buf. */
char *byte_size_text(uint64_t bytes, char *buf, size_t size);

#endif
