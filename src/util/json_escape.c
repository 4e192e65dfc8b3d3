/* The JSON string escaper. See json_escape.h. */
#include "json_escape.h"

#include <string.h>

#define R4(x) x, x, x, x
#define R16(x) R4(x), R4(x), R4(x), R4(x)
/* Bytes that need an escape: controls, '"' (0x22), '\\' (0x5c). A table
 * (one load and test per byte): scan's JSON is mostly strings. */
static const unsigned char needs_escape[256] = {
	R16(1), R16(1),                                 /* 0x00-0x1f */
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20-0x2f */
	R16(0), R16(0),                                 /* 0x30-0x4f */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x50-0x5f */
	R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0),
};
#undef R16
#undef R4

size_t json_escape(char *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s, *end = s + n;
	char *w = out;

	for (; s < end; s++) {
		unsigned char c = (unsigned char)*s;
		char e;
		if (!needs_escape[c])
			continue;
		memcpy(w, run, (size_t)(s - run));
		w += s - run;
		run = s + 1;
		/* character -> escape letter: the inverse of the reader's table in
		 * chrome_json.c (which also accepts '/' and \u forms) */
		switch (c) {
		case '"': e = '"'; break;
		case '\\': e = '\\'; break;
		case '\b': e = 'b'; break;
		case '\f': e = 'f'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\t': e = 't'; break;
		default: e = 0; break;
		}
		*w++ = '\\';
		if (e) {
			*w++ = e;
		} else {
			memcpy(w, "u00", 3);
			w[3] = hex[c >> 4];
			w[4] = hex[c & 15];
			w += 5;
		}
	}
	memcpy(w, run, (size_t)(end - run));
	w += end - run;
	return (size_t)(w - out);
}
