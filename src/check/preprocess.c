/* preprocess over a tree (see preprocess.h): scan every C/C++ source, refuse
 * malformed points and (unless forced) unbalanced functions, number the
 * points, write the rewritten sources (in place or into a copy of the tree)
 * and then point_map.json. Everything is computed before the first write, so
 * a refusal leaves the tree and the map as they were. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <threads.h>
#include <unistd.h>

#include "atomic_write.h"
#include "check_trace.h"
#include "cxx_outline.h"
#include "cxx_pp.h"
#include "edit.h"
#include "edit_journal.h"
#include "index_table.h"
#include "path_glob.h"
#include "point_map.h"
#include "preprocess.h"
#include "utf8.h"
#include "xalloc.h"

/* ---- the build stamp: FNV-1a over the fields, then a 64-bit finaliser ---- */

void pp_stamp_init(struct pp_stamp *st)
{
	st->h = INDEX_HASH_BASIS;
}

static void stamp_bytes(struct pp_stamp *st, const void *p, size_t n)
{
	st->h = index_hash_more(st->h, p, n);
}

static void stamp_u32(struct pp_stamp *st, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			       (unsigned char)(v >> 24) };
	stamp_bytes(st, b, 4);
}

void pp_stamp_add(struct pp_stamp *st, const char *file, uint32_t line, uint32_t col, const char *label, char event)
{
	stamp_bytes(st, file, strlen(file) + 1);
	stamp_u32(st, line);
	stamp_u32(st, col);
	stamp_bytes(st, label, strlen(label) + 1);
	stamp_bytes(st, &event, 1);
}

uint64_t pp_stamp_value(const struct pp_stamp *st)
{
	uint64_t z = st->h;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z ? z : 1; /* 0 means "not preprocessed" to the runtime */
}

/* ---- the tree ---- */

struct pp_file {
	char *rel;              /* relative to the tree root */
	struct src_file *file;  /* path: as shown in messages; NULL once released */
	struct pp_scan scan;
	size_t npoints;         /* valid sites */
	uint32_t first_id;
};

static bool site_valid(const struct pp_site *s)
{
	return s->label && s->label[0] && s->event && s->label_len == strlen(s->label) &&
	       utf8_invalid_at(s->label, s->label_len) == SIZE_MAX;
}

/* Stamps the valid points of one file, named `rel`, in file order. */
static void stamp_sites(struct pp_stamp *st, const char *rel, const struct pp_scan *sc)
{
	for (size_t k = 0; k < sc->nsites; k++)
		if (site_valid(&sc->sites[k]))
			pp_stamp_add(st, rel, sc->sites[k].line, sc->sites[k].col, sc->sites[k].label,
				     sc->sites[k].event);
}

/* Malformed points; directive lines only count when they hold a literal call. */
static unsigned check_sites(struct pp_file *f, struct diag *diag)
{
	unsigned errors = 0;

	f->npoints = 0;
	for (size_t i = 0; i < f->scan.nsites; i++) {
		struct pp_site *s = &f->scan.sites[i];
		if (site_valid(s)) {
			f->npoints++;
			continue;
		}
		if (!s->label && s->directive)
			continue;
		errors++;
		if (!s->label)
			diag_at(diag, DIAG_ERROR, src_loc_make(f->file, s->start, s->end),
				"TRACE_POINT needs two string literals, (\"label\", \"B\"|\"E\"): no id can be given");
		else if (!s->label[0])
			diag_at(diag, DIAG_ERROR, src_loc_make(f->file, s->start, s->end), "empty trace point label");
		else if (s->label_len != strlen(s->label))
			diag_at(diag, DIAG_ERROR, src_loc_make(f->file, s->label_start, s->label_end),
				"the label holds a NUL byte: point_map.json would cut it there");
		else if (utf8_invalid_at(s->label, s->label_len) != SIZE_MAX)
			diag_at(diag, DIAG_ERROR, src_loc_make(f->file, s->label_start, s->label_end),
				"the label is not valid UTF-8 (byte 0x%02x at offset %zu of the label): point_map.json and "
				"the traces hold UTF-8 text; save the source as UTF-8",
				(unsigned char)s->label[utf8_invalid_at(s->label, s->label_len)],
				utf8_invalid_at(s->label, s->label_len));
		else
			diag_at(diag, DIAG_ERROR, src_loc_make(f->file, s->event_start, s->event_end),
				"the event of TRACE_POINT must be \"B\" or \"E\"");
	}
	return errors;
}

