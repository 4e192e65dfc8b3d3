/* Buffered, atomically committed trace output. See trace_out.h. */
#include "trace_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "xalloc.h"

const char trace_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

int trace_out_open(struct trace_out *o, const char *path, struct diag *diag)
{
	char *target = NULL;
	bool in_place;

	memset(o, 0, sizeof(*o));
	if (strcmp(path, "-") == 0) {
		o->buf = xmalloc(TRACE_OUT_BUF);
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
		o->buf = xmalloc(TRACE_OUT_BUF);
		o->path = target;
		o->shown = xstrdup(path);
		return 0;
	}
	{
		const char *slash = strrchr(target, '/');
		size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
		const char *base = slash ? slash + 1 : target;
		int fd;
		o->tmp = xmalloc(strlen(target) + 16);
		sprintf(o->tmp, "%.*s.%s.XXXXXX", (int)dirlen, target, base);
		fd = mkstemp(o->tmp);
		if (fd < 0) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write the trace: %s", strerror(errno));
			goto fail;
		}
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
	o->buf = xmalloc(TRACE_OUT_BUF);
	o->path = target;
	o->shown = xstrdup(path);
	return 0;
fail:
	free(o->tmp);
	free(target);
	memset(o, 0, sizeof(*o));
	return -1;
}

static void trace_out_release(struct trace_out *o)
{
	free(o->tmp);
	free(o->path);
	free(o->shown);
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

void trace_out_flush(struct trace_out *o)
{
	if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->fp) != o->len) {
		o->failed = true;
		o->err = errno;
	}
	o->len = 0;
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
