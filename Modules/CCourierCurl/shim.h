// The system libcurl headers (Debian's libcurl4-openssl-dev), imported into Swift as CCourierCurl.
#include <curl/curl.h>
