/* Unit tests for the collect readers and decoders: point_map.c (both
 * forms, located errors), dump_npy.c, dump_bin.c, dump_pickle.c (hand-made
 * pickles), collect_slot.c (moe-v1 / moe-v2 decoding, bounds, names), the
 * layout table (dump_layout.c) and
 * the filters' parsers. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "collect_run.h"
#include "chrome_json.h"
#include "collect_slot.h"
#include "collect_stats.h"
#include "dump.h"
#include "dump_layout.h"
#include "dump_pickle.h"
#include "index_table.h"
#include "perfetto_read.h"
#include "point_map.h"
#include "rule_policy.h"
#include "trace_out.h"

static char *errbuf;
static size_t errlen;

static struct diag *mkdiag(void)
{
	static struct diag d;
	static FILE *fp;
	if (fp)
		fclose(fp);
	free(errbuf);
	errbuf = NULL;
	fp = open_memstream(&errbuf, &errlen);
	diag_init(&d, fp, false);
	return &d;
}

static const char *errors(struct diag *d)
{
	fflush(d->out);
	return errbuf ? errbuf : "";
}

START_TEST(t_map_new_form)
{
	const char *text = "{\"version\": 1, \"generator\": \"autotrace 0.1.0\", \"build_stamp\": \"00000000000000ff\",\n"
			   " \"points\": {\"1\": {\"label\": \"a b\", \"event_type\": \"B\", \"event_id\": 1, \"file\": \"x.h\", \"line\": 3},\n"
			   "  \"2\": {\"label\": \"a b\", \"event_type\": \"E\", \"event_id\": 1, \"file\": \"x.h\", \"line\": 9}}}";
	struct diag *d = mkdiag();
	struct point_map *m = point_map_parse("m.json", text, strlen(text), d);
	ck_assert_ptr_nonnull(m);
	ck_assert(m->has_stamp);
	ck_assert_uint_eq(m->build_stamp, 0xff);
	ck_assert_uint_eq(m->count, 2);
	ck_assert_uint_eq(m->nlabels, 1);
	ck_assert_int_eq(point_map_get(m, 2)->event_type, 'E');
	ck_assert_uint_eq(point_map_get(m, 2)->line, 9);
	ck_assert_ptr_null(point_map_get(m, 3));
	ck_assert_ptr_null(point_map_get(m, 0xFFFFFFFFu));
	point_map_free(m);
}
END_TEST

START_TEST(t_map_old_form)
{
	const char *text = "{\"7\": {\"label\": \"x\", \"event_type\": \"B\"}}";
	struct point_map *m = point_map_parse("m.json", text, strlen(text), mkdiag());
	ck_assert_ptr_nonnull(m);
	ck_assert(!m->has_stamp);
	ck_assert_str_eq(m->labels[point_map_get(m, 7)->label], "x");
	point_map_free(m);
}
END_TEST

START_TEST(t_map_errors)
{
	struct diag *d = mkdiag();
	const char *bad_type = "{\"points\": {\n \"1\": {\"label\": \"x\", \"event_type\": \"Q\"}}}";
	const char *bad_id = "{\"points\": {\"abc\": {\"label\": \"x\", \"event_type\": \"B\"}}}";
	ck_assert_ptr_null(point_map_parse("m.json", "", 0, d));
	ck_assert_ptr_nonnull(strstr(errors(d), "m.json:1:1: error: empty file"));
	d = mkdiag();
	ck_assert_ptr_null(point_map_parse("m.json", bad_type, strlen(bad_type), d));
	ck_assert_ptr_nonnull(strstr(errors(d), "m.json:2:22: error: point '1': \"event_type\" must be \"B\" or \"E\""));
	d = mkdiag();
	ck_assert_ptr_null(point_map_parse("m.json", bad_id, strlen(bad_id), d));
	ck_assert_ptr_nonnull(strstr(errors(d), "point id 'abc' is not a number"));
}
END_TEST

/* A key the reader uses, given twice (cJSON keeps both and reads the first):
 * in a point and at the top; one the reader ignores may repeat. A negative
 * event id. Each located at the second key. */
