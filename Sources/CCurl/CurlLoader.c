// libcurl, loaded with dlopen when reminderd-sync makes its CalDAV client (at start), rather than linked.
//
// reminderd and reminderd-sync are one executable (issue 21: the Swift runtime in the package
// twice, not three times). Linked, libcurl and the 28 libraries it pulls in (OpenSSL, GnuTLS,
// Kerberos, LDAP, SSH, …) were loaded by the daemon too, which never syncs over HTTP: 1.1 MiB more
// anonymous memory at idle and more than twice the instructions to start. Loaded here, they
// are in reminderd-sync's process only. The package's Depends: names libcurl4 itself
// (scripts/package-deb.sh), since dpkg-shlibdeps sees only linked libraries.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// The soname Debian's libcurl4 (and libcurl4-openssl-dev, built against) provides.
static const char library_name[] = "libcurl.so.4";

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
/// Why libcurl could not be loaded, empty once it was.
static char failure[512];

static void unavailable(const char *what) {
    snprintf(failure, sizeof failure, "cannot load %s (Debian's libcurl4), which the CalDAV client needs: %s",
             library_name, what ? what : "unknown error");
}

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL && failure[0] == 0) unavailable(dlerror());
    return found;
}

static void load(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        unavailable(dlerror());
        return;
    }
    curl.global_init = (CURLcode (*)(long))symbol(library, "curl_global_init");
    curl.easy_init = (CURL * (*)(void)) symbol(library, "curl_easy_init");
    curl.easy_reset = (void (*)(CURL *))symbol(library, "curl_easy_reset");
    curl.easy_cleanup = (void (*)(CURL *))symbol(library, "curl_easy_cleanup");
    curl.easy_perform = (CURLcode (*)(CURL *))symbol(library, "curl_easy_perform");
    curl.easy_strerror = (const char *(*)(CURLcode))symbol(library, "curl_easy_strerror");
    curl.easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))symbol(library, "curl_easy_setopt");
    curl.easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))symbol(library, "curl_easy_getinfo");
    curl.slist_append =
        (struct curl_slist * (*)(struct curl_slist *, const char *)) symbol(library, "curl_slist_append");
    curl.slist_free_all = (void (*)(struct curl_slist *))symbol(library, "curl_slist_free_all");
}

const char *reminderd_curl_load(void) {
    pthread_once(&loaded, load);
    return failure[0] ? failure : NULL;
}

/// Every caller asked `reminderd_curl_load` first (CurlTransport's `load`); a call after it said
/// no is a bug, stopped here rather than through a null function pointer.
static void ensure_loaded(void) {
    if (reminderd_curl_load() != NULL) {
        fprintf(stderr, "reminderd-sync: %s\n", failure);
        abort();
    }
}

CURLcode reminderd_curl_global_init(long flags) {
    ensure_loaded();
    return curl.global_init(flags);
}

CURL *reminderd_curl_easy_init(void) {
    ensure_loaded();
    return curl.easy_init();
}

void reminderd_curl_easy_reset(CURL *handle) {
    ensure_loaded();
    curl.easy_reset(handle);
}

void reminderd_curl_easy_cleanup(CURL *handle) {
    ensure_loaded();
    curl.easy_cleanup(handle);
}

CURLcode reminderd_curl_easy_perform(CURL *handle) {
    ensure_loaded();
    return curl.easy_perform(handle);
}

const char *reminderd_curl_easy_strerror(CURLcode code) {
    ensure_loaded();
    return curl.easy_strerror(code);
}

struct curl_slist *reminderd_curl_slist_append(struct curl_slist *list, const char *text) {
    ensure_loaded();
    return curl.slist_append(list, text);
}

void reminderd_curl_slist_free_all(struct curl_slist *list) {
    ensure_loaded();
    curl.slist_free_all(list);
}

// Each passes its argument with its own type, as curl_easy_setopt's documentation asks.
CURLcode reminderd_curl_set_long(CURL *handle, CURLoption option, long value) {
    ensure_loaded();
    return curl.easy_setopt(handle, option, value);
}

CURLcode reminderd_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    ensure_loaded();
    return curl.easy_setopt(handle, option, value);
}

CURLcode reminderd_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    ensure_loaded();
    return curl.easy_setopt(handle, option, value);
}

CURLcode reminderd_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    ensure_loaded();
    return curl.easy_setopt(handle, option, value);
}

CURLcode reminderd_curl_set_write_function(CURL *handle, CURLoption option,
                                           size_t (*function)(char *, size_t, size_t, void *)) {
    ensure_loaded();
    return curl.easy_setopt(handle, option, function);
}

CURLcode reminderd_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    ensure_loaded();
    return curl.easy_getinfo(handle, info, value);
}
