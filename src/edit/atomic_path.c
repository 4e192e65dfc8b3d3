/* Where a replacement of a path happens, and writing a buffer whole
 * (atomic_path.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_path.h"
#include "path_glob.h"
#include "xalloc.h"

/* The target of the link `path`: its text, relative to the link's directory
 * unless absolute. Newly allocated; NULL with errno set. */
static char *link_target(const char *path)
{
	size_t cap = 256;
	char *text = NULL;
	ssize_t n;

	for (;;) {
		text = xrealloc(text, cap);
		n = readlink(path, text, cap);
		if (n < 0) {
			free(text);
			return NULL;
		}
		if ((size_t)n < cap)
			break;
		cap *= 2;
	}
	text[n] = '\0';
	if (text[0] != '/' && strrchr(path, '/')) {
		const char *slash = strrchr(path, '/');
		char *joined = xasprintf("%.*s/%s", (int)(slash - path), path, text);
		free(text);
		return joined;
	}
	return text;
}

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N...: a stream the caller's shell
 * opened, whatever it points at (a pipe, a terminal, or a file opened with
 * > or >>). Other files under /dev (say /dev/shm, a tmpfs) are ordinary. */
static bool is_stream_path(const char *path)
{
	return strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0 ||
	       strncmp(path, "/dev/fd/", 8) == 0 || (strncmp(path, "/proc/", 6) == 0 && strstr(path + 6, "/fd/"));
}

int atomic_resolve(const char *path, char **target, bool *in_place, struct diag *diag)
{
	struct stat st;
	char *p;

	*target = NULL;
	*in_place = false;
	/* what the path names in the end (links followed by the kernel) */
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write: it is a directory");
			return -1;
		}
		if (!S_ISREG(st.st_mode) || is_stream_path(path)) {
			/* written through the path as given: the kernel knows where a
			 * pipe:[N] or a descriptor link leads, a hand-made path would not */
			*target = xstrdup(path);
			*in_place = true;
			return 0;
		}
	}
	/* a regular file (or a new one): follow the links by hand to the file the
	 * rename must replace, so that the links stay */
	p = xstrdup(path);
	for (int hops = 0;; hops++) {
		char *next;
		if (lstat(p, &st) != 0) {
			*target = p; /* a new file (maybe the missing target of a link): created */
			return 0;
		}
		if (!S_ISLNK(st.st_mode))
			break;
		if (hops == 40 || !(next = link_target(p))) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write through this symbolic link: %s",
				 hops == 40 ? strerror(ELOOP) : strerror(errno));
			free(p);
			return -1;
		}
		free(p);
		p = next;
	}
	*target = p;
	return 0;
}

int atomic_write_fd(int fd, const char *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

