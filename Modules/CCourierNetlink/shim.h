// The kernel's rtnetlink headers (RFC 3549; man 7 netlink, man 7 rtnetlink), imported into Swift as
// CCourierNetlink for the message layouts and constants; eventfd(2), which wakes the monitor
// thread; and pthread_setname_np(3), which names it. Header-only: the functions are the C library's,
// nothing else is linked.
#include <pthread.h>
#include <sys/eventfd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>

// glibc declares it only under _GNU_SOURCE, which Swift's importer does not define; every glibc since
// 2.12 has it.
int pthread_setname_np(pthread_t thread, const char *name);
