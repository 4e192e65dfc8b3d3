/* Fuzz target for the readers of the journals a tree carries, which come
 * from anyone with the tree: the batch journal (.autotrace/journal, read
 * and acted on by the recovery of edit_lock_acquire) and an undo journal's
 * MANIFEST (read and restored by undo_journal_restore, dry run first, then
 * for real with --force). The input is used as both, in a scratch tree
 * made anew for each run:
 *
 *   S/outside/victim, S/outside/victim.at-AAAAAA   not the project's
 *   S/proj/top.cpp                                 the project
 *   S/proj/op/f.h, S/proj/op/.out -> ../../outside the operator directory
 *
 * "@S@" in the input stands for S, so the seeds (tests/fuzz/journal) can
 * name real paths of the scratch tree. After each reader the files outside
 * the project must be exactly as they were (bytes, names): else abort(),
 * which the driver reports as a crash. */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "edit_journal.h"
#include "path_glob.h"
#include "src_file.h"
#include "undo_journal.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];
static char *outside, *proj, *op;

static void put(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

static void put_in(const char *dir, const char *name, const char *text)
{
	char *p = path_join(dir, name);

	put(p, text, strlen(text));
	free(p);
}

/* Removes the tree at `path`, its links removed, never followed. */
static void remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0700);
	if ((d = opendir(path)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			char *p;
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			p = path_join(path, e->d_name);
			remove_tree(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(path);
}

static void cleanup(void)
{
	if (scratch[0])
		remove_tree(scratch);
}

/* The scratch tree made once: S and what lies outside the project. */
static void setup(void)
{
	if (scratch[0])
		return;
	/* in memory when there is a tmpfs: the restores fsync what they write */
	strcpy(scratch, access("/dev/shm", W_OK) == 0 ? "/dev/shm/fuzz_journal.XXXXXX" : "/tmp/fuzz_journal.XXXXXX");
	if (!mkdtemp(scratch))
		abort();
	atexit(cleanup);
	outside = path_join(scratch, "outside");
	proj = path_join(scratch, "proj");
	op = path_join(proj, "op");
	if (mkdir(outside, 0755) != 0)
		abort();
	put_in(outside, "victim", "not the project's\n");
	put_in(outside, "victim.at-AAAAAA", "nor this\n");
}

/* undo_journal_restore with what it prints sent to /dev/null (the
 * driver's TAP goes to stdout). */
static void restore(bool dry_run, bool force, struct diag *diag)
{
	int saved, null;

	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, 1) < 0)
		abort();
	close(null);
	undo_journal_restore(op, proj, "wire-undo", "wire", dry_run, force, diag);
	fflush(stdout);
	if (dup2(saved, 1) < 0)
		abort();
	close(saved);
}

/* The project made anew, its batch journal (`batch`) or the MANIFEST of
 * its undo journal holding `text` (the input, @S@ replaced). */
static void project(const char *text, size_t len, bool batch)
{
	char *top, *jdir, *udir, *out_link;

	remove_tree(proj);
	if (mkdir(proj, 0755) != 0 || mkdir(op, 0755) != 0)
		abort();
	put_in(proj, "top.cpp", "int top;\n");
	put_in(op, "f.h", "int f;\n");
	out_link = path_join(op, ".out");
	if (symlink("../../outside", out_link) != 0)
		abort();
	free(out_link);
	top = path_join(op, ".autotrace");
	jdir = path_join(top, "wire-undo");
	if (mkdir(top, 0755) != 0 || mkdir(jdir, 0755) != 0)
		abort();
	put_in(top, ".gitignore", "*\n");
	udir = jdir;
	for (int k = 0; k < 4; k++) {
		char name[16];
		snprintf(name, sizeof(name), "%d.%s", k, k == 2 ? "absent" : "orig");
		put_in(udir, name, "restored by the fuzzer\n");
	}
	{
		char *p = batch ? path_join(top, "journal") : path_join(jdir, "MANIFEST");
		put(p, text, len);
		free(p);
	}
	free(jdir);
	free(top);
}

/* Aborts unless S holds just outside/ and proj/, and outside/ as made. */
static void outside_untouched(void)
{
	static const char *const names[] = { "victim", "victim.at-AAAAAA" };
	static const char *const texts[] = { "not the project's\n", "nor this\n" };
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	for (int i = 0; i < 2; i++) {
		char *p = path_join(outside, names[i]);
		struct stat st;
		struct src_file *f = lstat(p, &st) == 0 && S_ISREG(st.st_mode) ? src_file_load(p) : NULL;
		if (!f || f->len != strlen(texts[i]) || memcmp(f->data, texts[i], f->len) != 0) {
			fprintf(stderr, "fuzz_journal: %s was changed or removed\n", p);
			abort();
		}
		src_file_free(f);
		free(p);
	}
	if (!(d = opendir(outside)))
		abort();
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	if (n != 2) {
		fprintf(stderr, "fuzz_journal: a file was made in %s\n", outside);
		abort();
	}
	n = 0;
	if (!(d = opendir(scratch)))
		abort();
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	if (n != 2) {
		fprintf(stderr, "fuzz_journal: a file was made in %s\n", scratch);
		abort();
	}
}

/* `data` with every "@S@" replaced by the scratch directory. */
static char *expand(const uint8_t *data, size_t size, size_t *len)
{
	size_t sl = strlen(scratch), n = 0, cap = size + 1;
	char *out;

	for (size_t i = 0; i + 3 <= size; i++)
		if (memcmp(data + i, "@S@", 3) == 0)
			cap += sl;
	out = xmalloc(cap);
	for (size_t i = 0; i < size;) {
		if (i + 3 <= size && memcmp(data + i, "@S@", 3) == 0) {
			memcpy(out + n, scratch, sl);
			n += sl;
			i += 3;
		} else {
			out[n++] = (char)data[i++];
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag quiet;
	struct edit_lock *l;
	size_t len;
	char *text;

	setup();
	text = expand(data, size, &len);
	diag_init_quiet(&quiet);
	/* the batch journal: recovery runs when the lock is taken */
	project(text, len, true);
	l = edit_lock_acquire(op, "fuzz", &quiet);
	edit_lock_release(l);
	outside_untouched();
	/* the MANIFEST: a dry run, then the restore (forced past hand edits) */
	project(text, len, false);
	restore(true, false, &quiet);
	outside_untouched();
	restore(false, true, &quiet);
	outside_untouched();
	free(text);
	return 0;
}
