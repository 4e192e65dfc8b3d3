/* Turning command-line arguments into rank-ordered dump files: a directory
 * contributes its rank*.{pt,npy,bin} entries, a file itself. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dump.h"
#include "path_glob.h"
#include "xalloc.h"

/* A directory entry named like a dump: rank<digits>...{.pt,.npy,.bin}. 1
 * with *rank, 0 for other names, -1 when the number is out of range. */
static int dump_name(const char *name, int *rank)
{
	size_t n = strlen(name);
	static const char *const exts[] = { ".pt", ".npy", ".bin" };
	int rc;

	if (strncmp(name, "rank", 4) != 0 || (rc = dump_rank_parse(name, rank)) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t k = strlen(exts[i]);
		if (n > k && strcmp(name + n - k, exts[i]) == 0)
			return rc;
	}
	return 0;
}

static void out_of_range(const char *path, struct diag *diag)
{
	diag_pos(diag, DIAG_ERROR, path, 0, 0, "the rank number of this file name is above %d: not a rank of a job",
		 DUMP_MAX_RANK);
}

/* Ranks missing from 0 to the last one given: one warning, in ranges. */
static void warn_gaps(const struct dump_input *v, size_t n, char **args, size_t nargs, struct diag *diag)
{
	char list[160] = "";
	size_t len = 0, missing = 0;
	int expect = 0;

	for (size_t i = 0; i <= n; i++) {
		int r = i < n ? v[i].rank : expect;
		if (r > expect) {
			missing += (size_t)(r - expect);
			if (len < sizeof(list) - 24) {
				int w = r - 1 == expect ? snprintf(list + len, sizeof(list) - len, "%s%d", len ? ", " : "", expect)
							: snprintf(list + len, sizeof(list) - len, "%s%d-%d", len ? ", " : "", expect,
								   r - 1);
				len += (size_t)w;
			} else if (!strstr(list, "...")) {
				len += (size_t)snprintf(list + len, sizeof(list) - len, ", ...");
			}
		}
		if (i < n)
			expect = r + 1;
	}
	if (!missing)
		return;
	diag_pos(diag, DIAG_WARNING, nargs == 1 ? args[0] : NULL, 0, 0,
		 "no dump of rank%s %s (%zu file%s for ranks 0 to %d): going on without %s", missing == 1 ? "" : "s", list,
		 n, n == 1 ? "" : "s", v[n - 1].rank, missing == 1 ? "it" : "them");
}

static void add(struct dump_input **v, size_t *n, size_t *cap, char *path, int rank)
{
	XGROW(*v, *cap, *n + 1);
	(*v)[*n].path = path;
	(*v)[*n].rank = rank;
	(*n)++;
}

static int cmp_input(const void *a, const void *b)
{
	const struct dump_input *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->path, y->path);
}

int dump_inputs_expand(char **args, size_t nargs, struct dump_input **out, size_t *nout, struct diag *diag)
{
	struct dump_input *v = NULL;
	size_t n = 0, cap = 0;
	int next_rank = 0;

	for (size_t i = 0; i < nargs; i++) {
		struct stat st;
		if (stat(args[i], &st) != 0) {
			diag_pos(diag, DIAG_ERROR, args[i], 0, 0, "cannot read: %s", strerror(errno));
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			size_t before = n;
			DIR *dir = opendir(args[i]);
			struct dirent *e;
			if (!dir) {
				diag_pos(diag, DIAG_ERROR, args[i], 0, 0, "cannot open directory: %s", strerror(errno));
				goto fail;
			}
			while ((e = readdir(dir)) != NULL) {
				int rank, k = dump_name(e->d_name, &rank);
				if (k < 0) {
					char *p = path_join(args[i], e->d_name);
					out_of_range(p, diag);
					free(p);
					closedir(dir);
					goto fail;
				}
				if (k > 0)
					add(&v, &n, &cap, path_join(args[i], e->d_name), rank);
			}
			closedir(dir);
			if (n == before) {
				diag_pos(diag, DIAG_ERROR, args[i], 0, 0,
					 "no rank*.pt, rank*.npy or rank*.bin files in this directory");
				goto fail;
			}
		} else {
			int rank;
			if (dump_rank_parse(args[i], &rank) < 0) {
				out_of_range(args[i], diag);
				goto fail;
			}
			add(&v, &n, &cap, xstrdup(args[i]), rank);
		}
	}
	/* Files without a rank in their name take the free ranks in argument order. */
	for (size_t i = 0; i < n; i++) {
		if (v[i].rank >= 0)
			continue;
		for (;;) {
			bool taken = false;
			for (size_t j = 0; j < n; j++)
				if (v[j].rank == next_rank)
					taken = true;
			if (!taken)
				break;
			next_rank++;
		}
		v[i].rank = next_rank++;
	}
	xqsort(v, n, sizeof(*v), cmp_input);
	for (size_t i = 1; i < n; i++) {
		if (v[i].rank == v[i - 1].rank) {
			diag_pos(diag, DIAG_ERROR, v[i].path, 0, 0, "rank %d is also given by %s", v[i].rank,
				 v[i - 1].path);
			goto fail;
		}
	}
	warn_gaps(v, n, args, nargs, diag);
	*out = v;
	*nout = n;
	return 0;
fail:
	dump_inputs_free(v, n);
	return -1;
}

void dump_inputs_free(struct dump_input *in, size_t n)
{
	if (!in)
		return;
	for (size_t i = 0; i < n; i++)
		free(in[i].path);
	free(in);
}
