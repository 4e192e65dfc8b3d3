/* Runs a LLVMFuzzerTestOneInput target without libFuzzer: over the files
 * given, or (bare, as `make check` runs it) over every file under
 * $TOP_SRCDIR/tests/collect/fixtures, each whole, cut at many lengths
 * ("chop") and with bytes flipped at many offsets. A crash or a sanitizer
 * report fails the run; the verdict is printed as TAP. With libFuzzer,
 * build the target alone with -fsanitize=fuzzer instead. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long runs;

static void one(const unsigned char *data, size_t len)
{
	/* a private copy, exactly `len` bytes long, so overreads are caught */
	unsigned char *copy = malloc(len ? len : 1);
	memcpy(copy, data, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
	runs++;
}

static void mutate(const unsigned char *data, size_t len)
{
	size_t step = len / 97 + 1;
	unsigned char *m = malloc(len ? len : 1);

	one(data, len);
	for (size_t cut = 0; cut < len; cut += (cut < 64 ? 1 : step))
		one(data, cut);
	memcpy(m, data, len);
	for (size_t i = 0; i < len; i += (i < 128 ? 1 : step)) {
		static const unsigned char flips[] = { 0xFF, 0x01, 0x80 };
		for (size_t f = 0; f < sizeof(flips); f++) {
			m[i] ^= flips[f];
			one(m, len);
			m[i] ^= flips[f];
		}
		m[i] = 0;
		one(m, len);
		m[i] = data[i];
	}
	free(m);
}

static void file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long len;

	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, f) == (size_t)len)
		mutate(buf, (size_t)len);
	fclose(f);
	free(buf);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk(path);
		else if (st.st_size < (1 << 20))
			file(path);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP_SRCDIR");
	char dir[4096];

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			file(argv[i]);
		printf("%lu runs\n", runs);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/tests/collect/fixtures", top ? top : ".");
	puts("1..1");
	walk(dir);
	if (runs == 0) {
		printf("not ok 1 - no fixture found under %s\n", dir);
		return 1;
	}
	printf("ok 1 - %s: %lu inputs without a crash\n", argv[0], runs);
	return 0;
}
