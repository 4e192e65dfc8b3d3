/* point_map.json reader (cJSON), writer (by hand: stable layout, one point per
 * line, fast on maps of 100k points) and the id-indexed map they share. Errors
 * name the line and column: cJSON gives the offset of a syntax error; for a
 * value of the wrong type the position of its key is found in the text. */
#include "point_map.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "atomic_write.h"
#include "index_table.h"
#include "json_escape.h"
#include "path_glob.h"
#include "strbuf.h"
#include "utf8.h"
#include "xalloc.h"

/* ---- interning: string -> index, through an index over the names ---- */

struct intern {
	struct index_table labels, files;
};

struct intern_key {
	char *const *names;
	const char *s;
};

static bool same_name(const void *ctx, size_t item)
{
	const struct intern_key *k = ctx;
	return strcmp(k->names[item], k->s) == 0;
}

static uint32_t intern_in(struct index_table *t, char ***names, size_t *n, size_t *cap, const char *s)
{
	size_t len = strlen(s), k;
	uint64_t h = index_hash_bytes(s, len);
	struct intern_key key = { *names, s };

	k = index_table_find(t, h, same_name, &key);
	if (k != SIZE_MAX)
		return (uint32_t)k;
	XGROW(*names, *cap, *n + 1);
	(*names)[*n] = xstrndup(s, len);
	index_table_add(t, h, *n);
	return (uint32_t)(*n)++;
}

char *point_map_default_path(const char *first_dump)
{
	struct stat st;

	if (first_dump && stat(first_dump, &st) == 0) {
		const char *slash = strrchr(first_dump, '/');
		char *p = S_ISDIR(st.st_mode) ? path_join(first_dump, "point_map.json")
					      : xasprintf("%.*spoint_map.json", slash ? (int)(slash - first_dump) + 1 : 0,
							  first_dump);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return xstrdup("point_map.json");
}

struct point_map *point_map_new(void)
{
	struct point_map *m = xcalloc(1, sizeof(*m));
	m->intern = xcalloc(1, sizeof(struct intern));
	return m;
}

void point_map_free(struct point_map *m)
{
	struct intern *in;

	if (!m)
		return;
	in = m->intern;
	for (size_t i = 0; i < m->nlabels; i++)
		free(m->labels[i]);
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->labels);
	free(m->files);
	free(m->points);
	free(m->generator);
	if (in) {
		index_table_free(&in->labels);
		index_table_free(&in->files);
		free(in);
	}
	free(m);
}

uint32_t point_map_intern_label(struct point_map *m, const char *label)
{
	struct intern *in = m->intern;
	return intern_in(&in->labels, &m->labels, &m->nlabels, &m->cap_labels, label);
}

uint32_t point_map_intern_file(struct point_map *m, const char *file)
{
	struct intern *in = m->intern;
	return intern_in(&in->files, &m->files, &m->nfiles, &m->cap_files, file);
}

int point_map_add(struct point_map *m, uint32_t id, const char *label, char event_type,
		  int64_t event_id, const char *file, uint32_t line)
{
	struct point_map_point *p;

	if (id == 0 || id > POINT_MAP_MAX_ID || (event_type != 'B' && event_type != 'E'))
		return -1;
	if (id >= m->npoints) {
		size_t old = m->cap_points;
		XGROW(m->points, m->cap_points, (size_t)id + 1);
		memset(m->points + old, 0, (m->cap_points - old) * sizeof(*m->points));
		m->npoints = (size_t)id + 1;
	}
	p = &m->points[id];
	if (!p->present)
		m->count++;
	p->present = true;
	p->event_type = event_type;
	p->label = point_map_intern_label(m, label);
	p->file = file ? point_map_intern_file(m, file) : UINT32_MAX;
	p->line = line;
	p->event_id = event_id;
	return 0;
}

/* ---- reading ---- */

struct reader {
	const char *path;
	const char *text;
	size_t len;
	struct diag *diag;
	size_t *key_at;         /* per id: offset of its key + 1, to name a duplicate's first */
	size_t cap_key_at;
};

