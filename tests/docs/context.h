/*
 * context.h - what the examples of docs/writing-benchmarks.md use without
 * defining it (their data, the code they time), declared so that each
 * example compiles exactly as printed (examples.py). Declarations only:
 * the examples are compiled, not linked.
 */
#include <benchlab.h>

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

/* Steps of n repetitions: hash8 */
extern const unsigned long keys[8];
extern unsigned long out[8];
void hash8(const unsigned long *k, unsigned long *o);

/* Parameters: sort_with */
extern int *input;
void sort_with(const char *algo, int *a, long long n);

/* A benchmark's own plan: handshake, the GPU */
struct connection;
extern struct connection *conn;
void handshake(struct connection *c);
double launch_and_time_on_the_gpu(void);

/* Setup and teardown */
struct data {
    int *a;
    size_t n;
};
void refill(struct data *d);
void make_data(bl_state *st);
void sort(int *a, size_t n);

/* Complexity */
void run_steps(bl_state *st, long n);

/* Multi-threaded benchmarks */
extern atomic_ulong shared_counter;
extern struct {
    _Alignas(64) atomic_ulong n;
} own_counter[BL_MAX_THREADS];

/* Metrics */
extern unsigned long hits;
extern double score, depth;
