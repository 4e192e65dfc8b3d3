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

/* The bound on the size of a file src_file_load reads: a text of any size
 * from a tree costs many times its size once tokenized and outlined (a
 * token of 16 bytes per byte of `;;;;`), so a file over it is refused
 * before anything is read (EFBIG). 16 MiB by default, 30 times the largest
 * source of the corpus; the global option --max-file-size sets it (main). */
#define SRC_FILE_MAX_DEFAULT ((uint64_t)16 << 20)
/* The bound can be set from 1 byte up to this (offsets are 32-bit). */
#define SRC_FILE_MAX_LIMIT ((uint64_t)UINT32_MAX - 1)
void src_file_set_max(uint64_t bytes);
uint64_t src_file_max(void);

/* Reads `path` whole. Returns NULL and sets errno on failure: EFBIG for a
 * file over src_file_max() bytes, EINVAL for one that is not a regular
 * file. */
struct src_file *src_file_load(const char *path);
/* The same with a bound of its own: `max` bytes (above SRC_FILE_MAX_LIMIT:
 * that), for a file copied byte for byte rather than read as a text. */
struct src_file *src_file_load_max(const char *path, uint64_t max);
/* strerror(err), or for a file src_file_load refused, why: not a regular
 * file (errno EINVAL: a FIFO, a device), or over the bound (EFBIG: its size,
 * the bound and the option that raises it). */
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
