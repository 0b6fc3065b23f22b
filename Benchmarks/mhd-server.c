/* The web app's protocol layer on libmicrohttpd, for the comparison in docs/web.md (issue 18):
 * the same rules as the node's own server where MHD has them (one polling thread, 64
 * connections, 8 per address, 5 s to send a request, access checked before the body, HEAD),
 * serving /healthz, /api/state (a 1.5 KB JSON like the node's) and /api/events (one event a
 * second to every stream, like the node with seconds shown). Not part of the node.
 *
 *   cc -O2 -o mhd-server Benchmarks/mhd-server.c -lmicrohttpd -lpthread
 *   ./mhd-server PORT TOKEN
 */
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_STREAMS 16
static const char *token;
static char state_json[1536];
static struct MHD_Daemon *daemon_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct MHD_Connection *streams[MAX_STREAMS];
static int pending[MAX_STREAMS];

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *type, const char *text) {
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

/* A stream writes its pending event, then waits (suspended) for the next second's. */
static ssize_t stream_reader(void *cls, uint64_t pos, char *buf, size_t max) {
    int slot = (int)(intptr_t)cls;
    (void)pos;
    pthread_mutex_lock(&lock);
    int have = pending[slot];
    pending[slot] = 0;
    if (!have) MHD_suspend_connection(streams[slot]);
    pthread_mutex_unlock(&lock);
    if (!have) return 0;
    static const char event[] = "event: time\ndata: {\"time\": \"12:00:00\", \"date\": \"2026-11-25\"}\n\n";
    size_t n = sizeof event - 1 < max ? sizeof event - 1 : max;
    memcpy(buf, event, n);
    return (ssize_t)n;
}

static void stream_done(void *cls) {
    pthread_mutex_lock(&lock);
    streams[(int)(intptr_t)cls] = NULL;
    pthread_mutex_unlock(&lock);
}

static void *ticker(void *unused) {
    (void)unused;
    for (;;) {
        sleep(1);
        pthread_mutex_lock(&lock);
        for (int i = 0; i < MAX_STREAMS; i++) {
            if (streams[i] && !pending[i]) {
                pending[i] = 1;
                MHD_resume_connection(streams[i]);
            }
        }
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)cls; (void)version; (void)upload;
    if (strcmp(url, "/healthz") == 0)
        return send_text(c, 200, "application/json", "{\"status\": \"ok\", \"mqtt\": \"connected\", \"audio\": \"ok\"}");
    /* The first call has the headers only: access is decided before any of the body is read. */
    if (*state == NULL) {
        const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
        if (!auth || strncmp(auth, "Bearer ", 7) != 0 || strcmp(auth + 7, token) != 0)
            return send_text(c, 401, "application/json", "{\"ok\": false, \"error\": {\"code\": \"unauthorized\"}}");
        if (strcmp(method, "POST") == 0) {
            *state = c;
            return MHD_YES;
        }
    }
    if (strcmp(method, "POST") == 0) {
        if (*upload_size) {
            *upload_size = 0;
            return MHD_YES;
        }
        return send_text(c, 200, "application/json", "{\"ok\": true}");
    }
    int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (get && strcmp(url, "/api/state") == 0) return send_text(c, 200, "application/json", state_json);
    if (get && strcmp(url, "/api/events") == 0) {
        pthread_mutex_lock(&lock);
        int slot = -1;
        for (int i = 0; i < MAX_STREAMS && slot < 0; i++) if (!streams[i]) slot = i;
        if (slot >= 0) { streams[slot] = c; pending[slot] = 1; }
        pthread_mutex_unlock(&lock);
        if (slot < 0) return send_text(c, 503, "application/json", "{\"ok\": false, \"error\": {\"code\": \"busy\"}}");
        struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, stream_reader,
                                                                   (void *)(intptr_t)slot, stream_done);
        MHD_add_response_header(r, "Content-Type", "text/event-stream");
        enum MHD_Result ok = MHD_queue_response(c, 200, r);
        MHD_destroy_response(r);
        return ok;
    }
    return send_text(c, 404, "application/json", "{\"ok\": false, \"error\": {\"code\": \"not_found\"}}");
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: mhd-server PORT TOKEN\n"); return 2; }
    token = argv[2];
    size_t used = (size_t)snprintf(state_json, sizeof state_json, "{\"alarms\": [], \"noise\": {\"volume\": 40}, \"filler\": \"");
    while (used < sizeof state_json - 4) state_json[used++] = 'x';
    memcpy(state_json + used, "\"}", 3);
    signal(SIGPIPE, SIG_IGN);
    daemon_ = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC,
        (uint16_t)atoi(argv[1]), NULL, NULL, handler, NULL,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)8,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)5,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
        MHD_OPTION_END);
    if (!daemon_) { fprintf(stderr, "cannot start on port %s\n", argv[1]); return 1; }
    pthread_t thread;
    pthread_create(&thread, NULL, ticker, NULL);
    pause();
    return 0;
}
