// The kernel's rtnetlink headers (RFC 3549; man 7 netlink, man 7 rtnetlink), imported into Swift as
// CCourierNetlink for the message layouts and constants, and eventfd(2), which wakes the monitor
// thread. Header-only: the functions are the C library's, nothing else is linked.
#include <sys/eventfd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
