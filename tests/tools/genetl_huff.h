/* genetl_huff: genetl's MS-XCA LZ77+Huffman writer (one block: inputs
 * under 64 KiB), included by genetl.c.  The same design as xcahuff.py:
 * greedy LZ77 over a 3-byte hash, Huffman code lengths of at most 15 bits
 * (frequencies halved until they fit), canonical codes in the order the
 * decoder fills its table, and 16-bit words placed where the decoder's
 * position is when it reads them (two ahead, one more whenever fewer
 * than 16 bits are left). */

#define HSYM 512

struct htok {
	uint32_t len, off;	/* a match; len 0: the literal off */
};

struct hbits {
	unsigned char *out;
	size_t n;		/* bytes written */
	size_t word[1 << 17];	/* where each 16-bit word of the stream is */
	size_t nword;
	uint64_t c;		/* bits written */
};

static unsigned hsym(const struct htok *t)
{
	unsigned nb = 0;

	if (!t->len)
		return t->off;
	while ((t->off >> (nb + 1)) != 0)
		nb++;
	return 256 + (nb << 4 | (t->len - 3 < 15 ? t->len - 3 : 15));
}

static size_t htokens(const unsigned char *src, size_t n, struct htok *tok)
{
	static uint32_t last[1 << 14];
	size_t i = 0, nt = 0;

	memset(last, 0xff, sizeof(last));
	while (i < n) {
		size_t len = 0;
		uint32_t h = i + 3 <= n ? ((uint32_t)le(src + i, 3) * 2654435761u) >> 18 : 0;
		uint32_t j = i + 3 <= n ? last[h] : 0xffffffff;

		if (j != 0xffffffff && i - j <= 65535)
			while (i + len < n && src[j + len] == src[i + len])
				len++;
		if (i + 3 <= n)
			last[h] = (uint32_t)i;
		if (len < 3) {
			tok[nt].len = 0;
			tok[nt++].off = src[i++];
			continue;
		}
		tok[nt].len = (uint32_t)len;
		tok[nt++].off = (uint32_t)(i - j);
		i += len;
	}
	return nt;
}

static const uint32_t *hfreq_sort;

static int by_freq(const void *a, const void *b)
{
	uint32_t p = hfreq_sort[*(const int *)a], q = hfreq_sort[*(const int *)b];

	return p < q ? -1 : p > q ? 1 : *(const int *)a - *(const int *)b;
}

/* Huffman code lengths for freq (two queues over the sorted leaves); the
 * longest code, or 0 when there are under two symbols. */
static int hlengths(const uint32_t *freq, unsigned char *len)
{
	int leaf[HSYM], parent[2 * HSYM], depth[2 * HSYM], nl = 0, ni = 0, a = 0, b = 0, k, m = 0;
	uint64_t w[2 * HSYM];

	for (k = 0; k < HSYM; k++)
		if (freq[k])
			leaf[nl++] = k;
	if (nl < 2)
		return 0;
	hfreq_sort = freq;
	qsort(leaf, (size_t)nl, sizeof(*leaf), by_freq);
	for (k = 0; k < nl; k++)
		w[k] = freq[leaf[k]];
	while (ni < nl - 1) {		/* node nl + ni from the two lightest */
		int pick[2];

		for (int p = 0; p < 2; p++)
			pick[p] = a < nl && (b >= ni || w[a] <= w[nl + b]) ? a++ : nl + b++;
		w[nl + ni] = w[pick[0]] + w[pick[1]];
		parent[pick[0]] = parent[pick[1]] = nl + ni;
		ni++;
	}
	depth[nl + ni - 1] = 0;
	for (k = nl + ni - 2; k >= 0; k--)
		depth[k] = depth[parent[k]] + 1;
	memset(len, 0, HSYM);
	for (k = 0; k < nl; k++) {
		len[leaf[k]] = (unsigned char)depth[k];
		if (depth[k] > m)
			m = depth[k];
	}
	return m;
}

static void hput(struct hbits *z, uint32_t v, int n)
{
	int k;

	for (k = n - 1; k >= 0; k--, z->c++)
		if (v >> k & 1)
			z->out[z->word[z->c / 16] + (z->c % 16 < 8)] |=
				(unsigned char)(1u << (7 - z->c % 8));
	if (n && z->c > 16 * (uint64_t)(z->nword - 1)) {
		z->word[z->nword++] = z->n;
		z->out[z->n++] = 0;
		z->out[z->n++] = 0;
	}
}

/* Compresses src (n bytes, n < 65536) into out; returns the size. */
static size_t huff(const unsigned char *src, size_t n, unsigned char *out)
{
	static struct htok tok[1 << 16];
	static struct hbits z;
	uint32_t freq[HSYM] = { 0 }, code[HSYM], at = 0;
	unsigned char len[HSYM];
	size_t nt = htokens(src, n, tok), k;
	int l, s;

	for (k = 0; k < nt; k++)
		freq[hsym(&tok[k])]++;
	freq[256]++;			/* the end */
	freq[0] += freq[0] == 0 && nt == 0;	/* two symbols at least */
	while (hlengths(freq, len) > 15)
		for (s = 0; s < HSYM; s++)
			freq[s] = freq[s] ? freq[s] / 2 + 1 : 0;
	for (l = 1; l <= 15; l++)
		for (s = 0; s < HSYM; s++)
			if (len[s] == l) {
				code[s] = at >> (15 - l);
				at += 1u << (15 - l);
			}
	memset(out, 0, 260);
	for (s = 0; s < HSYM; s++)
		out[s >> 1] |= (unsigned char)(len[s] << (4 * (s & 1)));
	z.out = out;
	z.n = 260;
	z.word[0] = 256;
	z.word[1] = 258;
	z.nword = 2;
	z.c = 0;
	for (k = 0; k < nt; k++) {
		uint32_t sy = hsym(&tok[k]), nb = (sy >> 4) & 15, rest = tok[k].len - 3;

		hput(&z, code[sy], len[sy]);
		if (sy < 256)
			continue;
		if (rest >= 15) {
			if (rest - 15 < 255) {
				out[z.n++] = (unsigned char)(rest - 15);
			} else {
				out[z.n++] = 255;
				put_le(out + z.n, rest, 2);
				z.n += 2;
			}
		}
		hput(&z, tok[k].off - (1u << nb), (int)nb);
	}
	hput(&z, code[256], len[256]);
	return z.n;
}
