/* The .pt reader: a torch.save zip archive (libzip) holding data.pkl and the
 * raw little-endian storages data/<key>. The pickle (dump_pickle.c) gives a
 * tensor or a list / tuple / dict of tensors; each tensor is checked against
 * its storage (dtype, size, contiguous strides, offset) and copied out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zip.h>
#include <zlib.h>

#include "dump.h"
#include "dump_pickle.h"
#include "dump_zip.h"
#include "xalloc.h"

/* Container nesting followed in the pickle result (lists of lists of tensors). */
#define PT_MAX_NESTING 4

struct pt_storage {
	const char *key;
	unsigned char *data;
	size_t len;
};

struct pt_reader {
	const char *path;
	struct diag *diag;
	const struct zip_bytes *zb;      /* the raw archive, for locating entries in messages */
	zip_t *zip;
	char *prefix;                    /* "rank000/" before data.pkl, or "" */
	struct pt_storage *storages;
	size_t nstorages, capstorages;
	struct dump *out;
	uint64_t archive_bytes;          /* size of the archive itself: bounds what entries may claim */
};

/* " (N bytes from byte X)" for entry `name`, or "" when it cannot be found. */
static void entry_where(const struct pt_reader *r, const char *name, char *out, size_t cap)
{
	uint64_t off, len;

	if (dump_zip_entry_span(r->zb, name, &off, &len))
		snprintf(out, cap, " (%llu bytes from byte %llu)", (unsigned long long)len, (unsigned long long)off);
	else
		out[0] = '\0';
}

/* An entry libzip could not read: the damaged record when the zip records
 * show one (a flipped offset makes libzip read garbage and blame the CRC),
 * else libzip's reason at the entry's bytes. */
static void entry_corrupt(const struct pt_reader *r, const char *name, const char *what, const char *why)
{
	char where[64], msg[320];

	if (dump_zip_diagnose(r->zb, msg, sizeof(msg))) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "not a readable torch.save archive: %s", msg);
		return;
	}
	entry_where(r, name, where, sizeof(where));
	diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "archive entry '%s'%s %s: %s", name, where, what, why);
}

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);

	while (n > 0) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		c = crc32(c, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)c;
}

static int read_entry(struct pt_reader *r, zip_int64_t idx, const char *name, unsigned char **data, size_t *len)
{
	zip_stat_t st;
	zip_file_t *f;
	unsigned char *buf;
	zip_uint64_t got = 0;

	if (zip_stat_index(r->zip, (zip_uint64_t)idx, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "cannot stat archive entry '%s': %s", name,
			 zip_strerror(r->zip));
		return -1;
	}
	/* an entry's data lies inside the archive: a stored entry cannot be larger
	 * than the archive, a compressed one not more than 1024 times larger */
	if (st.size > DUMP_MAX_BYTES || st.size / 1024 > r->archive_bytes ||
	    ((st.valid & ZIP_STAT_COMP_SIZE) && st.comp_size > r->archive_bytes) ||
	    ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE && st.size > r->archive_bytes) ||
	    ((st.valid & ZIP_STAT_COMP_SIZE) && st.comp_method != ZIP_CM_STORE && st.size / 1024 > st.comp_size)) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "archive entry '%s' claims an implausible size (%llu bytes)",
			 name, (unsigned long long)st.size);
		return -1;
	}
	f = zip_fopen_index(r->zip, (zip_uint64_t)idx, 0);
	if (!f) {
		entry_corrupt(r, name, "cannot be opened", zip_strerror(r->zip));
		return -1;
	}
	buf = xmalloc((size_t)st.size + 1);
	while (got < st.size) {
		zip_int64_t n = zip_fread(f, buf + got, st.size - got);
		if (n < 0) {
			entry_corrupt(r, name, "is corrupt", zip_error_strerror(zip_file_get_error(f)));
			goto fail;
		}
		if (n == 0)
			break;
		got += (zip_uint64_t)n;
	}
	if (got != st.size) {
		char what[80];
		snprintf(what, sizeof(what), "is truncated (%llu of %llu bytes)", (unsigned long long)got,
			 (unsigned long long)st.size);
		entry_corrupt(r, name, what, "the archive ends first");
		goto fail;
	}
	/* libzip checks the CRC-32 at the end of what it inflates, and only
	 * there: a deflated entry whose stream runs on past its declared size,
	 * with a CRC-32 over all of it, would pass. The entry is its declared
	 * bytes: their CRC-32 must be the one declared (zipfile's "Bad CRC-32"
	 * otherwise), and the stream must end with them. */
	if ((st.valid & ZIP_STAT_CRC) && crc32_of(buf, (size_t)st.size) != st.crc) {
		entry_corrupt(r, name, "is corrupt", "CRC error");
		goto fail;
	}
	{
		unsigned char extra;
		zip_int64_t n = zip_fread(f, &extra, 1);
		char why[96];
		if (n < 0) {
			entry_corrupt(r, name, "is corrupt", zip_error_strerror(zip_file_get_error(f)));
			goto fail;
		}
		if (n > 0) {
			snprintf(why, sizeof(why), "its data runs on past the %llu bytes it declares",
				 (unsigned long long)st.size);
			entry_corrupt(r, name, "is corrupt", why);
			goto fail;
		}
	}
	zip_fclose(f);
	*data = buf;
	*len = (size_t)st.size;
	return 0;
