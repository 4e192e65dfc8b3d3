/* Checking and quoting the shell words autotrace writes into build scripts. */
#include "sh_word.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "strbuf.h"
#include "xalloc.h"

static bool safe_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("_./,:@%+=-", c));
}

static bool name_char(unsigned char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

/* The length of the expansion $NAME, ${NAME}, $N, ${N}, or ${NAME:-DEFAULT}
 * / ${NAME-DEFAULT} with a default of path characters and such expansions,
 * at w[i] == '$'; 0 when there is none there. */
static size_t expansion(const char *w, size_t i)
{
	const char *p = w + i + 1;
	size_t n = 0;

	if (*p == '{') {
		p++;
		if (*p >= '0' && *p <= '9')
			n = 1;
		else
			while (name_char((unsigned char)p[n], n == 0))
				n++;
		if (!n)
			return 0;
		if (p[n] == ':' && p[n + 1] == '-')
			n += 2;
		else if (p[n] == '-')
			n++;
		else
			return p[n] == '}' ? n + 3 : 0;
		while (p[n] != '}') {
			size_t k;
			if (p[n] == '$' && (k = expansion(p, n)) > 0)
				n += k;
			else if (safe_char((unsigned char)p[n]))
				n++;
			else
				return 0;
		}
		return n + 3;
	}
	if (*p >= '0' && *p <= '9')
		return 2;
	while (name_char((unsigned char)p[n], n == 0))
		n++;
	return n ? n + 1 : 0;
}

static enum sh_word_kind bad(size_t i, size_t n, const char *what, size_t *at, size_t *len, const char **why)
{
	*at = i;
	*len = n;
	*why = what;
	return SH_WORD_BAD;
}

enum sh_word_kind sh_word_check(const char *w, size_t *at, size_t *len, const char **why)
{
	static const char only_names[] = "only $NAME, ${NAME} and ${NAME:-DEFAULT} expansions may be written";
	bool plain = true;
	char q = 0;
	size_t i;

	if (!*w)
		return bad(0, 0, "an empty tree names no directory", at, len, why);
	/* what no line of a block may hold, quoted or not: the block is read
	   back line by line (its markers, its trees, what it replaced) */
	for (i = 0; w[i]; i++) {
		unsigned char c = (unsigned char)w[i];
		if (c == '\n')
			return bad(i, 1, "a newline would end the command: what follows would run as another one", at, len, why);
		if (c < 0x20 || c == 0x7f)
			return bad(i, 1, "a control character has no place in a tree", at, len, why);
	}
	/* what runs a command or ends one, outside single quotes (inside them
	   every byte is text) */
	for (i = 0; w[i]; i++) {
		unsigned char c = (unsigned char)w[i];
		if (q == '\'') {
			q = c == '\'' ? 0 : q;
			continue;
		}
		if (c == '\'' && !q)
			q = '\'';
		else if (c == '"')
			q = q ? 0 : '"';
		else if (c == '\\' && w[i + 1])
			i++; /* an escaped byte is text; which escapes may be written is checked below */
		else if (c == ';' || c == '&')
			return bad(i, 1, "this would end the command: what follows would run as another one", at, len, why);
		else if (c == '|')
			return bad(i, 1, "this would pipe into another command", at, len, why);
		else if (c == '`')
			return bad(i, 1, "a backquoted command would run", at, len, why);
		else if (c == '$' && w[i + 1] == '(')
			return bad(i, 2, "a command substitution would run a command", at, len, why);
		if (strchr("$'\"\\()<>", c))
			plain = false;
	}
	if (plain)
		return SH_WORD_PLAIN;
	/* quoted text and $NAME / ${NAME} expansions, nothing else */
	for (i = 0; w[i];) {
		unsigned char c = (unsigned char)w[i];
		size_t n;
		if (c == '\'') {
			const char *close = strchr(w + i + 1, '\'');
			if (!close)
				return bad(i, 1, "unbalanced quote: this ' is never closed", at, len, why);
			i = (size_t)(close - w) + 1;
		} else if (c == '"') {
			size_t j = i + 1;
			while (w[j] && w[j] != '"') {
				if (w[j] == '\\')
					return bad(j, 1, "a backslash in a double-quoted tree: write the text in single quotes", at,
						   len, why);
				if (w[j] == '$') {
					if (!(n = expansion(w, j)))
						return bad(j, 1, only_names, at, len, why);
					j += n;
					continue;
				}
				j++;
			}
			if (!w[j])
				return bad(i, 1, "unbalanced quote: this \" is never closed", at, len, why);
			i = j + 1;
		} else if (c == '$') {
			if (!(n = expansion(w, i)))
				return bad(i, 1, only_names, at, len, why);
			i += n;
		} else if (c == '\\' && w[i + 1] == '\'') {
			i += 2; /* \' between single-quoted parts, as sh_quote writes a quote */
		} else if (c == '\\') {
			return bad(i, 1, "a backslash: write the text in quotes", at, len, why);
		} else if (c == ' ' || c == '\t') {
			return bad(i, 1, "an unquoted blank would split the tree in two words", at, len, why);
		} else if (c == '*' || c == '?' || c == '[') {
			return bad(i, 1, "an unquoted glob character would match file names", at, len, why);
		} else if (c == '~') {
			return bad(i, 1, "an unquoted '~' would expand to a home directory", at, len, why);
		} else if (!safe_char(c)) {
			return bad(i, 1, "this character has a meaning to the shell: quote it", at, len, why);
		} else {
			i++;
		}
	}
	return SH_WORD_EXPANDS;
}

/* The tilde prefix a script word starts with: ~ or ~USER up to the first
 * '/' or the end. Its length (0: none); -1 when the word starts with a '~'
 * that is not one (~+, ~$X, ~"a": a meaning of its own, or none). */
static long tilde_prefix(const char *w)
{
	long n = 1;

	if (w[0] != '~')
		return 0;
	while ((w[n] >= 'a' && w[n] <= 'z') || (w[n] >= 'A' && w[n] <= 'Z') || (w[n] >= '0' && w[n] <= '9') ||
	       w[n] == '.' || w[n] == '_' || w[n] == '-')
		n++;
	return w[n] == '/' || w[n] == '\0' ? n : -1;
}

/* Unquoted literal text [s, s + n) of a script word, written again quoted
 * where it holds a shell character; -1 (with *at, *why) when it expands
 * into other words or names: a glob, a brace. */
static int requote_text(struct strbuf *b, const char *s, size_t n, size_t *at, const char **why)
{
	bool safe = true;
	char *run, *q;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '*' || c == '?' || c == '[') {
			*at = i;
			*why = "an unquoted glob character would match file names";
			return -1;
		}
		if (c == '{' || c == '}') {
			*at = i;
			*why = "an unquoted brace may expand into several words";
			return -1;
		}
		safe = safe && safe_char(c);
	}
	if (safe) {
		strbuf_put(b, s, n);
		return 0;
	}
	run = xstrndup(s, n);
	q = sh_quote(run);
	strbuf_puts(b, q);
	free(q);
	free(run);
	return 0;
}

