#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument.
static inline CURLcode reminderd_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode reminderd_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode reminderd_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode reminderd_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode reminderd_curl_set_write_function(CURL *curl, CURLoption option,
    size_t (*function)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, option, function);
}
static inline CURLcode reminderd_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
