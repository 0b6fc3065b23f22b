/* Latency as Home Assistant sees it, for Benchmarks/latency.sh: commands from one client, the
 * node's state read by ANOTHER client that subscribes only to what it reads (so the broker never
 * forwards the command itself to the reader, and no Nagle on the reader's socket holds state
 * behind it).
 *
 *   ha-latency PORT echo TOPIC N [GAP_MS]              A publishes, B receives: the broker's floor
 *   ha-latency PORT command CMD STATE RESPONSE N P1 P2 [GAP_MS]
 *                                                       A sends CMD (payloads P1, P2 in turn, so
 *                                                       every command changes and persists state);
 *                                                       B times the new STATE and the RESPONSE.
 *                                                       GAP_MS (default 0) between commands, as a
 *                                                       person or an automation sends them: on a
 *                                                       stock broker, back-to-back commands meet
 *                                                       the node's delayed ACK of the previous
 *                                                       PUBACK and the broker's Nagle (~40 ms)
 *   ha-latency PORT command CMD STATE RESPONSE N P1 P2 GAP_MS ECHO_TOPIC DIR
 *                                                       the same, and before each command one echo
 *                                                       on ECHO_TOPIC and one durable write in DIR,
 *                                                       so the floor is measured in the same
 *                                                       moments as the node (a VM's noise hits both);
 *                                                       prints also "echo_p50 write_p50"
 *   ha-latency DIR fsync N [GAP_MS]                    one durable small write, as the node's
 *                                                       StateStore does it: temp, fsync, rename,
 *                                                       fsync of the directory
 *
 * echo and fsync print "p50_us p99_us"; command prints "state_p50 state_p99 response_p50 response_p99". */
#include <fcntl.h>
#include <mosquitto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *state_topic, *response_topic;
static double state_at, response_at;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void on_message(struct mosquitto *m, void *u, const struct mosquitto_message *msg) {
    (void)m; (void)u;
    if (msg->retain) return; /* what was there before the run */
    if (state_topic && strcmp(msg->topic, state_topic) == 0) state_at = now_us();
    else if (response_topic && strcmp(msg->topic, response_topic) == 0) response_at = now_us();
    else if (!state_topic) state_at = now_us(); /* echo */
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void sort(double *s, int n) { qsort(s, n, sizeof(double), compare); }

static struct mosquitto *client(int port) {
    struct mosquitto *m = mosquitto_new(NULL, true, NULL);
    mosquitto_message_callback_set(m, on_message);
    mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1); /* as Home Assistant's client does */
    if (mosquitto_connect(m, "127.0.0.1", port, 30) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "cannot connect\n"); exit(1); }
    return m;
}

static void settle(struct mosquitto *a, struct mosquitto *b) {
    for (int i = 0; i < 50; i++) { mosquitto_loop(a, 5, 1); mosquitto_loop(b, 5, 1); }
}

/* Loops both clients until `done` or 10 s. */
static int wait_until(struct mosquitto *a, struct mosquitto *b, int (*done)(void)) {
    double deadline = now_us() + 10e6;
    while (!done()) {
        if (now_us() > deadline) return -1;
        mosquitto_loop(a, 0, 1);
        mosquitto_loop(b, 1, 1);
    }
    return 0;
}

static int got_state(void) { return state_at > 0; }
static int got_both(void) { return state_at > 0 && response_at > 0; }

static void pause_us(double us) {
    struct timespec ts = {(time_t)(us / 1e6), (long)((us - (time_t)(us / 1e6) * 1e6) * 1000)};
    nanosleep(&ts, NULL);
}

/* One durable small write in `dir`, as the node's StateStore does it; returns microseconds. */
static double durable_write(const char *dir) {
    char tmp[4096], final[4096];
    snprintf(tmp, sizeof tmp, "%s/probe.json.tmp", dir);
    snprintf(final, sizeof final, "%s/probe.json", dir);
    const char body[] = "{\"version\":1,\"playing\":false,\"sound\":\"brown\",\"volume\":41,\"sleep_timer_minutes\":null}";
    double start = now_us();
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, body, sizeof body - 1) < 0 || fsync(fd) != 0) { perror("write"); exit(1); }
    close(fd);
    if (rename(tmp, final) != 0) { perror("rename"); exit(1); }
    int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    fsync(d);
    close(d);
    return now_us() - start;
}

