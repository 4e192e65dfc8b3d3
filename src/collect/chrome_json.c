/* Streaming reader of Chrome trace JSON. See chrome_json.h.
 *
 * A recursive-descent walk over the document with one cursor: values the
 * reader does not need are validated and skipped, the event objects are
 * decoded field by field, and only strings with escapes are copied. The
 * first error wins; its message and offset are kept until the walk unwinds,
 * then printed with a line and column counted from the offset. */
#include "chrome_json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Containers nested deeper than this are refused (the walk recurses). */
#define MAX_DEPTH 512

enum scratch { S_KEY, S_NAME, S_ARG, S_COUNT };

struct rd {
	const char *start, *p, *end;
	unsigned depth;
	const char *err_at;           /* first error, NULL while none */
	char err[192];
	char *buf[S_COUNT];           /* unescaped strings */
	size_t cap[S_COUNT];
	const char *nul_at;           /* the first \u0000 of the string decoded last, or NULL */
	const char *path;             /* for warnings */
	struct diag *diag;
	unsigned warnings;            /* given; past CHROME_MAX_WARNINGS only counted */
	const char *line_at;          /* lines are counted up to here: */
	size_t line;                  /* the line of line_at */
};

__attribute__((format(printf, 3, 4))) static int fail(struct rd *r, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (r->err_at)
		return -1;
	r->err_at = at;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

static void ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
		r->p++;
}

/* What stands at the cursor, for messages. */
static const char *what(const struct rd *r, char *tmp)
{
	unsigned char c;

	if (r->p >= r->end)
		return "the end of the document";
	c = (unsigned char)*r->p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(tmp, 16, "'%c'", c);
	else
		snprintf(tmp, 16, "byte 0x%02x", c);
	return tmp;
}

