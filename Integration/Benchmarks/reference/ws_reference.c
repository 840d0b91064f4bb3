/*
 * The in-run reference for `ci/bench websocket`: a plain C WebSocket client on libwebsockets 4.1.
 *
 *   ws_reference --port P [--host H] [--path /] --size BYTES --connections C --seconds T
 *                [--workload NAME] [--raw]
 *
 * It opens C connections (no permessage-deflate offered), waits until all are open, then on each one
 * sends a binary message of BYTES, waits for the whole echo, checks it byte for byte, and sends the
 * next: one message in flight per connection, for T seconds (a round trip started before the
 * deadline is finished and counted). The clock and getrusage(RUSAGE_SELF) CPU time start once every
 * connection is open and stop at the last round trip, so handshakes are not measured.
 *
 * It prints one `ci/bench` row on stdout (the C client is the reference, variant `c`):
 *   bench NAME c msgs_per_s=… cpu_us_per_msg=… rss_mib=… ratio=1 cpu_ratio=1 connects=C messages=N
 * or, from 64 KiB messages up, throughput (echoed payload, each byte crossing the connection twice):
 *   bench NAME c mib_per_s=… cpu_ms_per_msg=… rss_mib=… ratio=1 cpu_ratio=1 connects=C messages=N
 * With --raw it prints the raw figures instead, for a group that pairs them with another client's:
 *   messages=N ok=N seconds=S cpu_us=U rss_kib=R bytes=B connects=C
 * Exit status 0 only when every connection opened, every echo matched and every close was clean.
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct connection {
    struct lws *wsi;
    unsigned char *send_buffer; /* LWS_PRE headroom + size; lws masks it in place, so refilled per send */
    size_t received;            /* bytes of the current echo so far */
    long messages;
    int open, waiting, done, closed, failed;
};

struct options {
    const char *host, *path, *workload;
    int port, connections, raw;
    size_t size;
    double seconds;
};

static struct options o = {"127.0.0.1", "/", NULL, 0, 1, 0, 1024, 5};
static struct connection *connections;
static unsigned char *payload; /* the pristine message every echo is checked against */
static int opened, finished, failures;
static double start_time, end_time, start_cpu, end_cpu;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_microseconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/* Peak resident set of this image (VmHWM), as curl_reference.c reports it. */
static long peak_rss_kib(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!status) return -1;
    while (fgets(line, sizeof line, status)) {
        if (!strncmp(line, "VmHWM:", 6)) {
            kib = atol(line + 6);
            break;
        }
    }
    fclose(status);
    return kib;
}

static void fail(struct connection *connection, const char *why) {
    if (!connection->failed) fprintf(stderr, "ws_reference: connection %ld: %s\n", (long)(connection - connections), why);
    connection->failed = 1;
    failures++;
}

