// Types and constants from curl.h (build time only); the functions from libcurl.so.4,
// found with dlsym on first use.
#include "CurlShim.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
} lib;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return;
    lib.global_init = (CURLcode (*)(long))dlsym(handle, "curl_global_init");
    lib.easy_init = (CURL * (*)(void)) dlsym(handle, "curl_easy_init");
    lib.easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(handle, "curl_easy_setopt");
    lib.easy_perform = (CURLcode (*)(CURL *))dlsym(handle, "curl_easy_perform");
    lib.easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(handle, "curl_easy_getinfo");
    lib.easy_cleanup = (void (*)(CURL *))dlsym(handle, "curl_easy_cleanup");
    lib.easy_strerror = (const char *(*)(CURLcode))dlsym(handle, "curl_easy_strerror");
    lib.slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(handle, "curl_slist_append");
    lib.slist_free_all = (void (*)(struct curl_slist *))dlsym(handle, "curl_slist_free_all");
    if (lib.global_init && lib.easy_init && lib.easy_setopt && lib.easy_perform && lib.easy_getinfo && lib.easy_cleanup &&
        lib.easy_strerror && lib.slist_append && lib.slist_free_all) {
        // Once, before any thread makes a handle (curl_global_init is not thread-safe).
        lib.loaded = lib.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    }
}

typedef struct {
    onboard_http_response *response;
    size_t maximum;
    int too_large;
} sink;

static size_t collect(char *data, size_t size, size_t count, void *context) {
    sink *into = context;
    size_t bytes = size * count;
    if (into->response->length + bytes > into->maximum) {
        into->too_large = 1;
        return 0; // stops the transfer
    }
    char *grown = realloc(into->response->body, into->response->length + bytes + 1);
    if (!grown) return 0;
    memcpy(grown + into->response->length, data, bytes);
    into->response->length += bytes;
    grown[into->response->length] = 0;
    into->response->body = grown;
    return bytes;
}

int onboard_http_request(const char *method, const char *url, const char *const *headers, int header_count,
                         const char *body, size_t body_length, const char *ca_file,
                         long connect_timeout_ms, long timeout_ms, size_t maximum_body,
                         onboard_http_response *response) {
    memset(response, 0, sizeof *response);
    pthread_once(&once, load);
    if (!lib.loaded) {
        snprintf(response->error, sizeof response->error, "libcurl.so.4 cannot be loaded");
        return ONBOARD_HTTP_UNAVAILABLE;
    }
    CURL *curl = lib.easy_init();
    if (!curl) {
        snprintf(response->error, sizeof response->error, "libcurl could not start a request");
        return ONBOARD_HTTP_NETWORK;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = lib.slist_append(list, headers[i]);
    // No "Expect: 100-continue" round trip before a body.
    list = lib.slist_append(list, "Expect:");
    sink into = {response, maximum_body, 0};
    lib.easy_setopt(curl, CURLOPT_URL, url);
    lib.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    lib.easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    lib.easy_setopt(curl, CURLOPT_WRITEDATA, &into);
    lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, response->error);
    if (body) {
        lib.easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    }
    if (ca_file) lib.easy_setopt(curl, CURLOPT_CAINFO, ca_file);
    CURLcode code = lib.easy_perform(curl);
    response->curl_code = (int)code;
    lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
    if (code != CURLE_OK && response->error[0] == 0) {
        snprintf(response->error, sizeof response->error, "%s", lib.easy_strerror(code));
    }
    lib.easy_cleanup(curl);
    lib.slist_free_all(list);
    if (into.too_large) return ONBOARD_HTTP_TOO_LARGE;
    switch (code) {
    case CURLE_OK: return ONBOARD_HTTP_OK;
    case CURLE_OPERATION_TIMEDOUT: return ONBOARD_HTTP_TIMEOUT;
    // Something answered, but no TLS session came of it: a plain-HTTP server behind an
    // https:// address, or a certificate this client does not trust.
    case CURLE_SSL_CONNECT_ERROR: case CURLE_PEER_FAILED_VERIFICATION: case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER: case CURLE_SSL_CACERT_BADFILE: case CURLE_SSL_ISSUER_ERROR:
        return ONBOARD_HTTP_TLS;
    default: return ONBOARD_HTTP_NETWORK;
    }
}

void onboard_http_free(onboard_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}