static void offset_to_line_col(const char *text, size_t len, size_t off, size_t *line, size_t *col)
{
	size_t l = 1, c = 1;

	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Offset of `"key"` used as an object key at or after `from`; `from` when not found. */
static size_t find_key(const struct reader *r, const char *key, size_t from)
{
	size_t klen = strlen(key);

	for (size_t i = from; i + klen + 2 <= r->len; i++) {
		size_t j;
		if (r->text[i] != '"' || memcmp(r->text + i + 1, key, klen) != 0 || r->text[i + 1 + klen] != '"')
			continue;
		j = i + klen + 2;
		while (j < r->len && (r->text[j] == ' ' || r->text[j] == '\t' || r->text[j] == '\n' ||
				      r->text[j] == '\r'))
			j++;
		if (j < r->len && r->text[j] == ':')
			return i;
	}
	return from;
}

static void error_at_off(const struct reader *r, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error_at_off(const struct reader *r, size_t off, const char *fmt, ...)
{
	char msg[512];
	size_t line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	offset_to_line_col(r->text, r->len, off, &line, &col);
	diag_pos(r->diag, DIAG_ERROR, r->path, line, col, "%s", msg);
}

static bool is_decimal_id(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*out = v;
	return true;
}

static bool whole_number(const cJSON *v, double lo, double hi)
{
	return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
	       v->valuedouble == (double)(int64_t)v->valuedouble;
}

/* A key this reader uses, given twice in object `obj` (whose key is at
 * `obj_off`): cJSON keeps both members and reads the first, so the second
 * would be dropped without a word. Reports it, located, and returns -1;
 * `what` names the object in the message ("point '7'", "the map"). Keys
 * the reader ignores may repeat: nothing is read from them. */
static int repeated_key(const struct reader *r, const cJSON *obj, size_t obj_off, const char *const *keys,
			const char *what)
{
	for (; *keys; keys++) {
		const cJSON *c;
		bool seen = false;
		cJSON_ArrayForEach(c, obj) {
			size_t first, second, fl, fc;
			if (!c->string || strcmp(c->string, *keys) != 0)
				continue;
			if (!seen) {
				seen = true;
				continue;
			}
			first = find_key(r, *keys, obj_off);
			second = find_key(r, *keys, first + 1);
			if (second == first + 1)
				second = first; /* written another way (an escape): the first is where to look */
			offset_to_line_col(r->text, r->len, first, &fl, &fc);
			error_at_off(r, second, "%s gives \"%s\" twice (first at line %zu, column %zu): which one is meant "
				     "cannot be told; this map is damaged", what, *keys, fl, fc);
			return -1;
		}
	}
	return 0;
}

static int read_point(struct reader *r, struct point_map *m, const cJSON *item, size_t key_off)
{
	static const char *const keys[] = { "label", "event_type", "event_id", "file", "line", NULL };
	const cJSON *label, *type, *event_id, *file, *line;
	uint64_t id;
	size_t at;
	char what[48];

	if (!is_decimal_id(item->string, &id) || id == 0 || id > POINT_MAP_MAX_ID) {
		error_at_off(r, key_off, "point id '%s' is not a number from 1 to %u", item->string, POINT_MAP_MAX_ID);
		return -1;
	}
	if (!cJSON_IsObject(item)) {
		error_at_off(r, key_off, "point '%s' must be an object", item->string);
		return -1;
	}
	snprintf(what, sizeof(what), "point '%s'", item->string);
	if (repeated_key(r, item, key_off, keys, what) != 0)
		return -1;
	label = cJSON_GetObjectItemCaseSensitive(item, "label");
	type = cJSON_GetObjectItemCaseSensitive(item, "event_type");
	event_id = cJSON_GetObjectItemCaseSensitive(item, "event_id");
	file = cJSON_GetObjectItemCaseSensitive(item, "file");
	line = cJSON_GetObjectItemCaseSensitive(item, "line");
	if (!cJSON_IsString(label) || !label->valuestring[0]) {
		at = label ? find_key(r, "label", key_off) : key_off;
		error_at_off(r, at, "point '%s': \"label\" must be a non-empty string", item->string);
		return -1;
	}
	if (!cJSON_IsString(type) || (strcmp(type->valuestring, "B") != 0 && strcmp(type->valuestring, "E") != 0)) {
		at = type ? find_key(r, "event_type", key_off) : key_off;
		error_at_off(r, at, "point '%s': \"event_type\" must be \"B\" or \"E\"", item->string);
		return -1;
	}
	if (event_id && !whole_number(event_id, -9e15, 9e15)) {
		error_at_off(r, find_key(r, "event_id", key_off), "point '%s': \"event_id\" must be an integer",
			     item->string);
		return -1;
	}
	if (event_id && event_id->valuedouble < 0) {
		error_at_off(r, find_key(r, "event_id", key_off),
			     "point '%s': \"event_id\" is negative (%.0f): event ids number the labels from 1", item->string,
			     event_id->valuedouble);
		return -1;
	}
	if (file && !cJSON_IsString(file) && !cJSON_IsNull(file)) {
		error_at_off(r, find_key(r, "file", key_off), "point '%s': \"file\" must be a string", item->string);
		return -1;
	}
	if (line && !whole_number(line, 0, UINT32_MAX) && !cJSON_IsNull(line)) {
		error_at_off(r, find_key(r, "line", key_off), "point '%s': \"line\" must be a whole number",
			     item->string);
		return -1;
	}
	if (point_map_get(m, (uint32_t)id)) {
		size_t fl, fc;
		offset_to_line_col(r->text, r->len, r->key_at[id] - 1, &fl, &fc);
		error_at_off(r, key_off, "point id '%s' is given twice (first at line %zu, column %zu): one id means one "
			     "point; this map is damaged or merged from two builds", item->string, fl, fc);
		return -1;
	}
	if (id >= r->cap_key_at) {
		size_t old = r->cap_key_at;
		XGROW(r->key_at, r->cap_key_at, (size_t)id + 1);
		memset(r->key_at + old, 0, (r->cap_key_at - old) * sizeof(*r->key_at));
	}
	r->key_at[id] = key_off + 1;
	point_map_add(m, (uint32_t)id, label->valuestring, type->valuestring[0],
		      event_id ? (int64_t)event_id->valuedouble : 0, cJSON_IsString(file) ? file->valuestring : NULL,
		      cJSON_IsNumber(line) ? (uint32_t)line->valuedouble : 0);
	return 0;
}

static int parse_stamp(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++, n++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (n == 0 || n > 16)
		return -1;
	*out = v;
	return 0;
}

/* What cJSON would pass silently: bytes that are not UTF-8 (they would go
 * into the traces, where JSON readers and Perfetto reject them) and \u0000
 * in a string (which cuts a C string: a label would lose its end). */
static int check_text(const struct reader *r)
{
	size_t bad = utf8_invalid_at(r->text, r->len);
	bool in_string = false;

	if (bad != SIZE_MAX) {
		error_at_off(r, bad, "invalid UTF-8 (byte 0x%02x): a point map is UTF-8 text",
			     (unsigned char)r->text[bad]);
		return -1;
	}
	for (size_t i = 0; i < r->len; i++) {
		char c = r->text[i];
		if (c == '"') {
			in_string = !in_string;
		} else if (in_string && c == '\\' && i + 1 < r->len) {
			if (r->text[i + 1] == 'u' && i + 5 < r->len && memcmp(r->text + i + 2, "0000", 4) == 0) {
				error_at_off(r, i, "a NUL character (\\u0000) in a string: a label or file name cannot hold one");
				return -1;
			}
			i++; /* the escaped character */
		}
	}
	return 0;
}

struct point_map *point_map_parse(const char *path, const char *text, size_t len, struct diag *diag)
{
	struct reader r = { path, text, len, diag, NULL, 0 };
	struct point_map *m = NULL;
	const char *end = NULL;
	const cJSON *points, *item, *v;
	cJSON *root;
	size_t from = 0;

	if (check_text(&r) != 0)
		return NULL;
	root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!root) {
		size_t off = end ? (size_t)(end - text) : 0;
		error_at_off(&r, off, "%s", len == 0 ? "empty file: expected a JSON object" : "malformed JSON");
		return NULL;
	}
	if (end) {
		const char *p = end;
		while ((size_t)(p - text) < len && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
			p++;
		if ((size_t)(p - text) < len && *p) {
			error_at_off(&r, (size_t)(p - text), "unexpected text after the JSON object");
			goto fail;
		}
	}
	if (!cJSON_IsObject(root)) {
		error_at_off(&r, 0, "expected a JSON object holding \"points\"");
		goto fail;
	}
	m = point_map_new();
	points = cJSON_GetObjectItemCaseSensitive(root, "points");
	if (points) {
		static const char *const keys[] = { "points", "version", "generator", "build_stamp", NULL };
		if (repeated_key(&r, root, 0, keys, "the map") != 0)
			goto fail;
		if (!cJSON_IsObject(points)) {
			error_at_off(&r, find_key(&r, "points", 0), "\"points\" must be an object");
			goto fail;
		}
		from = find_key(&r, "points", 0);
		v = cJSON_GetObjectItemCaseSensitive(root, "version");
		if (v) {
			if (!whole_number(v, 1, 1e9)) {
				error_at_off(&r, find_key(&r, "version", 0), "\"version\" must be a positive integer");
				goto fail;
			}
			m->version = (int)v->valuedouble;
			if (m->version > 1) {
				error_at_off(&r, find_key(&r, "version", 0),
					     "point map version %d is newer than this autotrace reads (1)", m->version);
				goto fail;
			}
		}
		v = cJSON_GetObjectItemCaseSensitive(root, "generator");
		if (cJSON_IsString(v))
			m->generator = xstrdup(v->valuestring);
		v = cJSON_GetObjectItemCaseSensitive(root, "build_stamp");
		if (v && !cJSON_IsNull(v)) {
			if (!cJSON_IsString(v) || parse_stamp(v->valuestring, &m->build_stamp) != 0) {
				error_at_off(&r, find_key(&r, "build_stamp", 0),
					     "\"build_stamp\" must be a string of up to 16 hex digits");
				goto fail;
			}
			m->has_stamp = true;
		}
	} else {
		points = root;
	}
	cJSON_ArrayForEach(item, points) {
		size_t key_off = find_key(&r, item->string, from);
		if (read_point(&r, m, item, key_off) != 0)
			goto fail;
		from = key_off;
	}
	cJSON_Delete(root);
	free(r.key_at);
	return m;
fail:
	cJSON_Delete(root);
	free(r.key_at);
	point_map_free(m);
	return NULL;
}

struct point_map *point_map_load(const char *path, struct diag *diag)
{
	struct src_file *f = src_file_load(path);
	struct point_map *m;

	if (!f) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read point map: %s", src_file_strerror(errno));
		return NULL;
	}
	m = point_map_parse(path, f->data, f->len, diag);
	src_file_free(f);
	return m;
}

/* ---- writing ---- */

static void out_u64(struct strbuf *o, uint64_t v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "%" PRIu64, v);
	strbuf_put(o, b, (size_t)n);
}

