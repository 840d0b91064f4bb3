// Client identities: certificate and key loaded, decrypted, matched and re-encoded for libcurl.
#include "CCourierOpenSSLShim.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <string.h>
#include <time.h>

// Hands the passphrase to OpenSSL; with none, refuses (OpenSSL's default callback would prompt on
// the terminal, which a library must never do).
static int passphrase_callback(char *buffer, int size, int rwflag, void *userdata) {
    (void)rwflag;
    const char *passphrase = userdata;
    if (passphrase == NULL) return -1;
    size_t length = strlen(passphrase);
    if (length > (size_t)size) return -1;
    memcpy(buffer, passphrase, length);
    return (int)length;
}

static int looks_like_pem(const unsigned char *data, size_t length) {
    static const char marker[] = "-----BEGIN";
    if (length < sizeof(marker) - 1) return 0;
    for (size_t i = 0; i + sizeof(marker) - 1 <= length; i++) {
        if (memcmp(data + i, marker, sizeof(marker) - 1) == 0) return 1;
    }
    return 0;
}

static int contains(const unsigned char *data, size_t length, const char *text) {
    size_t size = strlen(text);
    for (size_t i = 0; i + size <= length; i++) {
        if (memcmp(data + i, text, size) == 0) return 1;
    }
    return 0;
}

static long long seconds_of(const ASN1_TIME *time) {
    struct tm parts;
    if (time == NULL || !ASN1_TIME_to_tm(time, &parts)) return 0;
    return (long long)timegm(&parts);
}

static char *bio_copy(BIO *bio, size_t *length) {
    char *data = NULL;
    long size = BIO_get_mem_data(bio, &data);
    if (size <= 0) return NULL;
    char *copy = OPENSSL_malloc((size_t)size);
    if (copy == NULL) return NULL;
    memcpy(copy, data, (size_t)size);
    *length = (size_t)size;
    return copy;
}

// Re-encodes leaf, chain and key as PEM, fills in the summary; takes nothing over.
static int finish(X509 *leaf, STACK_OF(X509) *chain, EVP_PKEY *key, courier_identity *out) {
    if (X509_check_private_key(leaf, key) != 1) {
        out->openssl_error = ERR_peek_last_error();
        return COURIER_IDENTITY_KEY_MISMATCH;
    }
    BIO *certificates = BIO_new(BIO_s_mem());
    BIO *keys = BIO_new(BIO_s_mem());
    int status = COURIER_IDENTITY_OUT_OF_MEMORY;
    if (certificates == NULL || keys == NULL) goto done;
    if (!PEM_write_bio_X509(certificates, leaf)) goto done;
    for (int i = 0; chain != NULL && i < sk_X509_num(chain); i++) {
        if (!PEM_write_bio_X509(certificates, sk_X509_value(chain, i))) goto done;
    }
    if (!PEM_write_bio_PrivateKey(keys, key, NULL, NULL, 0, NULL, NULL)) goto done;
    out->certificate_pem = bio_copy(certificates, &out->certificate_pem_length);
    out->key_pem = bio_copy(keys, &out->key_pem_length);
    if (out->certificate_pem == NULL || out->key_pem == NULL) goto done;
    X509_NAME_oneline(X509_get_subject_name(leaf), out->subject, sizeof(out->subject));
    out->not_before = seconds_of(X509_get0_notBefore(leaf));
    out->not_after = seconds_of(X509_get0_notAfter(leaf));
    status = COURIER_IDENTITY_OK;
done:
    if (status != COURIER_IDENTITY_OK) courier_identity_free(out);
    BIO_free(certificates);
    if (keys != NULL) {
        // The unencrypted key passed through this buffer: wipe it before freeing.
        char *data = NULL;
        long size = BIO_get_mem_data(keys, &data);
        if (size > 0) OPENSSL_cleanse(data, (size_t)size);
        BIO_free(keys);
    }
    return status;
}

static EVP_PKEY *read_key(const unsigned char *data, size_t length, const char *passphrase, int *status) {
    BIO *bio = BIO_new_mem_buf(data, (int)length);
    if (bio == NULL) {
        *status = COURIER_IDENTITY_OUT_OF_MEMORY;
        return NULL;
    }
    EVP_PKEY *key = NULL;
    int encrypted = 0;
    if (looks_like_pem(data, length)) {
        encrypted = contains(data, length, "ENCRYPTED");
        key = PEM_read_bio_PrivateKey(bio, NULL, passphrase_callback, (void *)passphrase);
    } else {
        const unsigned char *cursor = data;
        key = d2i_AutoPrivateKey(NULL, &cursor, (long)length);
        if (key == NULL) {
            // An encrypted PKCS#8 DER key (EncryptedPrivateKeyInfo).
            const unsigned char *probe = data;
            X509_SIG *sealed = d2i_X509_SIG(NULL, &probe, (long)length);
            encrypted = sealed != NULL;
            X509_SIG_free(sealed);
            (void)BIO_reset(bio);
            key = d2i_PKCS8PrivateKey_bio(bio, NULL, passphrase_callback, (void *)passphrase);
        }
    }
    BIO_free(bio);
    if (key == NULL) *status = encrypted ? COURIER_IDENTITY_WRONG_PASSPHRASE : COURIER_IDENTITY_BAD_KEY;
    return key;
}

