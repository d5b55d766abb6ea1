/*
 * tracecases.c - the call structures a tracer gets wrong: recursion, longjmp
 * out of nested calls, a thread leaving through pthread_exit. Exact counts:
 * fib 21891 calls (fib(20)), catcher 10, thrower 40, after_jump 10,
 * quitter 1, inner_exit 1. With an argument: exit while a thread still traces.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <time.h>

static jmp_buf jump;
static volatile int sink;

__attribute__((noinline)) int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) void thrower(int depth)
{
    if (depth == 0)
        longjmp(jump, 1);
    thrower(depth - 1);
    sink++;
}

__attribute__((noinline)) void after_jump(void)
{
    for (int i = 0; i < 20000; i++) /* enough self time to show in folded stacks */
        sink++;
}

__attribute__((noinline)) void catcher(void)
{
    if (setjmp(jump) == 0)
        thrower(3);
    after_jump();
}

__attribute__((noinline)) void inner_exit(void)
{
    pthread_exit(NULL);
}

__attribute__((noinline)) void *quitter(void *arg)
{
    (void)arg;
    inner_exit();
    return NULL;
}

/* Never joined: still making calls (and growing its tree) when main returns. */
__attribute__((noinline)) void *runaway(void *arg)
{
    (void)arg;
    for (int depth = 1;; depth = depth % 20 + 1)
        sink += fib(depth);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) { /* "runaway": exit while another thread is tracing */
        pthread_t r;
        pthread_create(&r, NULL, runaway, NULL);
        pthread_detach(r);
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
        printf("tracecases: runaway\n");
        return 0;
    }
    sink = fib(20);
    for (int i = 0; i < 10; i++)
        catcher();
    pthread_t t;
    pthread_create(&t, NULL, quitter, NULL);
    pthread_join(t, NULL);
    printf("tracecases: %d\n", sink);
    return 0;
}