/* The connection is finished with (done, failed or closed); the last one stops the clock. */
static void finish(struct connection *connection) {
    if (connection->closed) return;
    connection->closed = 1;
    if (++finished == o.connections && end_time == 0) {
        end_time = now_seconds();
        end_cpu = cpu_microseconds();
    }
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct connection *connection = lws_get_opaque_user_data(wsi);
    (void)user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        connection->open = 1;
        if (++opened == o.connections) {
            start_time = now_seconds();
            start_cpu = cpu_microseconds();
            for (int i = 0; i < o.connections; i++) lws_callback_on_writable(connections[i].wsi);
        }
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        if (connection->done) {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
            return -1;
        }
        /* lws also calls back once a partly sent frame has gone out: one message in flight only. */
        if (connection->waiting) break;
        connection->waiting = 1;
        memcpy(connection->send_buffer + LWS_PRE, payload, o.size);
        connection->received = 0;
        /* lws keeps what the socket does not take and sends it before the next writable callback. */
        if (lws_write(wsi, connection->send_buffer + LWS_PRE, o.size, LWS_WRITE_BINARY) < (int)o.size) {
            fail(connection, "write failed");
            return -1;
        }
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (connection->received + len > o.size || memcmp(in, payload + connection->received, len)) {
            fail(connection, "the echo differs from the message sent");
            return -1;
        }
        connection->received += len;
        if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
            if (connection->received != o.size) {
                fail(connection, "the echo is shorter than the message sent");
                return -1;
            }
            connection->messages++;
            connection->waiting = 0;
            if (now_seconds() - start_time >= o.seconds) {
                connection->done = 1;
                finish(connection);
            }
            lws_callback_on_writable(wsi);
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        fail(connection, in ? (const char *)in : "connection error");
        finish(connection);
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (!connection->done) fail(connection, "closed before the run ended");
        finish(connection);
        connection->wsi = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"ws-reference", callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* A figure as CourierBench's BenchLine prints it: whole from 100 up, one decimal from 10, else three,
 * trailing zeros dropped. */
static void print_value(const char *key, double value) {
    char text[64];
    if (value >= 100 || value == (double)(long long)value) snprintf(text, sizeof text, "%lld", (long long)(value + 0.5));
    else snprintf(text, sizeof text, value >= 10 ? "%.1f" : "%.3f", value);
    if (strchr(text, '.')) {
        char *end = text + strlen(text) - 1;
        while (*end == '0') *end-- = '\0';
        if (*end == '.') *end = '\0';
    }
    printf(" %s=%s", key, text);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(k, "--raw")) {
            o.raw = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "%s needs a value\n", k);
            return 2;
        }
        i++;
        if (!strcmp(k, "--host")) o.host = v;
        else if (!strcmp(k, "--port")) o.port = atoi(v);
        else if (!strcmp(k, "--path")) o.path = v;
        else if (!strcmp(k, "--size")) o.size = (size_t)atol(v);
        else if (!strcmp(k, "--connections")) o.connections = atoi(v);
        else if (!strcmp(k, "--seconds")) o.seconds = atof(v);
        else if (!strcmp(k, "--workload")) o.workload = v;
        else {
            fprintf(stderr, "unknown option %s\n", k);
            return 2;
        }
    }
    if (o.port <= 0 || o.size == 0 || o.connections <= 0 || o.seconds <= 0 || (!o.raw && !o.workload)) {
        fprintf(stderr, "usage: ws_reference --port P [--host H] [--path /] --size BYTES --connections C --seconds T "
                        "(--workload NAME | --raw)\n");
        return 2;
    }
    payload = malloc(o.size);
    connections = calloc((size_t)o.connections, sizeof *connections);
    if (!payload || !connections) return 1;
    for (size_t i = 0; i < o.size; i++) payload[i] = (unsigned char)(i * 7 + 1);

    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.pt_serv_buf_size = 65536;
    info.timeout_secs = 30;
    info.fd_limit_per_thread = (unsigned int)o.connections + 16;
    struct lws_context *context = lws_create_context(&info);
    if (!context) return 1;

    for (int i = 0; i < o.connections; i++) {
        struct connection *connection = &connections[i];
        connection->send_buffer = malloc(LWS_PRE + o.size);
        if (!connection->send_buffer) return 1;
        struct lws_client_connect_info client;
        memset(&client, 0, sizeof client);
        client.context = context;
        client.address = o.host;
        client.port = o.port;
        client.path = o.path;
        client.host = o.host;
        client.origin = o.host;
        client.ietf_version_or_minus_one = -1;
        client.opaque_user_data = connection;
        client.pwsi = &connection->wsi;
        if (!lws_client_connect_via_info(&client)) {
            fail(connection, "cannot start connecting");
            finish(connection);
        }
    }
    double give_up = now_seconds() + o.seconds + 60;
    while (finished < o.connections && now_seconds() < give_up) {
        if (lws_service(context, 0) < 0) break;
    }
    /* Let the close frames go out and their answers arrive. */
    for (double close_deadline = now_seconds() + 2; now_seconds() < close_deadline;) {
        int any_open = 0;
        for (int i = 0; i < o.connections; i++) any_open |= connections[i].wsi != NULL;
        if (!any_open) break;
        lws_service(context, 0);
    }
    if (finished < o.connections || opened < o.connections) failures++;

    long messages = 0;
    for (int i = 0; i < o.connections; i++) messages += connections[i].messages;
    double seconds = end_time > start_time ? end_time - start_time : 0;
    double cpu = end_cpu - start_cpu;
    if (o.raw) {
        printf("messages=%ld ok=%ld seconds=%.6f cpu_us=%.0f rss_kib=%ld bytes=%lld connects=%d\n", messages,
               failures ? 0 : messages, seconds, cpu, peak_rss_kib(), (long long)messages * (long long)o.size, opened);
    } else if (failures || messages == 0 || seconds <= 0) {
        printf("bench %s c failed_runs=1\n", o.workload);
    } else {
        printf("bench %s c", o.workload);
        if (o.size >= 65536) {
            print_value("mib_per_s", (double)messages * (double)o.size / (1024.0 * 1024.0) / seconds);
            print_value("cpu_ms_per_msg", cpu / (double)messages / 1000);
        } else {
            print_value("msgs_per_s", (double)messages / seconds);
            print_value("cpu_us_per_msg", cpu / (double)messages);
        }
        print_value("rss_mib", (double)(long long)((double)peak_rss_kib() / 1024 * 10 + 0.5) / 10);
        print_value("ratio", 1);
        print_value("cpu_ratio", 1);
        print_value("connects", opened);
        print_value("messages", (double)messages);
        printf("\n");
    }
    lws_context_destroy(context);
    for (int i = 0; i < o.connections; i++) free(connections[i].send_buffer);
    free(connections);
    free(payload);
    return failures ? 1 : 0;
}
