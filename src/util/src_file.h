/* A source text held in memory with a lazily built line table: every token and
 * AST node carries byte offsets into it; lines and columns are computed only
 * when a message is printed. */
#ifndef AUTOTRACE_SRC_FILE_H
#define AUTOTRACE_SRC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct src_file {
	char *path;          /* as given by the caller; owned */
	char *data;          /* contents, NUL-terminated; owned */
	size_t len;          /* bytes, not counting the terminating NUL */
	uint32_t *lines;     /* byte offset of each line start; built on demand */
	size_t nlines;
};

/* A location: a byte range [start, end) in one file. */
struct src_loc {
	const struct src_file *file;
	uint32_t start;
	uint32_t end;
};

/* Reads `path` whole. Returns NULL and sets errno on failure. Files over 4 GiB
 * are refused (EFBIG) since offsets are 32-bit. */
struct src_file *src_file_load(const char *path);
/* strerror(err), or for a file src_file_load refused because it is not a
 * regular file (a FIFO, a device: errno EINVAL), what it is. */
const char *src_file_strerror(int err);

/* Wraps a copy of `len` bytes of `data` under the name `path`. */
struct src_file *src_file_from_buffer(const char *path, const char *data, size_t len);

void src_file_free(struct src_file *f);

/* True when the last segment of `path` has the extension of a C, C++ or CUDA
 * source or header (.c .cc .cpp .cxx .c++ .h .hh .hpp .hxx .h++ .inl .ipp
 * .tcc .cu .cuh): the files that scan and apply read, preprocess numbers and
 * strip cleans, so that each command sees the same set. */
bool src_file_is_cxx_name(const char *path);

/* `word` in the text as a whole identifier; with `prefix_ok`, also as the
 * start of a longer one ("EXEC_NPU_CMD" in "EXEC_NPU_CMD_EXT"). */
bool src_file_has_word(const struct src_file *f, const char *word, bool prefix_ok);
/* A string literal that starts with `name` and ends it there ("name",
 * "name(", "name.overload", "name "). */
bool src_file_has_literal(const struct src_file *f, const char *name);

/* 1-based line of byte offset `off` (clamped to the file). */
size_t src_file_line(const struct src_file *f, uint32_t off);

/* Byte offset where 1-based `line` starts, and its length without the newline. */
uint32_t src_file_line_start(const struct src_file *f, size_t line);
size_t src_file_line_length(const struct src_file *f, size_t line);

/* 1-based column of `off`, counted in characters (UTF-8 code points). */
size_t src_file_column(const struct src_file *f, uint32_t off);

static inline struct src_loc src_loc_make(const struct src_file *f, uint32_t start, uint32_t end)
{
	struct src_loc l = { f, start, end };
	return l;
}

#endif
