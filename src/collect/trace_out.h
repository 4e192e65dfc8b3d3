/* The output side of collect: a large buffer over a temporary file in the
 * target directory (.NAME.at-XXXXXX), renamed over the target on commit, so
 * no reader ever sees a half-written trace (a symbolic link is followed and
 * kept; a device or FIFO such as /dev/null is written as it is). A fatal
 * signal removes the temporary file (tmp_cleanup.h); one that SIGKILL left
 * is removed by the next collect writing the same output, which says so: a
 * writer holds flock(2) on its temporary file, so a file nobody holds is a
 * dead run's. Numbers are formatted by hand (printf would be the
 * bottleneck at tens of millions of events per second). */
#ifndef AUTOTRACE_TRACE_OUT_H
#define AUTOTRACE_TRACE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "strbuf.h"

#define TRACE_OUT_BUF (1u << 18)

struct trace_out {
	FILE *fp;
	char *path;             /* the target (symbolic links resolved); NULL for stdout */
	char *shown;            /* the path as given, for messages */
	char *tmp;              /* the temporary file, renamed on commit; NULL when the
				 * target is a device or FIFO written in place */
	int cleanup;            /* its tmp_cleanup handle */
	struct strbuf buf;      /* what is not flushed yet, at most TRACE_OUT_BUF
				 * bytes: room for all of them is taken at open */
	uint64_t bytes;         /* written so far, buffered included */
	bool failed;
	int err;                /* errno of the first failed write */
	/* when set, a full buffer goes to drain() instead of the file: a stage
	 * that transforms what is written (compressed Perfetto packets) */
	void (*drain)(struct trace_out *o, void *ctx);
	void *drain_ctx;
};

/* Opens `path` ("-" for stdout). -1 after reporting `path: error: ...`. */
int trace_out_open(struct trace_out *o, const char *path, struct diag *diag);
/* Flushes, closes and renames into place. -1 after reporting. */
int trace_out_commit(struct trace_out *o, struct diag *diag);
/* Drops everything written (removes the temporary file). */
void trace_out_abort(struct trace_out *o);

void trace_out_flush(struct trace_out *o);

/* The buffer's room, taken once (by trace_out_open, or by a stage). */
static inline void trace_out_take_room(struct trace_out *o)
{
	strbuf_room(&o->buf, TRACE_OUT_BUF);
}

/* Room for `n` more bytes (n <= TRACE_OUT_BUF) at the returned pointer;
 * then trace_out_wrote with what was written. */
static inline unsigned char *trace_out_room(struct trace_out *o, size_t n)
{
	if (o->buf.n + n > TRACE_OUT_BUF)
		trace_out_flush(o);
	return (unsigned char *)o->buf.s + o->buf.n;
}

static inline void trace_out_wrote(struct trace_out *o, size_t n)
{
	strbuf_commit(&o->buf, n);
	o->bytes += n;
}

static inline void trace_out_mem(struct trace_out *o, const void *p, size_t n)
{
	if (n > TRACE_OUT_BUF / 2 && o->drain) {
		/* a stage takes everything through its buffer */
		const unsigned char *s = p;
		while (n) {
			size_t k = n < TRACE_OUT_BUF / 2 ? n : TRACE_OUT_BUF / 2;
			memcpy(trace_out_room(o, k), s, k);
			trace_out_wrote(o, k);
			s += k;
			n -= k;
		}
		return;
	}
	if (n > TRACE_OUT_BUF / 2) {
		trace_out_flush(o);
		if (!o->failed && fwrite(p, 1, n, o->fp) != n)
			o->failed = true;
		o->bytes += n;
		return;
	}
	memcpy(trace_out_room(o, n), p, n);
	trace_out_wrote(o, n);
}

static inline void trace_out_str(struct trace_out *o, const char *s)
{
	trace_out_mem(o, s, strlen(s));
}

/* "00".."99", for writing two digits at a time. */
extern const char trace_digit_pairs[201];

/* Number of decimal digits of v (1..20). */
static inline size_t trace_digits_u64(uint64_t v)
{
	size_t n = 1;
	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Decimal digits of v at p, written backwards two at a time from the end;
 * returns the count (at most 20). */
static inline size_t trace_fmt_u64(unsigned char *p, uint64_t v)
{
	size_t n = trace_digits_u64(v);
	unsigned char *q = p + n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, trace_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, trace_digit_pairs + 2 * v, 2);
	} else {
		*--q = (unsigned char)('0' + v);
	}
	return n;
}

static inline void trace_out_u64(struct trace_out *o, uint64_t v)
{
	trace_out_wrote(o, trace_fmt_u64(trace_out_room(o, 20), v));
}

#endif
