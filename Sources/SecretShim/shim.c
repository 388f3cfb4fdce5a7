// libsecret's C API, declared here rather than included: its header pulls in GLib's,
// whose include paths are per architecture and which SwiftPM does not find. The
// declarations below are libsecret's stable ABI (secret-schema.h, secret-password.h).
#define _GNU_SOURCE
#include "SecretShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *name; int type; } SecretSchemaAttribute;
typedef struct {
    const char *name;
    int flags;
    SecretSchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} SecretSchema;
typedef struct { uint32_t domain; int code; char *message; } GError;

typedef int (*store_fn)(const SecretSchema *, const char *collection, const char *label, const char *password,
                        void *cancellable, GError **error, ...);
typedef char *(*lookup_fn)(const SecretSchema *, void *cancellable, GError **error, ...);
typedef int (*clear_fn)(const SecretSchema *, void *cancellable, GError **error, ...);
typedef void (*free_fn)(char *);
typedef void (*error_free_fn)(GError *);

static struct {
    store_fn store;
    lookup_fn lookup;
    clear_fn clear;
    free_fn free_password;
    error_free_fn error_free;
    char *failure;
} lib;
static pthread_once_t once = PTHREAD_ONCE_INIT;

// SECRET_SCHEMA_DONT_MATCH_NAME: items are found by their attributes alone, as
// secret-tool finds them.
static const SecretSchema schema = {
    "org.onboard.Secret", 1 << 1,
    {
        {"application", 0},
        {"state_dir", 0},
        {"flow", 0},
        {"kind", 0},
        {NULL, 0},
    },
};

static void load(void) {
    void *handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        lib.failure = strdup(why ? why : "libsecret-1.so.0 could not be loaded");
        return;
    }
    lib.store = (store_fn)dlsym(handle, "secret_password_store_sync");
    lib.lookup = (lookup_fn)dlsym(handle, "secret_password_lookup_sync");
    lib.clear = (clear_fn)dlsym(handle, "secret_password_clear_sync");
    lib.free_password = (free_fn)dlsym(handle, "secret_password_free");
    lib.error_free = (error_free_fn)dlsym(handle, "g_error_free");
    if (!lib.store || !lib.lookup || !lib.clear || !lib.free_password || !lib.error_free) {
        lib.failure = strdup("libsecret-1.so.0 lacks the password functions");
    }
}

int onboard_secret_open(char **error) {
    pthread_once(&once, load);
    if (lib.failure) {
        *error = strdup(lib.failure);
        return -1;
    }
    return 0;
}

// Moves a GError's message into a malloc'd string and frees the GError.
static void take(GError *gerror, char **error) {
    *error = strdup(gerror && gerror->message ? gerror->message : "the Secret Service failed");
    if (gerror) lib.error_free(gerror);
}

int onboard_secret_store(const char *label, const char *state_dir, const char *flow, const char *kind,
                         const char *secret, char **error) {
    if (onboard_secret_open(error) != 0) return -1;
    GError *gerror = NULL;
    int stored = lib.store(&schema, "default", label, secret, NULL, &gerror,
                           "application", "onboard", "state_dir", state_dir, "flow", flow, "kind", kind, NULL);
    if (!stored || gerror) {
        take(gerror, error);
        return -1;
    }
    return 0;
}

char *onboard_secret_lookup(const char *state_dir, const char *flow, const char *kind, char **error) {
    *error = NULL;
    if (onboard_secret_open(error) != 0) return NULL;
    GError *gerror = NULL;
    char *found = lib.lookup(&schema, NULL, &gerror,
                             "application", "onboard", "state_dir", state_dir, "flow", flow, "kind", kind, NULL);
    if (gerror) {
        take(gerror, error);
        if (found) lib.free_password(found);
        return NULL;
    }
    if (!found) return NULL;
    char *copy = strdup(found);
    lib.free_password(found);
    return copy;
}

int onboard_secret_clear(const char *state_dir, const char *flow, const char *kind, char **error) {
    if (onboard_secret_open(error) != 0) return -1;
    GError *gerror = NULL;
    if (flow && kind) {
        lib.clear(&schema, NULL, &gerror, "application", "onboard", "state_dir", state_dir, "flow", flow, "kind", kind, NULL);
    } else if (flow) {
        lib.clear(&schema, NULL, &gerror, "application", "onboard", "state_dir", state_dir, "flow", flow, NULL);
    } else if (kind) {
        lib.clear(&schema, NULL, &gerror, "application", "onboard", "state_dir", state_dir, "kind", kind, NULL);
    } else {
        lib.clear(&schema, NULL, &gerror, "application", "onboard", "state_dir", state_dir, NULL);
    }
    if (gerror) {
        take(gerror, error);
        return -1;
    }
    return 0;
}

void onboard_secret_free(char *secret) {
    if (!secret) return;
    explicit_bzero(secret, strlen(secret));
    free(secret);
}
