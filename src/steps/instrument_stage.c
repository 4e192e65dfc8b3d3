/* instrument's staging copy (instrument_stage.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edit_scratch.h"
#include "g2_scope.h"
#include "instrument_stage.h"
#include "path_glob.h"
#include "path_rel.h"
#include "sh_start.h"
#include "xalloc.h"


static int mkdir_p(const char *path)
{
	return path_mkdirs(path, NULL);
}

/* Copies one file (bytes and mode, made writable) to dst, creating its
 * directories. */
static int copy_file(const char *src, const char *dst, struct diag *diag)
{
	struct src_file *f = src_file_load(src);
	char *dir = xstrdup(dst), *slash = strrchr(dir, '/');
	struct stat st;
	FILE *out;
	int rc = -1;

	if (!f) {
		diag_pos(diag, DIAG_ERROR, src, 0, 0, "cannot read: %s", strerror(errno));
		free(dir);
		return -1;
	}
	if (slash)
		*slash = '\0';
	if (mkdir_p(dir) == 0 && (out = fopen(dst, "wb")) != NULL) {
		rc = fwrite(f->data, 1, f->len, out) == f->len ? 0 : -1;
		if (fclose(out) != 0)
			rc = -1;
		/* writable by its owner: the steps edit the copy; the real file's
		 * mode is checked when the changes are written back (a read-only
		 * one is refused then, edit_write.c) */
		if (rc == 0 && stat(src, &st) == 0)
			chmod(dst, (st.st_mode & 07777) | S_IWUSR);
	}
	if (rc != 0)
		diag_pos(diag, DIAG_ERROR, dst, 0, 0, "cannot write the staging copy: %s", strerror(errno));
	src_file_free(f);
	free(dir);
	return rc;
}

/* Stages the real file `path` (as written from the real cwd) at its place under T. */
int stage_file(const struct stage *s, const char *path, struct diag *diag)
{
	char *abs = path_absolute(path), *rel, *dst;
	int rc;

	if (!abs || !path_within(abs, s->real_root)) {
		free(abs);
		return 0; /* outside the project: not touched */
	}
	rel = path_relative(s->real_root, abs);
	dst = path_join(s->root, rel);
	rc = access(dst, F_OK) == 0 ? 0 : copy_file(abs, dst, diag);
	free(dst);
	free(rel);
	free(abs);
	return rc;
}

char *stage_to_real(const void *ctx, const char *staged)
{
	const struct stage *s = ctx;
	char *abs = path_absolute(staged), *rel, *real;

	if (!abs) {
		/* not there (yet): the path itself, made absolute lexically */
		char cwd[PATH_MAX], *j;
		if (staged[0] == '/')
			abs = path_normalize(staged);
		else if (getcwd(cwd, sizeof(cwd))) {
			j = path_join(cwd, staged);
			abs = path_normalize(j);
			free(j);
		} else {
			return NULL;
		}
	}
	if (!path_within(abs, s->root)) {
		free(abs);
		return NULL;
	}
	rel = path_relative(s->root, abs);
	real = strcmp(rel, ".") == 0 ? xstrdup(s->real_root) : path_join(s->real_root, rel);
	free(rel);
	free(abs);
	return real;
}

/* The files of the layers that lie outside the operator directory, and the
 * file that runs the build script (it says where the script starts). */
int stage_project_files(const struct stage *s, const struct project_model *p, const char *script,
			       struct diag *diag)
{
	int rc = 0;

	if (script) {
		struct sh_start start;
		sh_start_find(p->root.abs, script, &start);
		if (start.runner) {
			char *runner = path_join(p->root.abs, start.runner);
			rc = stage_file(s, runner, diag);
			free(runner);
		}
		sh_start_release(&start);
	}

	for (size_t i = 0; i < p->naclnns && rc == 0; i++)
		rc = stage_file(s, p->aclnns[i].f->path, diag);
	for (size_t i = 0; i < p->npybinds && rc == 0; i++)
		rc = stage_file(s, p->pybinds[i].f->path, diag);
	for (size_t i = 0; i < p->nsamples && rc == 0; i++)
		rc = stage_file(s, p->samples[i].f->path, diag);
	/* a direct launch: the host functions, registrations, declarations, the
	   launch macros' definitions and the headers the registrations include */
	for (size_t i = 0; i < p->launch.npaths && rc == 0; i++)
		rc = stage_file(s, p->launch.paths[i], diag);
	if (script && rc == 0)
		rc = stage_file(s, script, diag);
	/* every file G2 reads of the operator, so that the gates of the staged
	   project see a layer the steps did not touch as it is */
	if (rc == 0) {
		struct g2_scope g2;
		struct diag quiet;
		diag_init_quiet(&quiet);
		if (g2_scope_load(p, &g2, &quiet) == 0) {
			for (size_t i = 0; i < g2.npaths && rc == 0; i++)
				rc = stage_file(s, g2.paths[i], diag);
			g2_scope_release(&g2);
		}
	}
	return rc;
}

/* The staged counterpart of a real path (as written from the real cwd), as
 * the steps see it from the mirrored cwd; NULL when it lies outside the
 * project. */
