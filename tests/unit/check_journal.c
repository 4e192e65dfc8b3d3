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

struct tree {
	char dir[64];
	char *a, *b, *c, *ta, *tb, *journal;
};

/* A tree with a.h, b.h, their temporary files holding the new text, and
 * ROOT/.autotrace made as an interrupted run leaves it. */
static void tree_make(struct tree *t)
{
	char *state;

	strcpy(t->dir, "/tmp/check_journal.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	{
		/* the journal names canonical paths */
		char *real = realpath(t->dir, NULL);
		strcpy(t->dir, real);
		free(real);
	}
	t->a = path_join(t->dir, "a.h");
	t->b = path_join(t->dir, "b.h");
	t->c = path_join(t->dir, "c_base.h");
	t->ta = path_join(t->dir, "a.h.at-AAAAAA");
	t->tb = path_join(t->dir, "b.h.at-BBBBBB");
	state = path_join(t->dir, EDIT_STATE_DIR);
	ck_assert_int_eq(mkdir(state, 0777), 0);
	t->journal = path_join(state, "journal");
	free(state);
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

/* Acquires the lock of t with the messages in *msgs (freed by the caller). */
static struct edit_lock *acquire(struct tree *t, char **msgs)
{
	size_t n;
	FILE *mem = open_memstream(msgs, &n);
	struct diag d;
	struct edit_lock *l;

	diag_init(&d, mem, false);
	l = edit_lock_acquire(t->dir, "apply", &d);
	fclose(mem);
	return l;
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
	ck_assert_ptr_nonnull(strstr(msgs, "journal:1:1: error: not an autotrace journal (expected \"autotrace-journal 1\"): "
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
	/* a temporary file not named as autotrace names them: refused too */
	f = fopen(journal, "w");
	fprintf(f, "autotrace-journal 1\ncommand\twire\npid\t4242\nbatch\t1\nT\t%s\t%s/op/x.h\t-\n", outside, top);
	fclose(f);
	ck_assert_ptr_null(edit_lock_acquire_within(op, top, "wire", &q));
	ck_assert(exists(outside));
	/* the lock taken for the project (wire's): completed */
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
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
