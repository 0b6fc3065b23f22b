// The radio's stream libraries (docs/sounds.md, "Radio: why these libraries"): libcurl (Debian:
// libcurl4-openssl-dev) for HTTP(S), libfaad2 (libfaad-dev) for AAC LC and HE-AAC; MP3, Vorbis,
// Opus and FLAC come from libmpg123, libvorbis, libopus and libFLAC, which libsndfile already
// maps into every node. Types and constants only: nothing is linked. StreamLibrary opens them
// with dlopen when a station is first used, so an idle node never maps them.
#include <dlfcn.h>
#include <curl/curl.h>
#include <neaacdec.h>
#include <mpg123.h>
// OPENSSL_INIT_NO_LOAD_*_STRINGS (StreamLibrary.skipOpenSSLErrorStrings).
#include <openssl/ssl.h>

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

// The decoders past MP3 (docs/sounds.md, "Radio: why these libraries"): libfaad2 for AAC and
// HE-AAC, libogg + libvorbis + libopus for Ogg Vorbis and Opus, libFLAC for FLAC (native and in
// Ogg). libogg, libvorbis, libopus and libFLAC are the ones libsndfile already maps into every
// node: opening them again maps nothing new.
#include <ogg/ogg.h>
#include <vorbis/codec.h>
#include <opus/opus.h>
#include <FLAC/stream_decoder.h>

// The functions as a table filled by dlsym, each field typed from the library's own declaration
// (__typeof__), so no prototype is written twice and none can be written wrong.
#define NOISECLOCK_CODEC(name) __typeof__(&name) name
struct noiseclock_codecs {
    NOISECLOCK_CODEC(NeAACDecOpen); NOISECLOCK_CODEC(NeAACDecClose); NOISECLOCK_CODEC(NeAACDecInit);
    NOISECLOCK_CODEC(NeAACDecDecode); NOISECLOCK_CODEC(NeAACDecGetCurrentConfiguration);
    NOISECLOCK_CODEC(NeAACDecSetConfiguration);
    NOISECLOCK_CODEC(ogg_sync_init); NOISECLOCK_CODEC(ogg_sync_clear); NOISECLOCK_CODEC(ogg_sync_buffer);
    NOISECLOCK_CODEC(ogg_sync_wrote); NOISECLOCK_CODEC(ogg_sync_pageout); NOISECLOCK_CODEC(ogg_stream_init);
    NOISECLOCK_CODEC(ogg_stream_clear); NOISECLOCK_CODEC(ogg_stream_pagein); NOISECLOCK_CODEC(ogg_stream_packetout);
    NOISECLOCK_CODEC(ogg_page_serialno); NOISECLOCK_CODEC(ogg_page_bos);
    NOISECLOCK_CODEC(vorbis_info_init); NOISECLOCK_CODEC(vorbis_info_clear); NOISECLOCK_CODEC(vorbis_comment_init);
    NOISECLOCK_CODEC(vorbis_comment_clear); NOISECLOCK_CODEC(vorbis_synthesis_headerin); NOISECLOCK_CODEC(vorbis_synthesis_init);
    NOISECLOCK_CODEC(vorbis_block_init); NOISECLOCK_CODEC(vorbis_block_clear); NOISECLOCK_CODEC(vorbis_dsp_clear);
    NOISECLOCK_CODEC(vorbis_synthesis); NOISECLOCK_CODEC(vorbis_synthesis_blockin); NOISECLOCK_CODEC(vorbis_synthesis_pcmout);
    NOISECLOCK_CODEC(vorbis_synthesis_read);
    NOISECLOCK_CODEC(opus_decoder_create); NOISECLOCK_CODEC(opus_decoder_destroy); NOISECLOCK_CODEC(opus_decode_float);
    NOISECLOCK_CODEC(FLAC__stream_decoder_new); NOISECLOCK_CODEC(FLAC__stream_decoder_delete);
    NOISECLOCK_CODEC(FLAC__stream_decoder_init_stream); NOISECLOCK_CODEC(FLAC__stream_decoder_process_single);
    NOISECLOCK_CODEC(FLAC__stream_decoder_flush); NOISECLOCK_CODEC(FLAC__stream_decoder_get_state);
    NOISECLOCK_CODEC(FLAC__stream_decoder_finish); NOISECLOCK_CODEC(FLAC__stream_decoder_set_metadata_respond);
};
#undef NOISECLOCK_CODEC

