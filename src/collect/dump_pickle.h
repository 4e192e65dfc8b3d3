/* A minimal pickle machine for what torch.save writes (protocol 2, plus the
 * few protocol 4 opcodes newer writers may emit): lists, tuples, dicts,
 * ints, strings, globals, persistent storage ids and the two reductions
 * torch uses (torch._utils._rebuild_tensor_v2, collections.OrderedDict).
 * Anything else is refused with a message naming it. Every value lives in
 * one arena freed by pickle_free. */
#ifndef AUTOTRACE_DUMP_PICKLE_H
#define AUTOTRACE_DUMP_PICKLE_H

#include <stddef.h>
#include <stdint.h>

enum pickle_kind {
	PK_NONE, PK_BOOL, PK_INT, PK_FLOAT, PK_STR, PK_TUPLE, PK_LIST, PK_DICT,
	PK_GLOBAL, PK_STORAGE, PK_TENSOR, PK_OTHER
};

#define PICKLE_MAX_DIMS 8

struct pickle_value {
	enum pickle_kind kind;
	int64_t i;                       /* BOOL, INT */
	char *s;                         /* STR; GLOBAL: "module.name"; STORAGE: key */
	size_t slen;
	struct pickle_value **items;     /* TUPLE, LIST; DICT: key, value, key, value ... */
	size_t n, cap;
	/* STORAGE */
	int elem_bytes;                  /* 8 LongStorage, 4 IntStorage, 0 other */
	char *storage_type;              /* "torch.LongStorage" */
	uint64_t numel;
	/* TENSOR */
	struct pickle_value *storage;
	int64_t offset;
	size_t ndim;
	int64_t shape[PICKLE_MAX_DIMS], stride[PICKLE_MAX_DIMS];
};

struct pickle;

/* Runs the pickle in data[0..len). Returns the machine (free it with
 * pickle_free) whose result is pickle_result(); NULL with a message in
 * err (size errlen) when the stream is malformed or holds something else. */
struct pickle *pickle_run(const unsigned char *data, size_t len, char *err, size_t errlen);
const struct pickle_value *pickle_result(const struct pickle *pk);
void pickle_free(struct pickle *pk);

#endif
