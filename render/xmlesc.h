/* xmlesc: untrusted bytes written as well-formed XML.  Invalid UTF-8,
 * NUL and other control characters (but tab) and U+FFFE/U+FFFF become
 * U+FFFD; & < > " become entities.  The result is always valid UTF-8
 * XML character data, usable in text and in double-quoted attributes. */
#ifndef FLAME_XMLESC_H
#define FLAME_XMLESC_H

#include <stddef.h>
#include <stdio.h>

/* Decodes one character of s (len > 0) into *cp, U+FFFD for a byte that
 * does not start valid UTF-8 or a character XML forbids.  Returns the
 * bytes consumed, at least 1. */
size_t xmlesc_char(const char *s, size_t len, unsigned *cp);

/* The number of characters in s, as xmlesc_char splits them. */
size_t xmlesc_count(const char *s, size_t len);

/* Writes at most maxchars characters of s, escaped.  Returns the bytes of
 * s consumed. */
size_t xmlesc_write(FILE *f, const char *s, size_t len, size_t maxchars);

/* Writes s escaped for the inside of an XML comment: also no "--" and no
 * final '-'. */
void xmlesc_comment(FILE *f, const char *s, size_t len);

#endif
