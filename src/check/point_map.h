/* point_map.json: what each trace point id of one build means (label, B/E,
 * event id, file, line), and the build stamp that ties the map to the dumps of
 * the same build. The struct is an array indexed by id with interned labels
 * and files, so a reader (here) and a writer (preprocess) share it.
 *
 * File forms read:
 *   {"version": 1, "generator": "...", "build_stamp": "<16 hex>",
 *    "points": {"<id>": {"label", "event_type": "B"|"E", "event_id", "file", "line"}}}
 *   and the older one: the same "<id>" map at top level, no version or stamp. */
#ifndef AUTOTRACE_POINT_MAP_H
#define AUTOTRACE_POINT_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* Ids above this are refused: the array is indexed by id. */
#define POINT_MAP_MAX_ID 0xFFFFFFu
/* The id an unpreprocessed build records for every point (device/LAYOUT.md). */
#define POINT_MAP_UNPREPROCESSED_ID 0xFFFFFFFFu

struct point_map_point {
	bool present;
	char event_type;        /* 'B' or 'E' */
	uint32_t label;         /* index into labels[] */
	uint32_t file;          /* index into files[]; UINT32_MAX when absent */
	uint32_t line;          /* 0 when absent */
	int64_t event_id;
};

struct point_map {
	int version;            /* 0 for the older form */
	char *generator;        /* NULL when absent */
	bool has_stamp;
	uint64_t build_stamp;
	struct point_map_point *points; /* indexed by id, [0, npoints) */
	size_t npoints;         /* highest id + 1 */
	size_t cap_points;
	size_t count;           /* ids present */
	char **labels;          /* interned, in order of first appearance */
	size_t nlabels, cap_labels;
	char **files;           /* interned */
	size_t nfiles, cap_files;
	void *intern;           /* private lookup tables */
};

struct point_map *point_map_new(void);
void point_map_free(struct point_map *m);

/* Adds or replaces point `id` (1..POINT_MAP_MAX_ID). `file` may be NULL.
 * Returns 0, or -1 when the id is out of range or the event type is not B/E. */
int point_map_add(struct point_map *m, uint32_t id, const char *label, char event_type,
		  int64_t event_id, const char *file, uint32_t line);

/* The map collect and report read when none is named (--map), newly
 * allocated: point_map.json in `first_dump` when it is a directory, or
 * beside it when it is a file, if that can be read; else point_map.json in
 * the current directory (also when `first_dump` is NULL). */
char *point_map_default_path(const char *first_dump);

/* Interns a label or file name; returns its index. */
uint32_t point_map_intern_label(struct point_map *m, const char *label);
uint32_t point_map_intern_file(struct point_map *m, const char *file);

static inline const struct point_map_point *point_map_get(const struct point_map *m, uint32_t id)
{
	if (id >= m->npoints || !m->points[id].present)
		return NULL;
	return &m->points[id];
}

/* Parses map text named `path` in messages. NULL after reporting
 * `path:line:col: error: ...`. */
struct point_map *point_map_parse(const char *path, const char *text, size_t len, struct diag *diag);

/* Reads and parses the file at `path`. */
struct point_map *point_map_load(const char *path, struct diag *diag);

/* The map as point_map.json text in the first form above (version 1,
 * `generator`, `build_stamp` as 16 lowercase hex digits when has_stamp, the
 * points in id order), newline-terminated; point_map_parse reads it back to
 * the same map. The caller frees the text; `*len` gets its length. */
char *point_map_to_json(const struct point_map *m, size_t *len);

/* point_map_to_json, written atomically to `path`. Returns 0, or -1 after
 * reporting the error (nothing written then). */
int point_map_write(const struct point_map *m, const char *path, struct diag *diag);

#endif
