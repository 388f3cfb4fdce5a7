// The freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) through libsecret,
// loaded with dlopen on first use: a client that keeps its secrets in a file never
// loads libsecret and GLib, and a machine without libsecret still runs Onboard.
//
// Every item carries the attributes application=onboard, state_dir, flow and kind, so
// `secret-tool search --all application onboard` lists them.
#ifndef ONBOARD_SECRET_SHIM_H
#define ONBOARD_SECRET_SHIM_H

// 0 when libsecret is loaded; otherwise -1 and *error says why (malloc'd).
int onboard_secret_open(char **error);

// Stores or replaces the item (atomically, in the default collection). 0 on success,
// otherwise -1 and *error (malloc'd).
int onboard_secret_store(const char *label, const char *state_dir, const char *flow, const char *kind,
                         const char *secret, char **error);

// The item's secret (malloc'd, free with onboard_secret_free), or NULL: with *error NULL
// when there is no such item, with *error set (malloc'd) when the service failed.
char *onboard_secret_lookup(const char *state_dir, const char *flow, const char *kind, char **error);

// Removes the items matching the attributes given (NULL flow or kind: any). 0 on success
// (also when there was none), otherwise -1 and *error (malloc'd).
int onboard_secret_clear(const char *state_dir, const char *flow, const char *kind, char **error);

// Frees a secret from onboard_secret_lookup after wiping it.
void onboard_secret_free(char *secret);

#endif
