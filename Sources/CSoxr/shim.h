// libsoxr, the SoX resampler (Debian: libsoxr-dev).
#include <soxr.h>
