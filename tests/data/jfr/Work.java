import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/* A workload for flame's JFR tests: threads with names of their own doing
 * different things (recursion, maps, streams, strings, sleeping), so the
 * recording has JIT-compiled, inlined and interpreted frames, lambdas,
 * deep stacks cut at the JVM's stack depth, and native samples. */
public class Work {
    static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    static int deep(int n) { return n == 0 ? spin(200000) : deep(n - 1) + 1; }

    static int spin(int k) { int s = 0; for (int i = 0; i < k; i++) s += Integer.bitCount(i * 31 + s); return s; }

    static long maps(int rounds) {
        long t = 0;
        for (int r = 0; r < rounds; r++) {
            Map<String, Integer> m = new HashMap<>();
            for (int i = 0; i < 5000; i++) m.merge("k" + (i % 777), i, Integer::sum);
            t += m.values().stream().mapToLong(Integer::longValue).sum();
        }
        return t;
    }

    static String strings(int rounds) {
        List<String> l = new ArrayList<>();
        for (int r = 0; r < rounds; r++)
            l.add(IntStream.range(0, 300).mapToObj(Integer::toHexString).collect(Collectors.joining(";")).toUpperCase());
        return l.get(l.size() - 1).substring(0, 8);
    }

    public static void main(String[] a) throws Exception {
        long end = System.nanoTime() + Long.parseLong(a.length > 0 ? a[0] : "1500") * 1000000L;
        Thread[] ts = {
            new Thread(() -> { while (System.nanoTime() < end) fib(24); }, "fib"),
            new Thread(() -> { while (System.nanoTime() < end) deep(90); }, "deep"),
            new Thread(() -> { while (System.nanoTime() < end) maps(5); }, "maps"),
            new Thread(() -> { while (System.nanoTime() < end) strings(20); }, "strings ; and spaces"),
            new Thread(() -> { try { while (System.nanoTime() < end) Thread.sleep(5); } catch (InterruptedException e) { } }, "sleeper"),
        };
        for (Thread t : ts) t.start();
        for (Thread t : ts) t.join();
    }
}