static int expected(struct rd *r, const char *what_expected)
{
	char tmp[16];
	return fail(r, r->p, "malformed JSON: expected %s, found %s", what_expected, what(r, tmp));
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* A string at the cursor (on its '"'). With `out`, its value: in place when
 * it has no escape, else unescaped into scratch buffer `slot`. */
static int string(struct rd *r, struct chrome_str *out, enum scratch slot)
{
	const char *open = r->p, *body = r->p + 1, *q = body;
	bool escaped = false;
	size_t k = 0;

	r->nul_at = NULL;
	while (q < r->end && *q != '"') {
		unsigned char c = (unsigned char)*q;
		if (c == '\n' || c == '\r')
			return fail(r, open, "malformed JSON: string not closed on its line (is a '\"' missing?)");
		if (c < 0x20)
			return fail(r, q, "malformed JSON: control character 0x%02x inside a string (escape it)", c);
		if (c == '\\') {
			escaped = true;
			q = r->end - q > 2 ? q + 2 : r->end; /* the document may stop after the backslash */
		} else {
			q++;
		}
	}
	if (q >= r->end)
		return fail(r, open, "malformed JSON: string not closed (the document ends first)");
	r->p = q + 1;
	if (!escaped) {
		if (out) {
			out->s = body;
			out->len = (size_t)(q - body);
		}
		/* nothing to check beyond the control characters above */
		return 0;
	}
	/* unescape (and check the escapes) into the scratch buffer; the output is never longer than the input */
	if (out)
		XGROW(r->buf[slot], r->cap[slot], (size_t)(q - body) + 1);
	for (const char *s = body; s < q;) {
		unsigned cp;
		if (*s != '\\') {
			if (out)
				r->buf[slot][k++] = *s;
			s++;
			continue;
		}
		/* escape letter -> character: the inverse of json_escape.c's table,
		 * which has no '/' and never writes \u for these */
		switch (s[1]) {
		case '"': cp = '"'; break;
		case '\\': cp = '\\'; break;
		case '/': cp = '/'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (q - s < 6 || hex4(s + 2, &cp) != 0)
				return fail(r, s, "malformed JSON: '\\u' needs four hex digits");
			s += 4;
			if (cp >= 0xD800 && cp < 0xDC00 && q - s >= 8 && s[2] == '\\' && s[3] == 'u') {
				unsigned lo;
				if (hex4(s + 4, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					s += 6;
				}
			}
			if (cp >= 0xD800 && cp < 0xE000)
				cp = 0xFFFD; /* a lone surrogate */
			if (cp == 0 && !r->nul_at)
				r->nul_at = s - 4;
			break;
		default:
			if ((unsigned char)s[1] >= 0x20 && (unsigned char)s[1] < 0x7f)
				return fail(r, s, "malformed JSON: invalid escape '\\%c' in a string", s[1]);
			return fail(r, s, "malformed JSON: invalid escape in a string");
		}
		if (out)
			k += put_utf8(r->buf[slot] + k, cp);
		s += 2;
	}
	if (out) {
		out->s = r->buf[slot];
		out->len = k;
	}
	return 0;
}

static double span_strtod(const char *a, const char *b)
{
	char tmp[64], *t = tmp;
	size_t n = (size_t)(b - a);
	double v;

	if (n >= sizeof(tmp))
		t = xmalloc(n + 1);
	memcpy(t, a, n);
	t[n] = '\0';
	v = strtod(t, NULL);
	if (t != tmp)
		free(t);
	return v;
}

/* A number at the cursor, checked against the JSON grammar. `d` gets its
 * value; `ns`, when given, the value as microseconds converted to
 * nanoseconds (rounded, negatives 0, UINT64_MAX past it), exactly for plain
 * decimals of up to 16 digits before the point (2^53 microseconds has 16). */
static int number(struct rd *r, double *d, uint64_t *ns)
{
	const char *a = r->p, *q = r->p;
	bool plain = true;
	uint64_t ip = 0, frac = 0;
	int intdigits = 0, fracdigits = 0, round = 0;

	if (q < r->end && *q == '-') {
		q++;
		plain = false;
	}
	if (q >= r->end || *q < '0' || *q > '9')
		return fail(r, a, "malformed JSON: invalid number");
	if (*q == '0') {
		q++;
	} else {
		while (q < r->end && *q >= '0' && *q <= '9') {
			if (intdigits++ < 16)
				ip = ip * 10 + (uint64_t)(*q - '0');
			q++;
		}
	}
	if (intdigits > 16)
		plain = false;
	if (q < r->end && *q == '.') {
		q++;
		if (q >= r->end || *q < '0' || *q > '9')
			return fail(r, a, "malformed JSON: invalid number (no digit after '.')");
		while (q < r->end && *q >= '0' && *q <= '9') {
			if (fracdigits < 3)
				frac = frac * 10 + (uint64_t)(*q - '0');
			else if (fracdigits == 3)
				round = *q >= '5';
			fracdigits++;
			q++;
		}
	}
	if (q < r->end && (*q == 'e' || *q == 'E')) {
		plain = false;
		q++;
		if (q < r->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= r->end || *q < '0' || *q > '9')
			return fail(r, a, "malformed JSON: invalid number (no digit in the exponent)");
		while (q < r->end && *q >= '0' && *q <= '9')
			q++;
	}
	r->p = q;
	if (plain) {
		for (int i = fracdigits; i < 3; i++)
			frac *= 10;
		if (ns)
			*ns = ip * 1000 + frac + (uint64_t)round;
		*d = fracdigits > 3 ? span_strtod(a, q) : (double)ip + (double)frac / 1000.0;
	} else {
		*d = span_strtod(a, q);
		if (ns)
			*ns = !(*d > 0) ? 0 : *d * 1000.0 >= 1.8e19 ? UINT64_MAX : (uint64_t)(*d * 1000.0 + 0.5);
	}
	return 0;
}

static int literal(struct rd *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return expected(r, "a JSON value");
	r->p += n;
	return 0;
}

static int skip_value(struct rd *r);

/* Walks the members of the object at the cursor (on its '{'), calling
 * `member` with the cursor on each value; `member` consumes the value. */
static int object(struct rd *r, int (*member)(struct rd *r, const struct chrome_str *key, void *arg), void *arg)
{
	const char *open = r->p;

	if (++r->depth > MAX_DEPTH)
		return fail(r, r->p, "JSON nested deeper than %d levels", MAX_DEPTH);
	r->p++;
	ws(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		r->depth--;
		return 0;
	}
	for (;;) {
		struct chrome_str key;
		ws(r);
		if (r->p >= r->end || *r->p != '"')
			return expected(r, "a member name (a string)");
		if (string(r, &key, S_KEY) != 0)
			return -1;
		ws(r);
		if (r->p >= r->end || *r->p != ':')
			return expected(r, "':' after a member name");
		r->p++;
		ws(r);
		if (member(r, &key, arg) != 0)
			return -1;
		ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == '}') {
			r->p++;
			r->depth--;
			return 0;
		}
		if (r->p >= r->end)
			return fail(r, open, "malformed JSON: object not closed (the document ends first)");
		return expected(r, "',' or '}' after an object member");
	}
}

static int skip_member(struct rd *r, const struct chrome_str *key, void *arg)
{
	(void)key;
	(void)arg;
	return skip_value(r);
}

/* The array at the cursor (on its '['), calling `element` with the cursor
 * on each element; `element` consumes it. */
static int array(struct rd *r, int (*element)(struct rd *r, void *arg), void *arg)
{
	const char *open = r->p;

	if (++r->depth > MAX_DEPTH)
		return fail(r, r->p, "JSON nested deeper than %d levels", MAX_DEPTH);
	r->p++;
	ws(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		r->depth--;
		return 0;
	}
	for (;;) {
		ws(r);
		if (element(r, arg) != 0)
			return -1;
		ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == ']') {
			r->p++;
			r->depth--;
			return 0;
		}
		if (r->p >= r->end)
			return fail(r, open, "malformed JSON: array not closed (the document ends first)");
		return expected(r, "',' or ']' after an array element");
	}
}

