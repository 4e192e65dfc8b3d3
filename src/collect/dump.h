/* A profiling dump as read from one rank file: the int64 tensors it holds,
 * in file order, whatever the container (.pt, .npy, .bin). Decoding the
 * tensors into per-core slots is collect_slot's job, not the readers'.
 *
 * Readers (dump_pt.c, dump_npy.c, dump_bin.c) check every size and offset
 * against the bytes present and report `file: error: ...` through the diag;
 * they never trust a count from the file before checking it. */
#ifndef AUTOTRACE_DUMP_H
#define AUTOTRACE_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* Bytes of input a reader accepts in one file (a 128 x 3 x 2048 int64 tensor
 * is 6 MiB; this leaves room for much larger slots, and refuses at once a
 * 2 GB file that is not a dump). */
#define DUMP_MAX_BYTES ((size_t)1 << 30)
/* A dump modified this recently and unreadable may still be being written. */
#define DUMP_RECENT_SECONDS 10.0

struct dump_tensor {
	char *name;             /* where it sits in the file: "", "[1]", "['aic']" */
	int elem_bytes;         /* 8 (int64) or 4 (int32, widened in words) */
	size_t rows, cols;      /* a 1-D tensor has rows = 1; more dims fold into rows */
	size_t ndim;
	int64_t *words;         /* rows * cols values, host order */
	bool borrowed;          /* words point into one of the dump's blobs */
};

enum dump_format { DUMP_PT, DUMP_NPY, DUMP_BIN };

struct dump {
	char *path;
	enum dump_format format;
	int rank;               /* from the file name (rank007.pt -> 7); -1 when none */
	bool is_list;           /* the .pt held a list / tuple / dict (a core grouping) */
	struct dump_tensor *tensors;
	size_t ntensors;
	void **blobs;           /* buffers tensors may point into (no copy); owned */
	size_t nblobs;
};

void dump_free(struct dump *d);

/* Adds a tensor (takes ownership of `words`) and returns it. */
struct dump_tensor *dump_add_tensor(struct dump *d, const char *name, int elem_bytes, size_t ndim,
				    size_t rows, size_t cols, int64_t *words);

/* `n` little-endian integers of `elem_bytes` (8 or 4) at `p`, the way the
 * device and torch.save write them, sign-extended into `words` in host
 * order: the one decoding of tensor bytes, for every reader that copies. */
void dump_words_le(int64_t *words, const unsigned char *p, size_t n, int elem_bytes);

/* Readers; `path` names the input in messages. 0 or -1 after reporting
 * (errors of the zip structure located by byte, see dump_zip.h). The .pt
 * reader reads from the open descriptor `fd` of a regular file of `size`
 * bytes (not closed), or from memory. */
int dump_pt_read_fd(const char *path, int fd, uint64_t size, struct dump *out, struct diag *diag);
int dump_pt_read_mem(const char *path, const void *data, size_t len, struct dump *out, struct diag *diag);
int dump_npy_read_mem(const char *path, const void *data, size_t len, struct dump *out, struct diag *diag);
int dump_bin_read_mem(const char *path, const void *data, size_t len, struct dump *out, struct diag *diag);

/* Reads the file at `path`, choosing the reader by extension (.pt, .npy,
 * .bin), else by content. Never blocks on a FIFO or device (refused: not a
 * regular file); refuses a file that changed while it was read; after an
 * error on a file modified in the last DUMP_RECENT_SECONDS, notes that it
 * may still be being written. Returns a new dump or NULL after reporting. */
struct dump *dump_read(const char *path, struct diag *diag);

/* The rank a file name gives: rank007.pt -> 7, -1 when the name has no
 * "rank" followed by digits (or a number above DUMP_MAX_RANK). */
#define DUMP_MAX_RANK 1000000
int dump_rank_from_name(const char *path);
/* The same, telling the cases apart: 1 with *rank set, 0 when the name has
 * no rank, -1 when its number is above DUMP_MAX_RANK. */
int dump_rank_parse(const char *path, int *rank);

/* One input to collect / inspect / report. */
struct dump_input {
	char *path;
	int rank;
};

/* Expands the arguments: a directory gives its rank*.{pt,npy,bin} files, a
 * file itself. Files without a rank in their name take the next free rank
 * in argument order. Sorted by rank; two files of one rank, or a rank
 * number out of range (rank2147483648.pt), are errors; ranks missing
 * between 0 and the last one are a warning (the others are read). Returns
 * 0 or -1 (reported). */
int dump_inputs_expand(char **args, size_t nargs, struct dump_input **out, size_t *nout, struct diag *diag);
void dump_inputs_free(struct dump_input *in, size_t n);

#endif
