/* The output side of collect: a large buffer over a temporary file in the
 * target directory, renamed over the target on commit, so no reader ever
 * sees a half-written trace. Numbers are formatted by hand (printf would be
 * the bottleneck at tens of millions of events per second). */
#ifndef AUTOTRACE_TRACE_OUT_H
#define AUTOTRACE_TRACE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"

#define TRACE_OUT_BUF (1u << 20)

struct trace_out {
	FILE *fp;
	char *path;             /* the target; NULL for stdout */
	char *tmp;              /* the temporary file, renamed on commit */
	unsigned char *buf;
	size_t len;
	uint64_t bytes;         /* written so far, buffered included */
	bool failed;
	int err;                /* errno of the first failed write */
};

/* Opens `path` ("-" for stdout). -1 after reporting `path: error: ...`. */
int trace_out_open(struct trace_out *o, const char *path, struct diag *diag);
/* Flushes, closes and renames into place. -1 after reporting. */
int trace_out_commit(struct trace_out *o, struct diag *diag);
/* Drops everything written (removes the temporary file). */
void trace_out_abort(struct trace_out *o);

void trace_out_flush(struct trace_out *o);

/* Room for `n` more bytes (n <= TRACE_OUT_BUF) at the returned pointer;
 * advance o->len by what was written. */
static inline unsigned char *trace_out_room(struct trace_out *o, size_t n)
{
	if (o->len + n > TRACE_OUT_BUF)
		trace_out_flush(o);
	return o->buf + o->len;
}

static inline void trace_out_mem(struct trace_out *o, const void *p, size_t n)
{
	if (n > TRACE_OUT_BUF / 2) {
		trace_out_flush(o);
		if (!o->failed && fwrite(p, 1, n, o->fp) != n)
			o->failed = true;
		o->bytes += n;
		return;
	}
	memcpy(trace_out_room(o, n), p, n);
	o->len += n;
	o->bytes += n;
}

static inline void trace_out_str(struct trace_out *o, const char *s)
{
	trace_out_mem(o, s, strlen(s));
}

/* Decimal digits of v at p; returns the count (at most 20). */
static inline size_t trace_fmt_u64(unsigned char *p, uint64_t v)
{
	unsigned char tmp[20];
	size_t n = 0;
	do {
		tmp[n++] = (unsigned char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

static inline void trace_out_u64(struct trace_out *o, uint64_t v)
{
	size_t n = trace_fmt_u64(trace_out_room(o, 20), v);
	o->len += n;
	o->bytes += n;
}

#endif
