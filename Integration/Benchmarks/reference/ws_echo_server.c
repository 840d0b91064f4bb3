/*
 * The echo server of `ci/bench websocket`: plain ws on 127.0.0.1, libwebsockets 4.1, one thread,
 * no permessage-deflate (no extension is registered, so every offer is declined).
 *
 *   ws_echo_server --port P [--ready-file F]
 *
 * Every text or binary message is sent back whole, with its type, in order; messages that arrive
 * while an echo is still being written wait in a per-connection queue. --port 0 lets the kernel
 * choose; the chosen port is written to F (once listening) as `PORT=<n>`. SIGTERM or SIGINT stops it.
 */
#include <arpa/inet.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A message being received or waiting to be echoed; LWS_PRE bytes of headroom precede the payload
 * because lws_write frames in place. */
struct message {
    struct message *next;
    size_t length, capacity;
    int binary;
    unsigned char *buffer;
};

struct connection {
    struct message *receiving;
    struct message *head, *tail;
};

static volatile sig_atomic_t stopping;
static struct lws_context *context;

static void free_message(struct message *message) {
    if (!message) return;
    free(message->buffer);
    free(message);
}

/* Appends a fragment to the message being received; returns 0 when out of memory. */
static int append(struct connection *connection, const void *data, size_t length, int binary) {
    struct message *message = connection->receiving;
    if (!message) {
        message = calloc(1, sizeof *message);
        if (!message) return 0;
        /* Allocated up front so that an empty message has a buffer to frame too. */
        message->capacity = 4096;
        message->buffer = malloc(LWS_PRE + message->capacity);
        if (!message->buffer) {
            free(message);
            return 0;
        }
        message->binary = binary;
        connection->receiving = message;
    }
    if (message->length + length > message->capacity) {
        size_t capacity = message->capacity;
        while (capacity < message->length + length) capacity *= 2;
        unsigned char *buffer = realloc(message->buffer, LWS_PRE + capacity);
        if (!buffer) return 0;
        message->buffer = buffer;
        message->capacity = capacity;
    }
    if (length) memcpy(message->buffer + LWS_PRE + message->length, data, length);
    message->length += length;
    return 1;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct connection *connection = user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        memset(connection, 0, sizeof *connection);
        break;
    case LWS_CALLBACK_RECEIVE:
        if (!append(connection, in, len, lws_frame_is_binary(wsi))) return -1;
        if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
            struct message *message = connection->receiving;
            connection->receiving = NULL;
            if (connection->tail) connection->tail->next = message;
            else connection->head = message;
            connection->tail = message;
            lws_callback_on_writable(wsi);
        }
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        struct message *message = connection->head;
        if (!message) break;
        /* lws keeps what the socket did not take and calls back when it has gone: one write per
         * callback. */
        int written = lws_write(wsi, message->buffer + LWS_PRE, message->length,
                                message->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT);
        if (written < (int)message->length) return -1;
        connection->head = message->next;
        if (!connection->head) connection->tail = NULL;
        free_message(message);
        if (connection->head) lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_CLOSED:
        free_message(connection->receiving);
        while (connection->head) {
            struct message *next = connection->head->next;
            free_message(connection->head);
            connection->head = next;
        }
        connection->tail = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    /* The first protocol serves connections that ask for none. */
    {"echo", callback, sizeof(struct connection), 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void on_signal(int signal_number) {
    (void)signal_number;
    stopping = 1;
    if (context) lws_cancel_service(context);
}

int main(int argc, char **argv) {
    int port = -1;
    const char *ready_file = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ready-file")) ready_file = argv[i + 1];
        else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (port < 0) {
        fprintf(stderr, "usage: ws_echo_server --port P [--ready-file F]\n");
        return 2;
    }
    lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.pt_serv_buf_size = 65536;
    /* An idle benchmark connection is never dropped by the server. */
    info.timeout_secs = 3600;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (port == 0) {
        /* lws reports no kernel-chosen port before listening; ask the kernel for a free one. */
        struct sockaddr_in address;
        socklen_t size = sizeof address;
        int probe = socket(AF_INET, SOCK_STREAM, 0);
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (probe < 0 || bind(probe, (struct sockaddr *)&address, sizeof address) ||
            getsockname(probe, (struct sockaddr *)&address, &size)) {
            perror("choosing a port");
            return 1;
        }
        port = ntohs(address.sin_port);
        close(probe);
        info.port = port;
    }
    context = lws_create_context(&info);
    if (!context) {
        fprintf(stderr, "ws_echo_server: cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    if (ready_file) {
        char temporary[4096];
        snprintf(temporary, sizeof temporary, "%s.tmp", ready_file);
        FILE *file = fopen(temporary, "w");
        if (!file || fprintf(file, "PORT=%d\n", port) < 0 || fclose(file) || rename(temporary, ready_file)) {
            perror(ready_file);
            lws_context_destroy(context);
            return 1;
        }
    }
    while (!stopping && lws_service(context, 0) >= 0) {
    }
    lws_context_destroy(context);
    if (ready_file) remove(ready_file);
    return 0;
}
