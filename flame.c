/* flame: one command from any supported profile to a flame graph.  The
 * front end arrives with the collapsers; for now it explains itself. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		puts("flame " FLAME_VERSION);
		return 0;
	}
	fputs("Usage: flame [options] INPUT... [-o OUT.svg]\n"
	      "Not implemented yet: until it is, collapse the profile and run\n"
	      "  flamegraph [options] stacks.folded > graph.svg\n", argc > 1 &&
	      strcmp(argv[1], "--help") == 0 ? stdout : stderr);
	return argc > 1 && strcmp(argv[1], "--help") == 0 ? 0 : 2;
}
