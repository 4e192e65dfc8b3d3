/* Unit tests of the tree lock and the batch journal (edit_journal.c) and of
 * the signal-time cleanup (tmp_cleanup.c): recovery of each kind of journal
 * an interrupted run leaves, the lock against another process and within
 * one, and temporary files removed by a fatal signal. The kill -9 trials of
 * whole commands are tests/kill.test. */
#include <check.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "edit.h"
#include "edit_journal.h"
#include "path_glob.h"
#include "src_file.h"
#include "tmp_cleanup.h"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static char *get(const char *path)
{
	struct src_file *f = src_file_load(path);
	char *s;

	if (!f)
		return NULL;
	s = strdup(f->data);
	src_file_free(f);
	return s;
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* The identity the journal records for `path` (see edit_journal.c). */
static void identity(const char *path, char *out, size_t cap)
{
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	snprintf(out, cap, "%" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 ".%09ld", (uint64_t)st.st_dev,
		 (uint64_t)st.st_ino, (int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}

/* A new directory under /tmp, by its canonical path (the journal names
 * canonical paths), with its state directory; the path of its journal. */
static char *scratch_dir(char dir[64])
{
	char *real, *state, *journal;

	strcpy(dir, "/tmp/check_journal.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	real = realpath(dir, NULL);
	strcpy(dir, real);
	free(real);
	state = path_join(dir, EDIT_STATE_DIR);
	ck_assert_int_eq(mkdir(state, 0777), 0);
	journal = path_join(state, "journal");
	free(state);
	return journal;
}

struct tree {
	char dir[64];
	char *a, *b, *c, *ta, *tb, *journal;
};

/* A tree with a.h, b.h, their temporary files holding the new text, and
 * ROOT/.autotrace made as an interrupted run leaves it. */
static void tree_make(struct tree *t)
{
	t->journal = scratch_dir(t->dir);
	t->a = path_join(t->dir, "a.h");
	t->b = path_join(t->dir, "b.h");
	t->c = path_join(t->dir, "c_base.h");
	t->ta = path_join(t->dir, "a.h.at-AAAAAA");
	t->tb = path_join(t->dir, "b.h.at-BBBBBB");
	put(t->a, "old a\n");
	put(t->b, "old b\n");
	put(t->c, "created by apply\n");
	put(t->ta, "new a\n");
	put(t->tb, "new b\n");
}

static void tree_journal(struct tree *t, bool committed, bool b_changed)
{
	char ia[96], ib[96], ic[96];
	FILE *f = fopen(t->journal, "w");

	identity(t->a, ia, sizeof(ia));
	identity(t->b, ib, sizeof(ib));
	identity(t->c, ic, sizeof(ic));
	ck_assert_ptr_nonnull(f);
	fprintf(f, "autotrace-journal 1\ncommand\tapply\npid\t4242\nbatch\t1\n");
	fprintf(f, "T\t%s\t%s\t%s\n", t->ta, t->a, ia);
	fprintf(f, "T\t%s\t%s\t%s\n", t->tb, t->b, b_changed ? "1 2 3 4.000000005" : ib);
	fprintf(f, "R\t%s\t%s\n", t->c, ic);
	if (committed)
		fputs("C\n", f);
	fputs("T\t/no/such/file.at-CUTSHO", f); /* the line the kill cut short */
	fclose(f);
}

static void tree_free(struct tree *t)
{
	char *state = path_join(t->dir, EDIT_STATE_DIR), *gi = path_join(state, ".gitignore");

	unlink(t->a);
	unlink(t->b);
	unlink(t->c);
	unlink(t->ta);
	unlink(t->tb);
	unlink(t->journal);
	unlink(gi);
	rmdir(state);
	ck_assert_int_eq(rmdir(t->dir), 0);
	free(gi);
	free(state);
	free(t->a);
	free(t->b);
	free(t->c);
	free(t->ta);
	free(t->tb);
	free(t->journal);
}

/* Acquires the lock of `dir` with the messages in *msgs (freed by the caller). */
static struct edit_lock *acquire_dir(const char *dir, char **msgs)
{
	size_t n;
	FILE *mem = open_memstream(msgs, &n);
	struct diag d;
	struct edit_lock *l;

	diag_init(&d, mem, false);
	l = edit_lock_acquire(dir, "apply", &d);
	fclose(mem);
	return l;
}

static struct edit_lock *acquire(struct tree *t, char **msgs)
{
	return acquire_dir(t->dir, msgs);
}

START_TEST(test_rollback_uncommitted)
{
	struct tree t;
	struct edit_lock *l;
	char *msgs, *s;

	tree_make(&t);
	tree_journal(&t, false, false);
	l = acquire(&t, &msgs);
	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_nonnull(strstr(msgs, "journal: note: `autotrace apply` (pid 4242) was interrupted before it replaced "
					   "any file: removed its 2 temporary files; every file is as it was before that run"));
	ck_assert(!exists(t.ta) && !exists(t.tb) && !exists(t.journal));
	s = get(t.a);
	ck_assert_str_eq(s, "old a\n");
	free(s);
	ck_assert(exists(t.c)); /* the removal was not committed */
	ck_assert_ptr_null(edit_lock_completed(l));
	edit_lock_release(l);
	free(msgs);
	tree_free(&t);
}
END_TEST

START_TEST(test_complete_committed)
{
	struct tree t;
	struct edit_lock *l;
	char *msgs, *s;

	tree_make(&t);
	tree_journal(&t, true, false);
	l = acquire(&t, &msgs);
	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_nonnull(strstr(msgs, "note: `autotrace apply` (pid 4242) was interrupted while it replaced files: "
					   "completed now (3 files replaced or removed now, 0 before the interruption)"));
	s = get(t.a);
	ck_assert_str_eq(s, "new a\n");
	free(s);
	s = get(t.b);
	ck_assert_str_eq(s, "new b\n");
	free(s);
	ck_assert(!exists(t.ta) && !exists(t.tb) && !exists(t.journal) && !exists(t.c));
	ck_assert_str_eq(edit_lock_completed(l), "apply");
	edit_lock_release(l);
	free(msgs);
	tree_free(&t);
}
END_TEST

/* b.h changed after the kill (another identity than the journal's): kept */
START_TEST(test_complete_keeps_changed)
{
	struct tree t;
	struct edit_lock *l;
	char *msgs, *s;

	tree_make(&t);
	tree_journal(&t, true, true);
	l = acquire(&t, &msgs);
	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_nonnull(strstr(msgs, "b.h: warning: changed after the interrupted `autotrace apply` (pid 4242): kept "
					   "as it is, the text that run meant for it dropped"));
	ck_assert_ptr_nonnull(strstr(msgs, "completed now (2 files replaced or removed now, 0 before the interruption, "
					   "the others kept as they are)"));
	s = get(t.a);
	ck_assert_str_eq(s, "new a\n");
	free(s);
	s = get(t.b);
	ck_assert_str_eq(s, "old b\n");
	free(s);
	ck_assert(!exists(t.tb) && !exists(t.journal));
	ck_assert_ptr_null(edit_lock_completed(l));
	edit_lock_release(l);
	free(msgs);
	tree_free(&t);
}
END_TEST

START_TEST(test_foreign_journal_refused)
{
	struct tree t;
	char *msgs, *s;

	tree_make(&t);
	put(t.journal, "my notes\n");
	ck_assert_ptr_null(acquire(&t, &msgs));
	ck_assert_ptr_nonnull(strstr(msgs, "journal:1:1: error: not an autotrace journal (expected \"autotrace-journal 2\"): "
					   "remove it if it is not yours"));
	s = get(t.journal);
	ck_assert_str_eq(s, "my notes\n");
	free(s);
	free(msgs);
	tree_free(&t);
}
END_TEST

/* A journal naming files outside the locked tree (crafted, or committed
 * with the sources): nothing is renamed or removed, the line is named; the
 * same entries inside the larger tree a lock is taken for are completed. */
START_TEST(test_recovery_stays_in_the_tree)
{
	struct diag q;
	char top[64], *op, *outside, *tout, *state, *journal, *gi, *msgs, *s;
	struct edit_lock *l;
	FILE *f;

	diag_init_quiet(&q);
	strcpy(top, "/tmp/check_journal.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	{
		char *real = realpath(top, NULL);
		strcpy(top, real);
		free(real);
	}
	op = path_join(top, "op");
	outside = path_join(top, "bind.cpp");
	tout = path_join(top, "bind.cpp.at-AAAAAA");
	state = path_join(op, EDIT_STATE_DIR);
	journal = path_join(state, "journal");
	gi = path_join(state, ".gitignore");
	ck_assert_int_eq(mkdir(op, 0777), 0);
	ck_assert_int_eq(mkdir(state, 0777), 0);
	put(outside, "old binding\n");
	put(tout, "new binding\n");
	f = fopen(journal, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "autotrace-journal 1\ncommand\twire\npid\t4242\nbatch\t1\nT\t%s\t%s\t-\nC\n", tout, outside);
	fclose(f);
	/* bind.cpp lies outside op: the lock of op alone refuses the journal */
	{
		size_t n;
		FILE *mem = open_memstream(&msgs, &n);
		struct diag d;
		diag_init(&d, mem, false);
		l = edit_lock_acquire(op, "apply", &d);
		fclose(mem);
	}
	ck_assert_ptr_null(l);
	ck_assert_ptr_nonnull(strstr(msgs, "journal:5:1: error: the journal of the interrupted `autotrace wire` (pid 4242) "
					   "names "));
	ck_assert_ptr_nonnull(strstr(msgs, "outside the tree (the tree this `autotrace apply` may change is "));
	s = get(outside);
	ck_assert_str_eq(s, "old binding\n");
	free(s);
	ck_assert(exists(tout) && exists(journal));
	free(msgs);
	/* the lock taken for the project (wire's) is the project's: its journal
	 * is TOP/.autotrace/journal (outside git, the tree the batches change) */
	unlink(journal);
	unlink(gi);
	rmdir(state);
	free(state);
	free(journal);
	free(gi);
	state = path_join(top, EDIT_STATE_DIR);
	journal = path_join(state, "journal");
	gi = path_join(state, ".gitignore");
	ck_assert_int_eq(mkdir(state, 0777), 0);
	/* a temporary file not named as autotrace names them: refused */
	f = fopen(journal, "w");
	fprintf(f, "autotrace-journal 1\ncommand\twire\npid\t4242\nbatch\t1\nT\t%s\t%s/op/x.h\t-\n", outside, top);
	fclose(f);
	ck_assert_ptr_null(edit_lock_acquire_within(op, top, "wire", &q));
	ck_assert(exists(outside));
	/* a journal of the project naming a file of it: completed */
	f = fopen(journal, "w");
	fprintf(f, "autotrace-journal 1\ncommand\twire\npid\t4242\nbatch\t1\nT\t%s\t%s\t-\nC\n", tout, outside);
	fclose(f);
	unlink(outside);
	l = edit_lock_acquire_within(op, top, "wire", &q);
	ck_assert_ptr_nonnull(l);
	s = get(outside);
	ck_assert_str_eq(s, "new binding\n");
	free(s);
	ck_assert(!exists(tout) && !exists(journal));
	/* a batch of that lock writes in the project, not outside it */
	{
		struct edit_batch *b = edit_batch_new(l, EDIT_BATCH_NO_SYNC);
		ck_assert_int_eq(edit_batch_add(b, outside, "again\n", 6, &q), 0);
		ck_assert_int_eq(edit_batch_add(b, "/tmp/check_journal_elsewhere.h", "x\n", 2, &q), -1);
		edit_batch_abort(b);
	}
	/* nor over a file without write permission */
	chmod(outside, 0444);
	{
		struct edit_batch *b = edit_batch_new(l, EDIT_BATCH_NO_SYNC);
		ck_assert_int_eq(edit_batch_add(b, outside, "again\n", 6, &q), -1);
		edit_batch_abort(b);
		b = edit_batch_new(l, EDIT_BATCH_NO_SYNC | EDIT_BATCH_READONLY_OK);
		ck_assert_int_eq(edit_batch_add(b, outside, "again\n", 6, &q), 0);
		ck_assert_int_eq(edit_batch_commit(b, &q), 0);
	}
	s = get(outside);
	ck_assert_str_eq(s, "again\n");
	free(s);
	ck_assert(!exists("/tmp/check_journal_elsewhere.h"));
	edit_lock_release(l);
	unlink(outside);
	unlink(gi);
	rmdir(state);
	ck_assert_int_eq(rmdir(op), 0);
	ck_assert_int_eq(rmdir(top), 0);
	free(op);
	free(outside);
	free(tout);
	free(state);
	free(journal);
	free(gi);
}
END_TEST

/* The lock against another process, and within one (any path to the root). */
START_TEST(test_lock_other_process_and_reentrant)
{
	struct tree t;
	struct edit_lock *l, *again;
	char *msgs, *dotted, *lockp;
	int go[2], ready[2];
	pid_t child;
	char c;

	tree_make(&t);
	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(ready), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		struct diag d;
		struct edit_lock *cl;
		diag_init(&d, stderr, false);
		cl = edit_lock_acquire(t.dir, "wire", &d);
		if (write(ready[1], cl ? "y" : "n", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		edit_lock_release(cl);
		_exit(0);
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(c, 'y');
	ck_assert_ptr_null(acquire(&t, &msgs));
	{
		char want[256];
		snprintf(want, sizeof(want), "error: `autotrace wire` (pid %ld) is changing this tree: refused", (long)child);
		ck_assert_ptr_nonnull(strstr(msgs, want));
	}
	free(msgs);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	waitpid(child, NULL, 0);
	l = acquire(&t, &msgs);
	ck_assert_ptr_nonnull(l);
	free(msgs);
	dotted = path_join(t.dir, ".");
	{
		struct diag d;
		diag_init(&d, stderr, false);
		again = edit_lock_acquire(dotted, "strip", &d);
	}
	ck_assert_ptr_eq(again, l);
	ck_assert_ptr_eq(edit_lock_covering(t.a), l);
	ck_assert_ptr_eq(edit_lock_covering(t.dir), l);
	ck_assert_ptr_null(edit_lock_covering("/"));
	edit_lock_release(again);
	lockp = path_join(edit_lock_dir(l), "lock");
	ck_assert(exists(lockp));
	edit_lock_release(l);
	ck_assert(!exists(lockp));
	free(lockp);
	free(dotted);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	unlink(t.ta);
	unlink(t.tb);
	tree_free(&t);
}
END_TEST

/* A batch stopped in its renames, as a kill leaves it (journal version 2):
 * a.h replaced (its original kept as a hard link), b.h not yet, n.h created,
 * gone.h removed (its original kept); with `aborted`, the abort mark after
 * the commit mark. The paths in v[]: a, b, n, gone, then each backup and
 * the temporary file of b. */
struct batch_tree {
	char dir[64];
	char *a, *b, *n, *gone, *ba, *bb, *bgone, *tb, *journal;
};

static void batch_tree_make(struct batch_tree *t, bool aborted)
{
	char *ta, *tn, ia[96], ib[96], ig[96], id_a[96], id_b[96], id_n[96];
	FILE *f;

	t->journal = scratch_dir(t->dir);
	t->a = path_join(t->dir, "a.h");
	t->b = path_join(t->dir, "b.h");
	t->n = path_join(t->dir, "n.h");
	t->gone = path_join(t->dir, "gone.h");
	t->ba = path_join(t->dir, "a.h.at-KEEPaa");
	t->bb = path_join(t->dir, "b.h.at-KEEPbb");
	t->bgone = path_join(t->dir, "gone.h.at-KEEPgg");
	t->tb = path_join(t->dir, "b.h.at-NEWbbb");
	ta = path_join(t->dir, "a.h.at-NEWaaa");
	tn = path_join(t->dir, "n.h.at-NEWnnn");
	put(t->a, "old a\n");
	put(t->b, "old b\n");
	put(t->gone, "old gone\n");
	identity(t->a, ia, sizeof(ia));
	identity(t->b, ib, sizeof(ib));
	identity(t->gone, ig, sizeof(ig));
	put(ta, "new a\n");
	put(t->tb, "new b\n");
	put(tn, "new n\n");
	identity(ta, id_a, sizeof(id_a));
	identity(t->tb, id_b, sizeof(id_b));
	identity(tn, id_n, sizeof(id_n));
	ck_assert_int_eq(link(t->a, t->ba), 0);
	ck_assert_int_eq(link(t->b, t->bb), 0);
	ck_assert_int_eq(link(t->gone, t->bgone), 0);
	f = fopen(t->journal, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "autotrace-journal 2\ncommand\tapply\npid\t4242\nbatch\t1\n");
	fprintf(f, "T\t%s\t%s\t%s\nI\t%s\t%s\nB\t%s\t%s\n", ta, t->a, ia, ta, id_a, t->ba, t->a);
	fprintf(f, "T\t%s\t%s\t-\nI\t%s\t%s\n", tn, t->n, tn, id_n);
	fprintf(f, "R\t%s\t%s\nB\t%s\t%s\n", t->gone, ig, t->bgone, t->gone);
	fprintf(f, "T\t%s\t%s\t%s\nI\t%s\t%s\nB\t%s\t%s\n", t->tb, t->b, ib, t->tb, id_b, t->bb, t->b);
	fputs(aborted ? "C\nA\n" : "C\n", f);
	fclose(f);
	/* the renames done before the kill: a.h, n.h, the removal of gone.h */
	ck_assert_int_eq(rename(ta, t->a), 0);
	ck_assert_int_eq(rename(tn, t->n), 0);
	ck_assert_int_eq(unlink(t->gone), 0);
	free(ta);
	free(tn);
}

static void batch_tree_free(struct batch_tree *t)
{
	char *state = path_join(t->dir, EDIT_STATE_DIR), *gi = path_join(state, ".gitignore");
	char *all[] = { t->a, t->b, t->n, t->gone, t->ba, t->bb, t->bgone, t->tb, t->journal };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		ck_assert_msg(!exists(all[i]) || i < 4, "left behind: %s", all[i]);
		unlink(all[i]);
		free(all[i]);
	}
	unlink(gi);
	rmdir(state);
	ck_assert_int_eq(rmdir(t->dir), 0);
	free(gi);
	free(state);
}

/* The lock of t taken, its recovery having said `want` and `also` (when
 * not NULL). */
static struct edit_lock *settled(struct batch_tree *t, const char *want, const char *also)
{
	char *msgs;
	struct edit_lock *l = acquire_dir(t->dir, &msgs);

	ck_assert_msg(l && strstr(msgs, want) && (!also || strstr(msgs, also)), "%s", msgs);
	free(msgs);
	return l;
}

static void assert_text(const char *path, const char *want)
{
	char *s = get(path);

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, want);
	free(s);
}

/* The abort mark: every file as it was before the batch, from the backups. */
START_TEST(test_roll_back_aborted)
{
	struct batch_tree t;
	struct edit_lock *l;

	batch_tree_make(&t, true);
	l = settled(&t, "journal: note: `autotrace apply` (pid 4242) was interrupted while it put back the files of a batch "
			"it could not complete: rolled back now (3 files put back now); every file is as it was before that run",
		    NULL);
	assert_text(t.a, "old a\n");
	assert_text(t.b, "old b\n");
	assert_text(t.gone, "old gone\n");
	ck_assert(!exists(t.n));
	ck_assert_ptr_null(edit_lock_completed(l));
	edit_lock_release(l);
	batch_tree_free(&t);
}
END_TEST

/* The commit mark alone: completed, the backups removed. */
START_TEST(test_roll_forward_removes_backups)
{
	struct batch_tree t;
	struct edit_lock *l;

	batch_tree_make(&t, false);
	l = settled(&t, "was interrupted while it replaced files: completed now (1 file replaced or removed now, 3 before the "
			"interruption)", NULL);
	assert_text(t.a, "new a\n");
	assert_text(t.b, "new b\n");
	assert_text(t.n, "new n\n");
	ck_assert(!exists(t.gone));
	ck_assert_str_eq(edit_lock_completed(l), "apply");
	edit_lock_release(l);
	unlink(t.n);
	batch_tree_free(&t);
}
END_TEST

/* A rollback over a file changed since the batch replaced it: kept as it
 * is; a rollback killed half-way (a.h put back already) goes on. */
START_TEST(test_roll_back_keeps_changed)
{
	struct batch_tree t;
	struct edit_lock *l;

	batch_tree_make(&t, true);
	ck_assert_int_eq(unlink(t.n), 0);
	put(t.n, "someone's n\n"); /* another file than the batch's */
	ck_assert_int_eq(rename(t.ba, t.a), 0); /* put back before the kill */
	l = settled(&t, "n.h: warning: changed after `autotrace apply` (pid 4242) replaced it: kept as it is, not put back",
		    "rolled back now (1 file put back now, the others changed since kept as they are)");
	assert_text(t.a, "old a\n");
	assert_text(t.b, "old b\n");
	assert_text(t.gone, "old gone\n");
	assert_text(t.n, "someone's n\n");
	edit_lock_release(l);
	unlink(t.n);
	batch_tree_free(&t);
}
END_TEST

/* A backup record that names a file not TARGET.at-XXXXXX: refused, nothing
 * touched (a crafted journal would rename it over the target). */
START_TEST(test_crafted_backup_refused)
{
	struct batch_tree t;
	char *msgs, *victim;
	FILE *f;

	batch_tree_make(&t, true);
	victim = path_join(t.dir, "victim");
	put(victim, "not a backup\n");
	f = fopen(t.journal, "a");
	fprintf(f, "B\t%s\t%s\n", victim, t.b);
	fclose(f);
	ck_assert_ptr_null(acquire_dir(t.dir, &msgs));
	ck_assert_msg(strstr(msgs, ":17:1: error: the journal of the interrupted `autotrace apply` (pid 4242) names ") &&
			      strstr(msgs, "victim: not a temporary file of autotrace (TARGET.at-XXXXXX)"),
		      "%s", msgs);
	assert_text(t.a, "new a\n");
	assert_text(t.b, "old b\n");
	assert_text(victim, "not a backup\n");
	ck_assert(exists(t.journal) && exists(t.ba) && exists(t.tb));
	unlink(victim);
	free(victim);
	unlink(t.n);
	unlink(t.ba);
	unlink(t.bb);
	unlink(t.bgone);
	unlink(t.tb);
	unlink(t.journal);
	free(msgs);
	batch_tree_free(&t);
}
END_TEST

/* SIGTERM removes the registered temporary files, newest first, then the
 * process dies of the signal as it would have. */
START_TEST(test_signal_cleanup)
{
	char dir[] = "/tmp/check_cleanup.XXXXXX", *sub, *file, *kept;
	pid_t child;
	int status;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	sub = path_join(dir, "sub");
	file = path_join(sub, "t.at-XXXXXX");
	kept = path_join(dir, "kept");
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		int h;
		mkdir(sub, 0777);
		tmp_cleanup_add_dir(sub);
		put(file, "x");
		tmp_cleanup_add(file);
		put(kept, "y");
		h = tmp_cleanup_add(kept);
		tmp_cleanup_forget(h);
		raise(SIGTERM);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	ck_assert(!exists(file) && !exists(sub) && exists(kept));
	unlink(kept);
	rmdir(dir);
	free(sub);
	free(file);
	free(kept);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rollback_uncommitted);
	tcase_add_test(tc, test_complete_committed);
	tcase_add_test(tc, test_complete_keeps_changed);
	tcase_add_test(tc, test_foreign_journal_refused);
	tcase_add_test(tc, test_recovery_stays_in_the_tree);
	tcase_add_test(tc, test_lock_other_process_and_reentrant);
	tcase_add_test(tc, test_signal_cleanup);
	tcase_add_test(tc, test_roll_back_aborted);
	tcase_add_test(tc, test_roll_forward_removes_backups);
	tcase_add_test(tc, test_roll_back_keeps_changed);
	tcase_add_test(tc, test_crafted_backup_refused);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
