/* The raw .bin reader: the profiling tensor's bytes as the device wrote them,
 * little-endian int64, no header. The slot size comes from the rules (or
 * from a moe-v2 header), so here the file is one flat tensor. */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "xalloc.h"

int dump_bin_read_mem(const char *path, const void *data, size_t len, struct dump *out, struct diag *diag)
{
	const unsigned char *p = data;
	size_t n = len / 8;
	int64_t *words;

	if (len == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "empty file: no profiling data was saved");
		return -1;
	}
	if (len % 8) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "%zu bytes is not a whole number of int64 words (truncated raw dump?)", len);
		return -1;
	}
	words = xmalloc(n * sizeof(int64_t));
	dump_words_le(words, p, n, 8);
	dump_add_tensor(out, "", 8, 1, 1, n, words);
	return 0;
}