/* With --force, the pairing errors are reported as warnings. */
static void downgrade_sink(void *ctx, const struct diag_msg *m)
{
	struct diag *to = ctx;
	enum diag_level lvl = m->level == DIAG_ERROR ? DIAG_WARNING : m->level;

	if (m->loc.file)
		diag_at(to, lvl, m->loc, "%s", m->text);
	else
		diag_pos(to, lvl, m->path, m->line, m->col, "%s", m->text);
}

/* The line breaks of d[start, end) into out + *n (room made): each newline
 * as it was, a line splice kept a splice (a directive goes on through it),
 * a CR before it kept. A point written over several lines becomes its id
 * after as many line breaks, so that the lines after it keep their numbers
 * (__LINE__, the compiler's messages, the map's lines). */
static void keep_line_breaks(const char *d, uint32_t start, uint32_t end, char **out, size_t *cap, size_t *n)
{
	for (const char *p = d + start, *e = d + end; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++) {
		const char *b = p;
		bool cr = b > d + start && b[-1] == '\r', splice;
		if (cr)
			b--;
		while (b > d + start && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\f' || b[-1] == '\v'))
			b--;
		splice = b > d + start && b[-1] == '\\';
		XGROW(*out, *cap, *n + 4);
		if (splice)
			(*out)[(*n)++] = '\\';
		if (cr)
			(*out)[(*n)++] = '\r';
		(*out)[(*n)++] = '\n';
	}
}

/* The rewritten text of `f`: points from f->first_id, TRACE_BUILD_STAMP as `stamp`. */
static char *rewrite(const struct pp_file *f, const char *stamp, size_t *len)
{
	const char *d = f->file->data;
	size_t si = 0, ti = 0, at = 0, n = 0, cap = f->file->len + 64;
	char *out = xmalloc(cap);
	uint32_t id = f->first_id;

	for (;;) {
		const struct pp_site *s = NULL;
		uint32_t start, end;
		char num[32];
		const char *rep;
		size_t rlen;
		while (si < f->scan.nsites && !site_valid(&f->scan.sites[si]))
			si++;
		if (si < f->scan.nsites && (ti >= f->scan.nstamps || f->scan.sites[si].start < f->scan.stamps[ti])) {
			s = &f->scan.sites[si++];
			start = s->start;
			end = s->end;
			snprintf(num, sizeof(num), "%" PRIu32, id++);
			rep = num;
		} else if (ti < f->scan.nstamps) {
			start = f->scan.stamps[ti++];
			end = start + 17;
			rep = stamp;
		} else {
			break;
		}
		rlen = strlen(rep);
		XGROW(out, cap, n + (start - at) + rlen + 1);
		memcpy(out + n, d + at, start - at);
		n += start - at;
		/* the breaks before the id: after it, a splice could end the file */
		if (s)
			keep_line_breaks(d, start, end, &out, &cap, &n);
		XGROW(out, cap, n + rlen + 1);
		memcpy(out + n, rep, rlen);
		n += rlen;
		at = end;
	}
	XGROW(out, cap, n + (f->file->len - at) + 1);
	memcpy(out + n, d + at, f->file->len - at);
	n += f->file->len - at;
	*len = n;
	return out;
}

static int mkdirs(const char *path, struct diag *diag)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			diag_plain(diag, DIAG_ERROR, "cannot create directory '%s': %s", p, strerror(errno));
			rc = -1;
			break;
		}
		*s = '/';
	}
	if (rc == 0 && mkdir(p, 0777) != 0 && errno != EEXIST) {
		diag_plain(diag, DIAG_ERROR, "cannot create directory '%s': %s", p, strerror(errno));
		rc = -1;
	}
	free(p);
	return rc;
}

/* Writes `len` bytes as OUT/rel, with the permission bits of `src`. */
static int write_copy(const char *out_dir, const char *rel, const char *src, const char *data, size_t len,
		      struct diag *diag)
{
	char *dst = path_join(out_dir, rel), *slash = strrchr(dst, '/');
	struct stat st;
	int rc = 0;

	if (slash) {
		*slash = '\0';
		rc = mkdirs(dst, diag);
		*slash = '/';
	}
	if (rc == 0)
		rc = atomic_write_flags(dst, data, len, ATOMIC_WRITE_NO_SYNC, diag);
	if (rc == 0 && stat(src, &st) == 0)
		chmod(dst, st.st_mode & 07777);
	free(dst);
	return rc;
}