START_TEST(t_map_repeated_keys)
{
	struct diag *d = mkdiag();
	const char *twice = "{\"points\": {\"1\": {\"label\": \"x\", \"event_type\": \"B\",\n \"event_type\": \"E\"}}}";
	const char *root = "{\"points\": {},\n \"build_stamp\": \"00000000000000aa\", \"points\": {}}";
	const char *ignored = "{\"points\": {\"1\": {\"label\": \"x\", \"event_type\": \"B\", \"note\": 1, \"note\": 2}}}";
	const char *negative = "{\"points\": {\"1\": {\"label\": \"x\", \"event_type\": \"B\",\n  \"event_id\": -7}}}";
	const char *zero = "{\"points\": {\"1\": {\"label\": \"x\", \"event_type\": \"B\", \"event_id\": 0}}}";
	struct point_map *m;

	ck_assert_ptr_null(point_map_parse("m.json", twice, strlen(twice), d));
	ck_assert_ptr_nonnull(strstr(errors(d), "m.json:2:2: error: point '1' gives \"event_type\" twice (first at line 1, "
					      "column 33): which one is meant cannot be told; this map is damaged"));
	d = mkdiag();
	ck_assert_ptr_null(point_map_parse("m.json", root, strlen(root), d));
	ck_assert_ptr_nonnull(strstr(errors(d), "m.json:2:37: error: the map gives \"points\" twice (first at line 1, "
					      "column 2)"));
	d = mkdiag();
	m = point_map_parse("m.json", ignored, strlen(ignored), d);
	ck_assert_msg(m != NULL, "%s", errors(d));
	point_map_free(m);
	d = mkdiag();
	ck_assert_ptr_null(point_map_parse("m.json", negative, strlen(negative), d));
	ck_assert_ptr_nonnull(strstr(errors(d), "m.json:2:3: error: point '1': \"event_id\" is negative (-7): event ids "
					      "number the labels from 1"));
	d = mkdiag();
	m = point_map_parse("m.json", zero, strlen(zero), d);
	ck_assert_msg(m != NULL, "%s", errors(d));
	point_map_free(m);
}
END_TEST

START_TEST(t_npy)
{
	unsigned char buf[256];
	const char *hdr = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }";
	size_t hl = 118; /* padded so the data is 64-byte aligned */
	struct dump d = { 0 };
	struct diag *dg = mkdiag();
	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (unsigned char)hl;
	buf[9] = 0;
	memcpy(buf + 10, hdr, strlen(hdr));
	buf[10 + hl - 1] = '\n';
	for (int i = 0; i < 6; i++) {
		int64_t v = i * 1000 - 1;
		memcpy(buf + 10 + hl + 8 * i, &v, 8);
	}
	ck_assert_int_eq(dump_npy_read_mem("a.npy", buf, 10 + hl + 48, &d, dg), 0);
	ck_assert_uint_eq(d.ntensors, 1);
	ck_assert_uint_eq(d.tensors[0].rows, 2);
	ck_assert_uint_eq(d.tensors[0].cols, 3);
	ck_assert_int_eq(d.tensors[0].words[0], -1);
	ck_assert_int_eq(d.tensors[0].words[5], 4999);
	/* one byte short */
	ck_assert_int_eq(dump_npy_read_mem("a.npy", buf, 10 + hl + 47, &d, dg), -1);
	ck_assert_ptr_nonnull(strstr(errors(dg), "a.npy: error: truncated"));
	for (size_t i = 0; i < d.ntensors; i++) {
		free(d.tensors[i].name);
		free(d.tensors[i].words);
	}
	free(d.tensors);
}
END_TEST

START_TEST(t_bin_odd)
{
	struct dump d = { 0 };
	struct diag *dg = mkdiag();
	ck_assert_int_eq(dump_bin_read_mem("r.bin", "1234567", 7, &d, dg), -1);
	ck_assert_ptr_nonnull(strstr(errors(dg), "r.bin: error: 7 bytes is not a whole number"));
}
END_TEST