static int fsync_floor(const char *dir, int n, double gap_us) {
    double *s = calloc(n, sizeof(double));
    for (int i = 0; i < n; i++) {
        pause_us(gap_us);
        s[i] = durable_write(dir);
    }
    sort(s, n);
    printf("%.0f %.0f\n", s[n / 2], s[(int)(n * 0.99)]);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: see the comment in ha-latency.c\n"); return 2; }
    if (strcmp(argv[2], "fsync") == 0) return fsync_floor(argv[1], atoi(argv[3]), argc >= 5 ? atof(argv[4]) * 1000 : 0);
    int port = atoi(argv[1]);
    mosquitto_lib_init();
    struct mosquitto *commander = client(port), *reader = client(port);
    if (strcmp(argv[2], "echo") == 0 && argc >= 5) {
        int n = atoi(argv[4]);
        mosquitto_subscribe(reader, NULL, argv[3], 1);
        settle(commander, reader);
        double gap_us = argc >= 6 ? atof(argv[5]) * 1000 : 0;
        double *s = calloc(n, sizeof(double));
        for (int i = 0; i < n; i++) {
            for (double until = now_us() + gap_us; now_us() < until;) { mosquitto_loop(commander, 0, 1); mosquitto_loop(reader, 1, 1); }
            state_at = 0;
            double start = now_us();
            mosquitto_publish(commander, NULL, argv[3], 1, "x", 1, false);
            if (wait_until(commander, reader, got_state) != 0) { fprintf(stderr, "echo %d lost\n", i); return 1; }
            s[i] = state_at - start;
        }
        sort(s, n);
        printf("%.0f %.0f\n", s[n / 2], s[(int)(n * 0.99)]);
    } else if (strcmp(argv[2], "command") == 0 && argc >= 9) {
        state_topic = argv[4];
        response_topic = argv[5];
        int n = atoi(argv[6]);
        const char *echo_topic = argc >= 12 ? argv[10] : NULL, *dir = argc >= 12 ? argv[11] : NULL;
        mosquitto_subscribe(reader, NULL, state_topic, 1);
        mosquitto_subscribe(reader, NULL, response_topic, 1);
        if (echo_topic) mosquitto_subscribe(reader, NULL, echo_topic, 1);
        settle(commander, reader);
        double gap_us = argc >= 10 ? atof(argv[9]) * 1000 : 0;
        double *st = calloc(n, sizeof(double)), *rs = calloc(n, sizeof(double));
        double *ec = calloc(n, sizeof(double)), *wr = calloc(n, sizeof(double));
        for (int i = 0; i < n; i++) {
            if (echo_topic) {
                /* The floor, in the same moment: an echo after the same idle gap, then a write. */
                for (double until = now_us() + gap_us / 2; now_us() < until;) { mosquitto_loop(commander, 0, 1); mosquitto_loop(reader, 1, 1); }
                const char *saved = state_topic;
                state_topic = NULL;
                state_at = 0;
                double start = now_us();
                mosquitto_publish(commander, NULL, echo_topic, 1, "x", 1, false);
                if (wait_until(commander, reader, got_state) != 0) { fprintf(stderr, "echo %d lost\n", i); return 1; }
                ec[i] = state_at - start;
                state_topic = saved;
                wr[i] = durable_write(dir);
            }
            for (double until = now_us() + gap_us; now_us() < until;) { mosquitto_loop(commander, 0, 1); mosquitto_loop(reader, 1, 1); }
            const char *payload = argv[7 + i % 2];
            state_at = response_at = 0;
            double start = now_us();
            mosquitto_publish(commander, NULL, argv[3], (int)strlen(payload), payload, 1, false);
            if (wait_until(commander, reader, got_both) != 0) { fprintf(stderr, "command %d: no state or response\n", i); return 1; }
            st[i] = state_at - start;
            rs[i] = response_at - start;
        }
        sort(st, n);
        sort(rs, n);
        sort(ec, n);
        sort(wr, n);
        printf("%.0f %.0f %.0f %.0f", st[n / 2], st[(int)(n * 0.99)], rs[n / 2], rs[(int)(n * 0.99)]);
        if (echo_topic) printf(" %.0f %.0f", ec[n / 2], wr[n / 2]);
        printf("\n");
    } else {
        fprintf(stderr, "unknown mode %s\n", argv[2]);
        return 2;
    }
    mosquitto_destroy(commander);
    mosquitto_destroy(reader);
    mosquitto_lib_cleanup();
    return 0;
}
