/* Slot decoding for collect and inspect: the dump's tensors cut into slots,
 * each read by its layout (dump_layout.h), the core topology of the slots
 * named by position, and every count checked against the slot size before a
 * record is touched. See collect_slot.h. */
#include "collect_slot.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct topo {
	unsigned aic, aiv;           /* from the rules */
};

static void rules_topology(const struct rule_policy *p, struct topo *t)
{
	t->aic = t->aiv = 0;
	for (size_t i = 0; i < p->ncores; i++) {
		if (strcmp(p->cores[i].type, "aic") == 0)
			t->aic = p->cores[i].count;
		else if (strcmp(p->cores[i].type, "aiv") == 0)
			t->aiv = p->cores[i].count;
	}
}

/* v1 position naming: AIV v of V cores working with B AIC cores. */
static void name_aiv(struct collect_slot *s, unsigned v, unsigned aic, unsigned aiv)
{
	s->kind = CORE_AIV;
	if (aic && aiv % aic == 0 && aiv / aic >= 2) {
		unsigned r = aiv / aic;
		s->block = v / r;
		s->sub = v % r;
		s->grouped = true;
	} else {
		s->block = v;
		s->sub = 0;
		s->grouped = false;
	}
}

/* Does `t` read as slots of S words of layout `l` (one that does not say its
 * size): every slot never written or plausible, one at least written? */
static bool reads_as(const struct dump_layout *l, const struct dump_tensor *t, size_t S)
{
	size_t total = t->rows * t->cols;
	size_t written = 0;

	if (S < 8 || total % S)
		return false;
	for (size_t k = 0; k < total / S; k++) {
		const int64_t *w = t->words + k * S;
		if (l->unwritten(w, S))
			continue;
		if (!l->plausible(w, S))
			return false;
		written++;
	}
	return written > 0;
}

/* The slot size, among the powers of two, that reads `t` cleanly as `l`
 * (preferring one that gives `want` slots, when want is not 0); 0 if none. */
static size_t fitting_slot_words(const struct dump_layout *l, const struct dump_tensor *t, size_t S, size_t want)
{
	size_t any = 0, total = t->rows * t->cols;

	for (size_t cand = 64; cand <= ((size_t)1 << 20); cand *= 2)
		if (cand != S && reads_as(l, t, cand)) {
			if (!want || total / cand == want)
				return cand;
			if (!any)
				any = cand;
		}
	return any;
}

/* A flat tensor cut by the wrong `slot` gives garbage counters: the size it
 * does read with, said next to the rules'. */
static void suggest_slot_words(const char *path, const struct dump_layout *l, const struct dump_tensor *t, size_t S,
			       struct diag *diag)
{
	size_t cand = fitting_slot_words(l, t, S, 0);

	if (cand)
		diag_pos(diag, DIAG_NOTE, path, 0, 0,
			 "the rules say `slot %zu`, but this dump reads as %zu %s slots of %zu words: fix `slot` in the "
			 "rules (PROF_SIZE_PER_CORE of the build)",
			 S, t->rows * t->cols / cand, l->name, cand);
}

/* The slot size a flat tensor's first slot says in its layout's header, 0
 * when none does. */
static size_t header_slot_words(const struct dump_tensor *t, size_t total)
{
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++) {
		const struct dump_layout *l = dump_layout_at(i);
		size_t S = l->slot_words ? l->slot_words(t->words, total) : 0;
		if (S)
			return S;
	}
	return 0;
}