START_TEST(t_pickle_refuses)
{
	char err[256];
	/* PROTO 2, GLOBAL os.system, EMPTY_TUPLE, REDUCE, STOP */
	static const unsigned char evil[] = "\x80\x02" "cos\nsystem\n" ")R.";
	static const unsigned char list[] = "\x80\x02]q\x00(K\x01K\x02" "e.";
	struct pickle *pk = pickle_run(evil, sizeof(evil) - 1, err, sizeof(err));
	ck_assert_ptr_null(pk);
	ck_assert_ptr_nonnull(strstr(err, "unsupported object 'os.system'"));
	pk = pickle_run(list, sizeof(list) - 1, err, sizeof(err));
	ck_assert_ptr_nonnull(pk);
	ck_assert_int_eq(pickle_result(pk)->kind, PK_LIST);
	ck_assert_uint_eq(pickle_result(pk)->n, 2);
	pickle_free(pk);
	/* truncated: no STOP */
	ck_assert_ptr_null(pickle_run(list, sizeof(list) - 2, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "no STOP"));
	/* BINGET of an unset memo entry */
	ck_assert_ptr_null(pickle_run((const unsigned char *)"\x80\x02h\x05.", 5, err, sizeof(err)));
}
END_TEST

/* A dump of one 2-D tensor, `rows` slots of S words, owned by the caller. */
static struct dump *mkdump(size_t rows, size_t S)
{
	struct dump *d = calloc(1, sizeof(*d));
	d->path = strdup("t.pt");
	d->is_list = true;
	dump_add_tensor(d, "[0]", 8, 2, rows, S, calloc(rows * S, sizeof(int64_t)));
	return d;
}

START_TEST(t_slots_v1_and_v2)
{
	struct rule_policy *p = rule_policy_new();
	struct dump *d = mkdump(3, 16);
	int64_t *w = d->tensors[0].words;
	struct collect_slots s;
	struct diag *dg = mkdiag();

	/* slot 0: moe-v1 AIC 0, 2 records */
	w[0] = 3;
	w[1] = 5;
	w[2] = 6;
	w[14] = 100;
	w[13] = 110;
	w[15] = 90;
	/* slot 1: never written; slot 2: moe-v2 AIV block 3 sub 1 of a 1C2V kernel */
	w = d->tensors[0].words + 32;
	w[0] = (int64_t)0x4D4F455400080002ll;
	w[1] = (int64_t)(2 | (2 << 8) | (2 << 16) | (16ull << 32));
	w[2] = 3;
	w[3] = 1;
	w[4] = 1;
	w[6] = 0x77;
	w[7] = 80;
	w[8] = 9;
	w[9] = 85;
	ck_assert_int_eq(collect_slots_decode(d, p, &s, dg), 0);
	ck_assert_uint_eq(s.total, 3);
	ck_assert_uint_eq(s.empty, 1);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.v[0].name, "AIC 0");
	ck_assert_uint_eq(s.v[0].n, 2);
	ck_assert_int_eq(collect_slot_word(&s.v[0], 1), 6);
	ck_assert_int_eq(collect_slot_cycle(&s.v[0], 1), 110);
	ck_assert_str_eq(s.v[1].name, "AIV 1.1");
	ck_assert_uint_eq(s.v[1].stamp, 0x77);
	ck_assert_int_eq(collect_slot_cycle(&s.v[1], 0), 85);
	collect_slots_release(&s);

	/* a v2 count past the slot is refused, not read */
	w[4] = 5;
	ck_assert_int_eq(collect_slots_decode(d, p, &s, dg), -1);
	ck_assert_ptr_nonnull(strstr(errors(dg), "does not fit the slot's 4 records"));
	dump_free(d);
	rule_policy_free(p);
}
END_TEST

/* The layout table: lookups agree, one layout reads what no mark claims,
 * recognition follows the mark unless the rules force a layout, and every
 * layout is documented where the table says (device/LAYOUT.md,
 * autotrace-rules(5)). */
static char *slurp(const char *rel)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];
	FILE *fp;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot read %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return buf;
}