char *sh_word_requote(const char *w, size_t *at, size_t *len, const char **why)
{
	struct strbuf b = { 0 };
	long tilde = tilde_prefix(w);
	const char *r;
	size_t i = 0;

	if (tilde < 0) {
		*at = 0;
		*len = 1;
		*why = "a '~' that is no home directory (~ or ~USER, then '/')";
		return NULL;
	}
	if (tilde && w[tilde] == '/')
		tilde++; /* the slash that ends the prefix stays unquoted with it */
	r = w + tilde;
	if (tilde && !*r)
		return xstrdup(w);
	if (sh_word_check(r, at, len, why) == SH_WORD_BAD) {
		*at += (size_t)tilde;
		return NULL;
	}
	strbuf_put(&b, w, (size_t)tilde);
	while (r[i]) {
		size_t j = i, n;
		if (r[i] == '\'' || r[i] == '"') {
			/* quoted already (balanced: checked) */
			j = (size_t)(strchr(r + i + 1, r[i]) - r) + 1;
			strbuf_put(&b, r + i, j - i);
		} else if (r[i] == '\\') {
			j = i + 2; /* \' between single-quoted parts */
			strbuf_put(&b, r + i, 2);
		} else if (r[i] == '$') {
			n = expansion(r, i);
			j = i + n;
			strbuf_putc(&b, '"');
			strbuf_put(&b, r + i, n);
			strbuf_putc(&b, '"');
		} else {
			while (r[j] && !strchr("'\"\\$", r[j]))
				j++;
			if (requote_text(&b, r + i, j - i, at, why) != 0) {
				*at += (size_t)tilde + i;
				*len = 1;
				strbuf_release(&b);
				return NULL;
			}
		}
		i = j;
	}
	return strbuf_take(&b);
}