static int skip_element(struct rd *r, void *arg)
{
	(void)arg;
	return skip_value(r);
}

static int skip_value(struct rd *r)
{
	double d;

	if (r->p >= r->end)
		return expected(r, "a JSON value");
	switch (*r->p) {
	case '{': return object(r, skip_member, NULL);
	case '[': return array(r, skip_element, NULL);
	case '"': return string(r, NULL, S_KEY);
	case 't': return literal(r, "true");
	case 'f': return literal(r, "false");
	case 'n': return literal(r, "null");
	default:
		if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
			return number(r, &d, NULL);
		return expected(r, "a JSON value");
	}
}

static bool key_is(const struct chrome_str *k, const char *s)
{
	size_t n = strlen(s);
	return k->len == n && memcmp(k->s, s, n) == 0;
}

/* ---- events ---- */

struct walk {
	int (*cb)(void *ctx, const struct chrome_event *e);
	void *ctx;
	int cb_rc;                    /* non-zero: the callback stopped the walk */
	bool found;                   /* an event array was walked */
};

void chrome_json_position(const char *data, size_t offset, size_t *line, size_t *col)
{
	const char *bol = data, *at = data + offset;

	*line = 1;
	for (const char *q = data; q < at; q++) {
		q = memchr(q, '\n', (size_t)(at - q));
		if (!q)
			break;
		(*line)++;
		bol = q + 1;
	}
	*col = (size_t)(at - bol) + 1;
}

/* A warning at `at`: lines counted on from the last one (warnings come in
 * order), so that many cost one pass. */
__attribute__((format(printf, 3, 4))) static void warn(struct rd *r, const char *at, const char *fmt, ...)
{
	char msg[256];
	const char *bol;
	va_list ap;

	if (++r->warnings > CHROME_MAX_WARNINGS)
		return;
	if (!r->line_at) {
		r->line_at = r->start;
		r->line = 1;
	}
	for (const char *q; (q = memchr(r->line_at, '\n', (size_t)(at - r->line_at))) != NULL;) {
		r->line++;
		r->line_at = q + 1;
	}
	bol = r->line_at;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_pos(r->diag, DIAG_WARNING, r->path, r->line, (size_t)(at - bol) + 1, "%s", msg);
}

/* A value of the document quoted in a message: its text, cut (not inside
 * a UTF-8 sequence). */
#define QUOTE_MAX 32
static int quote_len(const char *a, const char *b)
{
	int n = QUOTE_MAX;

	if (b - a <= QUOTE_MAX)
		return (int)(b - a);
	while (n > 0 && ((unsigned char)a[n] & 0xC0) == 0x80)
		n--;
	return n;
}

static const char *cut_mark(const char *a, const char *b)
{
	return b - a > QUOTE_MAX ? "..." : "";
}

/* What an event holds that the reader cannot take, each where it stands;
 * judged once the event's "ph" is known (it may come last). */
struct ev {
	struct chrome_event e;
	const char *time_at[2];       /* "ts", "dur": where a value that is not a time stands */
	const char *time_end[2];
	const char *why[2];           /* what is wrong with it */
	const char *name_nul, *arg_nul; /* a \u0000 in "name", in args.name */
	const char *arg_at[2];        /* args.index, args.extra: a value that is not one */
	const char *arg_end[2];
};

/* The JSON type of the value at the cursor, for messages. */
static const char *json_type(char c)
{
	switch (c) {
	case '"': return "a string";
	case '{': return "an object";
	case '[': return "an array";
	case 't':
	case 'f': return "a boolean";
	case 'n': return "null";
	default: return "not a number";
	}
}

