/* Smoke-test driver for fuzz targets: runs LLVMFuzzerTestOneInput on every
 * file under the directories (or the files) given, or under
 * $TOP_SRCDIR/tests/scan when none is given, then on mutations of each: every
 * prefix cut at a stride ("chop"), and inputs with bytes deleted or set to
 * brackets and quotes. Prints TAP, one line per input file. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned ntests;

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!fp)
		return NULL;
	do {
		if (n + 65536 > cap) {
			cap = (cap + 65536) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	fclose(fp);
	*len = n;
	return buf;
}

static void run_file(const char *path)
{
	static const char noise[] = "{}()<>\"'#\\/*\n;";
	size_t len, stride;
	char *buf = slurp(path, &len), *mut;
	unsigned seed = 1;

	if (!buf) {
		printf("not ok %u - %s (unreadable)\n", ++ntests, path);
		return;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	stride = len / 64 + 1;
	for (size_t cut = 0; cut < len; cut += stride)
		LLVMFuzzerTestOneInput((const uint8_t *)buf, cut);
	mut = malloc(len + 1);
	for (int round = 0; round < 64 && len > 0; round++) {
		size_t at;
		memcpy(mut, buf, len);
		seed = seed * 1103515245u + 12345u;
		at = (seed >> 8) % len;
		if (round % 2) {
			mut[at] = noise[(seed >> 4) % (sizeof(noise) - 1)];
			LLVMFuzzerTestOneInput((const uint8_t *)mut, len);
		} else {
			memmove(mut + at, mut + at + 1, len - at - 1);
			LLVMFuzzerTestOneInput((const uint8_t *)mut, len - 1);
		}
	}
	free(mut);
	free(buf);
	printf("ok %u - %s\n", ++ntests, path);
	fflush(stdout);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (stat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		const char *dot = strrchr(path, '.');
		if (dot && (strcmp(dot, ".cpp") == 0 || strcmp(dot, ".h") == 0 || strcmp(dot, ".hpp") == 0 ||
			    strcmp(dot, ".cc") == 0 || strcmp(dot, ".c") == 0 || strcmp(dot, ".inl") == 0))
			run_file(path);
		return;
	}
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)) != NULL) {
		size_t l;
		if (e->d_name[0] == '.')
			continue;
		l = strlen(path) + strlen(e->d_name) + 2;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n] = malloc(l);
		if (!names || !names[n])
			abort();
		snprintf(names[n++], l, "%s/%s", path, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		walk(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	char *def = NULL;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			walk(argv[i]);
	} else {
		const char *top = getenv("TOP_SRCDIR");
		size_t l = strlen(top ? top : ".") + 16;
		def = malloc(l);
		if (!def)
			abort();
		snprintf(def, l, "%s/tests/scan", top ? top : ".");
		walk(def);
	}
	printf("1..%u\n", ntests);
	free(def);
	return 0;
}