char *stage_path(const struct stage *s, const char *path)
{
	char *abs = path_absolute(path), *rel, *staged, *seen;

	if (!abs || !path_within(abs, s->real_root)) {
		free(abs);
		return NULL;
	}
	rel = path_relative(s->real_root, abs);
	staged = strcmp(rel, ".") == 0 ? xstrdup(s->root) : path_join(s->root, rel);
	seen = path_display_from(s->work, staged);
	free(staged);
	free(rel);
	free(abs);
	return seen;
}

int stage_open(struct stage *s, const char *opdir, const struct project_root *root, struct diag *diag)
{
	char buf[PATH_MAX], tmpl[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	char **files = NULL;
	size_t n = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->saved_cwd = -1;
	if (!getcwd(buf, sizeof(buf))) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot tell the working directory: %s", strerror(errno));
		return -1;
	}
	s->real_cwd = xstrdup(buf);
	s->real_root = xstrdup(root->abs);
	s->root_how = root->how;
	snprintf(tmpl, sizeof(tmpl), "%s/autotrace-instrument.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot create the staging copy in %s: %s",
			   tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		return -1;
	}
	s->root = path_absolute(tmpl);
	/* the operator directory, whole */
	if (path_walk(opdir, &files, &n, diag) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char *src = path_join(opdir, files[i]);
		int r = stage_file(s, src, diag);
		free(src);
		if (r != 0)
			goto out;
	}
	/* where the steps run: the same relative paths as the user's */
	if (path_within(s->real_cwd, s->real_root)) {
		char *rel = path_relative(s->real_root, s->real_cwd);
		s->work = strcmp(rel, ".") == 0 ? xstrdup(s->root) : path_join(s->root, rel);
		/* a relative path reads the same from the mirrored cwd; an absolute one
		   names the real tree and must be mapped */
		s->opdir = opdir[0] == '/' ? stage_path(s, opdir) : NULL;
		if (!s->opdir)
			s->opdir = xstrdup(opdir);
		free(rel);
	} else {
		char *oabs = path_absolute(opdir);
		s->work = xstrdup(s->root);
		s->opdir = oabs ? path_relative(s->real_root, oabs) : xstrdup(opdir);
		free(oabs);
	}
	if (mkdir_p(s->work) != 0) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot create %s: %s", s->work, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	path_glob_free(files, n);
	return rc;
}

int stage_enter(struct stage *s, struct diag *diag)
{
	/* the real root's reason stands for the staging copy's, in messages */
	s->saved_cwd = open(".", O_RDONLY | O_DIRECTORY);
	if (s->saved_cwd < 0 || chdir(s->work) != 0) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot enter the staging copy: %s", strerror(errno));
		return -1;
	}
	project_root_force(s->root, s->root_how);
	edit_scratch_set(true);
	return 0;
}

void stage_leave(struct stage *s)
{
	project_root_force(NULL, PROJECT_ROOT_OPDIR);
	edit_scratch_set(false);
	if (s->saved_cwd >= 0) {
		if (fchdir(s->saved_cwd) != 0)
			perror("autotrace instrument: fchdir");
		close(s->saved_cwd);
		s->saved_cwd = -1;
	}
}

void stage_close(struct stage *s)
{
	stage_leave(s);
	if (s->root)
		path_remove_tree(s->root);
	free(s->real_root);
	free(s->root);
	free(s->real_cwd);
	free(s->work);
	free(s->opdir);
}


void stage_changes_free(struct stage_change *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].rel);
		free(c[i].staged);
		free(c[i].real);
		free(c[i].display);
		src_file_free(c[i].orig);
		src_file_free(c[i].now);
	}
	free(c);
}

/* Every file of the staging copy that differs from the real one, or is new. */
int stage_find_changes(const struct stage *s, struct stage_change **out, size_t *nout, struct diag *diag)
{
	char **files = NULL;
	size_t n = 0, k = 0;
	struct stage_change *v = NULL;

	*out = NULL;
	*nout = 0;
	if (path_walk(s->root, &files, &n, diag) != 0)
		return -1;
	v = n ? xcalloc(n, sizeof(*v)) : NULL;
	for (size_t i = 0; i < n; i++) {
		struct stage_change c;
		memset(&c, 0, sizeof(c));
		c.rel = xstrdup(files[i]);
		c.staged = path_join(s->root, files[i]);
		c.real = path_join(s->real_root, files[i]);
		c.now = src_file_load(c.staged);
		c.orig = access(c.real, F_OK) == 0 ? src_file_load(c.real) : NULL;
		if (!c.now || (c.orig && c.orig->len == c.now->len && memcmp(c.orig->data, c.now->data, c.now->len) == 0)) {
			free(c.rel);
			free(c.staged);
			free(c.real);
			src_file_free(c.orig);
			src_file_free(c.now);
			continue;
		}
		c.display = path_display_from(s->real_cwd, c.real);
		v[k++] = c;
	}
	path_glob_free(files, n);
	*out = v;
	*nout = k;
	return 0;
}

