/* Loading source files and mapping byte offsets to lines and columns. */
#define _GNU_SOURCE /* memmem(3) */
#include <string.h>

#include "src_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byte_size.h"
#include "xalloc.h"

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool src_file_has_word(const struct src_file *f, const char *word, bool prefix_ok)
{
	size_t n = strlen(word);
	const char *s = f->data, *end = f->data + f->len;

	if (!n)
		return false;
	while ((s = memmem(s, (size_t)(end - s), word, n)) != NULL) {
		bool left = s == f->data || !word_char(s[-1]);
		bool right = s + n == end || prefix_ok || !word_char(s[n]);
		if (left && right)
			return true;
		s++;
	}
	return false;
}

bool src_file_has_literal(const struct src_file *f, const char *name)
{
	size_t n = strlen(name);
	const char *s = f->data, *end = f->data + f->len;

	while ((s = memmem(s, (size_t)(end - s), name, n)) != NULL) {
		if (s > f->data && (s[-1] == '"' || s[-1] == '\'')) {
			char c = s + n < end ? s[n] : '\0';
			if (c == '"' || c == '\'' || c == '(' || c == ' ' || c == '.')
				return true;
		}
		s++;
	}
	return false;
}

bool src_file_is_cxx_name(const char *path)
{
	static const char *const exts[] = { ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp",
					    ".hxx", ".h++", ".inl", ".ipp", ".tcc", ".cu", ".cuh" };
	const char *slash = strrchr(path, '/'), *dot = strrchr(slash ? slash : path, '.');

	if (!dot)
		return false;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (strcmp(dot, exts[i]) == 0)
			return true;
	return false;
}

struct src_file *src_file_from_buffer(const char *path, const char *data, size_t len)
{
	struct src_file *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->data = xmalloc(len + 1);
	memcpy(f->data, data, len);
	f->data[len] = '\0';
	f->len = len;
	return f;
}

/* Why the last src_file_load of this thread refused a file that opened
 * ("" when it was not that). */
static _Thread_local char refused[160];
static _Thread_local int refused_errno;

static uint64_t max_bytes = SRC_FILE_MAX_DEFAULT;

void src_file_set_max(uint64_t bytes)
{
	max_bytes = bytes == 0 ? 1 : bytes > SRC_FILE_MAX_LIMIT ? SRC_FILE_MAX_LIMIT : bytes;
}

uint64_t src_file_max(void)
{
	return max_bytes;
}

const char *src_file_strerror(int err)
{
	return err == refused_errno && refused[0] ? refused : strerror(err);
}

/* Refuses a file of `size` bytes over `max`: EFBIG, with why. */
static void refuse_size(uint64_t size, uint64_t max, bool bound)
{
	char a[32], b[32];

	if (bound)
		snprintf(refused, sizeof(refused),
			 "%s, over the bound of %s on a file read (the global option --max-file-size raises it)",
			 byte_size_text(size, a, sizeof(a)), byte_size_text(max, b, sizeof(b)));
	else
		snprintf(refused, sizeof(refused), "%s, over the %s a file read can have",
			 byte_size_text(size, a, sizeof(a)), byte_size_text(max, b, sizeof(b)));
	refused_errno = EFBIG;
	errno = EFBIG;
}

struct src_file *src_file_load(const char *path)
{
	return src_file_load_max(path, max_bytes);
}

struct src_file *src_file_load_max(const char *path, uint64_t max)
{
	struct src_file *f = NULL;
	/* O_NONBLOCK: a FIFO opens at once (to be refused), with no writer */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t got = 0, cap;
	int saved;
	bool bound = max < SRC_FILE_MAX_LIMIT; /* the bound the option sets, not the offsets' */

	if (!bound)
		max = SRC_FILE_MAX_LIMIT;
	refused[0] = '\0';
	refused_errno = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		/* a device or FIFO never ends (/dev/zero) or waits for a writer:
		 * what autotrace reads is a file */
		snprintf(refused, sizeof(refused), "not a regular file (%s)",
			 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ? "a character device" :
			 S_ISBLK(st.st_mode) ? "a block device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file");
		refused_errno = EINVAL;
		errno = EINVAL;
		goto fail;
	}
	if ((uint64_t)st.st_size > max) {
		/* before a byte is read: a file of a GB costs nothing */
		refuse_size((uint64_t)st.st_size, max, bound);
		goto fail;
	}
	/* the size stat gives (more when the file grows while read) */
	cap = (size_t)st.st_size + 1;
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->data = xmalloc(cap + 1);
	for (;;) {
		ssize_t n;
		if (got == cap) {
			/* it grew while read: past the bound, refused all the same */
			if (cap > max) {
				refuse_size(cap, max, bound);
				goto fail;
			}
			cap = cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;
			f->data = xrealloc(f->data, cap + 1);
		}
		n = read(fd, f->data + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			errno = EIO;
			goto fail;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		/* read up to its size: the reading is done */
		if (got == (size_t)st.st_size)
			break;
	}
	f->len = got;
	f->data[got] = '\0';
	close(fd);
	return f;
fail:
	saved = errno;
	close(fd);
	src_file_free(f);
	errno = saved;
	return NULL;
}

void src_file_free(struct src_file *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->data);
	free(f->lines);
	free(f);
}

static void build_lines(const struct src_file *cf)
{
	struct src_file *f = (struct src_file *)cf; /* the table is a cache */
	size_t cap = 0, n = 0;
	uint32_t *lines = NULL;

	XGROW(lines, cap, n + 1);
	lines[n++] = 0;
	for (const char *p = f->data, *end = f->data + f->len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL;) {
		p++;
		XGROW(lines, cap, n + 1);
		lines[n++] = (uint32_t)(p - f->data);
	}
	f->lines = lines;
	f->nlines = n;
}

size_t src_file_line(const struct src_file *f, uint32_t off)
{
	size_t lo = 0, hi;

	if (!f->lines)
		build_lines(f);
	hi = f->nlines;
	if (off > f->len)
		off = (uint32_t)f->len;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

uint32_t src_file_line_start(const struct src_file *f, size_t line)
{
	if (!f->lines)
		build_lines(f);
	if (line < 1)
		line = 1;
	if (line > f->nlines)
		line = f->nlines;
	return f->lines[line - 1];
}

size_t src_file_line_length(const struct src_file *f, size_t line)
{
	uint32_t start = src_file_line_start(f, line);
	size_t end = start;

	while (end < f->len && f->data[end] != '\n')
		end++;
	if (end > start && f->data[end - 1] == '\r')
		end--;
	return end - start;
}

size_t src_file_column(const struct src_file *f, uint32_t off)
{
	uint32_t start;
	size_t col = 1;

	if (off > f->len)
		off = (uint32_t)f->len;
	start = src_file_line_start(f, src_file_line(f, off));
	for (uint32_t i = start; i < off; i++)
		if (((unsigned char)f->data[i] & 0xC0) != 0x80)
			col++;
	return col;
}
