/* The preprocessor defines an operator's own build passes to its sources
 * (cmake_defines.h). */
#include "cmake_defines.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c_ident.h"
#include "path_glob.h"
#include "src_file.h"
#include "xalloc.h"

/* The commands whose arguments hold -DNAME flags, and those whose bare
 * arguments are definitions themselves. */
static const char *const option_cmds[] = { "add_ops_compile_options", "add_compile_options", "target_compile_options",
					   "add_definitions" };
static const char *const definition_cmds[] = { "add_compile_definitions", "target_compile_definitions" };

static bool is_cmd(const char *data, size_t len, size_t at, const char *name)
{
	size_t n = strlen(name);

	if (at + n > len || (at > 0 && c_ident_char(data[at - 1])))
		return false;
	if (strncasecmp(data + at, name, n) != 0)
		return false;
	at += n;
	while (at < len && (data[at] == ' ' || data[at] == '\t'))
		at++;
	return at < len && data[at] == '(';
}

static void add(struct cmake_defines *d, const char *name, size_t nlen, const char *value, size_t vlen)
{
	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	d->v[d->n].name = xstrndup(name, nlen);
	d->v[d->n].value = value ? xstrndup(value, vlen) : xstrdup("1");
	d->n++;
}

/* One argument word: NAME or NAME=VALUE (after -D, or bare in a
 * *_definitions command); words with ${...} or generator expressions are
 * not known here and are passed over. */
static void word(struct cmake_defines *d, const char *w, size_t n, bool bare)
{
	size_t k = 0, eq;

	if (n >= 2 && (w[0] == '"' || w[0] == '\'') && w[n - 1] == w[0]) {
		w++;
		n -= 2;
	}
	if (memchr(w, '$', n))
		return;
	if (n > 2 && w[0] == '-' && w[1] == 'D') {
		w += 2;
		n -= 2;
	} else if (!bare) {
		return;
	}
	if (!n || !c_ident_start(w[0]))
		return;
	while (k < n && c_ident_char(w[k]))
		k++;
	eq = k;
	if (k < n && w[k] != '=')
		return;
	if (bare && (strncmp(w, "PRIVATE", k) == 0 || strncmp(w, "PUBLIC", k) == 0 || strncmp(w, "INTERFACE", k) == 0) &&
	    (k == 7 || k == 6 || k == 9))
		return;
	add(d, w, eq, eq < n ? w + eq + 1 : NULL, eq < n ? n - eq - 1 : 0);
}

static void read_file(struct cmake_defines *d, const struct src_file *f)
{
	const char *s = f->data;
	size_t len = f->len;

	for (size_t i = 0; i < len; i++) {
		bool opts = false, defs = false, skip_first;
		if (s[i] == '#') { /* a comment to the end of the line */
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		for (size_t c = 0; c < sizeof(option_cmds) / sizeof(*option_cmds) && !opts; c++)
			opts = is_cmd(s, len, i, option_cmds[c]);
		for (size_t c = 0; c < sizeof(definition_cmds) / sizeof(*definition_cmds) && !defs; c++)
			defs = is_cmd(s, len, i, definition_cmds[c]);
		if (!opts && !defs)
			continue;
		/* target_compile_definitions(TARGET ...): its first word is the target */
		skip_first = defs && is_cmd(s, len, i, "target_compile_definitions");
		while (i < len && s[i] != '(')
			i++;
		for (i++; i < len && s[i] != ')';) {
			size_t st;
			if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
				i++;
				continue;
			}
			if (s[i] == '#') {
				while (i < len && s[i] != '\n')
					i++;
				continue;
			}
			st = i;
			if (s[i] == '"') {
				for (i++; i < len && s[i] != '"'; i++)
					if (s[i] == '\\' && i + 1 < len)
						i++;
				if (i < len)
					i++;
			} else {
				while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' && s[i] != ')')
					i++;
			}
			if (!skip_first)
				word(d, s + st, i - st, defs);
			skip_first = false;
		}
	}
}

void cmake_defines_read(const char *opdir, struct cmake_defines *d)
{
	/* the operator's own build files, where its compile options are set; no
	   walk of the tree (a walk would also be the one that warns about its
	   symbolic-link cycles, silenced here) */
	static const char *const where[] = { "CMakeLists.txt", "op_host/CMakeLists.txt", "op_kernel/CMakeLists.txt" };

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < sizeof(where) / sizeof(*where); i++) {
		char *path = path_join(opdir, where[i]);
		struct src_file *f = src_file_load(path);
		if (f)
			read_file(d, f);
		src_file_free(f);
		free(path);
	}
}

void cmake_defines_release(struct cmake_defines *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].name);
		free(d->v[i].value);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
