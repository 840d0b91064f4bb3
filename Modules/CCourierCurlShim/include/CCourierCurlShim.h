// Typed, non-variadic wrappers around libcurl's variadic option and info functions, and the
// macros Swift cannot import. One wrapper per argument type, as swift-corelibs-foundation's
// CFURLSessionInterface does, so that Swift never calls a C variadic function.
#ifndef COURIER_CURL_SHIM_H
#define COURIER_CURL_SHIM_H

#include <curl/curl.h>
#include <pthread.h>

#pragma clang assume_nonnull begin

CURLcode courier_curl_global_init(void);
const curl_version_info_data *_Nullable courier_curl_version_info(void);
/// Non-zero when libcurl was built with HTTP/2 support.
int courier_curl_version_has_http2(const curl_version_info_data *info);

CURLcode courier_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode courier_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode courier_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *_Nullable value);
/// Sets a blob option (CURLOPT_SSLCERT_BLOB and the like); libcurl copies the bytes (CURL_BLOB_COPY).
CURLcode courier_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *_Nullable data, size_t length);
CURLcode courier_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *_Nullable value);
CURLcode courier_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *_Nullable value);
CURLcode courier_curl_easy_setopt_share(CURL *handle, CURLSH *_Nullable share);
CURLcode courier_curl_easy_setopt_data_function(CURL *handle, CURLoption option, curl_write_callback _Nullable function);
CURLcode courier_curl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback _Nullable function);
CURLcode courier_curl_easy_setopt_seek_function(CURL *handle, curl_seek_callback _Nullable function);
/// `CURLOPT_SSL_CTX_FUNCTION`: called with the TLS library's context (`SSL_CTX *`) of every new TLS
/// connection, before its handshake.
CURLcode courier_curl_easy_setopt_ssl_ctx_function(CURL *handle, curl_ssl_ctx_callback _Nullable function);
/// `CURLOPT_DEBUGFUNCTION` (takes effect with `CURLOPT_VERBOSE=1`).
CURLcode courier_curl_easy_setopt_debug_function(CURL *handle, curl_debug_callback _Nullable function);

CURLcode courier_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
CURLcode courier_curl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *out);
CURLcode courier_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out);
CURLcode courier_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char *_Nullable *_Nonnull out);
CURLcode courier_curl_easy_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist *_Nullable *_Nonnull out);

CURLMcode courier_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode courier_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *_Nullable value);
/// `CURLMOPT_SOCKETFUNCTION`: libcurl tells which sockets it wants watched, and for what.
CURLMcode courier_curl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback _Nullable function);
/// `CURL_SOCKET_TIMEOUT`, for `curl_multi_socket_action` on expired timers.
extern const curl_socket_t courier_curl_socket_timeout;

/// A non-blocking, close-on-exec eventfd for waking the loop's poll; -1 when none can be made.
int courier_wake_descriptor_create(void);
/// Makes the descriptor readable (any thread).
void courier_wake_descriptor_signal(int descriptor);
/// Reads the descriptor back to unreadable (the loop thread, after its poll).
void courier_wake_descriptor_drain(int descriptor);
CURLSHcode courier_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

/// Names the loop thread. glibc declares it only under `_GNU_SOURCE`, which Swift's importer does not
/// define; every glibc since 2.12 has it.
int pthread_setname_np(pthread_t thread, const char *name);

extern const long courier_curl_pause_all;
extern const long courier_curl_pause_recv;
extern const long courier_curl_pause_send;
extern const long courier_curl_pause_cont;
extern const size_t courier_curl_writefunc_pause;
extern const size_t courier_curl_readfunc_pause;
extern const size_t courier_curl_readfunc_abort;
extern const long courier_curl_pipe_multiplex;
extern const long courier_curl_auth_basic;
extern const long courier_curl_auth_digest;
extern const int courier_curl_seekfunc_ok;
extern const int courier_curl_seekfunc_cantseek;
extern const int courier_curl_error_size;

#pragma clang assume_nonnull end

#endif
