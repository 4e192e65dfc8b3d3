/* The trace point runtime apply provides, so that the points it writes
 * compile: when the operator's base header (the one its kernel entry
 * includes, see plan.h) does not define MoeTracing, autotrace's runtime
 * (device/moe_tracing.h) is embedded in it between the AUTOTRACE-RUNTIME
 * markers that `wire` uses too; when the operator has no base header,
 * `<entry>_base.h` is created beside the entry. The BEGIN marker apply
 * writes is tagged EDIT_RUNTIME_TAG, and a base it creates starts with
 * EDIT_RUNTIME_CREATED, which is how strip takes both back exactly: the
 * block always goes in at the start of a line, followed by one blank line. */
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "path_glob.h"
#include "xalloc.h"

#define MARK_BEGIN "// AUTOTRACE-RUNTIME-BEGIN"
#define MARK_BEGIN_LINE "// AUTOTRACE-RUNTIME-BEGIN (moe_tracing.h; generated, edit device/moe_tracing.h instead)"
#define MARK_END "// AUTOTRACE-RUNTIME-END"

static size_t next_line(const char *d, size_t len, size_t p)
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
	for (size_t p = from; p < len; p = next_line(d, len, p))
		if (line_is(d, len, p, prefix))
			return (long)p;
	return -1;
}

/* The runtime block as apply writes it: the tagged BEGIN line, the runtime,
 * END, then a blank line. */
static char *block(const char *rt, size_t rlen)
{
	return xasprintf(MARK_BEGIN_LINE " " EDIT_RUNTIME_TAG "\n%.*s%s" MARK_END "\n\n", (int)rlen, rt,
			 rlen && rt[rlen - 1] != '\n' ? "\n" : "");
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

/* A base apply creates: the skeleton with `blk` (the runtime block, or "")
 * where the runtime goes. */
static char *created_text(const char *path, const char *blk)
{
	char *g = guard_of(path);
	const char *base = strrchr(path, '/');
	char *t = xasprintf(EDIT_RUNTIME_CREATED " %s: the trace point runtime of this operator.\n"
			    "// (autotrace strip removes this file again; autotrace wire keeps the runtime up to date.)\n"
			    "#ifndef %s\n#define %s\n\n#include \"kernel_operator.h\"\n\n%s#endif\n",
			    base ? base + 1 : path, g, g, blk);
	free(g);
	return t;
}

/* Where the block goes in an existing base: before the include guard's
 * closing #endif, else after the last #include line, else at the top. */
static size_t insert_at(const char *d, size_t len)
{
	size_t endif = len, after_include = 0;
	bool guard = false, first_directive = true;

	for (size_t p = 0; p < len; p = next_line(d, len, p)) {
		if (first_directive && (line_is(d, len, p, "#ifndef") || line_is(d, len, p, "#pragma once"))) {
			guard = line_is(d, len, p, "#ifndef");
			first_directive = false;
		} else if (first_directive && line_is(d, len, p, "#")) {
			first_directive = false;
		}
		if (line_is(d, len, p, "#endif"))
			endif = p;
		if (line_is(d, len, p, "#include") && next_line(d, len, p) > p && d[next_line(d, len, p) - 1] == '\n')
			after_include = next_line(d, len, p);
	}
	if (guard && endif < len)
		return endif;
	return after_include;
}

int edit_runtime_provide(const struct plan *pl, const char *runtime_path, struct edit_runtime *out, struct diag *diag)
{
	struct src_file *rt;
	char *blk;
	bool points = false;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < pl->nnodes && !points; i++)
		points = pl->nodes[i].fate == PLAN_FATE_INSERT;
	if (!points || (pl->base != SIZE_MAX && pl->base_has_runtime))
		return 0;
	rt = src_file_load(runtime_path);
	if (!rt) {
		diag_pos(diag, DIAG_ERROR, runtime_path, 0, 0,
			 "cannot read the device runtime, which the trace points need (set AUTOTRACE_DEVICE_DIR)");
		return -1;
	}
	blk = block(rt->data, rt->len);
	src_file_free(rt);
	if (pl->base == SIZE_MAX) {
		out->path = path_join(pl->opdir, pl->base_new);
		out->shown = xstrdup(pl->base_new);
		out->text = created_text(pl->base_new, blk);
		out->created = true;
	} else {
		const struct plan_unit *u = &pl->units[pl->base];
		const char *d = u->file->data;
		size_t len = u->file->len, at;
		long mark = find_line(d, len, MARK_BEGIN, 0);
		if (mark < 0)
			mark = find_line(d, len, MARK_END, 0);
		if (mark >= 0) {
			diag_at(diag, DIAG_ERROR, src_loc_make(u->file, (uint32_t)mark, (uint32_t)mark),
				"the runtime markers here hold no MoeTracing: restore the runtime between them "
				"('autotrace wire' does) or delete the marker lines");
			free(blk);
			return -1;
		}
		at = insert_at(d, len);
		out->path = xstrdup(u->fs_path);
		out->shown = xstrdup(u->path);
		out->text = xasprintf("%.*s%s%s", (int)at, d, blk, d + at);
	}
	out->len = strlen(out->text);
	free(blk);
	return 0;
}

void edit_runtime_release(struct edit_runtime *r)
{
	free(r->path);
	free(r->shown);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

char *edit_runtime_strip(const char *data, size_t len, const char *path, size_t *out_len, bool *remove)
{
	long b = -1, e;
	size_t end;
	char *out, *skeleton;

	*remove = false;
	for (long p = find_line(data, len, MARK_BEGIN, 0); p >= 0;
	     p = find_line(data, len, MARK_BEGIN, next_line(data, len, (size_t)p))) {
		size_t eol = next_line(data, len, (size_t)p);
		char *line = xstrndup(data + p, eol - (size_t)p);
		bool tagged = strstr(line, EDIT_RUNTIME_TAG) != NULL;
		free(line);
		if (tagged) {
			b = p;
			break;
		}
	}
	if (b < 0 || (e = find_line(data, len, MARK_END, (size_t)b)) < 0)
		return NULL; /* none of apply's, or unpaired (check reports it) */
	end = next_line(data, len, (size_t)e);
	if (end < len && data[end] == '\n')
		end++; /* the blank line after the block */
	*out_len = len - (end - (size_t)b);
	out = xmalloc(*out_len + 1);
	memcpy(out, data, (size_t)b);
	memcpy(out + b, data + end, len - end);
	out[*out_len] = '\0';
	/* a base apply created, nothing added to it since: removed whole */
	skeleton = created_text(path, "");
	if (strlen(skeleton) == *out_len && memcmp(skeleton, out, *out_len) == 0)
		*remove = true;
	free(skeleton);
	return out;
}
