// Revocation checks of the trust hook: CRLs inside the certificate-verify callback, and the stapled
// OCSP response (RFC 6066 section 8, RFC 8446 section 4.4.2.1) in the status callback.
//
// Where OpenSSL 3.0 exposes the staple: in TLS 1.3 it travels in the leaf's CertificateEntry and is
// parsed before the chain is verified; in TLS 1.2 it is a CertificateStatus message after
// Certificate, so the verify callback has not seen it yet. The status callback runs for both
// versions once the server's first flight is in (tls_process_initial_server_flight) and before the
// client sends Finished, so a rejection there, like one in the verify callback, comes before any
// application data.
#include "installation.h"

#include <openssl/err.h>
#include <openssl/ocsp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <string.h>

// MARK: - CRLs

/// Whether `bytes` contain a PEM boundary, which tells PEM from DER.
static int contains_pem_boundary(const unsigned char *bytes, size_t length) {
    static const char boundary[] = "-----BEGIN";
    size_t size = sizeof boundary - 1;
    for (size_t i = 0; i + size <= length; i++) {
        if (memcmp(bytes + i, boundary, size) == 0) return 1;
    }
    return 0;
}

int courier_crls_parse(const unsigned char *bytes, size_t length,
                       void (*each)(void *context, const unsigned char *der, size_t length), void *context) {
    if (!bytes || length == 0 || length > INT32_MAX) return -1;
    ERR_set_mark();
    int count = 0;
    BIO *bio = BIO_new_mem_buf(bytes, (int)length);
    X509_CRL *crl;
    if (bio && contains_pem_boundary(bytes, length)) {
        while ((crl = PEM_read_bio_X509_CRL(bio, NULL, NULL, NULL)) != NULL) {
            unsigned char *der = NULL;
            int der_length = i2d_X509_CRL(crl, &der);
            if (der_length > 0) {
                each(context, der, (size_t)der_length);
                count++;
            }
            OPENSSL_free(der);
            X509_CRL_free(crl);
        }
        // A truncated block after good ones is corruption, not the end of the data.
        unsigned long error = ERR_peek_last_error();
        if (ERR_GET_REASON(error) != PEM_R_NO_START_LINE && error != 0) count = -1;
    } else {
        const unsigned char *cursor = bytes;
        crl = d2i_X509_CRL(NULL, &cursor, (long)length);
        if (crl) {
            each(context, bytes, length);
            count = 1;
            X509_CRL_free(crl);
        }
    }
    BIO_free(bio);
    ERR_pop_to_mark();
    return count > 0 ? count : -1;
}

STACK_OF(X509_CRL) *courier_crl_stack_make(const courier_revocation_config *config, int *failed) {
    *failed = 0;
    if (!config || config->crl_count == 0) return NULL;
    STACK_OF(X509_CRL) *stack = sk_X509_CRL_new_null();
    if (!stack) goto failure;
    for (size_t i = 0; i < config->crl_count; i++) {
        const unsigned char *cursor = config->crl_ders[i];
        X509_CRL *crl = d2i_X509_CRL(NULL, &cursor, (long)config->crl_lengths[i]);
        if (!crl) goto failure;
        if (!sk_X509_CRL_push(stack, crl)) {
            X509_CRL_free(crl);
            goto failure;
        }
    }
    return stack;
failure:
    sk_X509_CRL_pop_free(stack, X509_CRL_free);
    *failed = 1;
    return NULL;
}

void courier_crl_check_prepare(X509_STORE_CTX *store_ctx, const courier_installation *installation) {
    if (!installation->crls) return;
    // set0: the context borrows the stack, which lives as long as the installation.
    X509_STORE_CTX_set0_crls(store_ctx, installation->crls);
    X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(store_ctx), installation->crl_flags);
}

/// The X509_V_ERR_* that mean "the CRLs could not say": missing, stale, badly signed or out of scope.
static int is_crl_failure(int error) {
    switch (error) {
    case X509_V_ERR_UNABLE_TO_GET_CRL:
    case X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE:
    case X509_V_ERR_CRL_SIGNATURE_FAILURE:
    case X509_V_ERR_CRL_NOT_YET_VALID:
    case X509_V_ERR_CRL_HAS_EXPIRED:
    case X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD:
    case X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD:
    case X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER:
    case X509_V_ERR_KEYUSAGE_NO_CRL_SIGN:
    case X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION:
    case X509_V_ERR_DIFFERENT_CRL_SCOPE:
    case X509_V_ERR_CRL_PATH_VALIDATION_ERROR:
        return 1;
    default:
        return 0;
    }
}