/* "ts" (which 0) or "dur" (1): microseconds, 0 to CHROME_TIME_MAX_US. */
static int time_member(struct rd *r, struct ev *v, int which)
{
	const char *at = r->p;
	char c = at < r->end ? *at : 0;
	double d;
	uint64_t ns;

	if (c != '-' && (c < '0' || c > '9')) {
		if (skip_value(r) != 0)
			return -1;
		v->why[which] = json_type(c);
	} else {
		if (number(r, &d, &ns) != 0)
			return -1;
		if (d < 0)
			v->why[which] = "negative";
		else if (ns > CHROME_TIME_MAX_NS)
			v->why[which] = "huge";
		else if (which == 0) {
			v->e.has_ts = true;
			v->e.ts_ns = ns;
		} else {
			v->e.has_dur = true;
			v->e.dur_ns = ns;
		}
	}
	if (v->why[which]) {
		v->time_at[which] = at;
		v->time_end[which] = r->p;
	}
	return 0;
}

static int args_member(struct rd *r, const struct chrome_str *key, void *arg)
{
	struct ev *v = arg;
	int which = key_is(key, "index") ? 0 : key_is(key, "extra") ? 1 : -1;
	const char *at = r->p;
	char c = at < r->end ? *at : 0;

	if (key_is(key, "name") && c == '"') {
		if (string(r, &v->e.arg_name, S_ARG) != 0)
			return -1;
		v->arg_nul = r->nul_at;
		return 0;
	}
	if (which < 0)
		return skip_value(r);
	if (c == '-' || (c >= '0' && c <= '9')) {
		double d;
		if (number(r, &d, NULL) != 0)
			return -1;
		if (d >= 0 && d <= UINT32_MAX && d == (double)(uint32_t)d) {
			*(which == 0 ? &v->e.index : &v->e.extra) = (uint32_t)d;
			return 0;
		}
	} else if (skip_value(r) != 0) {
		return -1;
	}
	v->arg_at[which] = at;
	v->arg_end[which] = r->p;
	return 0;
}

static int event_member(struct rd *r, const struct chrome_str *key, void *arg)
{
	struct ev *v = arg;
	struct chrome_event *e = &v->e;
	char c = r->p < r->end ? *r->p : 0;
	bool num = c == '-' || (c >= '0' && c <= '9');

	if (key->len == 2 && key->s[0] == 'p' && key->s[1] == 'h' && c == '"') {
		struct chrome_str ph;
		if (string(r, &ph, S_KEY) != 0)
			return -1;
		e->ph = ph.len == 1 ? ph.s[0] : 0;
		return 0;
	}
	if (key_is(key, "name") && c == '"') {
		if (string(r, &e->name, S_NAME) != 0)
			return -1;
		v->name_nul = r->nul_at;
		return 0;
	}
	if (key_is(key, "args") && c == '{')
		return object(r, args_member, v);
	if (key_is(key, "ts"))
		return time_member(r, v, 0);
	if (key_is(key, "dur"))
		return time_member(r, v, 1);
	if (num && key_is(key, "pid"))
		return number(r, &e->pid, NULL);
	if (num && key_is(key, "tid"))
		return number(r, &e->tid, NULL);
	return skip_value(r);
}

/* The article of a phase letter's name: "an 'X' event", "a 'B' event". */
static const char *article(char ph)
{
	return ph && strchr("AEFHILMNORSX", ph) ? "an" : "a";
}

/* The event decoded into v, starting at `open`: an error (-1) or warnings
 * for what report cannot read of it. */
