// C glue for what Swift cannot import from OpenSSL 3 (macros, STACK_OF helpers) and the TLS
// certificate-verify callback that hands the server's chain to Swift.
//
// OpenSSL types appear only as incomplete struct pointers, so this header does not include the
// OpenSSL headers a second time (they belong to the CCourierOpenSSL module); Swift sees them as
// OpaquePointer, interchangeable with CCourierOpenSSL's.
#ifndef CCOURIER_OPENSSL_SHIM_H
#define CCOURIER_OPENSSL_SHIM_H

#include <stddef.h>

struct ssl_ctx_st;
struct x509_st;
struct stack_st_X509;
struct stack_st_GENERAL_NAME;

// MARK: - Library

/// Initialises libcrypto and libssl without an atexit handler: OpenSSL's exit-time cleanup would
/// otherwise free global state while a transport's loop thread may still be inside a handshake.
/// Only the first initialisation in a process decides this, so call it before curl_global_init.
/// Returns 1 on success.
int courier_openssl_init(void);

/// OPENSSL_free is a macro.
void courier_openssl_free(void *pointer);

// MARK: - STACK_OF(X509) (macros in OpenSSL 3)

struct stack_st_X509 *courier_sk_X509_new_null(void);
int courier_sk_X509_num(const struct stack_st_X509 *stack);
struct x509_st *courier_sk_X509_value(const struct stack_st_X509 *stack, int index);
/// Pushes and takes ownership of `cert` on success (returns the new count, or 0 on failure).
int courier_sk_X509_push(struct stack_st_X509 *stack, struct x509_st *cert);
/// Frees the stack and every certificate in it.
void courier_sk_X509_pop_free(struct stack_st_X509 *stack);

// MARK: - Subject alternative names

enum {
    COURIER_SAN_OTHER = 0,
    COURIER_SAN_DNS = 1,
    COURIER_SAN_IP = 2,
};

/// The certificate's subject alternative names, or NULL when it has none. Free with
/// courier_general_names_free.
struct stack_st_GENERAL_NAME *courier_x509_subject_alt_names(const struct x509_st *cert);
int courier_general_names_count(const struct stack_st_GENERAL_NAME *names);
/// The kind (COURIER_SAN_*) of entry `index`, and its bytes (the DNS name, or the 4 or 16 address
/// bytes), valid while `names` lives.
int courier_general_names_get(
    const struct stack_st_GENERAL_NAME *names, int index, const unsigned char **bytes, int *length);
void courier_general_names_free(struct stack_st_GENERAL_NAME *names);

// MARK: - Hosts

/// Whether `host` is an IPv4 or IPv6 literal (without brackets).
int courier_host_is_ip_literal(const char *host);

/// The X509_CHECK_FLAG_* used for every DNS name check: wildcards only as a whole left-most label
/// (RFC 6125 section 6.4.3), as Apple's and browsers' TLS stacks match.
unsigned int courier_host_check_flags(void);

// MARK: - TLS certificate-verify callback

enum {
    COURIER_HOST_NOT_CHECKED = 0,
    COURIER_HOST_MATCHES = 1,
    COURIER_HOST_MISMATCH = 2,
};

/// DER certificates, leaf first. The bytes are valid only during the verify callback.
typedef struct courier_der_chain {
    const unsigned char *const *ders;
    const size_t *lengths;
    size_t count;
} courier_der_chain;

/// What the verify callback learned, handed to the Swift evaluator.
typedef struct courier_verify_input {
    /// The peer's chain as it sent it (leaf first).
    courier_der_chain presented;
    /// The chain X509_verify_cert built to an anchor of the context's store; empty unless chain_ok.
    courier_der_chain verified;
    /// 1 when the chain verified against the context's store (without host name).
    int chain_ok;
    /// The X509_V_ERR_* of the default verification (X509_V_OK when chain_ok).
    int chain_error;
    /// X509_verify_cert_error_string(chain_error); static storage.
    const char *chain_error_text;
    /// COURIER_HOST_*.
    int host_state;
    /// The host checked (brackets of an IPv6 literal removed), or NULL.
    const char *host;
    /// COURIER_REVOCATION_*: what the installation's CRLs said about the chain (NOT_CHECKED without
    /// CRLs, or when the chain failed for another reason before OpenSSL reached the CRL check).
    int crl_state;
    /// The subject of the certificate the CRL check failed on (RFC 2253), or "".
    const char *crl_subject;
} courier_verify_input;

// MARK: - Revocation

enum {
    COURIER_REVOCATION_NOT_CHECKED = 0,
    COURIER_REVOCATION_GOOD = 1,
    COURIER_REVOCATION_REVOKED = 2,
    /// Checked, but no answer could be trusted (missing, stale or unverifiable CRL or OCSP response).
    COURIER_REVOCATION_UNKNOWN = 3,
    /// OCSP only: the server stapled no response.
    COURIER_REVOCATION_NO_STAPLE = 4,
};

/// What the installation checks besides the evaluator. CRLs are DER; they are parsed again for
/// each installation (one per libcurl connection), so that no OpenSSL object is shared between
/// threads.
typedef struct courier_revocation_config {
    const unsigned char *const *crl_ders;
    const size_t *crl_lengths;
    size_t crl_count;
    /// X509_V_FLAG_CRL_CHECK_ALL as well as X509_V_FLAG_CRL_CHECK: every certificate of the chain,
    /// not only the leaf, needs a current CRL from its issuer.
    int crl_check_all;
    /// Whether to ask the server for a stapled OCSP response (status_request) and call the status
    /// function with what came of it.
    int request_ocsp_staple;
} courier_revocation_config;

