/* An LD_PRELOAD shim that slows or fails fdatasync(2) for the end-to-end fault tests.
 *
 * Every fdatasync in the process is numbered, from 1. Before each one the shim reads the
 * control file named by FSYNC_FAULT_CONTROL (missing = no fault), which holds
 *     delay_ms=N        sleep N ms before syncing
 *     fail=FROM-TO      calls FROM..TO (inclusive) fail with EIO instead of syncing
 * and it writes the number of the call it is in to FSYNC_FAULT_CONTROL.count, so a test can
 * say "fail the next flush" (fail=count+1-count+1) or wait for a flush to have started.
 * Compiled by the test itself: cc -shared -fPIC -o fsync_fault.so fsync_fault.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_long calls;

static void read_control(const char *path, long *delay_ms, long *fail_from, long *fail_to) {
    FILE *file = fopen(path, "re");
    if (!file) return;
    char word[128];
    while (fscanf(file, "%127s", word) == 1) {
        if (sscanf(word, "delay_ms=%ld", delay_ms) == 1) continue;
        if (sscanf(word, "fail=%ld-%ld", fail_from, fail_to) == 2) continue;
    }
    fclose(file);
}

static void write_count(const char *path, long number) {
    char count_path[4096];
    snprintf(count_path, sizeof count_path, "%s.count", path);
    char temporary[4200];
    snprintf(temporary, sizeof temporary, "%s.tmp%ld", count_path, number);
    FILE *file = fopen(temporary, "we");
    if (!file) return;
    fprintf(file, "%ld\n", number);
    fclose(file);
    rename(temporary, count_path);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    long number = atomic_fetch_add(&calls, 1) + 1;
    const char *control = getenv("FSYNC_FAULT_CONTROL");
    if (control) {
        int saved = errno;
        long delay_ms = 0, fail_from = 0, fail_to = -1;
        read_control(control, &delay_ms, &fail_from, &fail_to);
        write_count(control, number);
        if (delay_ms > 0) {
            struct timespec pause = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
            while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
        }
        errno = saved;
        if (number >= fail_from && number <= fail_to) {
            errno = EIO;
            return -1;
        }
    }
    return real(fd);
}
