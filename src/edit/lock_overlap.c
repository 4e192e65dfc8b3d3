/* Finding a run of autotrace on a tree above or below this run's. See
 * lock_overlap.h. */
#include "lock_overlap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_glob.h"
#include "xalloc.h"

struct own {
	const dev_t *dev;
	const ino_t *ino;
	size_t n;
};

/* True when DIR/.autotrace/lock is a lock file another process holds. */
static bool held_elsewhere(const char *dir, const struct own *own, char **found)
{
	char *state = path_join(dir, ".autotrace"), *lock = path_join(state, "lock");
	struct stat st;
	bool busy = false;
	int fd;

	free(state);
	if (lstat(lock, &st) == 0 && S_ISREG(st.st_mode)) {
		bool mine = false;
		for (size_t i = 0; i < own->n && !mine; i++)
			mine = own->dev[i] == st.st_dev && own->ino[i] == st.st_ino;
		/* a shared lock is refused while another holds it exclusively;
		 * closing the descriptor drops ours */
		if (!mine && (fd = open(lock, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) >= 0) {
			busy = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
			close(fd);
		}
	}
	if (busy)
		*found = lock;
	else
		free(lock);
	return busy;
}

static bool below(const char *dir, int depth, const struct own *own, char **found)
{
	DIR *d;
	struct dirent *de;
	bool busy = false;

	if (depth > PATH_WALK_DEPTH || !(d = opendir(dir)))
		return false;
	while (!busy && (de = readdir(d))) {
		char *sub;
		struct stat st;
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		sub = path_join(dir, de->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			busy = held_elsewhere(sub, own, found) || below(sub, depth + 1, own, found);
		free(sub);
	}
	closedir(d);
	return busy;
}

char *lock_overlap_find(const char *root, const dev_t *own_dev, const ino_t *own_ino, size_t nown)
{
	struct own own = { own_dev, own_ino, nown };
	char *found = NULL, *d = xstrdup(root);

	/* above: every ancestor up to / */
	while (!found && strcmp(d, "/") != 0) {
		char *slash = strrchr(d, '/');
		if (!slash)
			break;
		if (slash == d)
			slash[1] = '\0';
		else
			*slash = '\0';
		held_elsewhere(d, &own, &found);
	}
	free(d);
	if (!found)
		below(root, 0, &own, &found);
	return found;
}
