#ifndef REMINDERD_CNOTIFY_SHIM_H
#define REMINDERD_CNOTIFY_SHIM_H
#include <gio/gio.h>

/// g_signal_connect is a macro; Swift needs a function.
static inline gulong reminderd_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, 0);
}
#endif
