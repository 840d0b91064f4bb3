#define _GNU_SOURCE
#include <sys/eventfd.h>
#include <stdint.h>
#include <unistd.h>
#include "CCourierCurlShim.h"

#include <dlfcn.h>
#include <openssl/crypto.h>

typedef int (*courier_openssl_init_crypto)(uint64_t options, const OPENSSL_INIT_SETTINGS *settings);

CURLcode courier_curl_global_init(void) {
    // Without NO_ATEXIT, OpenSSL's atexit cleanup can run while a loop thread still holds TLS
    // connections, and crash the process on exit (swift-corelibs-foundation#5469). The libcrypto
    // is the one libcurl loaded (this target does not link OpenSSL itself), so it is looked up in
    // the process rather than linked; the transport checks at start-up that libcurl uses OpenSSL.
    courier_openssl_init_crypto init_crypto =
        (courier_openssl_init_crypto)dlsym(RTLD_DEFAULT, "OPENSSL_init_crypto");
    if (init_crypto) init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

const curl_version_info_data *courier_curl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

int courier_curl_version_has_http2(const curl_version_info_data *info) {
    return (info->features & CURL_VERSION_HTTP2) != 0;
}

CURLcode courier_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob = {(void *)data, length, CURL_BLOB_COPY};
    return curl_easy_setopt(handle, option, &blob);
}

CURLcode courier_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_easy_setopt_share(CURL *handle, CURLSH *share) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

CURLcode courier_curl_easy_setopt_data_function(CURL *handle, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(handle, option, function);
}

CURLcode courier_curl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

CURLcode courier_curl_easy_setopt_seek_function(CURL *handle, curl_seek_callback function) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, function);
}

CURLcode courier_curl_easy_setopt_ssl_ctx_function(CURL *handle, curl_ssl_ctx_callback function) {
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, function);
}

CURLcode courier_curl_easy_setopt_debug_function(CURL *handle, curl_debug_callback function) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, function);
}

CURLcode courier_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLcode courier_curl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLcode courier_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLcode courier_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLcode courier_curl_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **out) {
    return curl_easy_getinfo(handle, info, out);
}

CURLMcode courier_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode courier_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode courier_curl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback function) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, function);
}

const curl_socket_t courier_curl_socket_timeout = CURL_SOCKET_TIMEOUT;

int courier_wake_descriptor_create(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void courier_wake_descriptor_signal(int descriptor) {
    uint64_t one = 1;
    /* EAGAIN only when the counter is near overflow, when the descriptor is readable anyway. */
    (void)!write(descriptor, &one, sizeof one);
}

void courier_wake_descriptor_drain(int descriptor) {
    uint64_t count;
    (void)!read(descriptor, &count, sizeof count);
}

CURLSHcode courier_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

const long courier_curl_pause_all = CURLPAUSE_ALL;
const long courier_curl_pause_recv = CURLPAUSE_RECV;
const long courier_curl_pause_send = CURLPAUSE_SEND;
const long courier_curl_pause_cont = CURLPAUSE_CONT;
const size_t courier_curl_writefunc_pause = CURL_WRITEFUNC_PAUSE;
const size_t courier_curl_readfunc_pause = CURL_READFUNC_PAUSE;
const size_t courier_curl_readfunc_abort = CURL_READFUNC_ABORT;
const long courier_curl_pipe_multiplex = CURLPIPE_MULTIPLEX;
const int courier_curl_seekfunc_ok = CURL_SEEKFUNC_OK;
const int courier_curl_seekfunc_cantseek = CURL_SEEKFUNC_CANTSEEK;
const int courier_curl_error_size = CURL_ERROR_SIZE;
const long courier_curl_auth_basic = (long)CURLAUTH_BASIC;
const long courier_curl_auth_digest = (long)CURLAUTH_DIGEST;
