#include "CCourierOpenSSLShim.h"
#include "installation.h"

#include <arpa/inet.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Library

int courier_openssl_init(void) {
    if (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL) != 1) return 0;
    return OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT, NULL) == 1;
}

void courier_openssl_free(void *pointer) { OPENSSL_free(pointer); }

// MARK: - STACK_OF(X509)

struct stack_st_X509 *courier_sk_X509_new_null(void) { return sk_X509_new_null(); }

int courier_sk_X509_num(const struct stack_st_X509 *stack) { return stack ? sk_X509_num(stack) : 0; }

struct x509_st *courier_sk_X509_value(const struct stack_st_X509 *stack, int index) {
    return stack ? sk_X509_value(stack, index) : NULL;
}

int courier_sk_X509_push(struct stack_st_X509 *stack, struct x509_st *cert) {
    return stack ? sk_X509_push(stack, cert) : 0;
}

void courier_sk_X509_pop_free(struct stack_st_X509 *stack) { sk_X509_pop_free(stack, X509_free); }

// MARK: - Subject alternative names

struct stack_st_GENERAL_NAME *courier_x509_subject_alt_names(const struct x509_st *cert) {
    if (!cert) return NULL;
    return X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
}

int courier_general_names_count(const struct stack_st_GENERAL_NAME *names) {
    return names ? sk_GENERAL_NAME_num(names) : 0;
}

int courier_general_names_get(
    const struct stack_st_GENERAL_NAME *names, int index, const unsigned char **bytes, int *length) {
    *bytes = NULL;
    *length = 0;
    const GENERAL_NAME *name = names ? sk_GENERAL_NAME_value(names, index) : NULL;
    if (!name) return COURIER_SAN_OTHER;
    const ASN1_STRING *value;
    int kind;
    switch (name->type) {
    case GEN_DNS:
        value = name->d.dNSName;
        kind = COURIER_SAN_DNS;
        break;
    case GEN_IPADD:
        value = name->d.iPAddress;
        kind = COURIER_SAN_IP;
        break;
    default:
        return COURIER_SAN_OTHER;
    }
    if (!value) return COURIER_SAN_OTHER;
    *bytes = ASN1_STRING_get0_data(value);
    *length = ASN1_STRING_length(value);
    return kind;
}

void courier_general_names_free(struct stack_st_GENERAL_NAME *names) { GENERAL_NAMES_free(names); }

// MARK: - Hosts

int courier_host_is_ip_literal(const char *host) {
    if (!host) return 0;
    unsigned char address[16];
    return inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
}

unsigned int courier_host_check_flags(void) { return X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS; }

/// 1 when the leaf is valid for `host` (an IP literal or a DNS name), else 0.
static int leaf_matches_host(X509 *leaf, const char *host) {
    if (!leaf) return 0;
    if (courier_host_is_ip_literal(host)) return X509_check_ip_asc(leaf, host, 0) == 1;
    return X509_check_host(leaf, host, strlen(host), courier_host_check_flags(), NULL) == 1;
}

// MARK: - DER chains

typedef struct der_list {
    unsigned char **ders;
    size_t *lengths;
    size_t count;
} der_list;

static void der_list_free(der_list *list) {
    for (size_t i = 0; i < list->count; i++) free(list->ders[i]);
    free(list->ders);
    free(list->lengths);
    *list = (der_list){0};
}

static int der_list_append(der_list *list, X509 *cert) {
    int length = i2d_X509(cert, NULL);
    if (length <= 0) return 0;
    unsigned char *bytes = malloc((size_t)length);
    if (!bytes) return 0;
    unsigned char *cursor = bytes;
    if (i2d_X509(cert, &cursor) != length) {
        free(bytes);
        return 0;
    }
    list->ders[list->count] = bytes;
    list->lengths[list->count] = (size_t)length;
    list->count++;
    return 1;
}

/// Encodes `leaf` (unless the stack already starts with it) followed by the stack. Returns 1 on
/// success; on failure the list is freed.
static int der_list_encode(der_list *list, X509 *leaf, STACK_OF(X509) *stack) {
    int count = stack ? sk_X509_num(stack) : 0;
    size_t capacity = (size_t)(count > 0 ? count : 0) + 1;
    list->ders = calloc(capacity, sizeof *list->ders);
    list->lengths = calloc(capacity, sizeof *list->lengths);
    list->count = 0;
    if (!list->ders || !list->lengths) goto failed;
    if (leaf && (count == 0 || sk_X509_value(stack, 0) != leaf)) {
        if (!der_list_append(list, leaf)) goto failed;
    }
    for (int i = 0; i < count; i++) {
        if (!der_list_append(list, sk_X509_value(stack, i))) goto failed;
    }
    return 1;
failed:
    der_list_free(list);
    return 0;
}

static courier_der_chain der_chain_view(const der_list *list) {
    return (courier_der_chain){
        .ders = (const unsigned char *const *)list->ders, .lengths = list->lengths, .count = list->count};
}

// MARK: - TLS certificate-verify callback

static void installation_destroy(courier_installation *installation) {
    if (!installation) return;
    if (installation->release) installation->release(installation->userdata);
    sk_X509_CRL_pop_free(installation->crls, X509_CRL_free);
    free(installation->host);
    free(installation);
}

static void installation_ex_free(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent;
    (void)data;
    (void)index;
    (void)argl;
    (void)argp;
    installation_destroy(pointer);
}

static int installation_index = -1;
static pthread_once_t installation_index_once = PTHREAD_ONCE_INIT;

static void installation_index_make(void) {
    installation_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, installation_ex_free);
}

