/* The trace point runtime in an operator's base header: the marker block,
 * its place, the header created for it, apply's block taken back (see
 * runtime_embed.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime_embed.h"
#include "strbuf.h"
#include "xalloc.h"

size_t runtime_next_line(const char *d, size_t len, size_t p)
{
	while (p < len && d[p] != '\n')
		p++;
	return p < len ? p + 1 : len;
}

/* Does the line at p start (after blanks) with `prefix`? */
static bool line_is(const char *d, size_t len, size_t p, const char *prefix)
{
	size_t n = strlen(prefix);

	while (p < len && (d[p] == ' ' || d[p] == '\t'))
		p++;
	return len - p >= n && memcmp(d + p, prefix, n) == 0;
}

/* The offset of the first line at or after `from` starting with `prefix`, or -1. */
static long find_line(const char *d, size_t len, const char *prefix, size_t from)
{
	for (size_t p = from; p < len; p = runtime_next_line(d, len, p))
		if (line_is(d, len, p, prefix))
			return (long)p;
	return -1;
}

int runtime_markers(const char *d, size_t len, size_t *begin, size_t *end)
{
	long b = find_line(d, len, RUNTIME_BEGIN_PREFIX, 0);
	long e = find_line(d, len, RUNTIME_END, b >= 0 ? (size_t)b : 0);

	if (b >= 0 && e >= 0) {
		*begin = (size_t)b;
		*end = (size_t)e;
		return 1;
	}
	if (b < 0)
		b = find_line(d, len, RUNTIME_END, 0);
	if (b < 0)
		return 0;
	*begin = (size_t)b;
	return -1;
}

/* head (taken) + body + tail in a new string; the body is the ~15 KB
 * runtime, which printf's %s would copy a byte at a time. */
static char *around(char *head, const char *body, size_t blen, const char *tail)
{
	struct strbuf b = { 0 };

	strbuf_puts(&b, head);
	strbuf_put(&b, body, blen);
	strbuf_puts(&b, tail);
	free(head);
	return strbuf_take(&b);
}

char *runtime_block(const char *rt, size_t rlen, enum runtime_owner owner)
{
	return around(xasprintf("%s%s\n", RUNTIME_BEGIN, owner == RUNTIME_BY_APPLY ? " " RUNTIME_APPLY_TAG : ""), rt,
		      rlen, rlen && rt[rlen - 1] != '\n' ? "\n" RUNTIME_END "\n\n" : RUNTIME_END "\n\n");
}

/* The start of the declaration that opens the header's first brace (a
 * body a trace point can go into), with the comment lines right above it,
 * when it lies at the top level of the header (depth: inside the include
 * guard alone); else len. */
static size_t first_body_at(const char *d, size_t len, int depth)
{
	size_t stmt = len, lead = len;
	int level = 0, stmt_level = 0;
	bool in_comment = false, between = true;

	for (size_t p = 0; p < len;) {
		size_t nl = runtime_next_line(d, len, p), q = p;
		char last = 0;
		bool code = false, comment = in_comment;
		while (q < nl && (d[q] == ' ' || d[q] == '\t'))
			q++;
		if (!in_comment && q < nl && d[q] == '#') {
			level += line_is(d, len, p, "#if") ? 1 : line_is(d, len, p, "#endif") ? -1 : 0;
			while (nl < len && nl >= 2 && d[nl - 2] == '\\') /* a continued directive */
				nl = runtime_next_line(d, len, nl);
			lead = len;
			p = nl;
			continue;
		}
		for (; q < nl; q++) {
			if (in_comment) {
				if (d[q] == '*' && q + 1 < len && d[q + 1] == '/') {
					in_comment = false;
					q++;
				}
				continue;
			}
			if (d[q] == ' ' || d[q] == '\t' || d[q] == '\r' || d[q] == '\n')
				continue;
			if (d[q] == '/' && q + 1 < len && (d[q + 1] == '/' || d[q + 1] == '*')) {
				comment = true;
				if (d[q + 1] == '/')
					break;
				in_comment = true;
				q++;
				continue;
			}
			if (!code && between) {
				stmt = lead < len ? lead : p;
				stmt_level = level;
				between = false;
			}
			code = true;
			if (d[q] == '{')
				return stmt_level == depth ? stmt : len;
			if (d[q] == '"' || d[q] == '\'') {
				char quote = d[q];
				for (q++; q < nl && d[q] != quote && d[q] != '\n'; q++)
					if (d[q] == '\\')
						q++;
			}
			last = d[q];
		}
		if (code && (last == ';' || last == '}')) {
			between = true;
			lead = len;
		} else if (!code && between) {
			/* a comment line starts the run above the next declaration; a blank one ends it */
			lead = comment ? (lead < len ? lead : p) : len;
		}
		p = nl;
	}
	return len;
}

