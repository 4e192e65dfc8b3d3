/* Source text equal but for blanks (text_compare.h). */
#include "text_compare.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool text_same_but_blanks(const char *a, const char *b)
{
	for (;;) {
		while (blank(*a))
			a++;
		while (blank(*b))
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}
