#include <libsecret/secret.h>

// secret_password_lookup_sync takes its attributes as variadic name/value pairs, which Swift
// cannot pass: the lookup reminderd-sync makes and the store `reminderctl sync setup` makes, with
// their two attributes, as plain functions.
// The schema is not matched by name, so a password stored with
// `secret-tool store --label=… service reminderd username NAME` is found.
static const SecretSchema reminderd_secret_schema = {
    "io.reminderd.Sync", SECRET_SCHEMA_DONT_MATCH_NAME,
    {{"service", SECRET_SCHEMA_ATTRIBUTE_STRING}, {"username", SECRET_SCHEMA_ATTRIBUTE_STRING}, {NULL, 0}}};

static inline gchar *reminderd_secret_lookup(const char *service, const char *username, GError **error) {
    return secret_password_lookup_sync(&reminderd_secret_schema, NULL, error, "service", service, "username", username,
                                       NULL);
}

// What `reminderctl sync setup` stores, in the default collection (the login keyring), under the
// same two attributes the lookup matches; an entry already there is replaced.
static inline gboolean reminderd_secret_store(const char *service, const char *username, const char *label,
                                              const char *password, GError **error) {
    return secret_password_store_sync(&reminderd_secret_schema, SECRET_COLLECTION_DEFAULT, label, password, NULL, error,
                                      "service", service, "username", username, NULL);
}

// Removes what `reminderd_secret_store` stored, when `reminderctl sync setup` takes back a
// password it stored for an account the server then refused; FALSE when there was none.
static inline gboolean reminderd_secret_clear(const char *service, const char *username, GError **error) {
    return secret_password_clear_sync(&reminderd_secret_schema, NULL, error, "service", service, "username", username,
                                      NULL);
}
