#ifndef NOISECLOCK_CRASH_RECORD_H
#define NOISECLOCK_CRASH_RECORD_H

/// Records the signal of a crash (SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE) in `path`
/// as one line ("SIGILL (signal 4)"), then lets the signal do what it did before (the handler
/// that was installed, or the default: the process ends by the signal). The handler uses only
/// async-signal-safe calls (open, write, fsync, close, sigaction, raise, strlen), which Swift cannot promise:
/// its runtime may lock or allocate. Returns 0, or -1 when the path is too long.
int noiseclock_crash_record_install(const char *path);

#endif
