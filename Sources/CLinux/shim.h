// Linux headers Swift's Glibc module leaves out.
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/inotify.h>
#include <sys/eventfd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <sys/timex.h>

// GNU extensions (thread names) that Glibc's module hides without _GNU_SOURCE.
int pthread_setname_np(pthread_t thread, const char *name);
int pthread_getname_np(pthread_t thread, char *name, size_t size);
// accept4 (GNU): the accepted socket non-blocking and close-on-exec in one call.
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
// renameat2 (GNU): RENAME_EXCHANGE swaps two names atomically (the state store's spare file).
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
// mallopt (M_MMAP_THRESHOLD): large blocks as mappings of their own, given back when freed.
#include <malloc.h>
// gettid (GNU, glibc 2.30): the calling thread's id, for per-thread nice (`BackgroundPriority`).
pid_t gettid(void);