static int event_check(struct rd *r, const struct ev *v, const char *open)
{
	static const char *const time_key[2] = { "ts", "dur" };
	const struct chrome_event *e = &v->e;
	bool slice = e->ph == 'B' || e->ph == 'E' || e->ph == 'X';

	for (int i = 0; slice && i < 2; i++) {
		const char *a = v->time_at[i], *b = v->time_end[i], *why = v->why[i];
		if (i == 1 && e->ph != 'X')
			break;
		if (why && strcmp(why, "negative") == 0)
			return fail(r, a, "\"%s\" of %s '%c' event is negative (%.*s%s): times are 0 or more microseconds",
				    time_key[i], article(e->ph), e->ph, quote_len(a, b), a, cut_mark(a, b));
		if (why && strcmp(why, "huge") == 0)
			return fail(r, a,
				    "\"%s\" of %s '%c' event is past 2^53 microseconds (%.*s%s): report reads times up to "
				    "285 years, where a double still holds every microsecond",
				    time_key[i], article(e->ph), e->ph, quote_len(a, b), a, cut_mark(a, b));
		if (why)
			return fail(r, a, "\"%s\" of %s '%c' event is %s (%.*s%s), not a number of microseconds",
				    time_key[i], article(e->ph), e->ph, why, quote_len(a, b), a, cut_mark(a, b));
		if (!(i == 0 ? e->has_ts : e->has_dur))
			return fail(r, open, "%s '%c' event without \"%s\"", article(e->ph), e->ph, time_key[i]);
	}
	if ((e->ph == 'B' || e->ph == 'X') && v->name_nul)
		return fail(r, v->name_nul,
			    "a NUL character (\\u0000) in the name of %s '%c' event: a label cannot hold one", article(e->ph),
			    e->ph);
	if (e->ph == 'M' && v->arg_nul && e->name.s &&
	    ((e->name.len == 11 && memcmp(e->name.s, "thread_name", 11) == 0) ||
	     (e->name.len == 12 && memcmp(e->name.s, "process_name", 12) == 0)))
		return fail(r, v->arg_nul, "a NUL character (\\u0000) in the args.name of a %.*s event: a name cannot hold one",
			    (int)e->name.len, e->name.s);
	for (int i = 0; (e->ph == 'B' || e->ph == 'X') && i < 2; i++)
		if (v->arg_at[i])
			warn(r, v->arg_at[i],
			     "args.%s of %s '%c' event is not a whole number from 0 to 4294967295 (%.*s%s): the slice is "
			     "read without it",
			     i == 0 ? "index" : "extra", article(e->ph), e->ph, quote_len(v->arg_at[i], v->arg_end[i]), v->arg_at[i],
			     cut_mark(v->arg_at[i], v->arg_end[i]));
	return 0;
}

static int event_element(struct rd *r, void *arg)
{
	struct walk *w = arg;
	struct ev v;
	const char *open = r->p;

	if (r->p >= r->end || *r->p != '{')
		return skip_value(r);
	memset(&v, 0, sizeof(v));
	v.e.offset = (size_t)(r->p - r->start);
	if (object(r, event_member, &v) != 0 || event_check(r, &v, open) != 0)
		return -1;
	memcpy(&v.e.process, &v.e.pid, sizeof(v.e.process));
	v.e.has_process = true;
	w->cb_rc = w->cb(w->ctx, &v.e);
	return w->cb_rc ? -1 : 0;
}

static int top_member(struct rd *r, const struct chrome_str *key, void *arg)
{
	struct walk *w = arg;

	if (r->depth == 1 && key_is(key, "traceEvents")) {
		if (r->p >= r->end || *r->p != '[')
			return fail(r, r->p, "\"traceEvents\" is not an array: not a Chrome trace");
		w->found = true;
		return array(r, event_element, w);
	}
	return skip_value(r);
}

static void report(const struct rd *r, const char *path, struct diag *diag)
{
	size_t line, col;

	chrome_json_position(r->start, (size_t)(r->err_at - r->start), &line, &col);
	diag_pos(diag, DIAG_ERROR, path, line, col, "%s", r->err);
}

int chrome_json_events(const char *path, const char *data, size_t len,
		       int (*cb)(void *ctx, const struct chrome_event *e), void *ctx, struct diag *diag)
{
	struct rd r;
	struct walk w = { .cb = cb, .ctx = ctx };
	int rc = -1;

	memset(&r, 0, sizeof(r));
	r.start = r.p = data;
	r.end = data + len;
	r.path = path;
	r.diag = diag;
	ws(&r);
	if (r.p < r.end && *r.p == '[') {
		w.found = true;
		rc = array(&r, event_element, &w);
	} else if (r.p < r.end && *r.p == '{') {
		rc = object(&r, top_member, &w);
	} else {
		rc = expected(&r, "'{' or '[' (a Chrome trace JSON document)");
	}
	if (rc == 0) {
		ws(&r);
		if (r.p < r.end)
			rc = fail(&r, r.p, "malformed JSON: data after the end of the document");
	}
	if (w.cb_rc) {
		rc = w.cb_rc;
	} else if (rc != 0) {
		report(&r, path, diag);
		rc = -1;
	} else if (!w.found) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "no \"traceEvents\" array: not a Chrome trace");
		rc = -1;
	}
	if (r.warnings > CHROME_MAX_WARNINGS)
		diag_pos(diag, DIAG_NOTE, path, 0, 0, "%u more events with an args.index or args.extra read without it",
			 r.warnings - CHROME_MAX_WARNINGS);
	for (int i = 0; i < S_COUNT; i++)
		free(r.buf[i]);
	return rc;
}
