/* The C++ expressions of `index EXPR` and `extra EXPR` (rule_expr.h). */
#include "rule_expr.h"

#include <string.h>

#include "c_ident.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Does a clause keyword start at text[i] (a whole word, after a blank)? */
static bool clause_at(const char *text, size_t len, size_t i)
{
	static const char *const words[] = { "index", "extra", "sync", "opaque", "else", "whole", NULL };

	if (i == 0 || !blank(text[i - 1]))
		return false;
	for (size_t k = 0; words[k]; k++) {
		size_t n = strlen(words[k]);
		if (i + n <= len && memcmp(text + i, words[k], n) == 0 && (i + n == len || !c_ident_char(text[i + n])))
			return true;
	}
	return false;
}

size_t rule_expr_unquoted(const char *text, size_t len, bool *identifier)
{
	size_t i = 0, end;

	if (len && c_ident_start(text[0])) {
		while (i < len && c_ident_char(text[i]))
			i++;
		end = i;
		while (i < len && blank(text[i]))
			i++;
		/* a name, then nothing, the next word (a clause) or a list's comma:
		 * a variable name */
		if (i == len || c_ident_start(text[i]) || text[i] == ',') {
			*identifier = true;
			return end;
		}
	}
	*identifier = false;
	for (i = 0; i < len && !clause_at(text, len, i); i++)
		;
	while (i > 0 && blank(text[i - 1]))
		i--;
	return i;
}

const char *rule_expr_problem(const char *e)
{
	static const char opens[] = "([{", closes[] = ")]}";
	char open[64];
	size_t depth = 0;

	if (e[strspn(e, " \t")] == '\0')
		return "an empty expression";
	if (strchr(e, ';'))
		return "a ';' would end the trace point's statement";
	if (strchr(e, '\n') || strchr(e, '\r'))
		return "a newline would split the trace point's line";
	if (strstr(e, "//") || strstr(e, "/*"))
		return "a comment would hide the rest of the trace point's call";
	for (const char *p = e; *p; p++) {
		const char *close = strchr(closes, *p);
		if (strchr(opens, *p)) {
			if (depth == sizeof(open))
				return "brackets nested too deep";
			open[depth++] = *p;
		} else if (close) {
			if (!depth || open[depth - 1] != opens[close - closes])
				return "its brackets do not pair";
			depth--;
		}
	}
	return depth ? "its brackets do not pair" : NULL;
}
