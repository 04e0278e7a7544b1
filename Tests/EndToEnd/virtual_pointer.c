/* A virtual pointer for a headless sway (which has no input device, so its clients get no
 * pointer at all): reads lines from stdin — "move X Y" (output pixels of a WxH output given as
 * arguments), "press BUTTON", "release BUTTON" (Linux codes: 272 left, 273 right) — and prints
 * "ok" after each once the compositor has it. Built by test_indicator.py with wayland-scanner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>
#include "virtual-pointer-protocol.h"

static struct zwlr_virtual_pointer_manager_v1 *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
        manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener listener = {global, global_remove};

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    unsigned width = atoi(argv[1]), height = atoi(argv[2]);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "no Wayland display\n"); return 1; }
    wl_registry_add_listener(wl_display_get_registry(display), &listener, NULL);
    wl_display_roundtrip(display);
    if (!manager) { fprintf(stderr, "no zwlr_virtual_pointer_manager_v1\n"); return 1; }
    struct zwlr_virtual_pointer_v1 *pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, NULL);
    wl_display_roundtrip(display);
    char line[128];
    while (fgets(line, sizeof line, stdin)) {
        unsigned a, b;
        /* Real milliseconds: GTK's menus tell the click that opened them from a later one by the
         * events' times (a release within half a second of the opening press is not a click). */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        unsigned time = (unsigned)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
        if (sscanf(line, "move %u %u", &a, &b) == 2) {
            zwlr_virtual_pointer_v1_motion_absolute(pointer, time, a, b, width, height);
        } else if (sscanf(line, "press %u", &a) == 1) {
            zwlr_virtual_pointer_v1_button(pointer, time, a, WL_POINTER_BUTTON_STATE_PRESSED);
        } else if (sscanf(line, "release %u", &a) == 1) {
            zwlr_virtual_pointer_v1_button(pointer, time, a, WL_POINTER_BUTTON_STATE_RELEASED);
        } else {
            fprintf(stderr, "unknown command: %s", line);
            continue;
        }
        zwlr_virtual_pointer_v1_frame(pointer);
        wl_display_roundtrip(display);
        printf("ok\n");
        fflush(stdout);
    }
    zwlr_virtual_pointer_v1_destroy(pointer);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