static int cmp_slot(const void *a, const void *b)
{
	const struct collect_slot *x = a, *y = b;
	if (x->sort != y->sort)
		return x->sort < y->sort ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int collect_slots_decode(const struct dump *d, const struct rule_policy *p, struct collect_slots *out,
			 struct diag *diag)
{
	struct topo topo;
	size_t cap = 0, slotno = 0;
	/* v1 position naming: which scheme applies to the list structure */
	enum { BY_RULES, BY_PAIR, BY_TRIPLE } scheme = BY_RULES;
	unsigned pos_in_scheme = 0;
	bool warned_extra = false;
	/* the rules' `layout`, looked up once (RULE_LAYOUT_NAMES is the table's) */
	const struct dump_layout *forced = p->layout ? dump_layout_find(p->layout) : NULL;

	memset(out, 0, sizeof(*out));
	rules_topology(p, &topo);
	if (d->is_list && d->ntensors == 2 && d->tensors[0].rows > 1 && d->tensors[1].rows > 1 &&
	    d->tensors[0].cols == d->tensors[1].cols)
		scheme = BY_PAIR;
	if (d->is_list && d->ntensors == 3 && d->tensors[0].rows == d->tensors[1].rows &&
	    d->tensors[1].rows == d->tensors[2].rows && d->tensors[0].cols == d->tensors[1].cols &&
	    d->tensors[1].cols == d->tensors[2].cols)
		scheme = BY_TRIPLE;
	out->naming = scheme == BY_RULES ? NAMED_BY_RULES : NAMED_BY_TENSORS;
	if (scheme == BY_PAIR) {
		out->shape_aic = (unsigned)d->tensors[0].rows;
		out->shape_aiv = (unsigned)d->tensors[1].rows;
	} else if (scheme == BY_TRIPLE) {
		out->shape_aic = (unsigned)d->tensors[0].rows;
		out->shape_aiv = (unsigned)(2 * d->tensors[0].rows);
	}
	if (d->ntensors && d->tensors[0].ndim >= 2)
		out->shape_words = d->tensors[0].cols;

	for (size_t ti = 0; ti < d->ntensors; ti++) {
		const struct dump_tensor *t = &d->tensors[ti];
		size_t total = t->rows * t->cols, S, nslots;

		if (total == 0)
			continue;
		if (t->ndim >= 2)
			S = t->cols;
		else if ((S = header_slot_words(t, total)) == 0)
			S = p->slot_words;
		if (S < 8 || total % S) {
			diag_pos(diag, DIAG_ERROR, d->path, 0, 0,
				 "tensor%s%s: %zu words do not divide into slots of %zu words (`slot` in the rules)",
				 t->name[0] ? " " : "", t->name, total, S);
			goto fail;
		}
		nslots = total / S;
		for (size_t k = 0; k < nslots; k++, slotno++) {
			const int64_t *w = t->words + k * S;
			struct collect_slot s;
			const struct dump_layout *l;
			unsigned pos = pos_in_scheme++;

			out->total++;
			memset(&s, 0, sizeof(s));
			s.index = slotno;
			s.tensor = t->name;
			s.S = S;
			/* position naming; a layout that names its cores overrides it */
			if (scheme == BY_PAIR) {
				if (ti == 0) {
					s.kind = CORE_AIC;
					s.block = (unsigned)k;
				} else {
					name_aiv(&s, (unsigned)k, (unsigned)d->tensors[0].rows, (unsigned)d->tensors[1].rows);
				}
			} else if (scheme == BY_TRIPLE) {
				s.kind = ti == 0 ? CORE_AIC : CORE_AIV;
				s.block = (unsigned)k;
				s.sub = ti == 0 ? 0 : (unsigned)ti - 1;
				s.grouped = ti > 0;
			} else if (pos < topo.aic) {
				s.kind = CORE_AIC;
				s.block = pos;
			} else {
				name_aiv(&s, pos - topo.aic, topo.aic, topo.aiv);
			}
			collect_slot_name(&s);

			l = dump_layout_recognise(forced, w, S);
			if (l->unwritten(w, S)) {
				out->empty++;
				continue;
			}
			if (l->claims && !l->claims(w, S)) {
				diag_pos(diag, DIAG_ERROR, d->path, 0, 0, "slot %zu: no %s magic, but the rules say `layout %s`",
					 s.index, l->name, l->name);
				goto fail;
			}
			s.layout = l;
			if (l->decode(d->path, &s, w, S, diag) != 0) {
				if (l->plausible && t->ndim < 2)
					suggest_slot_words(d->path, l, t, S, diag);
				goto fail;
			}
			if (!l->names_cores && scheme == BY_RULES && pos >= topo.aic + topo.aiv && !warned_extra) {
				diag_pos(diag, DIAG_WARNING, d->path, 0, 0,
					 "slot %zu holds records but lies beyond the cores of the rules (aic %u, aiv %u); "
					 "named %s", s.index, topo.aic, topo.aiv, s.name);
				warned_extra = true;
			}
			out->by_layout[dump_layout_index(l)]++;
			if (!l->names_cores)
				out->by_position++;
			XGROW(out->v, cap, out->n + 1);
			out->v[out->n++] = s;
		}
	}
	if (out->total == 0) {
		diag_pos(diag, DIAG_ERROR, d->path, 0, 0, "the dump holds no slot (empty tensors)");
		goto fail;
	}
	if (scheme == BY_RULES && out->by_position == out->n && d->ntensors == 1 && d->tensors[0].ndim < 2 &&
	    topo.aic + topo.aiv && out->total != topo.aic + topo.aiv) {
		const struct dump_layout *l = dump_layout_unmarked();
		size_t cand = l->plausible ? fitting_slot_words(l, &d->tensors[0], p->slot_words, topo.aic + topo.aiv) : 0;
		if (cand) {
			diag_pos(diag, DIAG_ERROR, d->path, 0, 0,
				 "the rules' `slot %u` cuts this flat dump into %zu slots where `cores aic %u, aiv %u` name %u, "
				 "and the dump reads cleanly as %zu %s slots of %zu words: fix `slot` in the rules "
				 "(PROF_SIZE_PER_CORE of the build); decoding with it would give garbage slices",
				 p->slot_words, out->total, topo.aic, topo.aiv, topo.aic + topo.aiv,
				 d->tensors[0].rows * d->tensors[0].cols / cand, l->name, cand);
			goto fail;
		}
	}
	if (out->n == 0) {
		diag_pos(diag, DIAG_ERROR, d->path, 0, 0,
			 "none of the %zu slots was written (all zero): did the kernel run with profiling enabled, "
			 "and was the tensor saved after torch_npu.npu.synchronize()?",
			 out->total);
		goto fail;
	}
	xqsort(out->v, out->n, sizeof(*out->v), cmp_slot);
	return 0;
fail:
	collect_slots_release(out);
	return -1;
}

void collect_slots_release(struct collect_slots *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "AIV 3.1" -> "aiv3.1" */
static void squash(const char *in, char *out, size_t cap)
{
	size_t k = 0;
	for (; *in && k + 1 < cap; in++)
		if (!isspace((unsigned char)*in))
			out[k++] = (char)tolower((unsigned char)*in);
	out[k] = '\0';
}

bool collect_core_spec_valid(const char *filter, char *bad, size_t cap)
{
	const char *p = filter;

	if (!*filter) {
		snprintf(bad, cap, "%s", "");
		return false;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char raw[64], tok[64];
		const char *q;
		snprintf(raw, sizeof(raw), "%.*s", (int)(len < 63 ? len : 63), p);
		squash(raw, tok, sizeof(tok));
		q = tok + 3;
		if (strncmp(tok, "aic", 3) == 0 || strncmp(tok, "aiv", 3) == 0) {
			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '.' && tok[2] == 'v' && q > tok + 3 && isdigit((unsigned char)q[1]))
				for (q++; isdigit((unsigned char)*q); q++)
					;
		}
		if (!tok[0] || (strncmp(tok, "aic", 3) != 0 && strncmp(tok, "aiv", 3) != 0) || *q) {
			snprintf(bad, cap, "%s", raw);
			return false;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return true;
}

bool collect_core_selected(const char *filter, const char *name)
{
	char want[64], tok[64];
	const char *p = filter;

	if (!filter || !*filter)
		return true;
	squash(name, want, sizeof(want));
	while (*p) {
		size_t len = strcspn(p, ",");
		char raw[64];
		size_t tl;
		snprintf(raw, sizeof(raw), "%.*s", (int)(len < 63 ? len : 63), p);
		squash(raw, tok, sizeof(tok));
		tl = strlen(tok);
		p += len;
		if (*p == ',')
			p++;
		if (!tl)
			continue;
		if (strcmp(tok, want) == 0)
			return true;
		/* a type ("aiv") or a group ("aiv3" selects aiv3.0 and aiv3.1) */
		if (strncmp(want, tok, tl) == 0 && (tl == 3 || want[tl] == '.'))
			return true;
	}
	return false;
}