/* The absolute form of `path`, which need not exist yet: the realpath of its
 * nearest existing ancestor, then the rest as written. */
static char *absolute(const char *path)
{
	char *p = xstrdup(path), *real = NULL, *out;
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	for (;;) {
		char *slash;
		real = realpath(n ? p : ".", NULL);
		if (real || n == 0)
			break;
		slash = strrchr(p, '/');
		n = slash ? (size_t)(slash - p) : 0;
		p[n] = '\0';
	}
	if (!real) {
		free(p);
		return NULL;
	}
	out = path_join(real, path + n + (path[n] == '/'));
	free(real);
	free(p);
	return out;
}

/* Is `dir` the tree or inside it? */
static bool inside(const char *tree, const char *dir)
{
	char *t = realpath(tree, NULL), *d = absolute(dir);
	bool in = false;
	size_t n;

	if (t && d) {
		n = strlen(t);
		in = strncmp(t, d, n) == 0 && (d[n] == '\0' || d[n] == '/' || n == 1);
	}
	free(t);
	free(d);
	return in;
}

struct pp_run {
	const struct pp_options *o;
	struct diag *diag;
	struct pp_file *files;  /* those holding sites or stamps, in path order */
	size_t nfiles, cap_files;
	char **all;             /* every file of the tree, relative, sorted */
	size_t nall;
	size_t nsources;
};

static void run_release(struct pp_run *r)
{
	for (size_t i = 0; i < r->nfiles; i++) {
		free(r->files[i].rel);
		src_file_free(r->files[i].file);
		pp_scan_release(&r->files[i].scan);
	}
	free(r->files);
	path_glob_free(r->all, r->nall);
}

/* Reads the whole file at `path` into *buf (grown as needed, capacity
 * *cap), NUL-terminated: open, read, close, and nothing else for a file
 * smaller than the buffer (most sources). Its length, or -1 (errno set). */
static ssize_t read_into(const char *path, char **buf, size_t *cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n;
		if (got + 1 >= *cap) {
			*cap *= 2;
			*buf = xrealloc(*buf, *cap);
		}
		n = read(fd, *buf + got, *cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0 || got + (size_t)n >= UINT32_MAX)
			break;
		got += (size_t)n;
		if (got + 1 < *cap)
			break; /* read less than it could: the end of the file */
	}
	close(fd);
	if (got >= UINT32_MAX) {
		errno = EFBIG;
		return -1;
	}
	(*buf)[got] = '\0';
	return (ssize_t)got;
}

/* Reads and scans every source; keeps those with something to rewrite.
 * The files with nothing (most) are read into one reused buffer and never
 * copied. */
static int scan_tree(struct pp_run *r, unsigned *errors)
{
	struct pp_scan sc;
	size_t cap = 1 << 18;
	char *buf = xmalloc(cap);
	int rc = 0;

	memset(&sc, 0, sizeof(sc));
	for (size_t i = 0; i < r->nall && rc == 0; i++) {
		char *path;
		ssize_t len;
		struct pp_file *pf;
		if (!src_file_is_cxx_name(r->all[i]))
			continue;
		r->nsources++;
		path = path_join(r->o->tree, r->all[i]);
		len = read_into(path, &buf, &cap);
		if (len < 0) {
			diag_plain(r->diag, DIAG_ERROR, "cannot read '%s': %s", path, strerror(errno));
			free(path);
			rc = -1;
			break;
		}
		pp_scan_buffer(buf, (size_t)len, &sc);
		if (sc.nsites == 0 && sc.nstamps == 0 && sc.ndone == 0) {
			free(path);
			continue;
		}
		XGROW(r->files, r->cap_files, r->nfiles + 1);
		pf = &r->files[r->nfiles++];
		memset(pf, 0, sizeof(*pf));
		pf->rel = xstrdup(r->all[i]);
		pf->file = src_file_from_buffer(path, buf, (size_t)len);
		free(path);
		pf->scan = sc;
		memset(&sc, 0, sizeof(sc));
		*errors += check_sites(pf, r->diag);
	}
	pp_scan_release(&sc);
	free(buf);
	return rc;
}

/* Every point of the tree is a number already: no TRACE_POINT is left. */
static bool preprocessed_whole(const struct pp_run *r)
{
	size_t done = 0;

	for (size_t i = 0; i < r->nfiles; i++) {
		if (r->files[i].scan.nsites)
			return false;
		done += r->files[i].scan.ndone;
	}
	return done > 0;
}

