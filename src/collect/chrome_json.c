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
	char err[160];
	char *buf[S_COUNT];           /* unescaped strings */
	size_t cap[S_COUNT];
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
 * nanoseconds (rounded, negatives 0), exactly for plain decimals. */
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
			if (intdigits++ < 15)
				ip = ip * 10 + (uint64_t)(*q - '0');
			q++;
		}
	}
	if (intdigits > 15)
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

static int args_member(struct rd *r, const struct chrome_str *key, void *arg)
{
	struct chrome_event *e = arg;

	if (key_is(key, "name") && r->p < r->end && *r->p == '"')
		return string(r, &e->arg_name, S_ARG);
	if ((key_is(key, "index") || key_is(key, "extra")) && r->p < r->end && *r->p >= '0' && *r->p <= '9') {
		double v;
		if (number(r, &v, NULL) != 0)
			return -1;
		if (v <= UINT32_MAX && v == (double)(uint32_t)v)
			*(key->s[0] == 'i' ? &e->index : &e->extra) = (uint32_t)v;
		return 0;
	}
	return skip_value(r);
}

static int event_member(struct rd *r, const struct chrome_str *key, void *arg)
{
	struct chrome_event *e = arg;
	char c = r->p < r->end ? *r->p : 0;
	bool num = c == '-' || (c >= '0' && c <= '9');

	if (key->len == 2 && key->s[0] == 'p' && key->s[1] == 'h' && c == '"') {
		struct chrome_str ph;
		if (string(r, &ph, S_KEY) != 0)
			return -1;
		e->ph = ph.len == 1 ? ph.s[0] : 0;
		return 0;
	}
	if (key_is(key, "name") && c == '"')
		return string(r, &e->name, S_NAME);
	if (key_is(key, "args") && c == '{')
		return object(r, args_member, e);
	if (num && key_is(key, "ts")) {
		e->has_ts = true;
		return number(r, &(double){ 0 }, &e->ts_ns);
	}
	if (num && key_is(key, "dur")) {
		e->has_dur = true;
		return number(r, &(double){ 0 }, &e->dur_ns);
	}
	if (num && key_is(key, "pid"))
		return number(r, &e->pid, NULL);
	if (num && key_is(key, "tid"))
		return number(r, &e->tid, NULL);
	return skip_value(r);
}

static int event_element(struct rd *r, void *arg)
{
	struct walk *w = arg;
	struct chrome_event e;

	if (r->p >= r->end || *r->p != '{')
		return skip_value(r);
	memset(&e, 0, sizeof(e));
	e.offset = (size_t)(r->p - r->start);
	if (object(r, event_member, &e) != 0)
		return -1;
	memcpy(&e.process, &e.pid, sizeof(e.process));
	e.has_process = true;
	w->cb_rc = w->cb(w->ctx, &e);
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
	size_t line = 1;
	const char *bol = r->start;

	for (const char *q = r->start; q < r->err_at; q++) {
		q = memchr(q, '\n', (size_t)(r->err_at - q));
		if (!q)
			break;
		line++;
		bol = q + 1;
	}
	diag_pos(diag, DIAG_ERROR, path, line, (size_t)(r->err_at - bol) + 1, "%s", r->err);
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
	for (int i = 0; i < S_COUNT; i++)
		free(r.buf[i]);
	return rc;
}
