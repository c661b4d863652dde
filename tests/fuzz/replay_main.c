/* Runs a fuzz target over corpus files without libFuzzer, so make check
 * (and make asan) replay every saved input.  Prints "N passed, N failed". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i, done = 0;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long n;

		if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) {
			printf("FAIL cannot read %s\n", argv[i]);
			return 1;
		}
		rewind(f);
		buf = malloc((size_t)n + 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			printf("FAIL cannot read %s\n", argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
		done++;
	}
	printf("%d passed, 0 failed\n", done);
	return 0;
}