int courier_identity_load(const unsigned char *certificate, size_t certificate_length, const unsigned char *key_data,
                          size_t key_length, const char *passphrase, courier_identity *out) {
    memset(out, 0, sizeof(*out));
    ERR_clear_error();
    X509 *leaf = NULL;
    STACK_OF(X509) *chain = sk_X509_new_null();
    EVP_PKEY *key = NULL;
    int status = COURIER_IDENTITY_OK;
    if (chain == NULL) return COURIER_IDENTITY_OUT_OF_MEMORY;
    if (looks_like_pem(certificate, certificate_length)) {
        BIO *bio = BIO_new_mem_buf(certificate, (int)certificate_length);
        leaf = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
        X509 *next;
        while (leaf != NULL && (next = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
            if (!sk_X509_push(chain, next)) X509_free(next);
        }
        BIO_free(bio);
    } else {
        const unsigned char *cursor = certificate;
        leaf = d2i_X509(NULL, &cursor, (long)certificate_length);
    }
    ERR_clear_error();  // the chain loop ends on a "no start line" error
    if (leaf == NULL) {
        status = COURIER_IDENTITY_BAD_CERTIFICATE;
        goto done;
    }
    if (key_data != NULL) {
        key = read_key(key_data, key_length, passphrase, &status);
    } else if (looks_like_pem(certificate, certificate_length) && contains(certificate, certificate_length, "PRIVATE KEY")) {
        key = read_key(certificate, certificate_length, passphrase, &status);
    } else {
        status = COURIER_IDENTITY_NO_KEY;
    }
    if (key == NULL) goto done;
    status = finish(leaf, chain, key, out);
done:
    if (status != COURIER_IDENTITY_OK && out->openssl_error == 0) out->openssl_error = ERR_peek_last_error();
    EVP_PKEY_free(key);
    X509_free(leaf);
    sk_X509_pop_free(chain, X509_free);
    return status;
}

int courier_identity_load_pkcs12(const unsigned char *bundle, size_t length, const char *passphrase,
                                 courier_identity *out) {
    memset(out, 0, sizeof(*out));
    ERR_clear_error();
    const unsigned char *cursor = bundle;
    PKCS12 *p12 = d2i_PKCS12(NULL, &cursor, (long)length);
    if (p12 == NULL) {
        out->openssl_error = ERR_peek_last_error();
        return COURIER_IDENTITY_BAD_PKCS12;
    }
    const char *pass = passphrase != NULL ? passphrase : "";
    if (!PKCS12_verify_mac(p12, pass, -1) && !(pass[0] == '\0' && PKCS12_verify_mac(p12, NULL, 0))) {
        out->openssl_error = ERR_peek_last_error();
        PKCS12_free(p12);
        return COURIER_IDENTITY_WRONG_PASSPHRASE;
    }
    EVP_PKEY *key = NULL;
    X509 *leaf = NULL;
    STACK_OF(X509) *chain = NULL;
    int status;
    if (!PKCS12_parse(p12, pass, &key, &leaf, &chain)) {
        status = COURIER_IDENTITY_BAD_PKCS12;
    } else if (leaf == NULL) {
        status = COURIER_IDENTITY_BAD_CERTIFICATE;
    } else if (key == NULL) {
        status = COURIER_IDENTITY_NO_KEY;
    } else {
        status = finish(leaf, chain, key, out);
    }
    if (status != COURIER_IDENTITY_OK && out->openssl_error == 0) out->openssl_error = ERR_peek_last_error();
    EVP_PKEY_free(key);
    X509_free(leaf);
    sk_X509_pop_free(chain, X509_free);
    PKCS12_free(p12);
    return status;
}

void courier_identity_free(courier_identity *identity) {
    if (identity->key_pem != NULL) {
        OPENSSL_cleanse(identity->key_pem, identity->key_pem_length);
        OPENSSL_free(identity->key_pem);
    }
    OPENSSL_free(identity->certificate_pem);
    identity->key_pem = NULL;
    identity->certificate_pem = NULL;
    identity->key_pem_length = 0;
    identity->certificate_pem_length = 0;
}
