/* UTF-8 validity, for what goes into point_map.json and the traces (JSON and
 * Perfetto strings must be UTF-8): labels from the sources, labels from a
 * map, names from the dumps. */
#ifndef AUTOTRACE_UTF8_H
#define AUTOTRACE_UTF8_H

#include <stddef.h>

/* The offset of the first byte of `s[0..n)` that does not belong to a
 * well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF), or SIZE_MAX when all is well-formed. */
size_t utf8_invalid_at(const char *s, size_t n);

/* A copy of `s[0..n)` (NUL-terminated, newly allocated) with each byte that
 * is not part of a well-formed sequence replaced by U+FFFD; *out_len gets
 * its length when not NULL. */
char *utf8_sanitize(const char *s, size_t n, size_t *out_len);

#endif
