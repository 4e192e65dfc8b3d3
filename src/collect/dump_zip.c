/* The zip records of a .pt dump, walked to say where it is damaged and
 * whether they agree on what each entry holds. See dump_zip.h. Record layouts (PKWARE APPNOTE 6.3): local file header
 * "PK\3\4" (30 bytes + name + extra), data descriptor "PK\7\8" (crc and
 * sizes: 16 bytes, 24 with zip64 sizes), central directory header "PK\1\2"
 * (46 bytes + name + extra + comment), zip64 end record "PK\6\6" and its
 * locator "PK\6\7", end of central directory record "PK\5\6" (22 bytes +
 * comment). torch.save writes stored entries with data descriptors and
 * zip64 end records. */
#define _GNU_SOURCE /* memmem(3) */
#include "dump_zip.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#define EOCD_LEN 22
#define EOCD_SEARCH (EOCD_LEN + 65535)
#define MAX_ENTRIES 100000u

static bool rd(const struct zip_bytes *zb, uint64_t off, void *buf, size_t n)
{
	size_t got = 0;

	if (off > zb->size || n > zb->size - off)
		return false;
	if (zb->mem) {
		memcpy(buf, zb->mem + off, n);
		return true;
	}
	while (got < n) {
		ssize_t r = pread(zb->fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static uint64_t le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static bool say(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool say(char *msg, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, cap, fmt, ap);
	va_end(ap);
	return true;
}

/* A name for messages: at most 200 bytes, non-printable bytes as '?'.
 * False (and "") when the file ends before the name does. */
static bool shown_name(const struct zip_bytes *zb, uint64_t at, size_t len, char *out)
{
	size_t n = len < 200 ? len : 200;

	out[0] = '\0';
	if (!rd(zb, at, out, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] == 0x7f)
			out[i] = '?';
	out[n] = '\0';
	return at + len <= zb->size;
}

/* ---- a file without its end record: where does it stop? ---- */

/* The data descriptor of an entry whose data starts at `data`: the first
 * "PK\7\8" whose compressed size is its distance from `data`. Its offset
 * and length in *at, *len; false when the file ends before one. */
static bool find_descriptor(const struct zip_bytes *zb, uint64_t data, uint64_t *at, unsigned *len)
{
	enum { CHUNK = 1 << 16 };
	unsigned char *buf = xmalloc(CHUNK + 24);
	uint64_t off = data;
	bool found = false;

	while (!found && off < zb->size) {
		size_t n = zb->size - off < CHUNK + 24 ? (size_t)(zb->size - off) : CHUNK + 24;
		const unsigned char *p = buf, *end;
		if (!rd(zb, off, buf, n))
			break;
		end = buf + n;
		while (!found && (p = memmem(p, (size_t)(end - p), "PK\7\10", 4)) != NULL) {
			uint64_t dist = off + (uint64_t)(p - buf) - data;
			if (end - p >= 16 && le(p + 8, 4) == dist) {
				*at = off + (uint64_t)(p - buf);
				*len = 16;
				found = true;
			} else if (end - p >= 24 && le(p + 8, 8) == dist) {
				*at = off + (uint64_t)(p - buf);
				*len = 24;
				found = true;
			} else {
				p++;
			}
		}
		if (n < CHUNK + 24)
			break;
		off += CHUNK;
	}
	free(buf);
	return found;
}

/* The entries are all there; the file ends in the records after them. */
static bool cut_in_directory(const struct zip_bytes *zb, uint64_t off, char *msg, size_t cap)
{
	unsigned char h[46];
	char name[208];
	const unsigned long long size = (unsigned long long)zb->size;

	for (unsigned k = 0; k < MAX_ENTRIES && off < zb->size; k++) {
		if (!rd(zb, off, h, 4))
			break;
		if (memcmp(h, "PK\1\2", 4) == 0) {
			uint64_t n;
			if (!rd(zb, off, h, 46))
				return say(msg, cap, "the file ends at byte %llu, inside a central directory entry (from byte "
					   "%llu): cut short (truncated?)", size, (unsigned long long)off);
			n = le(h + 28, 2);
			if (!shown_name(zb, off + 46, (size_t)n, name) || off + 46 + n + le(h + 30, 2) + le(h + 32, 2) > zb->size)
				return say(msg, cap, "the file ends at byte %llu, inside the central directory entry %s%s%s(from "
					   "byte %llu): cut short (truncated?)", size, name[0] ? "of '" : "", name,
					   name[0] ? "' " : "", (unsigned long long)off);
			off += 46 + n + le(h + 30, 2) + le(h + 32, 2);
		} else if (memcmp(h, "PK\6\6", 4) == 0) {
			if (!rd(zb, off + 4, h, 8) || off + 12 + le(h, 8) > zb->size)
				return say(msg, cap, "the file ends at byte %llu, inside the zip64 end record (from byte %llu): "
					   "cut short (truncated?)", size, (unsigned long long)off);
			off += 12 + le(h, 8);
		} else if (memcmp(h, "PK\6\7", 4) == 0) {
			if (off + 20 > zb->size)
				return say(msg, cap, "the file ends at byte %llu, inside the zip64 end locator (from byte %llu): "
					   "cut short (truncated?)", size, (unsigned long long)off);
			off += 20;
		} else if (memcmp(h, "PK\5\6", 4) == 0) {
			return say(msg, cap, "the file ends at byte %llu, inside the end record (from byte %llu): cut short "
				   "(truncated?)", size, (unsigned long long)off);
		} else {
			return say(msg, cap, "no zip record at byte %llu (found %02x %02x %02x %02x), and no end record: "
				   "corrupt", (unsigned long long)off, h[0], h[1], h[2], h[3]);
		}
	}
	return say(msg, cap, "the file ends at byte %llu, after the central directory and before its end record: cut "
		   "short (truncated?)", size);
}

static bool diagnose_cut(const struct zip_bytes *zb, char *msg, size_t cap)
{
	uint64_t off = 0;
	unsigned char h[30];
	char name[208];

	for (unsigned k = 0; k < MAX_ENTRIES; k++) {
		uint64_t data, next;
		size_t nlen;
		unsigned flags;
		if (off == zb->size)
			return say(msg, cap, "the file ends at byte %llu, after its last entry and before the central "
				   "directory: cut short (truncated?)", (unsigned long long)zb->size);
		if (!rd(zb, off, h, 4))
			return say(msg, cap, "the file ends at byte %llu, inside a record that starts at byte %llu: cut "
				   "short (truncated?)", (unsigned long long)zb->size, (unsigned long long)off);
		if (memcmp(h, "PK\1\2", 4) == 0 || memcmp(h, "PK\6\6", 4) == 0 || memcmp(h, "PK\6\7", 4) == 0 ||
		    memcmp(h, "PK\5\6", 4) == 0)
			return cut_in_directory(zb, off, msg, cap);
		if (memcmp(h, "PK\3\4", 4) != 0) {
			if (off == 0)
				return say(msg, cap, "no zip signature at byte 0 (it starts with %02x %02x %02x %02x)", h[0],
					   h[1], h[2], h[3]);
			return say(msg, cap, "no zip record at byte %llu (found %02x %02x %02x %02x), and no end record: "
				   "corrupt", (unsigned long long)off, h[0], h[1], h[2], h[3]);
		}
		if (!rd(zb, off, h, 30))
			return say(msg, cap, "the file ends at byte %llu, inside the header of an entry (from byte %llu): "
				   "cut short (truncated?)", (unsigned long long)zb->size, (unsigned long long)off);
		flags = (unsigned)le(h + 6, 2);
		nlen = (size_t)le(h + 26, 2);
		data = off + 30 + nlen + le(h + 28, 2);
		if (!shown_name(zb, off + 30, nlen, name))
			return say(msg, cap, "the file ends at byte %llu, inside the header of an entry (from byte %llu): cut "
				   "short (truncated?)", (unsigned long long)zb->size, (unsigned long long)off);
		if (data > zb->size)
			return say(msg, cap, "the file ends at byte %llu, inside the header of entry '%s' (from byte %llu): "
				   "cut short (truncated?)", (unsigned long long)zb->size, name, (unsigned long long)off);
		if ((flags & 8) && (le(h + 18, 4) == 0 || le(h + 18, 4) == 0xFFFFFFFFu)) {
			uint64_t at;
			unsigned dlen;
			if (!find_descriptor(zb, data, &at, &dlen))
				return say(msg, cap, "the file ends at byte %llu, inside the data of entry '%s' (from byte "
					   "%llu): cut short (truncated?)", (unsigned long long)zb->size, name,
					   (unsigned long long)data);
			next = at + dlen;
		} else {
			next = data + le(h + 18, 4) + ((flags & 8) ? 16 : 0);
			if (next > zb->size)
				return say(msg, cap, "the file ends at byte %llu, inside the data of entry '%s' (%llu bytes "
					   "from byte %llu): cut short (truncated?)", (unsigned long long)zb->size, name,
					   (unsigned long long)le(h + 18, 4), (unsigned long long)data);
		}
		off = next;
	}
	return say(msg, cap, "more than %u entries: not a profiling dump", MAX_ENTRIES);
}

/* ---- the central directory ---- */

struct cd {
	uint64_t off, size, entries, end; /* end: where the zip64 or classic end record starts */
};

/* Finds and checks the end records. 1: *cd filled; 0: msg says what is
 * wrong; -1: no end record at all. */
static int find_cd(const struct zip_bytes *zb, struct cd *cd, char *msg, size_t cap)
{
	size_t n = zb->size < EOCD_SEARCH ? (size_t)zb->size : EOCD_SEARCH;
	unsigned char *tail = xmalloc(n + 1), r[56];
	uint64_t base = zb->size - n, e = UINT64_MAX;

	if (n < EOCD_LEN || !rd(zb, base, tail, n)) {
		free(tail);
		return -1;
	}
	/* the last signature whose comment ends the file */
	for (size_t i = n - EOCD_LEN + 1; i-- > 0;)
		if (memcmp(tail + i, "PK\5\6", 4) == 0 && base + i + EOCD_LEN + le(tail + i + 20, 2) == zb->size) {
			e = base + i;
			break;
		}
	if (e == UINT64_MAX) {
		free(tail);
		return -1;
	}
	memcpy(r, tail + (e - base), EOCD_LEN);
	free(tail);
	cd->entries = le(r + 10, 2);
	cd->size = le(r + 12, 4);
	cd->off = le(r + 16, 4);
	cd->end = e;
	if (cd->entries == 0xFFFF || cd->size == 0xFFFFFFFFu || cd->off == 0xFFFFFFFFu ||
	    (e >= 20 && rd(zb, e - 20, r, 20) && memcmp(r, "PK\6\7", 4) == 0)) {
		uint64_t z;
		if (e < 20 || !rd(zb, e - 20, r, 20) || memcmp(r, "PK\6\7", 4) != 0) {
			say(msg, cap, "the end record at byte %llu needs a zip64 locator before it, which is not there: "
			    "corrupt", (unsigned long long)e);
			return 0;
		}
		z = le(r + 8, 8);
		if (!rd(zb, z, r, 56) || memcmp(r, "PK\6\6", 4) != 0) {
			say(msg, cap, "the zip64 locator at byte %llu points to byte %llu, where there is no zip64 end "
			    "record: corrupt", (unsigned long long)(e - 20), (unsigned long long)z);
			return 0;
		}
		cd->entries = le(r + 32, 8);
		cd->size = le(r + 40, 8);
		cd->off = le(r + 48, 8);
		cd->end = z;
	}
	if (cd->off > cd->end || cd->size > cd->end - cd->off) {
		say(msg, cap, "the central directory (%llu bytes from byte %llu) runs past its end record at byte %llu: "
		    "truncated or corrupt", (unsigned long long)cd->size, (unsigned long long)cd->off,
		    (unsigned long long)cd->end);
		return 0;
	}
	if (cd->entries > MAX_ENTRIES) {
		say(msg, cap, "the end record at byte %llu announces %llu entries: corrupt", (unsigned long long)e,
		    (unsigned long long)cd->entries);
		return 0;
	}
	return 1;
}

struct entry {
	uint64_t at, data, csize, usize, lho;
	uint32_t crc;
	size_t nlen;
	char name[208];
};

/* Central directory entry at *p (advanced past it). True, or false with msg. */
static bool read_entry(const struct zip_bytes *zb, const struct cd *cd, uint64_t *p, struct entry *e, char *msg,
		       size_t cap)
{
	unsigned char h[46], x[4];
	uint64_t elen, clen;

	e->at = *p;
	if (*p + 46 > cd->off + cd->size || !rd(zb, *p, h, 46) || memcmp(h, "PK\1\2", 4) != 0)
		return !say(msg, cap, "central directory entry at byte %llu is corrupt (no PK\\1\\2 signature)",
			    (unsigned long long)*p);
	e->nlen = (size_t)le(h + 28, 2);
	elen = le(h + 30, 2);
	clen = le(h + 32, 2);
	e->crc = (uint32_t)le(h + 16, 4);
	e->csize = le(h + 20, 4);
	e->usize = le(h + 24, 4);
	e->lho = le(h + 42, 4);
	if (*p + 46 + e->nlen + elen + clen > cd->off + cd->size)
		return !say(msg, cap, "central directory entry at byte %llu runs past the directory: corrupt",
			    (unsigned long long)*p);
	shown_name(zb, *p + 46, e->nlen, e->name);
	/* zip64 extra field: the sizes and offset that did not fit */
	for (uint64_t q = *p + 46 + e->nlen, qe = q + elen; q + 4 <= qe;) {
		uint64_t id, len, f;
		if (!rd(zb, q, x, 4))
			break;
		id = le(x, 2);
		len = le(x + 2, 2);
		if (id == 1) {
			unsigned char v[8];
			f = q + 4;
			if (e->usize == 0xFFFFFFFFu && f + 8 <= qe && rd(zb, f, v, 8)) {
				e->usize = le(v, 8);
				f += 8;
			}
			if (e->csize == 0xFFFFFFFFu && f + 8 <= qe && rd(zb, f, v, 8)) {
				e->csize = le(v, 8);
				f += 8;
			}
			if (e->lho == 0xFFFFFFFFu && f + 8 <= qe && rd(zb, f, v, 8))
				e->lho = le(v, 8);
		}
		q += 4 + len;
	}
	*p += 46 + e->nlen + elen + clen;
	return true;
}

/* The local header of `e`: sets e->data. True, or false with msg. */
static bool check_local(const struct zip_bytes *zb, const struct cd *cd, struct entry *e, char *msg, size_t cap)
{
	unsigned char h[30];
	char lname[208];
	size_t lnlen;

	if (!rd(zb, e->lho, h, 30) || memcmp(h, "PK\3\4", 4) != 0)
		return !say(msg, cap, "entry '%s' (central directory byte %llu) points to byte %llu, where there is no "
			    "local header: corrupt", e->name, (unsigned long long)e->at, (unsigned long long)e->lho);
	lnlen = (size_t)le(h + 26, 2);
	shown_name(zb, e->lho + 30, lnlen, lname);
	if (lnlen != e->nlen || strcmp(lname, e->name) != 0)
		return !say(msg, cap, "entry '%s' (central directory byte %llu): its local header at byte %llu names "
			    "'%s': corrupt", e->name, (unsigned long long)e->at, (unsigned long long)e->lho, lname);
	e->data = e->lho + 30 + lnlen + le(h + 28, 2);
	if (e->data > cd->off || e->csize > cd->off - e->data)
		return !say(msg, cap, "entry '%s' claims %llu bytes from byte %llu, past the central directory at byte "
			    "%llu: corrupt", e->name, (unsigned long long)e->csize, (unsigned long long)e->data,
			    (unsigned long long)cd->off);
	return true;
}

/* ---- the records of one entry against each other ---- */

/* Do the `n` bytes `d` of a data descriptor (its signature optional, its
 * sizes of 4 or 8 bytes: writers differ) give the CRC-32 and sizes of `e`? */
static bool descriptor_agrees(const unsigned char *d, size_t n, const struct entry *e)
{
	for (size_t skip = 0; skip <= 4; skip += 4) {
		const unsigned char *p = d + skip;
		if (skip && memcmp(d, "PK\7\10", 4) != 0)
			break;
		if (n >= skip + 12 && le(p, 4) == e->crc && le(p + 4, 4) == e->csize && le(p + 8, 4) == e->usize)
			return true;
		if (n >= skip + 20 && le(p, 4) == e->crc && le(p + 4, 8) == e->csize && le(p + 12, 8) == e->usize)
			return true;
	}
	return false;
}

/* The local header of `e` (read by check_local) and, when it says the
 * CRC-32 and sizes follow the data, its data descriptor: they must give
 * what the central directory gives, which is what the entry is read by. */
static bool check_declared(const struct zip_bytes *zb, const struct cd *cd, const struct entry *e, char *msg,
			   size_t cap)
{
	unsigned char h[30], d[24];
	uint64_t at = e->data + e->csize;
	size_t n;

	if (!rd(zb, e->lho, h, 30))
		return !say(msg, cap, "entry '%s': its local header at byte %llu cannot be read: corrupt", e->name,
			    (unsigned long long)e->lho);
	if (!(le(h + 6, 2) & 8)) {
		/* sizes of 0xFFFFFFFF are in the local zip64 field: only the CRC-32 is compared then */
		bool sizes = le(h + 18, 4) != 0xFFFFFFFFu && le(h + 22, 4) != 0xFFFFFFFFu;
		if (le(h + 14, 4) != e->crc || (sizes && (le(h + 18, 4) != e->csize || le(h + 22, 4) != e->usize)))
			return !say(msg, cap, "entry '%s': its local header at byte %llu gives CRC-32 %08llx and %llu "
				    "bytes (%llu stored), the central directory %08lx and %llu bytes (%llu stored): "
				    "corrupt", e->name, (unsigned long long)e->lho, (unsigned long long)le(h + 14, 4),
				    (unsigned long long)le(h + 22, 4), (unsigned long long)le(h + 18, 4),
				    (unsigned long)e->crc, (unsigned long long)e->usize, (unsigned long long)e->csize);
		return true;
	}
	/* the descriptor lies between the data and the central directory */
	n = cd->off - at < sizeof(d) ? (size_t)(cd->off - at) : sizeof(d);
	if (n < 12 || !rd(zb, at, d, n))
		return !say(msg, cap, "entry '%s': its data ends at byte %llu, where its data descriptor should be, and "
			    "the central directory starts %llu bytes later: corrupt", e->name, (unsigned long long)at,
			    (unsigned long long)(cd->off - at));
	if (!descriptor_agrees(d, n, e)) {
		const unsigned char *p = memcmp(d, "PK\7\10", 4) == 0 && n >= 16 ? d + 4 : d;
		return !say(msg, cap, "entry '%s': its data descriptor at byte %llu gives CRC-32 %08llx and %llu bytes "
			    "(%llu stored), the central directory %08lx and %llu bytes (%llu stored): corrupt", e->name,
			    (unsigned long long)at, (unsigned long long)le(p, 4), (unsigned long long)le(p + 8, 4),
			    (unsigned long long)le(p + 4, 4), (unsigned long)e->crc, (unsigned long long)e->usize,
			    (unsigned long long)e->csize);
	}
	return true;
}

/* Each entry of the directory: its central directory entry and its local
 * header, and with `declared` what its records declare (check_declared).
 * True, with msg, at the first that is wrong; else false, and *end where
 * the entries end. */
static bool entry_wrong(const struct zip_bytes *zb, const struct cd *cd, bool declared, uint64_t *end, char *msg,
			size_t cap)
{
	struct entry e;
	uint64_t p = cd->off;

	for (uint64_t k = 0; k < cd->entries; k++) {
		if (!read_entry(zb, cd, &p, &e, msg, cap) || !check_local(zb, cd, &e, msg, cap) ||
		    (declared && !check_declared(zb, cd, &e, msg, cap)))
			return true;
	}
	*end = p;
	return false;
}

bool dump_zip_diagnose(const struct zip_bytes *zb, char *msg, size_t cap)
{
	struct cd cd;
	uint64_t p;
	int rc;

	if (zb->size == 0)
		return say(msg, cap, "empty file");
	rc = find_cd(zb, &cd, msg, cap);
	if (rc < 0)
		return diagnose_cut(zb, msg, cap);
	if (rc == 0)
		return true;
	if (entry_wrong(zb, &cd, false, &p, msg, cap))
		return true;
	if (p != cd.off + cd.size)
		return say(msg, cap, "the central directory holds %llu bytes after its %llu entries (from byte %llu): "
			   "corrupt", (unsigned long long)(cd.off + cd.size - p), (unsigned long long)cd.entries,
			   (unsigned long long)p);
	return false;
}

bool dump_zip_check_declared(const struct zip_bytes *zb, char *msg, size_t cap)
{
	struct cd cd;
	uint64_t end;

	if (find_cd(zb, &cd, msg, cap) != 1)
		return false; /* libzip opened it: nothing to add */
	return entry_wrong(zb, &cd, true, &end, msg, cap);
}

bool dump_zip_entry_span(const struct zip_bytes *zb, const char *name, uint64_t *off, uint64_t *len)
{
	struct cd cd;
	struct entry e;
	char msg[8];
	uint64_t p;

	if (find_cd(zb, &cd, msg, sizeof(msg)) != 1)
		return false;
	p = cd.off;
	for (uint64_t k = 0; k < cd.entries; k++) {
		if (!read_entry(zb, &cd, &p, &e, msg, sizeof(msg)))
			return false;
		if (strcmp(e.name, name) == 0) {
			if (!check_local(zb, &cd, &e, msg, sizeof(msg)))
				return false;
			*off = e.data;
			*len = e.csize;
			return true;
		}
	}
	return false;
}
