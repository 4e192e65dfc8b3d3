/* UTF-8 checks. See utf8.h. */
#include "utf8.h"

#include <stdint.h>
#include <string.h>

#include "xalloc.h"

/* Length of the well-formed sequence at s (n bytes left), or 0. */
static size_t seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
		return n >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
		return n >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80 ? 4 : 0;
	}
	return 0;
}

size_t utf8_invalid_at(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t k;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		k = seq_len(p + i, n - i);
		if (!k)
			return i;
		i += k;
	}
	return SIZE_MAX;
}

char *utf8_sanitize(const char *s, size_t n, size_t *out_len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(n * 3 + 1);
	size_t i = 0, k = 0;

	while (i < n) {
		size_t m = seq_len(p + i, n - i);
		if (m) {
			memcpy(out + k, p + i, m);
			k += m;
			i += m;
		} else {
			memcpy(out + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i++;
		}
	}
	out[k] = '\0';
	if (out_len)
		*out_len = k;
	return out;
}
