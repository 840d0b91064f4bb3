// The OpenSSL glue behind courier_curl_install_trust_callback: libcurl's SSL-context callback
// installs a certificate-verify callback that runs OpenSSL's chain verification, then hands the DER
// chain and the verdict to the caller's callback (the Swift trust evaluator) before the handshake
// completes, so no request byte is sent to an untrusted peer.
#include "CCourierCurlShim.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>

// What one easy handle's connections need; allocated per SSL_CTX and freed with it.
struct courier_trust_hook {
    courier_curl_trust_callback callback;
    void *context;
    int checks_host;
    char host[256];
};

// The settings libcurl's SSL-context callback receives (CURLOPT_SSL_CTX_DATA), one per easy handle.
struct courier_trust_settings {
    courier_curl_trust_callback callback;
    void *context;
    int checks_host;
};

static int hook_index = -1;

static void free_hook(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent; (void)data; (void)index; (void)argl; (void)argp;
    free(pointer);
}

static void register_hook_index(void) {
    hook_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, free_hook);
}

static int verify_certificate(X509_STORE_CTX *store, void *argument) {
    struct courier_trust_hook *hook = argument;
    if (hook->checks_host && hook->host[0] != '\0') {
        X509_VERIFY_PARAM *parameters = X509_STORE_CTX_get0_param(store);
        if (X509_VERIFY_PARAM_set1_ip_asc(parameters, hook->host) != 1) {
            X509_VERIFY_PARAM_set1_host(parameters, hook->host, 0);
        }
    }
    int verified = X509_verify_cert(store) == 1;
    STACK_OF(X509) *chain = verified ? X509_STORE_CTX_get0_chain(store) : X509_STORE_CTX_get0_untrusted(store);
    X509 *leaf = X509_STORE_CTX_get0_cert(store);
    int count = chain ? sk_X509_num(chain) : 0;
    int total = count > 0 ? count : (leaf ? 1 : 0);
    unsigned char **certificates = calloc((size_t)(total > 0 ? total : 1), sizeof(unsigned char *));
    size_t *lengths = calloc((size_t)(total > 0 ? total : 1), sizeof(size_t));
    int encoded = 0;
    if (certificates && lengths) {
        for (int index = 0; index < total; index++) {
            X509 *certificate = count > 0 ? sk_X509_value(chain, index) : leaf;
            unsigned char *der = NULL;
            int length = i2d_X509(certificate, &der);
            if (length <= 0) break;
            certificates[encoded] = der;
            lengths[encoded] = (size_t)length;
            encoded++;
        }
    }
    int trusted = 0;
    if (encoded == total && total > 0) {
        trusted = hook->callback(hook->context, hook->host, (const unsigned char *const *)certificates, lengths,
                                 (size_t)encoded, verified) != 0;
    }
    for (int index = 0; index < encoded; index++) OPENSSL_free(certificates[index]);
    free(certificates);
    free(lengths);
    // libcurl reads SSL_get_verify_result after the handshake: it must agree with the verdict.
    X509_STORE_CTX_set_error(store, trusted ? X509_V_OK : X509_V_ERR_APPLICATION_VERIFICATION);
    return trusted;
}

static CURLcode install_on_context(CURL *handle, void *ssl_context, void *argument) {
    struct courier_trust_settings *settings = argument;
    struct courier_trust_hook *hook = calloc(1, sizeof(*hook));
    if (!hook) return CURLE_OUT_OF_MEMORY;
    hook->callback = settings->callback;
    hook->context = settings->context;
    hook->checks_host = settings->checks_host;
    // The host the request named (CONNECT_TO and RESOLVE keep it): what the certificate must name.
    char *url = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK && url) {
        CURLU *parsed = curl_url();
        char *host = NULL;
        if (parsed && curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK &&
            curl_url_get(parsed, CURLUPART_HOST, &host, 0) == CURLUE_OK && host) {
            size_t length = strlen(host);
            // IPv6 literals come bracketed; OpenSSL wants them bare.
            if (length >= 2 && host[0] == '[' && host[length - 1] == ']') {
                length -= 2;
                if (length >= sizeof(hook->host)) length = sizeof(hook->host) - 1;
                memcpy(hook->host, host + 1, length);
            } else {
                if (length >= sizeof(hook->host)) length = sizeof(hook->host) - 1;
                memcpy(hook->host, host, length);
            }
            hook->host[length] = '\0';
        }
        curl_free(host);
        curl_url_cleanup(parsed);
    }
    if (SSL_CTX_set_ex_data(ssl_context, hook_index, hook) != 1) {
        free(hook);
        return CURLE_OUT_OF_MEMORY;
    }
    SSL_CTX_set_cert_verify_callback(ssl_context, verify_certificate, hook);
    return CURLE_OK;
}

void *courier_curl_trust_settings_create(courier_curl_trust_callback callback, void *context, int checks_host) {
    // Transports are created on their callers' threads: register the index once, atomically.
    static CRYPTO_ONCE once = CRYPTO_ONCE_STATIC_INIT;
    if (!CRYPTO_THREAD_run_once(&once, register_hook_index) || hook_index < 0) return NULL;
    struct courier_trust_settings *settings = malloc(sizeof(*settings));
    if (!settings) return NULL;
    settings->callback = callback;
    settings->context = context;
    settings->checks_host = checks_host;
    return settings;
}

void courier_curl_trust_settings_free(void *settings) { free(settings); }

CURLcode courier_curl_install_trust_callback(CURL *handle, void *settings) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, install_on_context);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, settings);
}
