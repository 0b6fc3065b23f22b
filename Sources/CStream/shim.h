// The radio's stream libraries (docs/sounds.md, "Radio: why these libraries"): libcurl (Debian:
// libcurl4-openssl-dev) for HTTP(S), libfaad2 (libfaad-dev) for AAC LC and HE-AAC; MP3, Vorbis,
// Opus and FLAC come from libmpg123, libvorbis, libopus and libFLAC, which libsndfile already
// maps into every node. Types and constants only: nothing is linked. StreamLibrary opens them
// with dlopen when a station is first used, so an idle node never maps them.
#include <dlfcn.h>
#include <curl/curl.h>
#include <neaacdec.h>
#include <mpg123.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, even through a
// pointer. These call the pointer that dlsym gave with the variadic prototype.
typedef CURLcode (*noiseclock_curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*noiseclock_curl_getinfo_fn)(CURL *, CURLINFO, ...);

static inline CURLcode noiseclock_curl_setopt_long(void *fn, CURL *curl, CURLoption option, long value) {
    return ((noiseclock_curl_setopt_fn)fn)(curl, option, value);
}
static inline CURLcode noiseclock_curl_setopt_pointer(void *fn, CURL *curl, CURLoption option, const void *value) {
    return ((noiseclock_curl_setopt_fn)fn)(curl, option, value);
}
static inline CURLcode noiseclock_curl_setopt_offset(void *fn, CURL *curl, CURLoption option, curl_off_t value) {
    return ((noiseclock_curl_setopt_fn)fn)(curl, option, value);
}
static inline CURLcode noiseclock_curl_getinfo_long(void *fn, CURL *curl, CURLINFO info, long *value) {
    return ((noiseclock_curl_getinfo_fn)fn)(curl, info, value);
}