/* A tree an earlier run preprocessed (or holding point ids written by hand):
 * refused, never guessed at. Reports the first few signs and the count.
 * Returns how many there are. */
static size_t refuse_preprocessed(struct pp_run *r)
{
	size_t total = 0, files = 0, shown = 0;

	for (size_t i = 0; i < r->nfiles; i++) {
		const struct pp_file *f = &r->files[i];
		if (f->scan.ndone)
			files++;
		for (size_t k = 0; k < f->scan.ndone; k++, total++) {
			const struct pp_done *d = &f->scan.done[k];
			if (shown++ >= 3)
				continue;
			if (d->stamp)
				diag_at(r->diag, DIAG_ERROR, src_loc_make(f->file, d->start, d->end),
					"a build stamp an earlier `autotrace preprocess` wrote: this tree is preprocessed "
					"already");
			else
				diag_at(r->diag, DIAG_ERROR, src_loc_make(f->file, d->start, d->end),
					"a point id where TRACE_POINT(\"label\", \"B\"|\"E\") should be: this tree is "
					"preprocessed already (or holds hand-written ids), and the ids of this run would "
					"collide with it");
		}
	}
	if (total)
		diag_plain(r->diag, DIAG_ERROR,
			   "preprocess: '%s' holds %zu point id%s or build stamp%s of an earlier run in %zu file%s: "
			   "nothing written; preprocess a fresh copy of the sources (the build's copy step makes one)",
			   r->o->tree, total, total == 1 ? "" : "s", total == 1 ? "" : "s", files, files == 1 ? "" : "s");
	return total;
}

/* The pairing check of check_pairing.c on every file holding points, its
 * findings to `to`. */
static unsigned check_balance(struct pp_run *r, struct diag *to)
{
	struct cxx_macro_table *macros = cxx_macros_new();
	struct diag soft, *d = to;
	unsigned errors = 0;

	if (r->o->force) {
		diag_init(&soft, to->out, to->color);
		soft.sink = downgrade_sink;
		soft.sink_ctx = to;
		d = &soft;
	}
	for (size_t i = 0; i < r->nfiles; i++) {
		struct cxx_outline *ol;
		if (r->files[i].npoints == 0)
			continue;
		ol = cxx_outline_build(r->files[i].file, macros, NULL);
		errors += check_pairing(ol, d);
		cxx_outline_free(ol);
	}
	cxx_macros_free(macros);
	return errors;
}

/* The pairing check run beside the writing of the temporary files (in
 * place, where nothing is visible until the commit, and the batch is
 * aborted when the check fails): its messages gather in memory and are
 * printed once it is joined. It only reads the scanned files; the writing
 * only reads them too. */
struct balance_job {
	struct pp_run *r;
	struct diag d;
	char *text;
	size_t len;
	unsigned errors;
	bool threaded;
	thrd_t thread;
};

static int balance_run(void *arg)
{
	struct balance_job *j = arg;

	j->errors = check_balance(j->r, &j->d);
	return 0;
}

static void balance_start(struct balance_job *j, struct pp_run *r)
{
	FILE *mem;

	memset(j, 0, sizeof(*j));
	j->r = r;
	mem = open_memstream(&j->text, &j->len);
	if (!mem) {
		j->errors = check_balance(r, r->diag);
		return;
	}
	diag_init(&j->d, mem, r->diag->color);
	j->threaded = thrd_create(&j->thread, balance_run, j) == thrd_success;
	if (!j->threaded)
		balance_run(j);
}

static unsigned balance_join(struct balance_job *j)
{
	if (!j->d.out)
		return j->errors;
	if (j->threaded)
		thrd_join(j->thread, NULL);
	fclose(j->d.out);
	if (j->len)
		fwrite(j->text, 1, j->len, j->r->diag->out);
	j->r->diag->errors += j->d.errors;
	j->r->diag->warnings += j->d.warnings;
	free(j->text);
	return j->errors;
}

static struct point_map *build_map(struct pp_run *r, size_t *npoints)
{
	struct point_map *m = point_map_new();
	struct pp_stamp st;
	uint32_t id = 1;

