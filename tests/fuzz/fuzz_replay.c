/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main() of a fuzz target without libFuzzer: run LLVMFuzzerTestOneInput()
 * once on every file named, and on every file of every folder named (in
 * name order), as `target -runs=0 DIR...` would. A folder that does not
 * exist counts as empty (git keeps no empty folder); no input at all is an
 * error, so that a test cannot pass on nothing. A failing input aborts
 * with its check's message, after this has printed its path.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static unsigned long replayed;

static int
replay_file(const char *path)
{
	uint8_t *buf;
	size_t n;
	long len;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return -1;
	}
	rewind(f);
	/* One byte more: malloc(0) may return NULL. */
	buf = malloc((size_t)len + 1);
	n = buf != NULL ? fread(buf, 1, (size_t)len, f) : 0;
	fclose(f);
	if (buf == NULL || n != (size_t)len) {
		fprintf(stderr, "replay: %s: short read\n", path);
		free(buf);
		return -1;
	}
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	replayed++;
	return 0;
}

static int
replay_dir(const char *path)
{
	struct dirent **ents;
	char file[PATH_MAX];
	int n, i, rc = 0;

	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return errno == ENOENT ? 0 : -1;
	for (i = 0; i < n; i++) {
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s", path, ents[i]->d_name);
		if (rc == 0 && ents[i]->d_name[0] != '.' &&
				stat(file, &st) == 0 && S_ISREG(st.st_mode))
			rc = replay_file(file);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int
main(int argc, char **argv)
{
	struct stat st;
	int i, rc = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc && rc == 0; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			rc = replay_dir(argv[i]);
		else if (stat(argv[i], &st) == 0)
			rc = replay_file(argv[i]);
		else
			fprintf(stderr, "replay: %s: not there, skipped\n",
					argv[i]);
	}
	printf("replayed %lu inputs\n", replayed);
	if (rc != 0 || replayed == 0) {
		fprintf(stderr, "replay: %s\n", rc != 0 ? "read error" :
				"no input to replay");
		return 1;
	}
	return 0;
}
