/* The unescaper of trace point labels. See string_literal.h. */
#include "string_literal.h"

#include <string.h>

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A code point as UTF-8 (at most 4 bytes; an invalid one as U+FFFD). */
static char *put_utf8(char *w, unsigned long cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		*w++ = (char)cp;
	} else if (cp < 0x800) {
		*w++ = (char)(0xC0 | (cp >> 6));
		*w++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xE0 | (cp >> 12));
		*w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*w++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*w++ = (char)(0xF0 | (cp >> 18));
		*w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*w++ = (char)(0x80 | (cp & 0x3F));
	}
	return w;
}

size_t string_literal_splice(const char *p, const char *end)
{
	const char *q = p + 1;

	if (p >= end || *p != '\\')
		return 0;
	while (q < end && (*q == ' ' || *q == '\t' || *q == '\f' || *q == '\v'))
		q++;
	if (q < end && *q == '\r')
		q++;
	return q < end && *q == '\n' ? (size_t)(q + 1 - p) : 0;
}

/* [s, e) without its line splices, into out; its end. */
static char *splice(const char *s, const char *e, char *out)
{
	while (s < e) {
		size_t n = string_literal_splice(s, e);
		if (n)
			s += n;
		else
			*out++ = *s++;
	}
	return out;
}

/* The escapes of [s, e) into out, which may be s itself: no escape is
 * shorter than what it stands for (\uXXXX: 6 bytes, at most 3 of UTF-8;
 * \UXXXXXXXX: 10, at most 4), and each is read whole before it is written. */
static size_t unescape(const char *s, const char *e, char *out)
{
	static const char simple[] = "n\nt\tr\ra\ab\bf\fv\v";
	char *w = out;

	while (s < e) {
		char c;
		if (*s != '\\' || s + 1 >= e) {
			*w++ = *s++;
			continue;
		}
		c = s[1];
		s += 2;
		if (c >= '0' && c <= '7') {
			/* octal: up to three digits */
			unsigned v = (unsigned)(c - '0');
			for (int k = 0; k < 2 && s < e && *s >= '0' && *s <= '7'; k++)
				v = v * 8 + (unsigned)(*s++ - '0');
			*w++ = (char)(v & 0xFF);
		} else if (c == 'x' && s < e && hex_value(*s) >= 0) {
			/* hex: every digit that follows, the value kept to a byte */
			unsigned v = 0;
			while (s < e && hex_value(*s) >= 0)
				v = ((v << 4) | (unsigned)hex_value(*s++)) & 0xFFF;
			*w++ = (char)(v & 0xFF);
		} else if ((c == 'u' || c == 'U') && e - s >= (c == 'u' ? 4 : 8)) {
			int n = c == 'u' ? 4 : 8, k;
			unsigned long cp = 0;
			for (k = 0; k < n && hex_value(s[k]) >= 0; k++)
				cp = cp << 4 | (unsigned long)hex_value(s[k]);
			if (k == n) {
				w = put_utf8(w, cp);
				s += n;
			} else {
				*w++ = c;
			}
		} else {
			const char *m = simple;
			while (*m && *m != c)
				m += 2;
			*w++ = *m ? m[1] : c; /* \" \' \\ \? and the unknown stand for themselves */
		}
	}
	*w = '\0';
	return (size_t)(w - out);
}

size_t string_literal_unescape(const char *s, const char *e, char *out)
{
	/* a body holds a newline only where a splice continues it */
	if (!memchr(s, '\n', (size_t)(e - s)))
		return unescape(s, e, out);
	return unescape(out, splice(s, e, out), out);
}
