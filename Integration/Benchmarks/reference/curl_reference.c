/*
 * The in-run reference for `ci/bench transport`: a plain C client on the libcurl multi interface.
 *
 * It runs N requests with C in flight, a fresh easy handle per request (as the Courier transport
 * does), discards response bodies in the write callback, and prints one line of figures:
 *   requests=N ok=N seconds=S cpu_us=U rss_kib=R bytes_down=D bytes_up=B connects=K
 * Settings mirror the Courier transport's so that the two are measured under the same rules.
 *
 * Other shapes, each matching the Courier child's option of the same name:
 *   --output-dir D     each body is written to its own file in D (write(2) in the write callback);
 *                      when the request ends the file's size on disk is what counts as received,
 *                      and the file is deleted.
 *   --url U --url V …  requests go to the URLs in turn.
 *   --round K          requests run in rounds: K per URL started at once, the next round when all
 *                      have finished, until --min-seconds have passed (--requests and
 *                      --concurrency are then unused; requests= reports what ran).
 *   --max-streams S    HTTP/2 streams per connection (CURLMOPT_MAX_CONCURRENT_STREAMS).
 */
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_URLS 64

struct options {
    const char *urls[MAX_URLS];
    int url_count;
    long requests;
    long concurrency;
    long post_bytes;
    const char *cafile;
    int http2;
    long max_host_connections;
    long max_connects;
    long buffer_size;
    long max_streams;
    const char *output_dir;
    long round;
    double min_seconds;
};

/* One transfer writing its body to a file (--output-dir). */
struct file_transfer {
    int fd;
    int failed;
    char path[4096];
};

static char *post_body;
static curl_off_t bytes_down;
static long files_opened;

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    bytes_down += (curl_off_t)(size * count);
    return size * count;
}

/* Writes every byte (as the Courier transport's file destination does, with pwrite); a failed write
 * aborts the transfer. */
static size_t write_file(char *data, size_t size, size_t count, void *user) {
    struct file_transfer *file = user;
    size_t total = size * count, done = 0;
    while (done < total) {
        ssize_t written = write(file->fd, data + done, total - done);
        if (written < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "cannot write %s: %s\n", file->path, strerror(errno));
            file->failed = 1;
            return 0;
        }
        done += (size_t)written;
    }
    return total;
}

static struct file_transfer *open_file(const struct options *o) {
    struct file_transfer *file = calloc(1, sizeof *file);
    if (!file) return NULL;
    snprintf(file->path, sizeof file->path, "%s/curl-reference-%ld-%ld", o->output_dir, (long)getpid(), files_opened++);
    file->fd = open(file->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (file->fd < 0) {
        fprintf(stderr, "cannot open %s: %s\n", file->path, strerror(errno));
        free(file);
        return NULL;
    }
    return file;
}

/* Closes the file, counts its size on disk as the bytes received, and deletes it. Returns whether
 * everything went right. */
static int finish_file(struct file_transfer *file) {
    struct stat info;
    int ok = !file->failed;
    close(file->fd);
    if (stat(file->path, &info) == 0) bytes_down += (curl_off_t)info.st_size;
    else ok = 0;
    if (unlink(file->path) != 0) ok = 0;
    free(file);
    return ok;
}

static CURL *make_handle(const struct options *o, long index) {
    CURL *easy = curl_easy_init();
    if (!easy) return NULL;
    curl_easy_setopt(easy, CURLOPT_URL, o->urls[index % o->url_count]);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PROXY, "");
    if (o->output_dir) {
        struct file_transfer *file = open_file(o);
        if (!file) {
            curl_easy_cleanup(easy);
            return NULL;
        }
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_file);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, file);
        curl_easy_setopt(easy, CURLOPT_PRIVATE, file);
    } else {
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    }
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

/* Adds the request with this index; returns 0 when the handle cannot be made. */
static int start_request(CURLM *multi, const struct options *o, long index) {
    CURL *easy = make_handle(o, index);
    if (!easy) return 0;
    curl_multi_add_handle(multi, easy);
    return 1;
}

