/* The unescaper of trace point labels. See string_literal.h. */
#include "string_literal.h"

size_t string_literal_unescape(const char *s, const char *e, char *out)
{
	char *w = out;

	while (s < e) {
		if (*s == '\\' && s + 1 < e) {
			char c = s[1];
			*w++ = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			s += 2;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
	return (size_t)(w - out);
}
