/* Parsing, checking and expanding label templates; kebab-casing names. */
#include "rule_template.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"
#include "xalloc.h"

static const char *const tvar_names[] = {
#define X(n, doc) #n,
	RULE_TEMPLATE_VARS(X)
#undef X
};

const char *rule_tvar_name(enum rule_tvar var)
{
	return tvar_names[var];
}

/* "{phase}, {name}, ...": the variables, for a message. */
static const char *known_vars(void)
{
	static char list[16 * RULE_TVAR_COUNT];

	if (!list[0])
		for (int k = 0; k < RULE_TVAR_COUNT; k++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s{%s}", k ? ", " : "",
				 tvar_names[k]);
	return list;
}

static void add_part(struct rule_template *t, size_t *cap, int var, const char *text, size_t len)
{
	XGROW(t->parts, *cap, t->nparts + 1);
	t->parts[t->nparts].var = var;
	t->parts[t->nparts].text = var < 0 ? xstrndup(text, len) : NULL;
	t->nparts++;
}

/* Location of decoded index `i` when the literal has no escapes, else the whole string. */
static struct src_loc sub_loc(const char *text, struct src_loc loc, size_t i, size_t n)
{
	if (loc.end >= loc.start + 2 && (size_t)(loc.end - loc.start - 2) == strlen(text))
		return src_loc_make(loc.file, loc.start + 1 + (uint32_t)i, loc.start + 1 + (uint32_t)(i + n));
	return loc;
}

struct rule_template *rule_template_parse(const char *text, struct src_loc loc, struct diag *diag)
{
	struct rule_template *t = xcalloc(1, sizeof(*t));
	size_t cap = 0, lit = 0, i = 0;
	int nonblank = 0;

	t->text = xstrdup(text);
	t->loc = loc;
	for (const char *c = text; *c; c++) {
		if (*c == '\\' || *c == '"' || (unsigned char)*c < 0x20) {
			diag_at(diag, DIAG_ERROR, sub_loc(text, loc, (size_t)(c - text), 1),
				"a label cannot contain quotes, backslashes or control characters "
				"(it becomes a C++ string literal)");
			goto fail;
		}
	}
	while (text[i]) {
		if (text[i] == '}') {
			diag_at(diag, DIAG_ERROR, sub_loc(text, loc, i, 1),
				"unmatched '}' in label template");
			goto fail;
		}
		if (text[i] != '{') {
			if (text[i] != ' ')
				nonblank = 1;
			i++;
			continue;
		}
		{
			const char *close = strchr(text + i, '}');
			size_t n;
			int var = -1;
			char *name;
			if (!close) {
				diag_at(diag, DIAG_ERROR, sub_loc(text, loc, i, 1),
					"unclosed '{' in label template");
				goto fail;
			}
			n = (size_t)(close - (text + i)) - 1;
			name = xstrndup(text + i + 1, n);
			for (int k = 0; k < RULE_TVAR_COUNT; k++)
				if (strcmp(name, tvar_names[k]) == 0)
					var = k;
			if (var < 0) {
				const char *best = suggest_closest(name, tvar_names, RULE_TVAR_COUNT);
				if (best)
					diag_at(diag, DIAG_ERROR, sub_loc(text, loc, i, n + 2),
						"unknown template variable '{%s}' (did you mean '{%s}'?)", name, best);
				else
					diag_at(diag, DIAG_ERROR, sub_loc(text, loc, i, n + 2),
						"unknown template variable '{%s}' (known: %s)", name, known_vars());
				free(name);
				goto fail;
			}
			free(name);
			if (i > lit)
				add_part(t, &cap, -1, text + lit, i - lit);
			add_part(t, &cap, var, NULL, 0);
			nonblank = 1;
			i += n + 2;
			lit = i;
		}
	}
	if (i > lit)
		add_part(t, &cap, -1, text + lit, i - lit);
	if (!nonblank) {
		diag_at(diag, DIAG_ERROR, loc, "empty label");
		goto fail;
	}
	return t;
fail:
	rule_template_free(t);
	return NULL;
}

char *rule_template_expand(const struct rule_template *t, const struct rule_tvalues *values)
{
	size_t cap = 64, len = 0;
	char *out = xmalloc(cap);

	for (size_t i = 0; i < t->nparts; i++) {
		const char *s = t->parts[i].var < 0 ? t->parts[i].text : values->v[t->parts[i].var];
		for (; s && *s; s++) {
			if (*s == ' ' && (len == 0 || out[len - 1] == ' '))
				continue;
			XGROW(out, cap, len + 2);
			out[len++] = *s;
		}
	}
	while (len > 0 && out[len - 1] == ' ')
		len--;
	out[len] = '\0';
	return out;
}

int rule_template_uses(const struct rule_template *t, enum rule_tvar var)
{
	for (size_t i = 0; i < t->nparts; i++)
		if (t->parts[i].var == (int)var)
			return 1;
	return 0;
}

/* Does a word start at the capital name[i] (not the first letter)? At aB and
 * 9B; at the last capital of an acronym (AICProcess); after a digit only when
 * a word follows (Gmm2Process) or an acronym of two or more (Stage2AIV), so
 * that C2V and W4A8 stay whole. A name without small letters (SYNCFLAGC2V)
 * has no case to read words from: it is split at '_' only. */
static bool word_starts(const char *name, size_t i, bool has_lower)
{
	unsigned char prev = (unsigned char)name[i - 1], next = (unsigned char)name[i + 1];

	if (!has_lower)
		return false;
	if (isdigit(prev))
		return islower(next) || isupper(next);
	return islower(prev) || (isupper(prev) && islower(next));
}

char *rule_kebab_case(const char *name)
{
	size_t n = strlen(name);
	char *out = xmalloc(2 * n + 1);
	size_t o = 0;
	bool has_lower = false;

	for (size_t i = 0; i < n; i++)
		has_lower |= islower((unsigned char)name[i]) != 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '_' || c == '-' || c == ' ' || c == ':') {
			if (o > 0 && out[o - 1] != '-')
				out[o++] = '-';
			continue;
		}
		if (!isalnum(c))
			continue;
		if (isupper(c) && o > 0 && out[o - 1] != '-' && word_starts(name, i, has_lower))
			out[o++] = '-';
		out[o++] = (char)tolower(c);
	}
	while (o > 0 && out[o - 1] == '-')
		o--;
	out[o] = '\0';
	return out;
}

void rule_template_free(struct rule_template *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nparts; i++)
		free(t->parts[i].text);
	free(t->parts);
	free(t->text);
	free(t);
}
