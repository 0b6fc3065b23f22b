#include "crash_record.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static char record_path[4096];
static const int recorded[] = {SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE};
#define RECORDED_COUNT (sizeof recorded / sizeof recorded[0])
static struct sigaction previous[RECORDED_COUNT];

static const char *line_for(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV (signal 11): invalid memory access\n";
    case SIGILL: return "SIGILL (signal 4): a trap (a Swift runtime check: overflow, fatalError, force unwrap, out of bounds)\n";
    case SIGTRAP: return "SIGTRAP (signal 5): a trap (a Swift runtime check: overflow, fatalError, force unwrap, out of bounds)\n";
    case SIGABRT: return "SIGABRT (signal 6): aborted\n";
    case SIGBUS: return "SIGBUS (signal 7): bus error\n";
    case SIGFPE: return "SIGFPE (signal 8): arithmetic exception\n";
    default: return "a fatal signal\n";
    }
}

static void record(int signal) {
    int fd = open(record_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
    if (fd >= 0) {
        const char *line = line_for(signal);
        size_t length = strlen(line);
        while (length > 0) {
            ssize_t written = write(fd, line, length);
            if (written <= 0) break;
            line += written;
            length -= (size_t)written;
        }
        fsync(fd);
        close(fd);
    }
    // What was there before (the Swift runtime's backtracer, or the default) takes the signal:
    // a fault re-executes and raises it again, an abort is raised again here.
    for (size_t i = 0; i < RECORDED_COUNT; i++) {
        if (recorded[i] == signal) sigaction(signal, &previous[i], NULL);
    }
    raise(signal);
}

int noiseclock_crash_record_install(const char *path) {
    size_t length = strlen(path);
    if (length + 1 > sizeof record_path) return -1;
    memcpy(record_path, path, length + 1);
    for (size_t i = 0; i < RECORDED_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = record;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND | SA_ONSTACK;
        sigaction(recorded[i], &action, &previous[i]);
    }
    return 0;
}
