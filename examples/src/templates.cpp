// A C++ workload for example profiles: templates, std::function, lambdas,
// maps and an anonymous namespace, so frame names have spaces, angle
// brackets and parentheses.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

template <typename T>
struct Matrix {
	std::vector<T> v;
	size_t n;
	explicit Matrix(size_t n_) : v(n_ * n_), n(n_) {}
	__attribute__((noinline)) Matrix multiply(const Matrix &o) const {
		Matrix r(n);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < n; k++)
				for (size_t j = 0; j < n; j++)
					r.v[i * n + j] += v[i * n + k] * o.v[k * n + j];
		return r;
	}
};

template <typename K, typename V>
__attribute__((noinline)) V tally(const std::vector<K> &keys) {
	std::map<K, V> m;
	for (const auto &k : keys)
		m[k] += 1;
	V best = 0;
	for (const auto &kv : m)
		best = std::max(best, kv.second);
	return best;
}

__attribute__((noinline)) std::vector<std::string> words(int n) {
	std::vector<std::string> out;
	for (int i = 0; i < n; i++)
		out.push_back("w" + std::to_string((i * 7919) % 5003));
	return out;
}

}  // namespace

int main() {
	std::function<double(int, int)> mat = [](int n, int reps) {
		Matrix<double> a(n), b(n);
		for (size_t i = 0; i < a.v.size(); i++) {
			a.v[i] = (double)(i % 7);
			b.v[i] = (double)(i % 5);
		}
		double s = 0;
		for (int r = 0; r < reps; r++)
			s += a.multiply(b).v[0];
		return s;
	};
	std::function<long(int)> strings = [](int n) {
		auto w = words(n);
		std::sort(w.begin(), w.end());
		return tally<std::string, long>(w);
	};
	double total = 0;
	for (int round = 0; round < 6; round++) {
		total += mat(160, 2);
		total += (double)strings(200000);
		total += (double)tally<int, int>(std::vector<int>(300000, round));
	}
	std::printf("%f\n", total);
	return 0;
}
