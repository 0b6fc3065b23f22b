// Linux headers Swift's Glibc module leaves out.
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/inotify.h>
