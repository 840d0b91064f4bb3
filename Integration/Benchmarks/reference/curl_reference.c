/*
 * The in-run reference for `ci/bench transport`: a plain C client on the libcurl multi interface.
 *
 * It runs N requests with C in flight, a fresh easy handle per request (as the Courier transport
 * does), discards response bodies in the write callback, and prints one line of figures:
 *   requests=N ok=N seconds=S cpu_us=U rss_kib=R bytes_down=D bytes_up=B connects=K
 * Settings mirror the Courier transport's so that the two are measured under the same rules.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct options {
    const char *url;
    long requests;
    long concurrency;
    long post_bytes;
    const char *cafile;
    int http2;
    long max_host_connections;
    long max_connects;
    long buffer_size;
};

static char *post_body;
static curl_off_t bytes_down;

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    bytes_down += (curl_off_t)(size * count);
    return size * count;
}

static CURL *make_handle(const struct options *o) {
    CURL *easy = curl_easy_init();
    if (!easy) return NULL;
    curl_easy_setopt(easy, CURLOPT_URL, o->url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PROXY, "");
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, o->http2 ? (long)CURL_HTTP_VERSION_2TLS : (long)CURL_HTTP_VERSION_1_1);
    if (o->buffer_size > 0) curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, o->buffer_size);
    if (o->cafile) curl_easy_setopt(easy, CURLOPT_CAINFO, o->cafile);
    if (o->post_bytes > 0) {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, post_body);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)o->post_bytes);
    }
    return easy;
}

/* Peak resident set of this image (VmHWM). Not ru_maxrss: Linux keeps that across execve, so a
 * child spawned by a large parent (posix_spawn shares the parent's memory until exec) would report
 * the parent's size. */
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

int main(int argc, char **argv) {
    struct options o = {NULL, 1000, 1, 0, NULL, 0, 32, 0, 0};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--url")) o.url = v;
        else if (!strcmp(k, "--requests")) o.requests = atol(v);
        else if (!strcmp(k, "--concurrency")) o.concurrency = atol(v);
        else if (!strcmp(k, "--post-bytes")) o.post_bytes = atol(v);
        else if (!strcmp(k, "--cafile")) o.cafile = v;
        else if (!strcmp(k, "--http2")) o.http2 = atoi(v);
        else if (!strcmp(k, "--max-host-connections")) o.max_host_connections = atol(v);
        else if (!strcmp(k, "--max-connects")) o.max_connects = atol(v);
        else if (!strcmp(k, "--buffer-size")) o.buffer_size = atol(v);
        else {
            fprintf(stderr, "unknown option %s\n", k);
            return 2;
        }
    }
    if (!o.url || o.requests <= 0 || o.concurrency <= 0) {
        fprintf(stderr, "usage: curl_reference --url U --requests N --concurrency C [--post-bytes B] "
                        "[--cafile F] [--http2 0|1] [--max-host-connections M] [--max-connects K] [--buffer-size S]\n");
        return 2;
    }
    if (o.post_bytes > 0) {
        post_body = malloc((size_t)o.post_bytes);
        if (!post_body) return 1;
        memset(post_body, 'x', (size_t)o.post_bytes);
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, o.max_host_connections);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, o.max_connects > 0 ? o.max_connects : o.concurrency + 4);

    long started = 0, finished = 0, ok = 0, connects = 0;
    curl_off_t bytes_up = 0;
    double cpu_start = cpu_microseconds();
    double start = now_seconds();
    while (started < o.requests && started < o.concurrency) {
        CURL *easy = make_handle(&o);
        if (!easy) return 1;
        curl_multi_add_handle(multi, easy);
        started++;
    }
    while (finished < o.requests) {
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left = 0;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0, new_connections = 0;
            curl_off_t uploaded = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &new_connections);
            curl_easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded);
            if (message->data.result == CURLE_OK && status == 200) ok++;
            else fprintf(stderr, "request failed: %s (status %ld)\n", curl_easy_strerror(message->data.result), status);
            connects += new_connections;
            bytes_up += uploaded;
            curl_multi_remove_handle(multi, easy);
            curl_easy_cleanup(easy);
            finished++;
            if (started < o.requests) {
                CURL *next = make_handle(&o);
                if (!next) return 1;
                curl_multi_add_handle(multi, next);
                started++;
            }
        }
        if (finished < o.requests) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    double seconds = now_seconds() - start;
    double cpu = cpu_microseconds() - cpu_start;
    printf("requests=%ld ok=%ld seconds=%.6f cpu_us=%.0f rss_kib=%ld bytes_down=%lld bytes_up=%lld connects=%ld\n",
           o.requests, ok, seconds, cpu, peak_rss_kib(), (long long)bytes_down, (long long)bytes_up, connects);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    free(post_body);
    return ok == o.requests ? 0 : 1;
}
