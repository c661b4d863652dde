// A small C++ program for the symbol resolver's tests: a class template's
// member, an overloaded function, a function with internal linkage, and
// one whose demangled name passes 1024 bytes (a template over a wide tuple).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>

namespace ns {
template <class T> struct Box {
	T v;
	__attribute__((noinline)) T spin(int n);
};
}

template <class T> T ns::Box<T>::spin(int n)
{
	T s = v;
	for (int i = 0; i < n; i++) {
		s = s * 3 + i;
		if ((i & 0xffff) == 0)
			s += (T)rand();
	}
	return s;
}

static __attribute__((noinline)) long local_fn(long x)
{
	long s = 0;
	for (long i = 0; i < x; i++)
		s += (i * i) ^ (s >> 3);
	return s;
}

__attribute__((noinline)) long overloaded(long x, const std::string &) { return local_fn(x); }
__attribute__((noinline)) long overloaded(int x) { return local_fn(x) + 1; }

typedef std::string S;
typedef std::tuple<S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S> Wide;

template <class T> __attribute__((noinline)) long wide_name(long x)
{
	long s = (long)sizeof(T);
	for (long i = 0; i < x; i++)
		s += (i * i) ^ (s >> 5);
	return s;
}

int main(int argc, char **argv)
{
	ns::Box<long> b{1};
	long t = 0, n = argc > 1 ? atol(argv[1]) : 10;

	for (int k = 0; k < (argc > 2 ? atoi(argv[2]) : 1); k++) {
		t += b.spin((int)n * 2);
		t += overloaded(n, "x") + overloaded((int)n);
		t += wide_name<Wide>(n);
	}
	printf("%ld\n", t);
	return (int)(t & 1);
}
