/* A file mapped for one pass, its read part given back. See file_map.h. */
#include "file_map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

struct file_map *file_map_open(const char *path)
{
	/* O_NONBLOCK: a FIFO opens at once (to be refused), with no writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), saved;
	struct stat st;
	struct file_map *m;
	void *p = NULL;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		errno = EFBIG;
		goto fail;
	}
	if (st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			goto fail;
		/* read ahead far: the pass goes from start to end */
		(void)madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	}
	close(fd);
	m = xcalloc(1, sizeof(*m));
	m->data = p ? p : (const unsigned char *)"";
	m->len = (size_t)st.st_size;
	return m;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return NULL;
}

void file_map_release(struct file_map *m, size_t offset)
{
	size_t page, upto;

	if (offset > m->len)
		offset = m->len;
	if (offset <= m->released || offset - m->released < FILE_MAP_STEP)
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
	upto = offset / page * page;
	/* a private mapping never written to: its pages come back from the
	 * file when touched again */
	(void)madvise((unsigned char *)m->data + m->released, upto - m->released, MADV_DONTNEED);
	m->released = upto;
}

void file_map_close(struct file_map *m)
{
	if (!m)
		return;
	if (m->len)
		munmap((void *)m->data, m->len);
	free(m);
}