static void out_json_string(struct strbuf *o, const char *s)
{
	size_t n = strlen(s);
	char *w = strbuf_room(o, JSON_ESCAPE_MAX * n + 2);

	w[0] = '"';
	n = json_escape(w + 1, s, n);
	w[n + 1] = '"';
	strbuf_commit(o, n + 2);
}

char *point_map_to_json(const struct point_map *m, size_t *len)
{
	struct strbuf o = { 0 };
	bool first = true;
	char stamp[17];

	strbuf_puts(&o, "{\n  \"version\": 1,\n  \"generator\": ");
	out_json_string(&o, m->generator ? m->generator : "autotrace");
	if (m->has_stamp) {
		snprintf(stamp, sizeof(stamp), "%016" PRIx64, m->build_stamp);
		strbuf_puts(&o, ",\n  \"build_stamp\": \"");
		strbuf_puts(&o, stamp);
		strbuf_puts(&o, "\"");
	}
	strbuf_puts(&o, ",\n  \"points\": {");
	for (size_t id = 1; id < m->npoints; id++) {
		const struct point_map_point *p = &m->points[id];
		char ev[2] = { p->event_type, '\0' };
		if (!p->present)
			continue;
		strbuf_puts(&o, first ? "\n    \"" : ",\n    \"");
		first = false;
		out_u64(&o, id);
		strbuf_puts(&o, "\": {\"label\": ");
		out_json_string(&o, m->labels[p->label]);
		strbuf_puts(&o, ", \"event_type\": ");
		out_json_string(&o, ev);
		strbuf_puts(&o, ", \"event_id\": ");
		if (p->event_id < 0) {
			strbuf_puts(&o, "-");
			out_u64(&o, (uint64_t)0 - (uint64_t)p->event_id);
		} else {
			out_u64(&o, (uint64_t)p->event_id);
		}
		strbuf_puts(&o, ", \"file\": ");
		if (p->file == UINT32_MAX)
			strbuf_puts(&o, "null");
		else
			out_json_string(&o, m->files[p->file]);
		strbuf_puts(&o, ", \"line\": ");
		out_u64(&o, p->line);
		strbuf_puts(&o, "}");
	}
	strbuf_puts(&o, first ? "}\n}\n" : "\n  }\n}\n");
	*len = o.n;
	return strbuf_take(&o);
}

int point_map_write(const struct point_map *m, const char *path, struct diag *diag)
{
	size_t len;
	char *text = point_map_to_json(m, &len);
	int rc = atomic_write(path, text, len, diag);

	free(text);
	return rc;
}