size_t runtime_embed_at(const char *d, size_t len)
{
	size_t endif = len, after_include = 0, body;
	bool guard = false, first_directive = true;

	for (size_t p = 0; p < len; p = runtime_next_line(d, len, p)) {
		size_t nl = runtime_next_line(d, len, p);
		if (first_directive && (line_is(d, len, p, "#ifndef") || line_is(d, len, p, "#pragma once"))) {
			guard = line_is(d, len, p, "#ifndef");
			first_directive = false;
		} else if (first_directive && line_is(d, len, p, "#")) {
			first_directive = false;
		}
		if (line_is(d, len, p, "#endif"))
			endif = p;
		if (line_is(d, len, p, "#include") && nl > p && d[nl - 1] == '\n')
			after_include = nl;
	}
	/* a header with bodies of its own (a base class whose functions may
	   get points): the runtime before the first, so that it is declared
	   before any point uses it, after the macros that configure it */
	body = first_body_at(d, len, guard ? 1 : 0);
	if (guard && endif < len)
		return body < endif ? body : endif;
	return after_include;
}

const char *runtime_quoted_include(const char *d, size_t len, size_t p, size_t *n)
{
	size_t q = p, e;

	while (q < len && (d[q] == ' ' || d[q] == '\t'))
		q++;
	if (len - q < 8 || memcmp(d + q, "#include", 8) != 0)
		return NULL;
	for (q += 8; q < len && (d[q] == ' ' || d[q] == '\t'); q++)
		;
	if (q >= len || d[q] != '"')
		return NULL;
	for (e = ++q; e < len && d[e] != '"' && d[e] != '\n'; e++)
		;
	if (e >= len || d[e] != '"')
		return NULL;
	*n = e - q;
	return d + q;
}

/* "AUTOTRACE_X_BASE_H" for "op_kernel/x_base.h" */
static char *guard_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char *g = xasprintf("AUTOTRACE_%s", base ? base + 1 : path);

	for (char *p = g; *p; p++) {
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
		else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	}
	return g;
}

char *runtime_new_header(const char *path, const char *block, enum runtime_owner owner)
{
	const char *base = strrchr(path, '/');
	char *g = guard_of(path);
	char *t = xasprintf("%s %s: the trace point runtime of this operator.\n"
			    "// The part between the AUTOTRACE-RUNTIME markers is autotrace's device/moe_tracing.h,\n"
			    "// which autotrace wire keeps up to date%s.\n"
			    "#ifndef %s\n#define %s\n\n#include \"kernel_operator.h\"\n\n"
			    "// 1 records the trace points into profiling_data, 0 compiles them away (rebuild the kernel).\n"
			    "#ifndef ENABLE_MOE_PROFILING\n#define ENABLE_MOE_PROFILING 1\n#endif\n\n",
			    owner == RUNTIME_BY_APPLY ? RUNTIME_CREATED_BY_APPLY : "// Created by autotrace wire:",
			    base ? base + 1 : path, owner == RUNTIME_BY_APPLY ? "; autotrace strip removes this file again" : "",
			    g, g);
	t = around(t, block, strlen(block), "#endif\n");
	free(g);
	return t;
}

char *runtime_strip_apply(const char *data, size_t len, const char *path, size_t *out_len, bool *remove)
{
	long b = -1, e;
	size_t end;
	char *out, *skeleton;

	*remove = false;
	for (long p = find_line(data, len, RUNTIME_BEGIN_PREFIX, 0); p >= 0;
	     p = find_line(data, len, RUNTIME_BEGIN_PREFIX, runtime_next_line(data, len, (size_t)p))) {
		size_t eol = runtime_next_line(data, len, (size_t)p);
		char *line = xstrndup(data + p, eol - (size_t)p);
		bool tagged = strstr(line, RUNTIME_APPLY_TAG) != NULL;
		free(line);
		if (tagged) {
			b = p;
			break;
		}
	}
	if (b < 0 || (e = find_line(data, len, RUNTIME_END, (size_t)b)) < 0)
		return NULL; /* none of apply's, or unpaired (check reports it) */
	end = runtime_next_line(data, len, (size_t)e);
	if (end < len && data[end] == '\n')
		end++; /* the blank line after the block */
	*out_len = len - (end - (size_t)b);
	out = xmalloc(*out_len + 1);
	memcpy(out, data, (size_t)b);
	memcpy(out + b, data + end, len - end);
	out[*out_len] = '\0';
	/* a header apply created, nothing added to it since: removed whole */
	skeleton = runtime_new_header(path, "", RUNTIME_BY_APPLY);
	if (strlen(skeleton) == *out_len && memcmp(skeleton, out, *out_len) == 0)
		*remove = true;
	free(skeleton);
	return out;
}

bool runtime_embedded(const char *data, size_t len)
{
	static const char def[] = "void MoeTracing(";
	size_t b, e;

	if (runtime_markers(data, len, &b, &e) != 1)
		return false;
	for (size_t i = b; i + sizeof(def) - 1 <= e; i++)
		if (data[i] == 'v' && memcmp(data + i, def, sizeof(def) - 1) == 0)
			return true;
	return false;
}
