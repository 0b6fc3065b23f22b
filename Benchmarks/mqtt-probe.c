/* MQTT timing probe for Benchmarks/run.sh, built on libmosquitto like the node itself.
 *
 *   mqtt-probe PORT echo TOPIC N                      publish -> receive on one topic (the floor)
 *   mqtt-probe PORT command CMD RESPONSE N PAYLOAD... publish a command, wait for its response
 *                                                     (payloads are used in turn)
 *   mqtt-probe PORT rate CMD RESPONSE N WINDOW PAYLOAD  N commands, at most WINDOW unanswered
 *   mqtt-probe PORT relay IN OUT                      republish every message on IN to OUT, until
 *                                                     killed: a do-nothing "node" in C (4 hops)
 *   mqtt-probe PORT at TOPIC EPOCH_SECONDS [DIR]      connected beforehand, publish one message on
 *                                                     TOPIC at that wall-clock instant, after one
 *                                                     durable small write in DIR (as a node writes
 *                                                     its state at a fire): the alarm fire delay's
 *                                                     floor (Benchmarks/alarm-latency.sh)
 *
 * echo/command print "p50_us p99_us count"; rate prints "commands_per_s sent answered".
 * Everything is QoS 1 on 127.0.0.1, one connection, one thread, so node and floor are measured
 * with the same client, the same broker and the same loop. */
#include <mosquitto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static long received;
static const char *relay_to;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void on_message(struct mosquitto *m, void *u, const struct mosquitto_message *msg) {
    (void)u;
    if (msg->retain) return;
    received++;
    if (relay_to) mosquitto_publish(m, NULL, relay_to, msg->payloadlen, msg->payload, 1, false);
}

static volatile int published;

static void on_publish(struct mosquitto *m, void *u, int mid) {
    (void)m; (void)u; (void)mid;
    published = 1;
}

/* As a node's alarm does: the network loop on its own thread keeps the connection, this thread
 * sleeps until the wall-clock instant, publishes (QoS 1) and waits for the PUBACK. */
/* Temp file, fsync, rename, fsync of the directory: what the node's state store does. */
static void durable_write(const char *dir) {
    char tmp[4096], final[4096];
    snprintf(tmp, sizeof tmp, "%s/floor.json.tmp", dir);
    snprintf(final, sizeof final, "%s/floor.json", dir);
    const char body[] = "{\"version\":1,\"alarms\":[{\"id\":\"bench\",\"time\":\"07:00\"}]}";
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, body, sizeof body - 1) < 0 || fsync(fd) != 0) { perror("write"); exit(1); }
    close(fd);
    if (rename(tmp, final) != 0) { perror("rename"); exit(1); }
    int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0 || fsync(d) != 0) { perror("fsync"); exit(1); }
    close(d);
}

static int publish_at(struct mosquitto *m, const char *topic, time_t epoch, const char *dir) {
    mosquitto_publish_callback_set(m, on_publish);
    if (mosquitto_loop_start(m) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "no network thread\n"); return 1; }
    struct timespec at = {.tv_sec = epoch, .tv_nsec = 0};
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR) {}
    if (dir) durable_write(dir);
    if (mosquitto_publish(m, NULL, topic, 5, "fired", 1, false) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "publish failed\n"); return 1; }
    for (int i = 0; i < 10000 && !published; i++) usleep(1000);
    mosquitto_disconnect(m);
    mosquitto_loop_stop(m, false);
    return published ? 0 : 1;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs the network loop until `received` reaches `target` or `timeout_s` passes. */
static int wait_for(struct mosquitto *m, long target, double timeout_s) {
    double deadline = now_us() + timeout_s * 1e6;
    while (received < target) {
        if (now_us() > deadline) return -1;
        if (mosquitto_loop(m, 1, 1) != MOSQ_ERR_SUCCESS) return -1;
    }
    return 0;
}

static void report_latencies(double *samples, int n) {
    qsort(samples, n, sizeof(double), compare);
    printf("%.0f %.0f %d\n", samples[n / 2], samples[(int)(n * 0.99)], n);
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: see the comment in mqtt-probe.c\n"); return 2; }
    int port = atoi(argv[1]);
    const char *mode = argv[2];
    mosquitto_lib_init();
    struct mosquitto *m = mosquitto_new(NULL, true, NULL);
    mosquitto_message_callback_set(m, on_message);
    /* As the node does: without it Nagle holds a publish behind our own PUBACK for ~40 ms. */
    mosquitto_int_option(m, MOSQ_OPT_TCP_NODELAY, 1);
    if (mosquitto_connect(m, "127.0.0.1", port, 30) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "cannot connect\n"); return 1; }
    if (strcmp(mode, "at") == 0) return publish_at(m, argv[3], (time_t)atol(argv[4]), argc >= 6 ? argv[5] : NULL);
    const char *listen = strcmp(mode, "echo") == 0 || strcmp(mode, "relay") == 0 ? argv[3] : argv[4];
    mosquitto_subscribe(m, NULL, listen, 1);
    /* Let the SUBACK and any retained message arrive before timing anything. */
    for (int i = 0; i < 50; i++) mosquitto_loop(m, 10, 1);
    received = 0;

    if (strcmp(mode, "relay") == 0) {
        relay_to = argv[4];
        mosquitto_loop_forever(m, 1000, 1);
    } else if (strcmp(mode, "echo") == 0 || strcmp(mode, "command") == 0) {
        int echo = strcmp(mode, "echo") == 0;
        int n = atoi(argv[echo ? 4 : 5]);
        int first_payload = echo ? 0 : 6, payloads = argc - first_payload;
        double *samples = calloc(n, sizeof(double));
        for (int i = 0; i < n; i++) {
            const char *payload = echo || payloads < 1 ? "x" : argv[first_payload + i % payloads];
            double start = now_us();
            mosquitto_publish(m, NULL, argv[3], (int)strlen(payload), payload, 1, false);
            if (wait_for(m, i + 1, 10) != 0) { fprintf(stderr, "no answer to message %d\n", i); return 1; }
            samples[i] = now_us() - start;
        }
        report_latencies(samples, n);
    } else if (strcmp(mode, "rate") == 0 && argc >= 8) {
        long n = atol(argv[5]), window = atol(argv[6]), sent = 0;
        const char *payload = argv[7];
        double start = now_us();
        while (sent < n) {
            while (sent < n && sent - received < window) {
                mosquitto_publish(m, NULL, argv[3], (int)strlen(payload), payload, 1, false);
                sent++;
            }
            mosquitto_loop(m, 1, 1);
        }
        int lost = wait_for(m, n, 10);
        double seconds = (now_us() - start) / 1e6;
        printf("%.0f %ld %ld\n", received / seconds, sent, received);
        if (lost) return 1;
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    mosquitto_disconnect(m);
    mosquitto_destroy(m);
    mosquitto_lib_cleanup();
    return 0;
}