int courier_crl_state(X509_STORE_CTX *store_ctx, int chain_ok, int chain_error, char *subject, size_t capacity) {
    subject[0] = '\0';
    if (chain_ok) return COURIER_REVOCATION_GOOD;
    int state = COURIER_REVOCATION_NOT_CHECKED;
    if (chain_error == X509_V_ERR_CERT_REVOKED) state = COURIER_REVOCATION_REVOKED;
    else if (is_crl_failure(chain_error)) state = COURIER_REVOCATION_UNKNOWN;
    X509 *current = X509_STORE_CTX_get_current_cert(store_ctx);
    if (state != COURIER_REVOCATION_NOT_CHECKED && current) {
        BIO *bio = BIO_new(BIO_s_mem());
        if (bio && X509_NAME_print_ex(bio, X509_get_subject_name(current), 0, XN_FLAG_RFC2253) >= 0) {
            int length = BIO_read(bio, subject, (int)capacity - 1);
            subject[length > 0 ? length : 0] = '\0';
        }
        BIO_free(bio);
    }
    return state;
}

// MARK: - Stapled OCSP

/// The certificate in `stack` that issued `leaf`, or NULL.
static X509 *issuer_in(X509 *leaf, STACK_OF(X509) *stack) {
    for (int i = 0; stack && i < sk_X509_num(stack); i++) {
        X509 *candidate = sk_X509_value(stack, i);
        if (candidate != leaf && X509_check_issued(candidate, leaf) == X509_V_OK) return candidate;
    }
    return NULL;
}

/// Checks the staple; writes why into `text` for REVOKED and UNKNOWN.
static int ocsp_staple_state(SSL *ssl, char *text, size_t capacity) {
    const unsigned char *staple = NULL;
    long length = SSL_get_tlsext_status_ocsp_resp(ssl, &staple);
    if (!staple || length <= 0) return COURIER_REVOCATION_NO_STAPLE;

    int state = COURIER_REVOCATION_UNKNOWN;
    OCSP_BASICRESP *basic = NULL;
    OCSP_CERTID *id = NULL;
    OCSP_RESPONSE *response = d2i_OCSP_RESPONSE(NULL, &staple, length);
    if (!response) {
        snprintf(text, capacity, "the stapled OCSP response cannot be parsed");
        goto done;
    }
    int status = OCSP_response_status(response);
    if (status != OCSP_RESPONSE_STATUS_SUCCESSFUL) {
        snprintf(text, capacity, "the stapled OCSP response is an error: %s", OCSP_response_status_str(status));
        goto done;
    }
    basic = OCSP_response_get1_basic(response);
    X509 *leaf = SSL_get0_peer_certificate(ssl);
    STACK_OF(X509) *presented = SSL_get_peer_cert_chain(ssl);
    X509 *issuer = issuer_in(leaf, SSL_get0_verified_chain(ssl));
    if (!issuer) issuer = issuer_in(leaf, presented);
    if (!basic || !leaf || !issuer) {
        snprintf(text, capacity, "the stapled OCSP response cannot be checked without the certificate's issuer");
        goto done;
    }
    // The responder must chain to the transport's CA store and be the issuer or delegated by it
    // (RFC 6960 section 4.2.2.2), as curl checks it for CURLOPT_SSL_VERIFYSTATUS.
    X509_STORE *store = SSL_CTX_get_cert_store(SSL_get_SSL_CTX(ssl));
    if (OCSP_basic_verify(basic, presented, store, 0) <= 0) {
        snprintf(text, capacity, "the stapled OCSP response's signature does not verify");
        goto done;
    }
    id = OCSP_cert_to_id(NULL, leaf, issuer);
    int cert_status = -1;
    int reason = -1;
    ASN1_GENERALIZEDTIME *revoked_at = NULL, *this_update = NULL, *next_update = NULL;
    if (!id || !OCSP_resp_find_status(basic, id, &cert_status, &reason, &revoked_at, &this_update, &next_update)) {
        snprintf(text, capacity, "the stapled OCSP response does not cover the server's certificate");
        goto done;
    }
    if (cert_status == V_OCSP_CERTSTATUS_REVOKED) {
        // A signed "revoked" stays true after the response's validity ends.
        snprintf(text, capacity, "reason: %s", reason >= 0 ? OCSP_crl_reason_str(reason) : "unspecified");
        state = COURIER_REVOCATION_REVOKED;
        goto done;
    }
    // Five minutes of leeway for clock skew, as `openssl ocsp` allows by default.
    if (!OCSP_check_validity(this_update, next_update, 300, -1)) {
        snprintf(text, capacity, "the stapled OCSP response is out of date or not yet valid");
        goto done;
    }
    if (cert_status == V_OCSP_CERTSTATUS_GOOD) {
        state = COURIER_REVOCATION_GOOD;
    } else {
        snprintf(text, capacity, "the OCSP responder does not know the server's certificate");
    }
done:
    OCSP_CERTID_free(id);
    OCSP_BASICRESP_free(basic);
    OCSP_RESPONSE_free(response);
    return state;
}

int courier_ocsp_status_callback(SSL *ssl, void *arg) {
    courier_installation *installation = arg;
    if (!installation || !installation->status_fn) return 1;
    ERR_set_mark();
    char text[256] = "";
    courier_status_input input = {.state = ocsp_staple_state(ssl, text, sizeof text), .text = text};
    int accepted = installation->status_fn(installation->userdata, &input) == 1;
    ERR_pop_to_mark();
    return accepted ? 1 : 0;
}
