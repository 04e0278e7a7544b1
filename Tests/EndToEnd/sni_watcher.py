"""A recording org.kde.StatusNotifierWatcher for the end-to-end tests, run by Debian's python3
(its gi): owns the watcher's name on the session bus, accepts RegisterStatusNotifierItem and
appends one JSON line per registration (the caller's unique name and the service it gave) to
the log file named by its one argument."""
import json
import sys

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem"><arg name="service" type="s" direction="in"/></method>
    <method name="RegisterStatusNotifierHost"><arg name="service" type="s" direction="in"/></method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  </interface>
</node>
"""

log_path = sys.argv[1]
items = []


def method_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "RegisterStatusNotifierItem":
        service = parameters.unpack()[0]
        items.append(service)
        with open(log_path, "a") as log:
            log.write(json.dumps({"sender": sender, "service": service}) + "\n")
    invocation.return_value(None)


def get_property(connection, sender, path, interface, name):
    if name == "RegisteredStatusNotifierItems":
        return GLib.Variant("as", items)
    if name == "IsStatusNotifierHostRegistered":
        return GLib.Variant("b", True)
    return GLib.Variant("i", 0)


def bus_acquired(connection, name):
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    connection.register_object("/StatusNotifierWatcher", info, method_call, get_property, None)


def name_acquired(connection, name):
    with open(log_path, "a") as log:
        log.write(json.dumps({"owner": connection.get_unique_name()}) + "\n")


Gio.bus_own_name(Gio.BusType.SESSION, "org.kde.StatusNotifierWatcher", Gio.BusNameOwnerFlags.NONE,
                 bus_acquired, name_acquired, None)
GLib.MainLoop().run()