/// What the stapled OCSP response said about the leaf.
typedef struct courier_status_input {
    /// COURIER_REVOCATION_GOOD, _REVOKED, _UNKNOWN or _NO_STAPLE.
    int state;
    /// Why, for REVOKED (the revocation reason) and UNKNOWN (what could not be trusted); "" otherwise.
    const char *text;
} courier_status_input;

/// Returns 1 to continue the handshake, 0 to fail it. Runs on the thread doing the handshake, after
/// the certificate-verify callback and before the client's Finished message (TLS 1.2 and 1.3).
typedef int (*courier_status_fn)(void *userdata, const courier_status_input *input);

/// Calls `each(context, der, length)` for every CRL in `bytes`: PEM (one or more X509 CRL blocks)
/// or a single DER CRL. Returns the number of CRLs, or -1 when the data holds none or a corrupt one.
int courier_crls_parse(const unsigned char *bytes, size_t length,
                       void (*each)(void *context, const unsigned char *der, size_t length), void *context);

/// Returns 1 to accept the server, 0 to reject it. Runs on the thread doing the handshake.
typedef int (*courier_verify_fn)(void *userdata, const courier_verify_input *input);
/// Releases `userdata` when the SSL_CTX it was installed on is freed.
typedef void (*courier_release_fn)(void *userdata);

/// Installs a certificate-verify callback (SSL_CTX_set_cert_verify_callback) on `ssl_ctx` (an
/// SSL_CTX *, as libcurl passes to CURLOPT_SSL_CTX_FUNCTION). For every handshake on a connection
/// made from this context, the callback:
///   (a) runs the default X509_verify_cert with the context's store (libcurl's CAINFO/CAPATH) and
///       with any host, IP or e-mail expectation removed, for the chain verdict;
///   (b) checks `host_or_null` on the leaf (X509_check_ip_asc for IP literals, else X509_check_host);
///   (c) encodes the presented chain and, when (a) succeeded, the built chain as DER;
///   (d) calls `fn(userdata, &input)` and maps accept/reject to X509_V_OK / return 1 and
///       X509_V_ERR_APPLICATION_VERIFICATION / return 0 (the handshake then fails before any
///       application data is sent).
///
/// The peer's verification only runs with SSL_VERIFY_PEER (libcurl: CURLOPT_SSL_VERIFYPEER=1); with
/// SSL_VERIFY_NONE OpenSSL ignores the verdict.
///
/// Ownership: the host is copied. On success, `userdata` belongs to the SSL_CTX (stored in its
/// ex_data) and `release(userdata)` is called when the SSL_CTX is freed or when another
/// installation replaces it; the callback may run for many connections until then. On failure
/// (returns 0), nothing is retained and the caller still owns `userdata`. Returns 1 on success.
///
/// With `revocation_or_null`, (a) also checks the chain against its CRLs (X509_V_FLAG_CRL_CHECK in
/// this verification's parameters, the CRLs as the store context's CRL list), reported in
/// `crl_state`; and when it asks for a stapled OCSP response, `status_fn` is called once the server's
/// first flight is in (SSL_CTX_set_tlsext_status_cb), with the response checked against the
/// context's store.
int courier_ssl_ctx_install_verify(void *ssl_ctx, const char *host_or_null,
                                   const courier_revocation_config *revocation_or_null, courier_verify_fn fn,
                                   courier_status_fn status_fn, void *userdata, courier_release_fn release);

// MARK: - Client identities

/// What loading a client identity came to.
enum {
    COURIER_IDENTITY_OK = 0,
    COURIER_IDENTITY_BAD_CERTIFICATE = 1,
    COURIER_IDENTITY_BAD_KEY = 2,
    COURIER_IDENTITY_WRONG_PASSPHRASE = 3,
    COURIER_IDENTITY_KEY_MISMATCH = 4,
    COURIER_IDENTITY_BAD_PKCS12 = 5,
    COURIER_IDENTITY_NO_KEY = 6,
    COURIER_IDENTITY_OUT_OF_MEMORY = 7,
};

/// A client identity re-encoded for libcurl's blob options: the certificate chain (leaf first) and
/// the private key, unencrypted, as PEM in memory; free with courier_identity_free.
typedef struct {
    char *certificate_pem;
    size_t certificate_pem_length;
    char *key_pem;
    size_t key_pem_length;
    char subject[512];
    long long not_before;
    long long not_after;
    unsigned long openssl_error;
} courier_identity;

/// Loads a certificate (PEM chain or DER) and its private key (PEM or DER, encrypted or not; NULL
/// when the PEM certificate data holds the key too). `passphrase` may be NULL: an encrypted key
/// then fails with COURIER_IDENTITY_WRONG_PASSPHRASE rather than prompting on a terminal.
int courier_identity_load(const unsigned char *certificate, size_t certificate_length, const unsigned char *key,
                          size_t key_length, const char *passphrase, courier_identity *out);

/// Loads a PKCS#12 bundle; checks its MAC with `passphrase` first (NULL or "" for none).
int courier_identity_load_pkcs12(const unsigned char *bundle, size_t length, const char *passphrase,
                                 courier_identity *out);

/// Frees what a load allocated (the key bytes are wiped first).
void courier_identity_free(courier_identity *identity);

#endif
