/*
 * The wide-area links of an emulated testbed: a user-space IPv4 router between TUN devices, one
 * per cluster. Every packet from one cluster to another waits behind the packets before it on the
 * link of that pair and direction, as on a line of the given rate, then travels for the given
 * delay; a link with more than the queue's bytes waiting drops the packet, as a router's queue
 * does. Nothing else is changed.
 *
 *   wan-router DELAY_US BYTES_PER_SECOND QUEUE_BYTES TUN ADDRESS [TUN ADDRESS ...]
 *
 * Creates each TUN device (IFF_TUN | IFF_NO_PI) and prints "ready" once all exist; the caller then
 * moves each into its cluster's network namespace and gives it ADDRESS there. Runs until SIGTERM or
 * SIGINT, then prints each link's packets, bytes and drops, and exits; the devices go with it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 32
#define MAX_PACKET 65536

struct packet {
    struct packet *next;
    uint64_t due;
    uint32_t len;
    unsigned char data[];
};

struct link {
    struct packet *head, *tail;
    uint64_t free_at;   /* when the line has sent everything queued on it */
    uint64_t packets, bytes, dropped;
};

static int fds[MAX_PORTS];
static uint32_t addresses[MAX_PORTS];
static const char *names[MAX_PORTS];
static int ports;
static struct link links[MAX_PORTS][MAX_PORTS];
static volatile sig_atomic_t stopping;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

static void stop(int signal) {
    (void) signal;
    stopping = 1;
}

static int open_tun(const char *name) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        perror("wan-router: /dev/net/tun");
        exit(2);
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        fprintf(stderr, "wan-router: cannot create %s: %s\n", name, strerror(errno));
        exit(2);
    }
    return fd;
}

static int port_of(uint32_t address) {
    for (int i = 0; i < ports; i++) {
        if (addresses[i] == address) {
            return i;
        }
    }
    return -1;
}

/* Arms the timer for the earliest packet due, or disarms it. */
static void arm(int timer) {
    uint64_t earliest = 0;
    for (int i = 0; i < ports; i++) {
        for (int j = 0; j < ports; j++) {
            struct packet *p = links[i][j].head;
            if (p != NULL && (earliest == 0 || p->due < earliest)) {
                earliest = p->due;
            }
        }
    }
    struct itimerspec when;
    memset(&when, 0, sizeof when);
    if (earliest != 0) {
        when.it_value.tv_sec = (time_t) (earliest / 1000000000u);
        when.it_value.tv_nsec = (long) (earliest % 1000000000u);
    }
    timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, NULL);
}

int main(int argc, char **argv) {
    if (argc < 6 || (argc - 4) % 2 != 0 || (argc - 4) / 2 > MAX_PORTS) {
        fprintf(stderr, "usage: wan-router DELAY_US BYTES_PER_SECOND QUEUE_BYTES TUN ADDRESS [TUN ADDRESS ...]\n");
        return 2;
    }
    uint64_t delay = strtoull(argv[1], NULL, 10) * 1000u;
    double rate = strtod(argv[2], NULL);
    double queue = strtod(argv[3], NULL);
    if (rate <= 0 || queue <= 0) {
        fprintf(stderr, "wan-router: the rate and the queue must be above 0\n");
        return 2;
    }
    ports = (argc - 4) / 2;
    for (int i = 0; i < ports; i++) {
        names[i] = argv[4 + 2 * i];
        if (inet_pton(AF_INET, argv[5 + 2 * i], &addresses[i]) != 1) {
            fprintf(stderr, "wan-router: '%s' is not an IPv4 address\n", argv[5 + 2 * i]);
            return 2;
        }
        fds[i] = open_tun(names[i]);
    }
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    int poll = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i <= ports; i++) {
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t) i};
        epoll_ctl(poll, EPOLL_CTL_ADD, i < ports ? fds[i] : timer, &e);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    printf("ready\n");
    fflush(stdout);
    static unsigned char buffer[MAX_PACKET];
    while (!stopping) {
        struct epoll_event events[MAX_PORTS + 1];
        int n = epoll_wait(poll, events, MAX_PORTS + 1, -1);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            perror("wan-router: epoll_wait");
            return 1;
        }
        for (int k = 0; k < n; k++) {
            int in = (int) events[k].data.u32;
            if (in == ports) {
                uint64_t expirations;
                if (read(timer, &expirations, sizeof expirations) < 0 && errno != EAGAIN) {
                    perror("wan-router: timer");
                }
                continue;
            }
            for (;;) {
                ssize_t len = read(fds[in], buffer, sizeof buffer);
                if (len <= 0) {
                    break;
                }
                if (len < 20 || (buffer[0] >> 4) != 4) {
                    continue; /* IPv6 solicitations and the like: the testbed is IPv4 */
                }
                uint32_t destination;
                memcpy(&destination, buffer + 16, 4);
                int out = port_of(destination);
                if (out < 0 || out == in) {
                    continue;
                }
                struct link *l = &links[in][out];
                uint64_t now = now_ns();
                uint64_t start = l->free_at > now ? l->free_at : now;
                if ((double) (start - now) * rate / 1e9 > queue) {
                    l->dropped++;
                    continue;
                }
                struct packet *p = malloc(sizeof *p + (size_t) len);
                if (p == NULL) {
                    l->dropped++;
                    continue;
                }
                l->free_at = start + (uint64_t) ((double) len * 1e9 / rate);
                p->due = l->free_at + delay;
                p->len = (uint32_t) len;
                p->next = NULL;
                memcpy(p->data, buffer, (size_t) len);
                if (l->tail != NULL) {
                    l->tail->next = p;
                } else {
                    l->head = p;
                }
                l->tail = p;
            }
        }
        uint64_t now = now_ns();
        for (int i = 0; i < ports; i++) {
            for (int j = 0; j < ports; j++) {
                struct link *l = &links[i][j];
                while (l->head != NULL && l->head->due <= now) {
                    struct packet *p = l->head;
                    l->head = p->next;
                    if (l->head == NULL) {
                        l->tail = NULL;
                    }
                    if (write(fds[j], p->data, p->len) == (ssize_t) p->len) {
                        l->packets++;
                        l->bytes += p->len;
                    } else {
                        l->dropped++;
                    }
                    free(p);
                }
            }
        }
        arm(timer);
    }
    for (int i = 0; i < ports; i++) {
        for (int j = 0; j < ports; j++) {
            struct link *l = &links[i][j];
            if (l->packets != 0 || l->dropped != 0) {
                printf("link %s -> %s: %llu packets, %llu bytes, %llu dropped\n", names[i], names[j],
                       (unsigned long long) l->packets, (unsigned long long) l->bytes,
                       (unsigned long long) l->dropped);
            }
        }
    }
    fflush(stdout);
    return 0;
}
