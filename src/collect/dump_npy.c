/* The .npy reader (numpy format 1.0 - 3.0): the magic, a Python-literal
 * header dict giving dtype, order and shape, then the raw array. Only
 * little-endian int64 / int32 arrays in C order are profiling dumps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "xalloc.h"

#define NPY_MAX_DIMS 8

/* The value text after 'key': in the header dict, or NULL. */
static const char *header_value(const char *h, size_t hlen, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i + klen + 2 < hlen; i++) {
		if ((h[i] == '\'' || h[i] == '"') && memcmp(h + i + 1, key, klen) == 0 && h[i + 1 + klen] == h[i]) {
			size_t j = i + klen + 2;
			while (j < hlen && h[j] == ' ')
				j++;
			if (j < hlen && h[j] == ':') {
				j++;
				while (j < hlen && h[j] == ' ')
					j++;
				return h + j;
			}
		}
	}
	return NULL;
}

int dump_npy_read_mem(const char *path, const void *data, size_t len, struct dump *out, struct diag *diag)
{
	const unsigned char *b = data;
	const char *h, *v, *hend;
	size_t hlen, hstart, ndim = 0, numel = 1, rows, cols;
	uint64_t shape[NPY_MAX_DIMS];
	int elem_bytes;
	int64_t *words;

	if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a .npy file (no \\x93NUMPY magic%s)",
			 len < 10 ? ", file too short" : "");
		return -1;
	}
	if (b[6] == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		hstart = 10;
	} else if (b[6] == 2 || b[6] == 3) {
		if (len < 12) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "truncated .npy header");
			return -1;
		}
		hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		hstart = 12;
	} else {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, ".npy format version %u.%u is not supported", b[6], b[7]);
		return -1;
	}
	if (hlen > len - hstart) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "truncated .npy header (%zu bytes announced, %zu present)", hlen,
			 len - hstart);
		return -1;
	}
	h = (const char *)b + hstart;
	hend = h + hlen;
	v = header_value(h, hlen, "descr");
	if (!v || hend - v < 5) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, ".npy header has no 'descr'");
		return -1;
	}
	if (memcmp(v, "'<i8'", 5) == 0 || memcmp(v, "'<u8'", 5) == 0) {
		elem_bytes = 8;
	} else if (memcmp(v, "'<i4'", 5) == 0) {
		elem_bytes = 4;
	} else {
		const char *q = memchr(v + 1, v[0], (size_t)(hend - v - 1));
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "array dtype %.*s: profiling dumps are little-endian int64 ('<i8') or int32 ('<i4')",
			 q ? (int)(q - v + 1) : 8, v);
		return -1;
	}
	v = header_value(h, hlen, "fortran_order");
	if (!v || (size_t)(hend - v) < 4 || memcmp(v, "True", 4) == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "%s", v ? "Fortran-order arrays are not read (save a C-order array)"
							       : ".npy header has no 'fortran_order'");
		return -1;
	}
	v = header_value(h, hlen, "shape");
	if (!v || v >= hend || *v != '(') {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, ".npy header has no 'shape' tuple");
		return -1;
	}
	for (v++; v < hend && *v != ')';) {
		uint64_t d = 0;
		if (*v == ' ' || *v == ',') {
			v++;
			continue;
		}
		if (*v < '0' || *v > '9' || ndim == NPY_MAX_DIMS) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "malformed .npy shape");
			return -1;
		}
		for (; v < hend && *v >= '0' && *v <= '9'; v++) {
			d = d * 10 + (uint64_t)(*v - '0');
			if (d > DUMP_MAX_BYTES) {
				diag_pos(diag, DIAG_ERROR, path, 0, 0, "malformed .npy shape");
				return -1;
			}
		}
		if (d && numel > DUMP_MAX_BYTES / d) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "malformed .npy shape");
			return -1;
		}
		numel *= (size_t)d;
		shape[ndim++] = d;
	}
	if (v >= hend) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "malformed .npy shape");
		return -1;
	}
	if (ndim == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "the array is a scalar, not a profiling tensor");
		return -1;
	}
	if (numel > (len - hstart - hlen) / (size_t)elem_bytes) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "truncated: the shape needs %zu bytes of data, %zu present",
			 numel * (size_t)elem_bytes, len - hstart - hlen);
		return -1;
	}
	cols = (size_t)shape[ndim - 1];
	rows = cols ? numel / cols : 0;
	words = xmalloc(numel * sizeof(int64_t));
	{
		const unsigned char *p = b + hstart + hlen;
		for (size_t i = 0; i < numel; i++, p += elem_bytes) {
			uint64_t w = 0;
			for (int k = 0; k < elem_bytes; k++)
				w |= (uint64_t)p[k] << (8 * k);
			words[i] = elem_bytes == 8 ? (int64_t)w : (int64_t)(int32_t)(uint32_t)w;
		}
	}
	dump_add_tensor(out, "", elem_bytes, ndim, rows, cols, words);
	return 0;
}
