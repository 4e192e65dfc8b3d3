/* How the trace point runtime (device/moe_tracing.h) is put into an
 * operator's base header, the one mechanism of `wire` (which keeps it up to
 * date) and `apply` (which provides it when the points it writes need it,
 * and which `strip` takes back): the block between the AUTOTRACE-RUNTIME
 * markers, where it goes in an existing header, the header created when
 * there is none, and how apply's block and header are recognised again. */
#ifndef AUTOTRACE_RUNTIME_EMBED_H
#define AUTOTRACE_RUNTIME_EMBED_H

#include <stdbool.h>
#include <stddef.h>

#define RUNTIME_BEGIN "// AUTOTRACE-RUNTIME-BEGIN (moe_tracing.h; generated, edit device/moe_tracing.h instead)"
#define RUNTIME_BEGIN_PREFIX "// AUTOTRACE-RUNTIME-BEGIN"
#define RUNTIME_END "// AUTOTRACE-RUNTIME-END"
/* apply's BEGIN line ends with this tag; a header apply creates starts with
 * RUNTIME_CREATED_BY_APPLY */
#define RUNTIME_APPLY_TAG "[autotrace apply]"
#define RUNTIME_CREATED_BY_APPLY "// Created by autotrace apply:"

enum runtime_owner { RUNTIME_BY_WIRE, RUNTIME_BY_APPLY };

/* The markers in data: 1 with the offsets of the BEGIN and END lines when
 * both are there in order, 0 when neither is, -1 when they are unpaired
 * (*begin then holds the line of the one found). */
int runtime_markers(const char *data, size_t len, size_t *begin, size_t *end);

/* True when paired markers enclose a runtime (its MoeTracing definition):
 * what the text holds, whichever #if branches a scan of it takes (another
 * operator's base may have defined the runtime's include guard first). */
bool runtime_embedded(const char *data, size_t len);

/* The offset of the line after the one at p. */
size_t runtime_next_line(const char *data, size_t len, size_t p);

/* The block as it goes into a header: the BEGIN line (tagged for apply),
 * the runtime text rt[0, rlen) ending in a newline, END, a blank line. */
char *runtime_block(const char *rt, size_t rlen, enum runtime_owner owner);

/* Where the block goes in an existing header: the start of the include
 * guard's closing #endif line (or, in a header with bodies of its own, that
 * may get points, the start of the declaration opening the first, with the
 * comment lines right above it), else the line after the last #include,
 * else the top (always the start of a line). */
size_t runtime_embed_at(const char *data, size_t len);
/* The name an #include "NAME" line at p includes (quoted only; length in
 * *n), or NULL. */
const char *runtime_quoted_include(const char *data, size_t len, size_t p, size_t *n);

/* A new base header `path` (its base name names the guard) holding `block`
 * (or "" for the bare skeleton), stating who created it. */
char *runtime_new_header(const char *path, const char *block, enum runtime_owner owner);

/* `data` without the block apply embedded (NULL when it has none); *remove
 * when what is left is the header apply created, unchanged since. */
char *runtime_strip_apply(const char *data, size_t len, const char *path, size_t *out_len, bool *remove);

#endif
