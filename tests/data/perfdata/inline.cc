// Inlined C++: templates, a lambda, std::sort and a namespace, -O2.
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace shapes {
template <class T> struct Acc {
	T v = 0;
	void add(T x) { v = v * 31 + x; }
	T get() const { return v; }
};
}

static volatile long sink;

__attribute__((noinline)) long work(std::vector<long> &v)
{
	shapes::Acc<long> a;
	auto sq = [](long x) { return x * x ^ (x >> 3); };
	std::sort(v.begin(), v.end(), [](long x, long y) { return (x ^ 0x55) < (y ^ 0x55); });
	for (long x : v)
		a.add(sq(x));
	return a.get();
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	std::vector<long> v;

	for (long r = 0; r < n; r++) {
		v.clear();
		for (long i = 0; i < 20000; i++)
			v.push_back((i * 7919 + r) % 10007);
		sink = work(v);
	}
	return 0;
}
