#ifndef REMINDERD_CSYSTEMD_SHIM_H
#define REMINDERD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#endif