START_TEST(t_layout_table)
{
	int64_t zeros[16] = { 0 }, v2[16] = { (int64_t)0x4D4F455400080002ll, (int64_t)(1 | (16ull << 32)) };
	char names[64], heading[64];
	char *layout_md = slurp("device/LAYOUT.md"), *rules5 = slurp("man/autotrace-rules.5");
	size_t unmarked = 0;

	ck_assert_str_eq(dump_layout_names(names, sizeof(names), "/", NULL), "moe-v1/moe-v2");
	{
		/* the rules accept exactly the table's names, in its order */
		static const char *const rules_names[] = { RULE_LAYOUT_NAMES };
		ck_assert_uint_eq(sizeof(rules_names) / sizeof(rules_names[0]), DUMP_LAYOUT_COUNT);
		for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
			ck_assert_str_eq(rules_names[i], dump_layout_at(i)->name);
	}
	ck_assert_str_eq(dump_layout_names(names, 7, "/", NULL), "moe-v1"); /* a name that does not fit is left out */
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++) {
		const struct dump_layout *l = dump_layout_at(i);
		ck_assert_uint_eq(dump_layout_index(l), i);
		ck_assert_ptr_eq(dump_layout_find(l->name), l);
		ck_assert_ptr_nonnull(l->decode);
		ck_assert_ptr_nonnull(l->unwritten);
		ck_assert(l->unwritten(zeros, 16));
		/* a flat dump is cut by the header's size or, without one, by the
		 * size the layout finds plausible */
		ck_assert(l->slot_words || l->plausible);
		ck_assert_ptr_eq(dump_layout_recognise(l, zeros, 16), l);
		unmarked += l->claims == NULL;
		if (l->claims)
			ck_assert(!l->claims(zeros, 16));
		snprintf(heading, sizeof(heading), "\n## %s ", l->name);
		ck_assert_msg(strstr(layout_md, heading), "device/LAYOUT.md has no section '## %s'", l->name);
		ck_assert_msg(strstr(rules5, l->name), "autotrace-rules(5) does not name %s", l->name);
	}
	ck_assert_uint_eq(unmarked, 1);
	ck_assert_ptr_null(dump_layout_find("moe-v3"));
	ck_assert_ptr_null(dump_layout_find("auto"));
	ck_assert_ptr_eq(dump_layout_unmarked(), &dump_layout_moe_v1);
	ck_assert_ptr_eq(dump_layout_recognise(NULL, zeros, 16), &dump_layout_moe_v1);
	ck_assert_ptr_eq(dump_layout_recognise(NULL, v2, 16), &dump_layout_moe_v2);
	ck_assert_uint_eq(dump_layout_moe_v2.slot_words(v2, 64), 16);
	ck_assert_uint_eq(dump_layout_moe_v2.slot_words(v2, 8), 0); /* says more words than there are */
	free(layout_md);
	free(rules5);
}
END_TEST

/* `layout NAME` in the rules decides over the mark: a moe-v2 slot read as
 * moe-v1 has a counter that does not fit, a slot without the mark under
 * `layout moe-v2` is refused; never-written slots are skipped either way. */
START_TEST(t_layout_forced)
{
	struct rule_policy *p = rule_policy_new();
	struct dump *d = mkdump(2, 16);
	int64_t *w = d->tensors[0].words + 16;
	struct collect_slots s;
	struct diag *dg = mkdiag();

	w[0] = (int64_t)0x4D4F455400080002ll;
	w[1] = (int64_t)(1 | (16ull << 32));
	w[4] = 1;
	p->layout = "moe-v2";
	ck_assert_int_eq(collect_slots_decode(d, p, &s, dg), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.empty, 1);
	ck_assert_ptr_eq(s.v[0].layout, &dump_layout_moe_v2);
	ck_assert_uint_eq(s.by_layout[dump_layout_index(&dump_layout_moe_v2)], 1);
	ck_assert_uint_eq(s.by_position, 0);
	collect_slots_release(&s);

	p->layout = "moe-v1";
	ck_assert_int_eq(collect_slots_decode(d, p, &s, dg), -1);
	ck_assert_str_eq(errors(dg), "t.pt: error: slot 1 (AIC 1): moe-v1 counter 5570747491160686594 is not 1 + a "
				     "record count of at most 7 (a wrong `slot` size in the rules, or not a moe-v1 dump?)\n");

	dg = mkdiag();
	w[0] = 3;
	p->layout = "moe-v2";
	ck_assert_int_eq(collect_slots_decode(d, p, &s, dg), -1);
	ck_assert_str_eq(errors(dg), "t.pt: error: slot 1: no moe-v2 magic, but the rules say `layout moe-v2`\n");
	dump_free(d);
	rule_policy_free(p);
}
END_TEST

