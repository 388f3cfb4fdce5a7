// HTTP(S) requests through libcurl, the library terminal programs on Linux already use,
// loaded with dlopen on the first request: a run on the embedded mock never loads it.
#ifndef ONBOARD_CURL_SHIM_H
#define ONBOARD_CURL_SHIM_H

#include <stddef.h>

enum {
    ONBOARD_HTTP_OK = 0,
    ONBOARD_HTTP_TIMEOUT = 1,    // no answer within the time allowed
    ONBOARD_HTTP_NETWORK = 2,    // no connection: refused, unknown host, TLS refused
    ONBOARD_HTTP_TOO_LARGE = 3,  // the body passed the limit
    ONBOARD_HTTP_UNAVAILABLE = 4, // libcurl cannot be loaded
    ONBOARD_HTTP_TLS = 5          // connected, but no secure (TLS) session could be made
};

typedef struct {
    long status;
    char *body;     // malloc'd, free with onboard_http_free
    size_t length;
    char error[256];
    int curl_code;  // libcurl's CURLcode, for a failure said in plain words
} onboard_http_response;

// Performs one request. `headers` are "Name: value" lines. `ca_file` (or NULL) replaces
// the system's trusted certificates. Blocks the calling thread until done.
int onboard_http_request(const char *method, const char *url, const char *const *headers, int header_count,
                         const char *body, size_t body_length, const char *ca_file,
                         long connect_timeout_ms, long timeout_ms, size_t maximum_body,
                         onboard_http_response *response);

void onboard_http_free(onboard_http_response *response);

#endif