fail:
	zip_fclose(f);
	free(buf);
	return -1;
}

static const struct pt_storage *load_storage(struct pt_reader *r, const char *key)
{
	char *name;
	zip_int64_t idx;
	struct pt_storage *s;

	for (size_t i = 0; i < r->nstorages; i++)
		if (strcmp(r->storages[i].key, key) == 0)
			return &r->storages[i];
	name = xmalloc(strlen(r->prefix) + strlen(key) + 8);
	sprintf(name, "%sdata/%s", r->prefix, key);
	idx = zip_name_locate(r->zip, name, 0);
	if (idx < 0) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "the archive has no entry '%s' for storage '%s'", name, key);
		free(name);
		return NULL;
	}
	XGROW(r->storages, r->capstorages, r->nstorages + 1);
	s = &r->storages[r->nstorages];
	s->key = key;
	if (read_entry(r, idx, name, &s->data, &s->len) != 0) {
		free(name);
		return NULL;
	}
	free(name);
	r->nstorages++;
	return s;
}

static int take_tensor(struct pt_reader *r, const struct pickle_value *t, const char *name)
{
	const struct pickle_value *st = t->storage;
	const struct pt_storage *s;
	uint64_t numel = 1, rows = 1, cols, expect;
	int64_t *words;
	const char *shown = name[0] ? name : "the tensor";

	if (st->elem_bytes == 0) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
			 "%s is a %s tensor; profiling dumps are int64 (torch.LongStorage) or int32", shown,
			 st->storage_type);
		return -1;
	}
	if (t->ndim == 0) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "%s is a scalar, not a profiling tensor", shown);
		return -1;
	}
	for (size_t i = 0; i < t->ndim; i++) {
		if (t->shape[i] < 0 || (t->shape[i] > 0 && numel > DUMP_MAX_BYTES / (uint64_t)t->shape[i])) {
			diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "%s has an invalid shape", shown);
			return -1;
		}
		numel *= (uint64_t)t->shape[i];
	}
	/* contiguous row-major only: that is what torch.save of a profiling tensor gives */
	expect = 1;
	for (size_t i = t->ndim; i-- > 0;) {
		if (t->shape[i] != 1 && t->stride[i] != (int64_t)expect) {
			diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
				 "%s is not contiguous (save tensor.contiguous() instead)", shown);
			return -1;
		}
		expect *= (uint64_t)t->shape[i];
	}
	if (t->offset < 0 || (uint64_t)t->offset > st->numel || numel > st->numel - (uint64_t)t->offset) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "%s lies outside its storage (offset %lld, %llu of %llu elements)",
			 shown, (long long)t->offset, (unsigned long long)numel, (unsigned long long)st->numel);
		return -1;
	}
	s = load_storage(r, st->s);
	if (!s)
		return -1;
	if (s->len / (size_t)st->elem_bytes < st->numel) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
			 "storage '%s' holds %zu bytes, fewer than its %llu elements need (truncated dump?)", st->s, s->len,
			 (unsigned long long)st->numel);
		return -1;
	}
	cols = (uint64_t)t->shape[t->ndim - 1];
	rows = cols ? numel / cols : 0;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (st->elem_bytes == 8) {
		/* the storage is what the tensor needs: point into it (malloc aligns it) */
		struct dump_tensor *dt = dump_add_tensor(r->out, name, 8, t->ndim, (size_t)rows, (size_t)cols,
							 (int64_t *)(void *)(s->data + (size_t)t->offset * 8));
		dt->borrowed = true;
		return 0;
	}
