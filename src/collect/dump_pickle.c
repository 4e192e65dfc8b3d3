/* The pickle machine behind the .pt reader: a value stack, a mark stack and
 * a memo, each bounded, over a bounds-checked byte cursor. See dump_pickle.h. */
#include "dump_pickle.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Bounds that a torch.save of a few tensors is far below. */
#define PICKLE_MAX_VALUES 1000000u
#define PICKLE_MAX_MEMO 1000000u
#define PICKLE_MAX_STACK 100000u

struct pickle {
	const unsigned char *p, *end, *start;
	struct pickle_value **all;       /* arena: every value, freed together */
	size_t nall, capall;
	struct pickle_value **stack;
	size_t nstack, capstack;
	size_t *marks;
	size_t nmarks, capmarks;
	struct pickle_value **memo;
	size_t nmemo;
	struct pickle_value *result;
	char *err;
	size_t errlen;
};

static int fail(struct pickle *pk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct pickle *pk, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(pk->err, pk->errlen, "pickle offset %zu: ", (size_t)(pk->p - pk->start));
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < pk->errlen)
		vsnprintf(pk->err + n, pk->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static struct pickle_value *new_value(struct pickle *pk, enum pickle_kind kind)
{
	struct pickle_value *v;

	if (pk->nall >= PICKLE_MAX_VALUES)
		return NULL;
	v = xcalloc(1, sizeof(*v));
	v->kind = kind;
	XGROW(pk->all, pk->capall, pk->nall + 1);
	pk->all[pk->nall++] = v;
	return v;
}

static int push(struct pickle *pk, struct pickle_value *v)
{
	if (!v)
		return fail(pk, "too many values");
	if (pk->nstack >= PICKLE_MAX_STACK)
		return fail(pk, "stack too deep");
	XGROW(pk->stack, pk->capstack, pk->nstack + 1);
	pk->stack[pk->nstack++] = v;
	return 0;
}

static struct pickle_value *pop(struct pickle *pk)
{
	size_t floor = pk->nmarks ? pk->marks[pk->nmarks - 1] : 0;
	if (pk->nstack <= floor) {
		fail(pk, "pop from an empty stack");
		return NULL;
	}
	return pk->stack[--pk->nstack];
}

static struct pickle_value *top(struct pickle *pk)
{
	size_t floor = pk->nmarks ? pk->marks[pk->nmarks - 1] : 0;
	if (pk->nstack <= floor) {
		fail(pk, "empty stack");
		return NULL;
	}
	return pk->stack[pk->nstack - 1];
}

static void add_item(struct pickle_value *c, struct pickle_value *v)
{
	XGROW(c->items, c->cap, c->n + 1);
	c->items[c->n++] = v;
}

static int need(struct pickle *pk, size_t n)
{
	if ((size_t)(pk->end - pk->p) < n)
		return fail(pk, "truncated (needs %zu more bytes)", n);
	return 0;
}

static uint64_t le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Pops everything above the last mark into a new container `kind`. */
static int collect_to_mark(struct pickle *pk, struct pickle_value *c)
{
	size_t m;

	if (!pk->nmarks)
		return fail(pk, "no mark on the stack");
	m = pk->marks[--pk->nmarks];
	for (size_t i = m; i < pk->nstack; i++)
		add_item(c, pk->stack[i]);
	pk->nstack = m;
	return 0;
}

static int memo_put(struct pickle *pk, uint64_t idx)
{
	struct pickle_value *v = top(pk);
	if (!v)
		return -1;
	if (idx >= PICKLE_MAX_MEMO)
		return fail(pk, "memo index %llu too large", (unsigned long long)idx);
	if (idx >= pk->nmemo) {
		size_t n = (size_t)idx + 1;
		if (n < pk->nmemo * 2)
			n = pk->nmemo * 2;
		if (n > PICKLE_MAX_MEMO)
			n = PICKLE_MAX_MEMO;
		pk->memo = xrealloc(pk->memo, n * sizeof(*pk->memo));
		memset(pk->memo + pk->nmemo, 0, (n - pk->nmemo) * sizeof(*pk->memo));
		pk->nmemo = n;
	}
	pk->memo[idx] = v;
	return 0;
}

static int memo_get(struct pickle *pk, uint64_t idx)
{
	if (idx >= pk->nmemo || !pk->memo[idx])
		return fail(pk, "memo entry %llu is not set", (unsigned long long)idx);
	return push(pk, pk->memo[idx]);
}

static int push_str(struct pickle *pk, size_t n)
{
	struct pickle_value *v;

	if (need(pk, n) != 0)
		return -1;
	v = new_value(pk, PK_STR);
	if (!v)
		return fail(pk, "too many values");
	v->s = xstrndup((const char *)pk->p, n);
	v->slen = n;
	pk->p += n;
	return push(pk, v);
}

static int push_int(struct pickle *pk, int64_t i)
{
	struct pickle_value *v = new_value(pk, PK_INT);
	if (v)
		v->i = i;
	return push(pk, v);
}

static bool is_int(const struct pickle_value *v)
{
	return v && (v->kind == PK_INT || v->kind == PK_BOOL);
}

/* ('storage', torch.XStorage, key, location, numel) -> a storage value */
static int persistent_load(struct pickle *pk)
{
	struct pickle_value *pid = pop(pk), *st;
	const char *type;

	if (!pid)
		return -1;
	if (pid->kind != PK_TUPLE || pid->n < 5 || pid->items[0]->kind != PK_STR ||
	    strcmp(pid->items[0]->s, "storage") != 0)
		return fail(pk, "persistent id is not a ('storage', type, key, location, numel) tuple");
	if (pid->items[1]->kind != PK_GLOBAL || pid->items[2]->kind != PK_STR || !is_int(pid->items[4]) ||
	    pid->items[4]->i < 0)
		return fail(pk, "malformed storage id");
	st = new_value(pk, PK_STORAGE);
	if (!st)
		return fail(pk, "too many values");
	type = pid->items[1]->s;
	st->storage_type = xstrdup(type);
	st->elem_bytes = strcmp(type, "torch.LongStorage") == 0 ? 8 : strcmp(type, "torch.IntStorage") == 0 ? 4 : 0;
	st->s = xstrdup(pid->items[2]->s);
	st->numel = (uint64_t)pid->items[4]->i;
	return push(pk, st);
}

static int int_tuple(struct pickle *pk, const struct pickle_value *t, int64_t *out, size_t *n, const char *what)
{
	if (!t || t->kind != PK_TUPLE)
		return fail(pk, "tensor %s is not a tuple", what);
	if (t->n > PICKLE_MAX_DIMS)
		return fail(pk, "tensor has %zu dimensions (at most %d read)", t->n, PICKLE_MAX_DIMS);
	for (size_t i = 0; i < t->n; i++) {
		if (t->items[i]->kind != PK_INT)
			return fail(pk, "tensor %s holds a non-integer", what);
		out[i] = t->items[i]->i;
	}
	*n = t->n;
	return 0;
}

static int reduce(struct pickle *pk)
{
	struct pickle_value *args = pop(pk), *fn, *v;
	size_t nstride;

	if (!args)
		return -1;
	fn = pop(pk);
	if (!fn)
		return -1;
	if (fn->kind != PK_GLOBAL)
		return fail(pk, "REDUCE of something that is not a global");
	if (args->kind != PK_TUPLE)
		return fail(pk, "REDUCE arguments are not a tuple");
	if (strcmp(fn->s, "collections.OrderedDict") == 0) {
		return push(pk, new_value(pk, PK_DICT));
	}
	if (strcmp(fn->s, "torch._utils._rebuild_tensor_v2") != 0) {
		char name[128];
		snprintf(name, sizeof(name), "%s", fn->s);
		return fail(pk, "unsupported object '%s' (a dump holds int64 tensors, or a list, tuple or dict of them)",
			    name);
	}
	if (args->n < 4 || args->items[0]->kind != PK_STORAGE || args->items[1]->kind != PK_INT)
		return fail(pk, "malformed _rebuild_tensor_v2 arguments");
	v = new_value(pk, PK_TENSOR);
	if (!v)
		return fail(pk, "too many values");
	v->storage = args->items[0];
	v->offset = args->items[1]->i;
	if (int_tuple(pk, args->items[2], v->shape, &v->ndim, "size") != 0 ||
	    int_tuple(pk, args->items[3], v->stride, &nstride, "stride") != 0)
		return -1;
	if (nstride != v->ndim)
		return fail(pk, "tensor size and stride differ in length");
	return push(pk, v);
}

static int step(struct pickle *pk, unsigned char op)
{
	struct pickle_value *v, *k, *c;
	uint64_t n;

	switch (op) {
	case 0x80: /* PROTO */
		if (need(pk, 1) != 0)
			return -1;
		if (*pk->p < 2 || *pk->p > 5)
			return fail(pk, "pickle protocol %u (torch.save writes 2)", *pk->p);
		pk->p++;
		return 0;
	case 0x95: /* FRAME */
		if (need(pk, 8) != 0)
			return -1;
		pk->p += 8;
		return 0;
	case '.': /* STOP */
		pk->result = pop(pk);
		return pk->result ? 1 : -1;
	case '(': /* MARK */
		XGROW(pk->marks, pk->capmarks, pk->nmarks + 1);
		pk->marks[pk->nmarks++] = pk->nstack;
		return 0;
	case 'N':
		return push(pk, new_value(pk, PK_NONE));
	case 0x88: case 0x89: /* NEWTRUE, NEWFALSE */
		v = new_value(pk, PK_BOOL);
		if (v)
			v->i = op == 0x88;
		return push(pk, v);
	case ']':
		return push(pk, new_value(pk, PK_LIST));
	case ')':
		return push(pk, new_value(pk, PK_TUPLE));
	case '}':
		return push(pk, new_value(pk, PK_DICT));
	case 'K': /* BININT1 */
		if (need(pk, 1) != 0)
			return -1;
		return push_int(pk, *pk->p++);
	case 'M': /* BININT2 */
		if (need(pk, 2) != 0)
			return -1;
		n = le(pk->p, 2);
		pk->p += 2;
		return push_int(pk, (int64_t)n);
	case 'J': /* BININT */
		if (need(pk, 4) != 0)
			return -1;
		n = le(pk->p, 4);
		pk->p += 4;
		return push_int(pk, (int64_t)(int32_t)(uint32_t)n);
	case 0x8a: /* LONG1 */
		if (need(pk, 1) != 0)
			return -1;
		n = *pk->p++;
		if (n > 8)
			return fail(pk, "integer of %u bytes is too large", (unsigned)n);
		if (need(pk, n) != 0)
			return -1;
		{
			uint64_t x = le(pk->p, n);
			if (n > 0 && n < 8 && (pk->p[n - 1] & 0x80))
				x |= ~0ull << (8 * n);
			pk->p += n;
			return push_int(pk, (int64_t)x);
		}
	case 'G': /* BINFLOAT */
		if (need(pk, 8) != 0)
			return -1;
		pk->p += 8;
		return push(pk, new_value(pk, PK_FLOAT));
	case 'X': /* BINUNICODE */
		if (need(pk, 4) != 0)
			return -1;
		n = le(pk->p, 4);
		pk->p += 4;
		return push_str(pk, n);
	case 'T': /* BINSTRING */
		if (need(pk, 4) != 0)
			return -1;
		n = le(pk->p, 4);
		pk->p += 4;
		return push_str(pk, n);
	case 0x8c: /* SHORT_BINUNICODE */
	case 'U':  /* SHORT_BINSTRING */
		if (need(pk, 1) != 0)
			return -1;
		n = *pk->p++;
		return push_str(pk, n);
	case 'c': /* GLOBAL "module\nname\n" */
	{
		const unsigned char *nl1 = memchr(pk->p, '\n', (size_t)(pk->end - pk->p)), *nl2;
		if (!nl1)
			return fail(pk, "truncated GLOBAL");
		nl2 = memchr(nl1 + 1, '\n', (size_t)(pk->end - nl1 - 1));
		if (!nl2)
			return fail(pk, "truncated GLOBAL");
		v = new_value(pk, PK_GLOBAL);
		if (!v)
			return fail(pk, "too many values");
		v->slen = (size_t)(nl2 - pk->p);
		v->s = xmalloc(v->slen + 1);
		memcpy(v->s, pk->p, (size_t)(nl1 - pk->p));
		v->s[nl1 - pk->p] = '.';
		memcpy(v->s + (nl1 - pk->p) + 1, nl1 + 1, (size_t)(nl2 - nl1 - 1));
		v->s[v->slen] = '\0';
		pk->p = nl2 + 1;
		return push(pk, v);
	}
	case 'q': /* BINPUT */
		if (need(pk, 1) != 0)
			return -1;
		return memo_put(pk, *pk->p++);
	case 'r': /* LONG_BINPUT */
		if (need(pk, 4) != 0)
			return -1;
		n = le(pk->p, 4);
		pk->p += 4;
		return memo_put(pk, n);
	case 0x94: /* MEMOIZE */
		return memo_put(pk, pk->nmemo);
	case 'h': /* BINGET */
		if (need(pk, 1) != 0)
			return -1;
		return memo_get(pk, *pk->p++);
	case 'j': /* LONG_BINGET */
		if (need(pk, 4) != 0)
			return -1;
		n = le(pk->p, 4);
		pk->p += 4;
		return memo_get(pk, n);
	case 't': /* TUPLE */
		c = new_value(pk, PK_TUPLE);
		if (!c)
			return fail(pk, "too many values");
		if (collect_to_mark(pk, c) != 0)
			return -1;
		return push(pk, c);
	case 0x85: case 0x86: case 0x87: /* TUPLE1..3 */
	{
		size_t cnt = (size_t)(op - 0x84);
		struct pickle_value *items[3];
		c = new_value(pk, PK_TUPLE);
		if (!c)
			return fail(pk, "too many values");
		for (size_t i = cnt; i-- > 0;)
			if (!(items[i] = pop(pk)))
				return -1;
		for (size_t i = 0; i < cnt; i++)
			add_item(c, items[i]);
		return push(pk, c);
	}
	case 'a': /* APPEND */
		if (!(v = pop(pk)) || !(c = top(pk)))
			return -1;
		if (c->kind != PK_LIST)
			return fail(pk, "APPEND to something that is not a list");
		add_item(c, v);
		return 0;
	case 'e': /* APPENDS */
	{
		struct pickle_value tmp = { 0 };
		if (collect_to_mark(pk, &tmp) != 0)
			return -1;
		c = top(pk);
		if (!c || c->kind != PK_LIST) {
			free(tmp.items);
			return c ? fail(pk, "APPENDS to something that is not a list") : -1;
		}
		for (size_t i = 0; i < tmp.n; i++)
			add_item(c, tmp.items[i]);
		free(tmp.items);
		return 0;
	}
	case 's': /* SETITEM */
		if (!(v = pop(pk)) || !(k = pop(pk)) || !(c = top(pk)))
			return -1;
		if (c->kind != PK_DICT)
			return fail(pk, "SETITEM on something that is not a dict");
		add_item(c, k);
		add_item(c, v);
		return 0;
	case 'u': /* SETITEMS */
	{
		struct pickle_value tmp = { 0 };
		if (collect_to_mark(pk, &tmp) != 0)
			return -1;
		c = top(pk);
		if (!c || c->kind != PK_DICT || tmp.n % 2) {
			free(tmp.items);
			return c ? fail(pk, "malformed SETITEMS") : -1;
		}
		for (size_t i = 0; i < tmp.n; i++)
			add_item(c, tmp.items[i]);
		free(tmp.items);
		return 0;
	}
	case 'Q': /* BINPERSID */
		return persistent_load(pk);
	case 'R': /* REDUCE */
		return reduce(pk);
	case 'b': /* BUILD: state is ignored (OrderedDict, tensor hooks) */
		if (!pop(pk) || !top(pk))
			return -1;
		return 0;
	default:
		pk->p--;
		return fail(pk, "unsupported pickle opcode 0x%02x", op);
	}
}

struct pickle *pickle_run(const unsigned char *data, size_t len, char *err, size_t errlen)
{
	struct pickle *pk = xcalloc(1, sizeof(*pk));

	pk->start = pk->p = data;
	pk->end = data + len;
	pk->err = err;
	pk->errlen = errlen;
	err[0] = '\0';
	for (;;) {
		int rc;
		if (pk->p >= pk->end) {
			fail(pk, "truncated: no STOP opcode");
			break;
		}
		rc = step(pk, *pk->p++);
		if (rc < 0)
			break;
		if (rc > 0)
			return pk;
	}
	pickle_free(pk);
	return NULL;
}

const struct pickle_value *pickle_result(const struct pickle *pk)
{
	return pk->result;
}

void pickle_free(struct pickle *pk)
{
	if (!pk)
		return;
	for (size_t i = 0; i < pk->nall; i++) {
		free(pk->all[i]->s);
		free(pk->all[i]->storage_type);
		free(pk->all[i]->items);
		free(pk->all[i]);
	}
	free(pk->all);
	free(pk->stack);
	free(pk->marks);
	free(pk->memo);
	free(pk);
}
