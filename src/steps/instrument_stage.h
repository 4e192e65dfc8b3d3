/* instrument's staging copy: the operator directory and the project-level
 * files of its layers copied to a temporary tree at their paths under the
 * project root, the working directory mirrored, so that the steps run on
 * the copy and a step that stops leaves the real tree untouched; then the
 * files of the copy that differ from the real ones. */
#ifndef AUTOTRACE_INSTRUMENT_STAGE_H
#define AUTOTRACE_INSTRUMENT_STAGE_H

#include "diag.h"
#include "project_model.h"
#include "project_root.h"
#include "src_file.h"

struct stage {
	char *real_root;             /* R, absolute */
	char *root;                  /* T, absolute */
	char *real_cwd;
	char *work;                  /* where the steps run: T + (cwd - R), or T */
	char *opdir;                 /* the operator directory as the steps see it */
	int saved_cwd;               /* fd of the real working directory */
	enum project_root_how root_how; /* how the real root was found */
};

/* Copies opdir whole into a new temporary tree mirroring the project root. */
int stage_open(struct stage *s, const char *opdir, const struct project_root *root, struct diag *diag);
/* Copies the layers' files outside opdir (and the file that runs the build
 * script, and every file G2 reads of the operator). */
int stage_project_files(const struct stage *s, const struct project_model *p, const char *script,
			struct diag *diag);
/* Stages one real file (as written from the real cwd); outside the project: nothing. */
int stage_file(const struct stage *s, const char *path, struct diag *diag);
/* The staged counterpart of a real path as the steps see it, or NULL (outside the project). */
char *stage_path(const struct stage *s, const char *path);
/* The real path (absolute) of a staged one, NULL outside; ctx is the stage. */
char *stage_to_real(const void *ctx, const char *staged);
/* Into the copy (cwd and the project root the steps see), and back out. */
int stage_enter(struct stage *s, struct diag *diag);
void stage_leave(struct stage *s);
/* Leaves and removes the copy. */
void stage_close(struct stage *s);

/* A file of the copy that differs from the real one, or is new. */
struct stage_change {
	char *rel;                    /* relative to the root */
	char *staged;                 /* absolute */
	char *real;                   /* absolute */
	char *display;
	struct src_file *orig;        /* NULL: created */
	struct src_file *now;
};
int stage_find_changes(const struct stage *s, struct stage_change **out, size_t *nout, struct diag *diag);
void stage_changes_free(struct stage_change *c, size_t n);

#endif
