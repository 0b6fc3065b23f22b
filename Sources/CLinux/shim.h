// Linux headers Swift's Glibc module leaves out.
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/inotify.h>
#include <pthread.h>
#include <sys/timex.h>

// GNU extensions (thread names) that Glibc's module hides without _GNU_SOURCE.
int pthread_setname_np(pthread_t thread, const char *name);
int pthread_getname_np(pthread_t thread, char *name, size_t size);
