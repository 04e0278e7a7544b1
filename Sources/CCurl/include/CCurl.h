#ifndef REMINDERD_CCURL_H
#define REMINDERD_CCURL_H

// libcurl's easy API as the CalDAV client uses it, through functions that load libcurl the
// first time one is called (CurlLoader.c says why). curl.h is here for its types and constants;
// calling its functions directly would link libcurl again, so they are not to be called.
#include <curl/curl.h>

// Loads libcurl (once); NULL when it is there, else why not, in words. Ask before any call below.
const char *reminderd_curl_load(void);

CURLcode reminderd_curl_global_init(long flags);
CURL *reminderd_curl_easy_init(void);
void reminderd_curl_easy_reset(CURL *curl);
void reminderd_curl_easy_cleanup(CURL *curl);
CURLcode reminderd_curl_easy_perform(CURL *curl);
const char *reminderd_curl_easy_strerror(CURLcode code);
struct curl_slist *reminderd_curl_slist_append(struct curl_slist *list, const char *text);
void reminderd_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument.
CURLcode reminderd_curl_set_long(CURL *curl, CURLoption option, long value);
CURLcode reminderd_curl_set_string(CURL *curl, CURLoption option, const char *value);
CURLcode reminderd_curl_set_pointer(CURL *curl, CURLoption option, void *value);
CURLcode reminderd_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value);
CURLcode reminderd_curl_set_write_function(CURL *curl, CURLoption option,
                                           size_t (*function)(char *, size_t, size_t, void *));
CURLcode reminderd_curl_get_long(CURL *curl, CURLINFO info, long *value);

#endif