static int verify_callback(X509_STORE_CTX *store_ctx, void *arg) {
    courier_installation *installation = arg;
    // Whatever this callback pushes on the thread's error queue is dropped on return, so that
    // libcurl's error reporting for the handshake sees only OpenSSL's own errors.
    ERR_set_mark();

    // (a) The default chain verdict, without host name: the policy decides whether the host matters.
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(store_ctx);
    X509_VERIFY_PARAM_set1_host(param, NULL, 0);
    X509_VERIFY_PARAM_set1_email(param, NULL, 0);
    X509_VERIFY_PARAM_set1_ip(param, NULL, 0);
    courier_crl_check_prepare(store_ctx, installation);
    int chain_ok = X509_verify_cert(store_ctx) == 1;
    int chain_error = chain_ok ? X509_V_OK : X509_STORE_CTX_get_error(store_ctx);
    if (!chain_ok && chain_error == X509_V_OK) chain_error = X509_V_ERR_UNSPECIFIED;
    char crl_subject[256] = "";
    int crl_state = installation->crls
                        ? courier_crl_state(store_ctx, chain_ok, chain_error, crl_subject, sizeof crl_subject)
                        : COURIER_REVOCATION_NOT_CHECKED;

    // (b) The host verdict on the leaf.
    X509 *leaf = X509_STORE_CTX_get0_cert(store_ctx);
    int host_state = COURIER_HOST_NOT_CHECKED;
    if (installation->host) {
        host_state = leaf_matches_host(leaf, installation->host) ? COURIER_HOST_MATCHES : COURIER_HOST_MISMATCH;
    }

    // (c) The presented chain ("untrusted" = the peer's certificates as sent, leaf first) and, when
    // the chain verified, the chain built to the store's anchor.
    der_list presented = {0};
    der_list verified = {0};
    int accepted = 0;
    int encoded = der_list_encode(&presented, leaf, X509_STORE_CTX_get0_untrusted(store_ctx));
    if (encoded && chain_ok) encoded = der_list_encode(&verified, NULL, X509_STORE_CTX_get0_chain(store_ctx));

    // (d) The Swift evaluator decides.
    if (encoded) {
        courier_verify_input input = {
            .presented = der_chain_view(&presented),
            .verified = der_chain_view(&verified),
            .chain_ok = chain_ok,
            .chain_error = chain_error,
            .chain_error_text = X509_verify_cert_error_string(chain_error),
            .host_state = host_state,
            .host = installation->host,
            .crl_state = crl_state,
            .crl_subject = crl_subject,
        };
        accepted = installation->fn(installation->userdata, &input) == 1;
    }
    der_list_free(&presented);
    der_list_free(&verified);
    ERR_pop_to_mark();

    if (accepted) {
        X509_STORE_CTX_set_error(store_ctx, X509_V_OK);
        return 1;
    }
    X509_STORE_CTX_set_error(store_ctx, encoded ? X509_V_ERR_APPLICATION_VERIFICATION : X509_V_ERR_OUT_OF_MEM);
    return 0;
}

int courier_ssl_ctx_install_verify(void *ssl_ctx, const char *host_or_null,
                                   const courier_revocation_config *revocation_or_null, courier_verify_fn fn,
                                   courier_status_fn status_fn, void *userdata, courier_release_fn release) {
    SSL_CTX *context = ssl_ctx;
    if (!context || !fn) return 0;
    pthread_once(&installation_index_once, installation_index_make);
    if (installation_index < 0) return 0;

    courier_installation *installation = calloc(1, sizeof *installation);
    if (!installation) return 0;
    int crls_failed = 0;
    installation->crls = courier_crl_stack_make(revocation_or_null, &crls_failed);
    if (crls_failed) {
        free(installation);
        return 0;
    }
    if (installation->crls) {
        installation->crl_flags = X509_V_FLAG_CRL_CHECK;
        if (revocation_or_null->crl_check_all) installation->crl_flags |= X509_V_FLAG_CRL_CHECK_ALL;
    }
    if (host_or_null && host_or_null[0] != '\0') {
        // "[::1]" as in a URL: the certificate holds the bare address.
        size_t length = strlen(host_or_null);
        const char *start = host_or_null;
        if (length >= 2 && start[0] == '[' && start[length - 1] == ']') {
            start++;
            length -= 2;
        }
        installation->host = strndup(start, length);
        if (!installation->host) {
            sk_X509_CRL_pop_free(installation->crls, X509_CRL_free);
            free(installation);
            return 0;
        }
    }
    installation->fn = fn;
    installation->status_fn = status_fn;
    installation->userdata = userdata;
    installation->release = release;

    // Replacing the ex_data does not run its free function: release the previous installation here.
    courier_installation *previous = SSL_CTX_get_ex_data(context, installation_index);
    if (!SSL_CTX_set_ex_data(context, installation_index, installation)) {
        sk_X509_CRL_pop_free(installation->crls, X509_CRL_free);
        free(installation->host);
        free(installation);
        return 0;
    }
    SSL_CTX_set_cert_verify_callback(context, verify_callback, installation);
    if (revocation_or_null && revocation_or_null->request_ocsp_staple && status_fn) {
        // Inherited by every SSL made from the context afterwards (libcurl makes its SSL after
        // CURLOPT_SSL_CTX_FUNCTION returns); libcurl itself asks only with CURLOPT_SSL_VERIFYSTATUS.
        SSL_CTX_set_tlsext_status_type(context, TLSEXT_STATUSTYPE_ocsp);
        SSL_CTX_set_tlsext_status_cb(context, courier_ocsp_status_callback);
        SSL_CTX_set_tlsext_status_arg(context, installation);
    } else {
        SSL_CTX_set_tlsext_status_cb(context, NULL);
        SSL_CTX_set_tlsext_status_arg(context, NULL);
    }
    installation_destroy(previous);
    return 1;
}
