/* fakesym: stands in for llvm-symbolizer in the Windows suite, which has
 * no Windows build of it.  Asked "0xADDR" a line, it answers as
 * --output-style=GNU does, two lines (ending in CRLF, by a Windows
 * program's text mode): "at_0xADDR_BASENAME" and "??:0", BASENAME being the
 * file its --obj= argument names.  When that file cannot be opened (an
 * argument split or mangled on its way), every answer is "??". */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *obj = NULL, *base;
	char line[256];
	FILE *f;
	int i, ok;

	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], "--obj=", 6) == 0)
			obj = argv[i] + 6;
	f = obj ? fopen(obj, "rb") : NULL;
	ok = f != NULL;
	if (f)
		fclose(f);
	base = obj ? obj + strlen(obj) : "";
	while (base > obj && base[-1] != '/' && base[-1] != '\\')
		base--;
	setvbuf(stdout, NULL, _IONBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (ok)
			printf("at_%s_%s\n??:0\n", line, base);
		else
			printf("??\n??:0\n");
	}
	return 0;
}
