// What one courier_ssl_ctx_install_verify keeps in the SSL_CTX's ex_data; shared by the verify
// callback (shim.c) and the revocation checks (revocation.c).
#ifndef CCOURIER_OPENSSL_SHIM_INSTALLATION_H
#define CCOURIER_OPENSSL_SHIM_INSTALLATION_H

#include "CCourierOpenSSLShim.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>

typedef struct courier_installation {
    char *host;
    courier_verify_fn fn;
    courier_status_fn status_fn;
    void *userdata;
    courier_release_fn release;
    /// NULL without CRLs; owned.
    STACK_OF(X509_CRL) *crls;
    unsigned long crl_flags;
} courier_installation;

/// The CRLs of `config` parsed into a new stack; NULL when there are none or one does not parse.
STACK_OF(X509_CRL) *courier_crl_stack_make(const courier_revocation_config *config, int *failed);

/// Makes this verification check `installation`'s CRLs.
void courier_crl_check_prepare(X509_STORE_CTX *store_ctx, const courier_installation *installation);

/// What the CRL check came to after X509_verify_cert, and the subject it failed on.
int courier_crl_state(X509_STORE_CTX *store_ctx, int chain_ok, int chain_error, char *subject, size_t capacity);

/// SSL_CTX_set_tlsext_status_cb's callback; `arg` is the installation.
int courier_ocsp_status_callback(SSL *ssl, void *arg);

#endif
