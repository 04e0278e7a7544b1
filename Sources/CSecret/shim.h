#include <libsecret/secret.h>

// secret_password_lookup_sync takes its attributes as variadic name/value pairs, which Swift
// cannot pass: the lookup reminderd-sync makes, with its two attributes, as one plain function.
// The schema is not matched by name, so a password stored with
// `secret-tool store --label=… service reminderd username NAME` is found.
static inline gchar *reminderd_secret_lookup(const char *service, const char *username, GError **error) {
    static const SecretSchema schema = {
        "io.reminderd.Sync", SECRET_SCHEMA_DONT_MATCH_NAME,
        {{"service", SECRET_SCHEMA_ATTRIBUTE_STRING}, {"username", SECRET_SCHEMA_ATTRIBUTE_STRING}, {NULL, 0}}};
    return secret_password_lookup_sync(&schema, NULL, error, "service", service, "username", username, NULL);
}
