/* Buffered, atomically committed trace output. See trace_out.h. */
#include "trace_out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

#define TMP_MARK ".at-"

/* Temporary files of earlier runs writing the same target: .BASE.at-XXXXXX
 * in DIR. Removed when no process holds them (a killed run's), reported
 * when one does (another collect writing the same output now). */
static void sweep(const char *dir, const char *base, struct diag *diag)
{
	size_t bl = strlen(base), ml = strlen(TMP_MARK);
	DIR *d = opendir(dir[0] ? dir : ".");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		char *path;
		struct stat st;
		int fd;
		if (n[0] != '.' || strncmp(n + 1, base, bl) != 0 || strncmp(n + 1 + bl, TMP_MARK, ml) != 0 ||
		    strlen(n + 1 + bl + ml) != 6)
			continue;
		path = xasprintf("%s%s", dir, n);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				if (unlink(path) == 0)
					diag_pos(diag, DIAG_NOTE, path, 0, 0,
						 "removed the partial trace an interrupted collect left (%lld bytes)",
						 (long long)st.st_size);
			} else if (errno == EWOULDBLOCK) {
				diag_pos(diag, DIAG_WARNING, path, 0, 0,
					 "another collect is writing %s%s at this moment: the last one to finish wins", dir, base);
			}
		}
		if (fd >= 0)
			close(fd);
		free(path);
	}
	closedir(d);
}

const char trace_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

int trace_out_open(struct trace_out *o, const char *path, struct diag *diag)
{
	char *target = NULL;
	bool in_place;

	memset(o, 0, sizeof(*o));
	o->cleanup = -1;
	if (strcmp(path, "-") == 0) {
		trace_out_take_room(o);
		o->fp = stdout;
		return 0;
	}
	if (atomic_resolve(path, &target, &in_place, diag) != 0)
		return -1;
	if (in_place) {
		/* a device or FIFO (-o /dev/null): written as it is, never replaced */
		int fd = open(target, O_WRONLY | O_APPEND); /* see atomic_resolve */
		o->fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
		if (fd >= 0 && !o->fp)
			close(fd);
		if (!o->fp) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write the trace: %s", strerror(errno));
			free(target);
			return -1;
		}
		trace_out_take_room(o);
		o->path = target;
		o->shown = xstrdup(path);
		return 0;
	}
	{
		const char *slash = strrchr(target, '/');
		size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
		const char *base = slash ? slash + 1 : target;
		int fd;
		{
			char *dir = xstrndup(target, dirlen);
			sweep(dir, base, diag);
			free(dir);
		}
		o->tmp = xmalloc(strlen(target) + 16);
		sprintf(o->tmp, "%.*s.%s" TMP_MARK "XXXXXX", (int)dirlen, target, base);
		/* no fatal signal between creating the file and registering it */
		tmp_cleanup_hold(true);
		fd = mkstemp(o->tmp);
		if (fd < 0) {
			tmp_cleanup_hold(false);
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write the trace: %s", strerror(errno));
			goto fail;
		}
		/* held until the end: a later run sweeping the directory sees the
		 * file is in use (and a signal removes it) */
		flock(fd, LOCK_EX);
		o->cleanup = tmp_cleanup_add(o->tmp);
		tmp_cleanup_hold(false);
		/* mkstemp makes it 0600; a trace is an ordinary file */
		{
			mode_t um = umask(0);
			umask(um);
			fchmod(fd, 0666 & ~um);
		}
		o->fp = fdopen(fd, "wb");
		if (!o->fp) {
			close(fd);
			unlink(o->tmp);
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write the trace: %s", strerror(errno));
			goto fail;
		}
	}
	trace_out_take_room(o);
	o->path = target;
	o->shown = xstrdup(path);
	return 0;
fail:
	tmp_cleanup_forget(o->cleanup);
	free(o->tmp);
	free(target);
	memset(o, 0, sizeof(*o));
	o->cleanup = -1;
	return -1;
}

static void trace_out_release(struct trace_out *o)
{
	tmp_cleanup_forget(o->cleanup);
	free(o->tmp);
	free(o->path);
	free(o->shown);
	strbuf_release(&o->buf);
	memset(o, 0, sizeof(*o));
	o->cleanup = -1;
}

void trace_out_flush(struct trace_out *o)
{
	if (o->drain) {
		if (o->buf.n)
			o->drain(o, o->drain_ctx);
		strbuf_clear(&o->buf);
		return;
	}
	if (o->buf.n && !o->failed && fwrite(o->buf.s, 1, o->buf.n, o->fp) != o->buf.n) {
		o->failed = true;
		o->err = errno;
	}
	strbuf_clear(&o->buf);
}

int trace_out_commit(struct trace_out *o, struct diag *diag)
{
	int rc = 0;
	const char *name = o->shown ? o->shown : "<stdout>";

	trace_out_flush(o);
	if (fflush(o->fp) != 0 && !o->failed) {
		o->failed = true;
		o->err = errno;
	}
	if (o->path) {
		if (fclose(o->fp) != 0 && !o->failed) {
			o->failed = true;
			o->err = errno;
		}
		if (o->tmp && !o->failed && rename(o->tmp, o->path) != 0) {
			o->failed = true;
			o->err = errno;
		}
		if (o->tmp && o->failed)
			unlink(o->tmp);
	}
	if (o->failed) {
		diag_pos(diag, DIAG_ERROR, name, 0, 0, "cannot write the trace: %s", strerror(o->err ? o->err : EIO));
		rc = -1;
	}
	trace_out_release(o);
	return rc;
}

void trace_out_abort(struct trace_out *o)
{
	if (o->path) {
		fclose(o->fp);
		if (o->tmp)
			unlink(o->tmp);
	}
	trace_out_release(o);
}