char *sh_quote(const char *s)
{
	size_t n = 0, k = 0;
	bool safe = *s != '\0';
	char *q;

	for (const char *p = s; *p; p++) {
		safe = safe && safe_char((unsigned char)*p);
		n += *p == '\'' ? 4 : 1;
	}
	if (safe)
		return xstrdup(s);
	q = xmalloc(n + 3);
	q[k++] = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(q + k, "'\\''", 4);
			k += 4;
		} else {
			q[k++] = *p;
		}
	}
	q[k++] = '\'';
	q[k] = '\0';
	return q;
}

bool sh_word_one_line(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

char *sh_word_literal(const char *s)
{
	return *s && sh_word_one_line(s) ? sh_quote(s) : NULL;
}

char *sh_word_for(const char *w)
{
	size_t at, len;
	const char *why;

	return sh_word_check(w, &at, &len, &why) == SH_WORD_PLAIN ? sh_word_literal(w) : sh_word_requote(w, &at, &len, &why);
}

char *sh_word_join(const char *word, const char *rel)
{
	size_t n = strlen(word);
	char *q, *out;

	if (!*rel || strcmp(rel, ".") == 0)
		return xstrdup(word);
	if (!(q = sh_word_literal(rel)))
		return NULL;
	if (strcmp(q, rel) == 0 && n >= 2 && word[n - 1] == '"')
		/* path characters only: inside the word's closing quote */
		out = xasprintf("%.*s%s%s\"", (int)(n - 1), word, word[n - 2] == '/' ? "" : "/", q);
	else
		out = xasprintf("%s%s%s", word, n && word[n - 1] == '/' ? "" : "/", q);
	free(q);
	return out;
}

char *sh_word_unquote(const char *w)
{
	size_t at, len;
	const char *why;
	struct strbuf b = { 0 };

	if (sh_word_check(w, &at, &len, &why) == SH_WORD_BAD)
		return NULL;
	for (size_t i = 0; w[i]; i++) {
		if (w[i] == '\'') {
			size_t j = i + 1;
			while (w[j] != '\'')
				j++;
			strbuf_put(&b, w + i + 1, j - i - 1);
			i = j;
		} else if (w[i] == '"') {
			size_t j = i + 1;
			while (w[j] != '"' && w[j] != '$')
				j++;
			if (w[j] == '$')
				goto expands;
			strbuf_put(&b, w + i + 1, j - i - 1);
			i = j;
		} else if (w[i] == '\\') {
			strbuf_putc(&b, w[++i]);
		} else if (w[i] == '$' || !safe_char((unsigned char)w[i])) {
			goto expands; /* (a plain word's blank or glob: the shell would split or expand it) */
		} else {
			strbuf_putc(&b, w[i]);
		}
	}
	return strbuf_take(&b);
expands:
	strbuf_release(&b);
	return NULL;
}

int sh_word_check_at(const char *tree, struct src_loc at, bool quoted, struct diag *diag)
{
	size_t bad, len;
	const char *why;
	uint32_t s, e;

	if (sh_word_check(tree, &bad, &len, &why) != SH_WORD_BAD)
		return 0;
	/* the offending bytes in the source: past the quote and the escapes of a string */
	s = at.start + (quoted ? 1 : 0);
	if (quoted && at.file) {
		for (size_t i = 0; i < bad && s < at.end; i++)
			s += at.file->data[s] == '\\' ? 2 : 1;
	} else {
		s += (uint32_t)bad;
	}
	e = s + (uint32_t)(len ? len : 1);
	if (at.file && e > at.file->len)
		e = (uint32_t)at.file->len;
	diag_at(diag, DIAG_ERROR, at.file ? src_loc_make(at.file, s, e) : at,
		"this tree cannot be written into the build script: %s (a tree is a plain path, or quoted text and "
		"$NAME or ${NAME} expansions)", why);
	return -1;
}
