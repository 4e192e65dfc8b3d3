/* Sizes in bytes, read from a command line and written in messages
 * (byte_size.h). */
#include "byte_size.h"

#include <stdio.h>

int byte_size_parse(const char *text, uint64_t *out)
{
	const char *s = text;
	uint64_t v = 0, mul = 1;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	switch (*s) {
	case 'k': case 'K': mul = (uint64_t)1 << 10; s++; break;
	case 'm': case 'M': mul = (uint64_t)1 << 20; s++; break;
	case 'g': case 'G': mul = (uint64_t)1 << 30; s++; break;
	default: break;
	}
	if (mul > 1 && *s == 'i' && s[1] == 'B')
		s += 2;
	else if (*s == 'B')
		s++;
	if (*s || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

char *byte_size_text(uint64_t bytes, char *buf, size_t size)
{
	static const char *const unit[] = { "GiB", "MiB", "KiB" };

	for (int i = 0; i < 3; i++) {
		uint64_t m = (uint64_t)1 << (30 - 10 * i);
		if (bytes >= m && bytes % m == 0) {
			snprintf(buf, size, "%llu %s", (unsigned long long)(bytes / m), unit[i]);
			return buf;
		}
	}
	snprintf(buf, size, "%llu byte%s", (unsigned long long)bytes, bytes == 1 ? "" : "s");
	return buf;
}