#endif
	words = xmalloc((size_t)numel * sizeof(int64_t));
	dump_words_le(words, s->data + (size_t)t->offset * (size_t)st->elem_bytes, (size_t)numel, st->elem_bytes);
	dump_add_tensor(r->out, name, st->elem_bytes, t->ndim, (size_t)rows, (size_t)cols, words);
	return 0;
}

static int walk(struct pt_reader *r, const struct pickle_value *v, const char *name, int depth)
{
	char sub[256];

	if (v->kind == PK_TENSOR)
		return take_tensor(r, v, name);
	if (depth >= PT_MAX_NESTING) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "%s: containers nested too deep", name);
		return -1;
	}
	if (v->kind == PK_LIST || v->kind == PK_TUPLE) {
		r->out->is_list = true;
		for (size_t i = 0; i < v->n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", name, i);
			if (walk(r, v->items[i], sub, depth + 1) != 0)
				return -1;
		}
		return 0;
	}
	if (v->kind == PK_DICT) {
		r->out->is_list = true;
		for (size_t i = 0; i + 1 < v->n; i += 2) {
			const struct pickle_value *k = v->items[i];
			if (k->kind == PK_STR)
				snprintf(sub, sizeof(sub), "%s['%.64s']", name, k->s);
			else if (k->kind == PK_INT)
				snprintf(sub, sizeof(sub), "%s[%lld]", name, (long long)k->i);
			else
				snprintf(sub, sizeof(sub), "%s[?]", name);
			if (walk(r, v->items[i + 1], sub, depth + 1) != 0)
				return -1;
		}
		return 0;
	}
	diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
		 "%s holds something other than a tensor (a dump is an int64 tensor, or a list, tuple or dict of them)",
		 name[0] ? name : "the file");
	return -1;
}

static int find_pickle(struct pt_reader *r, zip_int64_t *idx)
{
	zip_int64_t n = zip_get_num_entries(r->zip, 0);

	*idx = -1;
	for (zip_int64_t i = 0; i < n; i++) {
		const char *name = zip_get_name(r->zip, (zip_uint64_t)i, 0);
		const char *slash;
		size_t len;
		if (!name)
			continue;
		len = strlen(name);
		slash = strchr(name, '/');
		if (strcmp(name, "data.pkl") == 0 ||
		    (len > 9 && strcmp(name + len - 9, "/data.pkl") == 0 && slash == name + len - 9)) {
			if (*idx >= 0) {
				diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "the archive holds more than one data.pkl");
				return -1;
			}
			*idx = i;
			r->prefix = xstrndup(name, len - 8);
		}
	}
	if (*idx < 0) {
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
			 "a zip archive without data.pkl: not written by torch.save");
		return -1;
	}
	return 0;
}

/* Reads the open archive `zip` (closed here) into `out`. */
static int read_archive(const char *path, zip_t *zip, const struct zip_bytes *zb, struct dump *out,
			struct diag *diag)
{
	struct pt_reader r = { path, diag, zb, zip, NULL, NULL, 0, 0, out, zb->size };
	zip_int64_t pkl_idx;
	unsigned char *pkl = NULL;
	size_t pkl_len = 0;
	struct pickle *pk = NULL;
	char err[256];
	int rc = -1;

