/* The token at a byte offset, for every token array of the program: the C++
 * lexer's (cxx_token.h) and the Python lexer's (py_scan.h) tokens both begin
 * with their uint32_t start offset and are sorted by it, so one binary
 * search serves both (each asserts the layout beside its call). */
#ifndef AUTOTRACE_TOKEN_SEARCH_H
#define AUTOTRACE_TOKEN_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Index of the first of the `n` tokens (each `size` bytes, its start offset
 * its first member) that starts at or after `off`; n when none does. */
static inline size_t token_search(const void *tokens, size_t n, size_t size, uint32_t off)
{
	const unsigned char *base = tokens;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t start;
		memcpy(&start, base + mid * size, sizeof(start));
		if (start < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