START_TEST(t_filters)
{
	ck_assert(collect_core_selected("aic", "AIC 3"));
	ck_assert(!collect_core_selected("aic", "AIV 3.1"));
	ck_assert(collect_core_selected("aiv3", "AIV 3.1"));
	ck_assert(!collect_core_selected("aiv3", "AIV 31"));
	ck_assert(collect_core_selected("AIC 1, aiv 3.1", "AIV 3.1"));
	ck_assert(collect_rank_spec_valid("0,2,4-7"));
	ck_assert(!collect_rank_spec_valid("4-2"));
	ck_assert(!collect_rank_spec_valid("x"));
	ck_assert(collect_rank_selected("0,2,4-7", 5));
	ck_assert(!collect_rank_selected("0,2,4-7", 3));
	ck_assert_int_eq(dump_rank_from_name("dir/rank007.pt"), 7);
	ck_assert_int_eq(dump_rank_from_name("rank_12.npy"), 12);
	ck_assert_int_eq(dump_rank_from_name("prof.pt"), -1);
}
END_TEST

/* The hand-written number printer of the trace writers against printf, at
 * every digit-count boundary and on a spread of other values. */
START_TEST(t_fmt_u64)
{
	uint64_t v = 1, x = 0x9E3779B97F4A7C15u;

	for (int k = 0; k < 20; k++, v *= 10) {
		uint64_t around[3] = { v - 1, v, v + 1 };
		for (int i = 0; i < 3; i++) {
			unsigned char got[24];
			char want[24];
			size_t n = trace_fmt_u64(got, around[i]);
			snprintf(want, sizeof(want), "%llu", (unsigned long long)around[i]);
			ck_assert_uint_eq(n, strlen(want));
			ck_assert_uint_eq(trace_digits_u64(around[i]), n);
			ck_assert(memcmp(got, want, n) == 0);
		}
	}
	for (int k = 0; k < 10000; k++) {
		unsigned char got[24];
		char want[24];
		uint64_t val;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		val = x >> (k % 64);
		size_t n = trace_fmt_u64(got, val);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)val);
		ck_assert_uint_eq(n, strlen(want));
		ck_assert(memcmp(got, want, n) == 0);
	}
	{
		unsigned char got[24];
		ck_assert_uint_eq(trace_fmt_u64(got, UINT64_MAX), 20);
		ck_assert(memcmp(got, "18446744073709551615", 20) == 0);
	}
}
END_TEST

static bool same_value(const void *ctx, size_t item)
{
	const unsigned *k = ctx;
	return item * 7 == *k;
}

/* The hash index: growth past many doublings, and items sharing a hash
 * (every fourth key hashes alike) told apart by the equality test. */
START_TEST(t_index_table)
{
	struct index_table t = { 0 };

	for (size_t i = 0; i < 5000; i++) {
		unsigned key = (unsigned)(i * 7);
		ck_assert_uint_eq(index_table_find(&t, index_hash_u64(i / 4), same_value, &key), SIZE_MAX);
		index_table_add(&t, index_hash_u64(i / 4), i);
	}
	ck_assert_uint_ge(t.cap, 2 * t.n);
	for (size_t i = 0; i < 5000; i++) {
		unsigned key = (unsigned)(i * 7);
		ck_assert_uint_eq(index_table_find(&t, index_hash_u64(i / 4), same_value, &key), i);
	}
	{
		unsigned absent = 3;
		ck_assert_uint_eq(index_table_find(&t, index_hash_u64(0), same_value, &absent), SIZE_MAX);
	}
	ck_assert(index_hash_bytes("ab", 2) != index_hash_bytes("ba", 2));
	index_table_free(&t);
	ck_assert_uint_eq(index_table_find(&t, 1, same_value, &(unsigned){ 0 }), SIZE_MAX);
}
END_TEST

struct seen_events {
	struct chrome_event v[8];
	char names[8][32];
	int n, stop_at;
};

static int keep_event(void *ctx, const struct chrome_event *e)
{
	struct seen_events *s = ctx;
	if (s->n == s->stop_at)
		return 7;
	s->v[s->n] = *e;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%.*s", (int)e->name.len, e->name.s ? e->name.s : "");
	s->n++;
	return 0;
}

/* The streaming trace reader: numbers to exact nanoseconds, escapes decoded,
 * unknown keys and non-object elements skipped, the callback's stop passed on. */