	pp_stamp_init(&st);
	m->version = 1;
	m->generator = xstrdup("autotrace " PACKAGE_VERSION);
	for (size_t i = 0; i < r->nfiles; i++) {
		struct pp_file *f = &r->files[i];
		f->first_id = id;
		for (size_t k = 0; k < f->scan.nsites; k++) {
			const struct pp_site *s = &f->scan.sites[k];
			uint32_t ev;
			if (!site_valid(s))
				continue;
			ev = point_map_intern_label(m, s->label);
			point_map_add(m, id++, s->label, s->event, (int64_t)ev + 1, f->rel, s->line);
		}
		stamp_sites(&st, f->rel, &f->scan);
	}
	m->has_stamp = true;
	m->build_stamp = pp_stamp_value(&st);
	*npoints = id - 1;
	return m;
}

/* Writes the preprocessed files: into `batch` (in place: committed with the
 * map, all or nothing), or as copies under --out. */
static int write_tree(struct pp_run *r, const char *stamp_lit, struct edit_batch *batch)
{
	size_t k = 0;

	for (size_t i = 0; i < r->nall; i++) {
		const char *rel = r->all[i];
		char *src = path_join(r->o->tree, rel), *text;
		size_t len;
		int rc;
		if (k < r->nfiles && strcmp(r->files[k].rel, rel) == 0) {
			text = rewrite(&r->files[k], stamp_lit, &len);
			k++;
			rc = r->o->out ? write_copy(r->o->out, rel, src, text, len, r->diag)
				       : edit_batch_add(batch, src, text, len, r->diag);
			free(text);
		} else if (r->o->out) {
			/* copied byte for byte, not parsed: no size bound but the offsets' */
			struct src_file *f = src_file_load_max(src, SRC_FILE_MAX_LIMIT);
			if (!f) {
				diag_plain(r->diag, DIAG_ERROR, "cannot read '%s': %s", src, src_file_strerror(errno));
				rc = -1;
			} else {
				rc = write_copy(r->o->out, rel, src, f->data, f->len, r->diag);
				src_file_free(f);
			}
		} else {
			rc = 0;
		}
		free(src);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int pp_tree_stamp(const char *root, const char *prefix, uint64_t *stamp, struct diag *diag)
{
	char **all = NULL;
	size_t n = 0;
	struct pp_stamp st;
	struct pp_scan sc;
	int rc = -1;

	memset(&sc, 0, sizeof(sc));
	pp_stamp_init(&st);
	if (path_walk(root, &all, &n, diag) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char *path, *rel;
		struct src_file *f;
		if (!src_file_is_cxx_name(all[i]))
			continue;
		path = path_join(root, all[i]);
		f = src_file_load(path);
		if (!f) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
			free(path);
			goto out;
		}
		free(path);
		pp_scan_buffer(f->data, f->len, &sc);
		src_file_free(f);
		rel = prefix ? path_join(prefix, all[i]) : xstrdup(all[i]);
		stamp_sites(&st, rel, &sc);
		free(rel);
	}
	*stamp = pp_stamp_value(&st);
	rc = 0;
out:
	pp_scan_release(&sc);
	path_glob_free(all, n);
	return rc;
}

int preprocess_run(const struct pp_options *o, FILE *out, struct pp_result *res, struct diag *diag)
{
	struct pp_run r;
	struct point_map *m = NULL;
	char *map_path = NULL, stamp_lit[64];
	unsigned errors = 0, unbalanced;
	size_t npoints = 0, nwith = 0;
	int status = -1;
	bool findings = false;
	struct edit_lock *lock = NULL;
	struct stat st;

	memset(&r, 0, sizeof(r));
	memset(res, 0, sizeof(*res));
	r.o = o;
	r.diag = diag;
	if (stat(o->tree, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "preprocess: '%s' is not a directory", o->tree);
		return -1;
	}
	if (o->out && inside(o->tree, o->out)) {
		diag_plain(diag, DIAG_ERROR, "preprocess: --out '%s' is inside the source tree '%s'", o->out, o->tree);
		return -1;
	}
	/* in place, the tree is locked before it is read: a run interrupted
	 * there is completed (or rolled back) first, see edit_journal.h */
	if (o->in_place && !o->dry_run && !(lock = edit_lock_acquire(o->tree, "preprocess --in-place", diag)))
		return -1;
	if (path_walk(o->tree, &r.all, &r.nall, diag) != 0)
		goto out;
	if (scan_tree(&r, &errors) != 0)
		goto out;
	if (lock && edit_lock_completed(lock) && strcmp(edit_lock_completed(lock), "preprocess --in-place") == 0 &&
	    preprocessed_whole(&r)) {
		/* the journal finished what the killed run began: the tree and its
		 * map are what that run would have left */
		fprintf(out, "preprocess: the interrupted run on '%s' is complete now; nothing left to do\n", o->tree);
		status = 0;
		goto out;
	}
	if (refuse_preprocessed(&r) > 0)
		goto out;
	if (errors > 0) {
		diag_plain(diag, DIAG_ERROR, "preprocess: %u malformed trace point%s: nothing written", errors,
			   errors == 1 ? "" : "s");
		findings = true;
		goto out;
	}
	m = build_map(&r, &npoints);
	if (npoints > POINT_MAP_MAX_ID) {
		diag_plain(diag, DIAG_ERROR, "preprocess: %zu trace points, more than the %u a map can hold", npoints,
			   POINT_MAP_MAX_ID);
		goto out;
	}
	snprintf(stamp_lit, sizeof(stamp_lit), "0x%016" PRIx64 "ULL " PP_STAMP_TAG, m->build_stamp);
	map_path = o->map ? xstrdup(o->map) : path_join(o->out ? o->out : o->tree, "point_map.json");
	if (!o->dry_run && !o->out) {
		/* in place, the sources and the map are replaced together or not at
		 * all (no fsync: a build tree is rebuilt anyway); the pairing check
		 * runs while the temporary files are written, and a failure aborts
		 * the batch before anything is visible */
		struct edit_batch *batch = edit_batch_new(lock, EDIT_BATCH_NO_SYNC | EDIT_BATCH_READONLY_OK);
		struct balance_job job;
		int wrc;
		balance_start(&job, &r);
		wrc = write_tree(&r, stamp_lit, batch);
		if (wrc == 0) {
			size_t mlen;
			char *mtext = point_map_to_json(m, &mlen);
			/* --map names it: wherever it is */
			wrc = o->map ? edit_batch_add_given(batch, map_path, mtext, mlen, diag)
				     : edit_batch_add(batch, map_path, mtext, mlen, diag);
			free(mtext);
		}
		unbalanced = balance_join(&job);
		if (unbalanced > 0 && !o->force) {
			edit_batch_abort(batch);
			diag_plain(diag, DIAG_ERROR, "preprocess: %u pairing error%s: nothing written (--force writes anyway)",
				   unbalanced, unbalanced == 1 ? "" : "s");
			findings = true;
			goto out;
		}
		if (wrc == 0)
			wrc = edit_batch_commit(batch, diag);
		else
			edit_batch_abort(batch);
		if (wrc != 0) {
			status = -1; /* an unwritable tree or map: reported with its path */
			goto out;
		}
	} else {
		unbalanced = check_balance(&r, diag);
		if (unbalanced > 0 && !o->force) {
			diag_plain(diag, DIAG_ERROR,
				   "preprocess: %u pairing error%s: nothing written (--force writes anyway)", unbalanced,
				   unbalanced == 1 ? "" : "s");
			findings = true;
			goto out;
		}
		if (!o->dry_run && (write_tree(&r, stamp_lit, NULL) != 0 || point_map_write(m, map_path, diag) != 0)) {
			status = -1; /* an unwritable copy or map: reported with its path */
			goto out;
		}
	}
	for (size_t i = 0; i < r.nfiles; i++) {
		if (r.files[i].npoints == 0)
			continue;
		nwith++;
		if (!o->quiet)
			fprintf(out, "  %s: %zu point%s\n", r.files[i].rel, r.files[i].npoints,
				r.files[i].npoints == 1 ? "" : "s");
	}
	fprintf(out, "preprocess: %zu point%s (%zu label%s) in %zu of %zu source files; build stamp %016" PRIx64
		     "; %s %s\n",
		npoints, npoints == 1 ? "" : "s", m->nlabels, m->nlabels == 1 ? "" : "s", nwith, r.nsources,
		m->build_stamp, o->dry_run ? "dry run, would write" : "map", map_path);
	if (npoints == 0)
		diag_plain(diag, DIAG_WARNING, "preprocess: no TRACE_POINT in the code of '%s'", o->tree);
	status = 0;
out:
	res->findings = findings;
	if (status == 0 && m) {
		res->npoints = npoints;
		res->nlabels = m->nlabels;
		res->stamp = m->build_stamp;
	}
	free(map_path);
	point_map_free(m);
	run_release(&r);
	edit_lock_release(lock);
	return status;
}
