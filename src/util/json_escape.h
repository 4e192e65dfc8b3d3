/* The body of a JSON string (RFC 8259) for any bytes: `"` and `\` escaped,
 * control characters as \b \f \n \r \t or \u00XX, every other byte as it
 * is (the caller makes sure they are UTF-8). The same escapes cJSON writes,
 * so that what the tool prints by hand and what it prints through cJSON read
 * alike. One escaper for the point map, the Chrome trace and scan's JSON. */
#ifndef AUTOTRACE_JSON_ESCAPE_H
#define AUTOTRACE_JSON_ESCAPE_H

#include <stddef.h>

/* At most this many bytes of output per byte of input. */
#define JSON_ESCAPE_MAX 6

/* Writes the escaped form of `n` bytes of `s` (no quotes, no NUL) to `out`,
 * which has room for JSON_ESCAPE_MAX * n bytes; returns the bytes written. */
size_t json_escape(char *out, const char *s, size_t n);

#endif
