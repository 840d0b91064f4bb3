// The system OpenSSL 3 headers (Debian's libssl-dev), imported into Swift as CCourierOpenSSL.
// It must be the OpenSSL that libcurl links (libssl.so.3): the transport hands libcurl's SSL_CTX to
// code compiled against these headers.
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