int main(int argc, char **argv) {
    struct options o = {{NULL}, 0, 1000, 1, 0, NULL, 0, 32, 0, 0, 0, NULL, 0, 0};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--url")) {
            if (o.url_count == MAX_URLS) {
                fprintf(stderr, "at most %d URLs\n", MAX_URLS);
                return 2;
            }
            o.urls[o.url_count++] = v;
        }
        else if (!strcmp(k, "--requests")) o.requests = atol(v);
        else if (!strcmp(k, "--concurrency")) o.concurrency = atol(v);
        else if (!strcmp(k, "--post-bytes")) o.post_bytes = atol(v);
        else if (!strcmp(k, "--cafile")) o.cafile = v;
        else if (!strcmp(k, "--http2")) o.http2 = atoi(v);
        else if (!strcmp(k, "--max-host-connections")) o.max_host_connections = atol(v);
        else if (!strcmp(k, "--max-connects")) o.max_connects = atol(v);
        else if (!strcmp(k, "--buffer-size")) o.buffer_size = atol(v);
        else if (!strcmp(k, "--max-streams")) o.max_streams = atol(v);
        else if (!strcmp(k, "--output-dir")) o.output_dir = v;
        else if (!strcmp(k, "--round")) o.round = atol(v);
        else if (!strcmp(k, "--min-seconds")) o.min_seconds = atof(v);
        else {
            fprintf(stderr, "unknown option %s\n", k);
            return 2;
        }
    }
    if (o.url_count == 0 || o.requests <= 0 || o.concurrency <= 0 || o.round < 0) {
        fprintf(stderr, "usage: curl_reference --url U [--url V ...] --requests N --concurrency C [--post-bytes B] "
                        "[--cafile F] [--http2 0|1] [--max-host-connections M] [--max-connects K] [--buffer-size S] "
                        "[--max-streams S] [--output-dir D] [--round K --min-seconds T]\n");
        return 2;
    }
    if (o.post_bytes > 0) {
        post_body = malloc((size_t)o.post_bytes);
        if (!post_body) return 1;
        memset(post_body, 'x', (size_t)o.post_bytes);
    }
    /* In rounds, all of a round's requests are in flight at once. */
    long round_size = o.round * o.url_count;
    long in_flight = o.round > 0 ? round_size : o.concurrency;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, o.max_host_connections);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, o.max_connects > 0 ? o.max_connects : in_flight + 4);
    if (o.max_streams > 0) curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, o.max_streams);

    long started = 0, finished = 0, ok = 0, connects = 0;
    curl_off_t bytes_up = 0;
    double cpu_start = cpu_microseconds();
    double start = now_seconds();
    long first = o.round > 0 ? round_size : (o.requests < o.concurrency ? o.requests : o.concurrency);
    for (; started < first; started++) {
        if (!start_request(multi, &o, started)) return 1;
    }
    for (;;) {
        if (finished == started) {
            if (o.round == 0 || now_seconds() - start >= o.min_seconds) break;
            for (long end = started + round_size; started < end; started++) {
                if (!start_request(multi, &o, started)) return 1;
            }
        }
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left = 0;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0, new_connections = 0;
            curl_off_t uploaded = 0;
            struct file_transfer *file = NULL;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &new_connections);
            curl_easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded);
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&file);
            int file_ok = file ? finish_file(file) : 1;
            if (message->data.result == CURLE_OK && status == 200 && file_ok) ok++;
            else fprintf(stderr, "request failed: %s (status %ld)\n", curl_easy_strerror(message->data.result), status);
            connects += new_connections;
            bytes_up += uploaded;
            curl_multi_remove_handle(multi, easy);
            curl_easy_cleanup(easy);
            finished++;
            if (o.round == 0 && started < o.requests) {
                if (!start_request(multi, &o, started)) return 1;
                started++;
            }
        }
        if (finished < started) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    double seconds = now_seconds() - start;
    double cpu = cpu_microseconds() - cpu_start;
    printf("requests=%ld ok=%ld seconds=%.6f cpu_us=%.0f rss_kib=%ld bytes_down=%lld bytes_up=%lld connects=%ld\n",
           finished, ok, seconds, cpu, peak_rss_kib(), (long long)bytes_down, (long long)bytes_up, connects);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    free(post_body);
    return ok == finished ? 0 : 1;
}