	/* libzip reads each entry by its central directory entry alone */
	if (dump_zip_check_declared(zb, err, sizeof(err))) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a readable torch.save archive: %s", err);
		goto out;
	}
	if (find_pickle(&r, &pkl_idx) != 0)
		goto out;
	{
		char *bo_name = xmalloc(strlen(r.prefix) + 10);
		zip_int64_t bo;
		sprintf(bo_name, "%sbyteorder", r.prefix);
		bo = zip_name_locate(r.zip, bo_name, 0);
		free(bo_name);
		if (bo >= 0) {
			unsigned char *order;
			size_t olen;
			if (read_entry(&r, bo, zip_get_name(r.zip, (zip_uint64_t)bo, 0), &order, &olen) != 0)
				goto out;
			if (!(olen == 6 && memcmp(order, "little", 6) == 0)) {
				diag_pos(diag, DIAG_ERROR, path, 0, 0, "storages are not little-endian");
				free(order);
				goto out;
			}
			free(order);
		}
	}
	if (read_entry(&r, pkl_idx, zip_get_name(r.zip, (zip_uint64_t)pkl_idx, 0), &pkl, &pkl_len) != 0)
		goto out;
	pk = pickle_run(pkl, pkl_len, err, sizeof(err));
	if (!pk) {
		/* the pickle's offset, and the file's: "pickle offset N: ..." */
		char name[300];
		uint64_t at, n;
		const char *rest = err;
		unsigned long long po = 0;
		snprintf(name, sizeof(name), "%sdata.pkl", r.prefix);
		if (sscanf(err, "pickle offset %llu: ", &po) == 1 && (rest = strstr(err, ": ")) != NULL)
			rest += 2;
		else
			rest = err;
		if (dump_zip_entry_span(zb, name, &at, &n))
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "%s at byte %llu (pickle offset %llu): %s", name,
				 (unsigned long long)(at + po), po, rest);
		else
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "%s, pickle offset %llu: %s", name, po, rest);
		goto out;
	}
	if (walk(&r, pickle_result(pk), "", 0) != 0)
		goto out;
	if (out->ntensors == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "the file holds no tensor");
		goto out;
	}
	rc = 0;
out:
	pickle_free(pk);
	free(pkl);
	/* the storages stay alive with the dump: its tensors may point into them */
	out->blobs = xrealloc(out->blobs, (out->nblobs + r.nstorages + 1) * sizeof(*out->blobs));
	for (size_t i = 0; i < r.nstorages; i++)
		out->blobs[out->nblobs++] = r.storages[i].data;
	free(r.storages);
	free(r.prefix);
	zip_discard(r.zip);
	return rc;
}

/* libzip could not open the archive: the located reason, when the records
 * show one, else libzip's. */
static void open_failed(const char *path, const struct zip_bytes *zb, const char *libzip_says, struct diag *diag)
{
	char why[320];

	if (dump_zip_diagnose(zb, why, sizeof(why)))
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a readable torch.save archive: %s", why);
	else
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a readable torch.save archive (truncated or corrupt?): %s",
			 libzip_says);
}

int dump_pt_read_mem(const char *path, const void *data, size_t len, struct dump *out, struct diag *diag)
{
	struct zip_bytes zb = { data, -1, len };
	zip_error_t zerr;
	zip_source_t *src;
	zip_t *zip;

	zip_error_init(&zerr);
	src = zip_source_buffer_create(data, len, 0, &zerr);
	if (!src) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read archive: %s", zip_error_strerror(&zerr));
		zip_error_fini(&zerr);
		return -1;
	}
	zip = zip_open_from_source(src, ZIP_RDONLY, &zerr);
	if (!zip) {
		zip_source_free(src);
		open_failed(path, &zb, zip_error_strerror(&zerr), diag);
		zip_error_fini(&zerr);
		return -1;
	}
	zip_error_fini(&zerr);
	return read_archive(path, zip, &zb, out, diag);
}

int dump_pt_read_fd(const char *path, int fd, uint64_t size, struct dump *out, struct diag *diag)
{
	struct zip_bytes zb = { NULL, fd, size };
	int zerr = 0, own = dup(fd);
	zip_t *zip = own >= 0 ? zip_fdopen(own, ZIP_RDONLY, &zerr) : NULL;

	if (!zip) {
		zip_error_t e;
		if (own >= 0)
			close(own);
		zip_error_init_with_code(&e, zerr);
		open_failed(path, &zb, zip_error_strerror(&e), diag);
		zip_error_fini(&e);
		return -1;
	}
	return read_archive(path, zip, &zb, out, diag);
}
