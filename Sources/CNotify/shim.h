#ifndef REMINDERD_CNOTIFY_SHIM_H
#define REMINDERD_CNOTIFY_SHIM_H
#include <libnotify/notify.h>
#include <gio/gio.h>

/// g_signal_connect is a macro; Swift needs a function.
static inline gulong reminderd_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, 0);
}

/// The server's id of a shown notification (the "id" property; g_object_get is variadic).
static inline gint reminderd_notification_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return id;
}

/// Sets the id of the notification to replace (the "id" property), for replaces_id.
static inline void reminderd_notification_set_id(NotifyNotification *notification, gint id) {
    g_object_set(notification, "id", id, NULL);
}

/// The close reason of a closed notification.
static inline gint reminderd_notification_closed_reason(NotifyNotification *notification) {
    return notify_notification_get_closed_reason(notification);
}
#endif