// Fills the table from the opened libraries; NULL when complete, else the missing function's name.
static inline const char *noiseclock_codecs_load(struct noiseclock_codecs *c, void *faad, void *ogg, void *vorbis, void *opus, void *flac) {
#define NOISECLOCK_LOAD(lib, name) if (!(c->name = (__typeof__(c->name))dlsym(lib, #name))) return #name
    NOISECLOCK_LOAD(faad, NeAACDecOpen); NOISECLOCK_LOAD(faad, NeAACDecClose); NOISECLOCK_LOAD(faad, NeAACDecInit);
    NOISECLOCK_LOAD(faad, NeAACDecDecode); NOISECLOCK_LOAD(faad, NeAACDecGetCurrentConfiguration);
    NOISECLOCK_LOAD(faad, NeAACDecSetConfiguration);
    NOISECLOCK_LOAD(ogg, ogg_sync_init); NOISECLOCK_LOAD(ogg, ogg_sync_clear); NOISECLOCK_LOAD(ogg, ogg_sync_buffer);
    NOISECLOCK_LOAD(ogg, ogg_sync_wrote); NOISECLOCK_LOAD(ogg, ogg_sync_pageout); NOISECLOCK_LOAD(ogg, ogg_stream_init);
    NOISECLOCK_LOAD(ogg, ogg_stream_clear); NOISECLOCK_LOAD(ogg, ogg_stream_pagein); NOISECLOCK_LOAD(ogg, ogg_stream_packetout);
    NOISECLOCK_LOAD(ogg, ogg_page_serialno); NOISECLOCK_LOAD(ogg, ogg_page_bos);
    NOISECLOCK_LOAD(vorbis, vorbis_info_init); NOISECLOCK_LOAD(vorbis, vorbis_info_clear); NOISECLOCK_LOAD(vorbis, vorbis_comment_init);
    NOISECLOCK_LOAD(vorbis, vorbis_comment_clear); NOISECLOCK_LOAD(vorbis, vorbis_synthesis_headerin);
    NOISECLOCK_LOAD(vorbis, vorbis_synthesis_init); NOISECLOCK_LOAD(vorbis, vorbis_block_init); NOISECLOCK_LOAD(vorbis, vorbis_block_clear);
    NOISECLOCK_LOAD(vorbis, vorbis_dsp_clear); NOISECLOCK_LOAD(vorbis, vorbis_synthesis); NOISECLOCK_LOAD(vorbis, vorbis_synthesis_blockin);
    NOISECLOCK_LOAD(vorbis, vorbis_synthesis_pcmout); NOISECLOCK_LOAD(vorbis, vorbis_synthesis_read);
    NOISECLOCK_LOAD(opus, opus_decoder_create); NOISECLOCK_LOAD(opus, opus_decoder_destroy); NOISECLOCK_LOAD(opus, opus_decode_float);
    NOISECLOCK_LOAD(flac, FLAC__stream_decoder_new); NOISECLOCK_LOAD(flac, FLAC__stream_decoder_delete);
    NOISECLOCK_LOAD(flac, FLAC__stream_decoder_init_stream); NOISECLOCK_LOAD(flac, FLAC__stream_decoder_process_single);
    NOISECLOCK_LOAD(flac, FLAC__stream_decoder_flush); NOISECLOCK_LOAD(flac, FLAC__stream_decoder_get_state);
    NOISECLOCK_LOAD(flac, FLAC__stream_decoder_finish); NOISECLOCK_LOAD(flac, FLAC__stream_decoder_set_metadata_respond);
#undef NOISECLOCK_LOAD
    return 0;
}