START_TEST(t_chrome_json)
{
	static const char doc[] =
		"{\"other\":[1,{\"x\":\"}\"}],\"traceEvents\":[\n"
		"{\"ph\":\"X\",\"ts\":12,\"dur\":0.5,\"pid\":3,\"tid\":4,\"name\":\"a\\\"b\\u00e9\"},\n"
		"7, \"str\", null,\n"
		"{\"ph\":\"B\",\"ts\":2.7405,\"name\":\"n\",\"cat\":{\"deep\":[[[]]]},\"args\":{\"name\":\"AIV 1.0\"}},\n"
		"{\"ph\":\"E\",\"ts\":1.5e3,\"dur\":-4},\n"
		"{\"ph\":\"XX\",\"ts\":0.001}\n"
		"]}";
	struct seen_events s = { .stop_at = -1 };
	struct diag *dg = mkdiag();

	ck_assert_int_eq(chrome_json_events("t.json", doc, strlen(doc), keep_event, &s, dg), 0);
	ck_assert_int_eq(s.n, 4);
	ck_assert_int_eq(s.v[0].ph, 'X');
	ck_assert_uint_eq(s.v[0].ts_ns, 12000);
	ck_assert_uint_eq(s.v[0].dur_ns, 500);
	ck_assert(s.v[0].pid == 3 && s.v[0].tid == 4);
	ck_assert_str_eq(s.names[0], "a\"b\xc3\xa9");
	ck_assert_uint_eq(s.v[1].ts_ns, 2741); /* 2740.5 ns rounds up */
	ck_assert_uint_eq(s.v[1].arg_name.len, 7);
	ck_assert(!s.v[1].has_dur);
	ck_assert_uint_eq(s.v[2].ts_ns, 1500000);
	ck_assert_uint_eq(s.v[2].dur_ns, 0);
	ck_assert_int_eq(s.v[3].ph, 0);
	ck_assert_uint_eq(s.v[3].ts_ns, 1);

	s.n = 0;
	s.stop_at = 1;
	ck_assert_int_eq(chrome_json_events("t.json", doc, strlen(doc), keep_event, &s, dg), 7);
	ck_assert_int_eq(s.n, 1);

	/* a bare array is a trace too; an error names line and column */
	s.n = 0;
	s.stop_at = -1;
	ck_assert_int_eq(chrome_json_events("t.json", "[{\"ph\":\"X\",\"ts\":1,\"dur\":1}]", 27, keep_event, &s, dg), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(chrome_json_events("t.json", "[\n{\"ts\":01}]", 12, keep_event, &s, dg), -1);
	ck_assert_ptr_nonnull(strstr(errors(dg), "t.json:2:8: error: malformed JSON: expected ',' or '}'"));
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* report's statistics: exact up to 4096 slices a row, then within 0.5%
 * from the histogram, count, total and max always exact */
START_TEST(t_stats_bounded)
{
	enum { N = 200000 };
	struct stats *st = stats_new();
	uint64_t *d = malloc(N * sizeof(*d)), total = 0, x = 12345;
	const struct stats_row *rows;
	size_t n;

	for (size_t i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		d[i] = i % 97 == 0 ? 0 : 20 * (1 + (x >> 33) % 50000) + (i < 10 ? 1000000000ull : 0);
		total += d[i];
		stats_add(st, "a", STATS_AIC, d[i]);
		if (i < 100)
			stats_add(st, "small", STATS_AIV, d[i]);
	}
	qsort(d, N, sizeof(*d), cmp_u64);
	rows = stats_rows(st, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(rows[0].label, "a");
	ck_assert_uint_eq(rows[0].count, N);
	ck_assert_uint_eq(rows[0].total_ns, total);
	ck_assert_uint_eq(rows[0].max_ns, d[N - 1]);
	ck_assert(rows[0].approximate);
	ck_assert(fabs((double)rows[0].p50_ns - (double)d[N / 2 - 1]) <= 0.005 * (double)d[N / 2 - 1]);
	ck_assert(fabs((double)rows[0].p99_ns - (double)d[N / 100 * 99 - 1]) <= 0.005 * (double)d[N / 100 * 99 - 1]);
	ck_assert(!rows[1].approximate);
	ck_assert_uint_eq(rows[1].count, 100);
	stats_free(st);
	free(d);
}
END_TEST

/* ---- the inflate cap of the Perfetto reader ---- */

static size_t put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* A deflate block of `n` zero bytes closed by a full flush (it looks back at
 * nothing before it, so it may be repeated) into out; its length. */
static size_t zero_block(size_t n, unsigned char *out, size_t cap)
{
	unsigned char *zeros = calloc(1, n ? n : 1);
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	ck_assert_int_eq(deflateInit2(&zs, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = zeros;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	ck_assert_int_eq(deflate(&zs, Z_FULL_FLUSH), Z_OK);
	ck_assert_uint_eq(zs.avail_in, 0);
	deflateEnd(&zs);
	free(zeros);
	return cap - zs.avail_out;
}

/* A trace of one packet whose compressed_packets are a zlib stream of `n`
 * zero bytes (without its final block and check value when `cut`). */
static unsigned char *zero_chunk_trace(size_t n, bool cut, size_t *len)
{
	enum { MB = 1 << 20 };
	unsigned char block[4096], tail[64], *z, *t;
	size_t bl = zero_block(MB, block, sizeof(block)), tl = zero_block(n % MB, tail, sizeof(tail));
	size_t zl = 0, pl, hl;
	uint32_t adler = (uint32_t)((n % 65521) << 16 | 1); /* Adler-32 of n zero bytes */

	z = malloc(2 + (n / MB) * bl + tl + 6);
	z[zl++] = 0x78;
	z[zl++] = 0xDA;
	for (size_t i = 0; i < n / MB; i++, zl += bl)
		memcpy(z + zl, block, bl);
	memcpy(z + zl, tail, tl);
	zl += tl;
	if (!cut) {
		z[zl++] = 0x03; /* a final block, empty */
		z[zl++] = 0x00;
		for (int i = 3; i >= 0; i--)
			z[zl++] = (unsigned char)(adler >> (8 * i));
	}
	t = malloc(zl + 32);
	{
		unsigned char head[24];
		hl = put_varint(head, 50 << 3 | 2); /* TracePacket.compressed_packets */
		hl += put_varint(head + hl, zl);
		pl = hl + zl;
		t[0] = 1 << 3 | 2; /* Trace.packet */
		*len = 1 + put_varint(t + 1, pl);
		memcpy(t + *len, head, hl);
		memcpy(t + *len + hl, z, zl);
		*len += pl;
	}
	free(z);
	return t;
}

static int no_event(void *ctx, const struct chrome_event *e)
{
	(void)e;
	++*(int *)ctx;
	return 0;
}

/* A chunk inflating to exactly the cap is read; one byte more, or a stream
 * cut short at the cap, is refused, with no more than the cap allocated
 * (the memory itself: tests/badinput.test). */
START_TEST(t_perfetto_cap)
{
	size_t len;
	unsigned char *t;
	struct diag *d;
	int events = 0;

	t = zero_chunk_trace(PERFETTO_MAX_CHUNK, false, &len);
	d = mkdiag();
	ck_assert_int_eq(perfetto_events("cap.pftrace", t, len, no_event, &events, d), 0);
	ck_assert_int_eq(events, 0);
	free(t);
	t = zero_chunk_trace(PERFETTO_MAX_CHUNK + 1, false, &len);
	d = mkdiag();
	ck_assert_int_eq(perfetto_events("over.pftrace", t, len, no_event, &events, d), -1);
	ck_assert_ptr_nonnull(strstr(errors(d), "over.pftrace: error: not a readable Perfetto trace (truncated or corrupt?): "
					       "compressed packets inflate to more than 268435456 bytes at byte 9"));
	free(t);
	t = zero_chunk_trace(PERFETTO_MAX_CHUNK, true, &len);
	d = mkdiag();
	ck_assert_int_eq(perfetto_events("cut.pftrace", t, len, no_event, &events, d), -1);
	ck_assert_ptr_nonnull(strstr(errors(d), "compressed packets that do not inflate"));
	free(t);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("dump");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, t_map_new_form);
	tcase_add_test(tc, t_map_old_form);
	tcase_add_test(tc, t_map_errors);
	tcase_add_test(tc, t_map_repeated_keys);
	tcase_add_test(tc, t_npy);
	tcase_add_test(tc, t_bin_odd);
	tcase_add_test(tc, t_pickle_refuses);
	tcase_add_test(tc, t_slots_v1_and_v2);
	tcase_add_test(tc, t_layout_table);
	tcase_add_test(tc, t_layout_forced);
	tcase_add_test(tc, t_filters);
	tcase_add_test(tc, t_fmt_u64);
	tcase_add_test(tc, t_chrome_json);
	tcase_add_test(tc, t_index_table);
	tcase_add_test(tc, t_stats_bounded);
	suite_add_tcase(s, tc);
	/* inflates 768 MiB */
	tc = tcase_create("perfetto_cap");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, t_perfetto_cap);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
