/*
 * sandboxed.c - a profilee that sandboxes itself as xz does: after start-up
 * it restricts itself with Landlock so that it can no longer open any file
 * for reading (/proc/self/maps included), then does known work:
 * main -> work -> hot_a (2/3) and cold_b (1/3), both -> spin.
 * Exits 77 when the kernel refuses Landlock. Usage: sandboxed [rounds=300]
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile uint64_t sink;

__attribute__((noinline, noclone)) static uint64_t spin(uint64_t n)
{
    uint64_t x = n;
    for (uint64_t i = 0; i < n * 16; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

__attribute__((noinline, noclone)) static void hot_a(uint64_t n)
{
    sink += spin(2 * n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline, noclone)) static void cold_b(uint64_t n)
{
    sink += spin(n);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline, noclone)) static void work(long rounds)
{
    for (long r = 0; r < rounds; r++) {
        hot_a(20000);
        cold_b(20000);
    }
}

static int sandbox(void)
{
    struct landlock_ruleset_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |
                             LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
    int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (fd < 0) {
        printf("sandboxed: the kernel refuses Landlock: %s\n", strerror(errno));
        return 77;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_landlock_restrict_self, fd, 0) != 0) {
        printf("sandboxed: landlock_restrict_self: %s\n", strerror(errno));
        return 77;
    }
    close(fd);
    int maps = open("/proc/self/maps", O_RDONLY);
    if (maps >= 0) {
        printf("sandboxed: /proc/self/maps is still readable\n");
        return 1;
    }
    printf("sandboxed: no file can be opened now\n");
    return 0;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 300;
    int err = sandbox();
    if (err)
        return err;
    work(rounds);
    printf("sandboxed: done %llu\n", (unsigned long long)(sink & 1));
    return 0;
}
