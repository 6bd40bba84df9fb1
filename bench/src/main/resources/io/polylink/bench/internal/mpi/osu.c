/*
 * The C side of 'bench mpi': the same measurements as OsuRank.java, for the ranks of any MPI (two
 * for latency, bw and overlap). Compiled with mpicc and started by mpirun at run time; see
 * OpenMpi.java.
 *
 * usage: osu TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP
 *   TESTS        latency,bw,overlap,barrier,bcast,reduce,allreduce,alltoall (any of them)
 *   SIZES        SIZE:LATENCY_ITERATIONS:BW_ITERATIONS:COLLECTIVE_ITERATIONS,...
 *   OVERLAP_SIZE bytes of the overlap experiment's message
 *   COMPUTE_US   US:ITERATIONS,... the computation between post and wait
 *   WINDOW       non-blocking sends per bandwidth iteration
 *   WARMUP       ping-pongs of 8 bytes before anything is measured
 *
 * Prints one line per figure, "result TEST SIZE COMPUTE_US VALUE": latency in microseconds one way
 * (round trip / 2), bw in MB/s (10^6 bytes), overlap_send_wait and overlap_recv_wait in
 * microseconds per iteration. Rank 0 prints all but overlap_recv_wait, which rank 1 prints. A
 * collective's line is "result TEST_RANKS SIZE 0 US": the ranks' average time per call, each rank
 * timing each call with a barrier between calls, as the OSU benchmarks do (reduce and allreduce sum
 * SIZE / 8 doubles, reduce to rank 0; alltoall sends SIZE bytes to every rank).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 1
#define ACK 2
#define COLLECTIVE_WARMUP 2000

static int rank;
static int ranks;
static char *all_send;
static char *all_recv;
static double *doubles;
static double *sums;

/* Whether the comma-separated list names test: "reduce" is not "allreduce". */
static int has(const char *tests, const char *test) {
    size_t n = strlen(test);
    for (const char *item = tests; item != NULL; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
        if (strncmp(item, test, n) == 0 && (item[n] == ',' || item[n] == '\0')) {
            return 1;
        }
    }
    return 0;
}

static void compute(double us) {
    double until = MPI_Wtime() + us * 1e-6;
    while (MPI_Wtime() < until) {
    }
}

static void pingpong(char *buf, int size, int iterations) {
    for (int i = 0; i < iterations; i++) {
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

static void latency(char *buf, int size, int iterations) {
    pingpong(buf, size, iterations / 10 + 1);
    double start = MPI_Wtime();
    pingpong(buf, size, iterations);
    double seconds = MPI_Wtime() - start;
    if (rank == 0) {
        printf("result latency %d 0 %.4f\n", size, seconds * 1e6 / (2.0 * iterations));
    }
}

static void windows(char *buf, int size, int window, int iterations, MPI_Request *requests) {
    char ack = 0;
    for (int i = 0; i < iterations; i++) {
        if (rank == 0) {
            for (int w = 0; w < window; w++) {
                MPI_Isend(buf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &requests[w]);
            }
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_BYTE, 1, ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < window; w++) {
                MPI_Irecv(buf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &requests[w]);
            }
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_BYTE, 0, ACK, MPI_COMM_WORLD);
        }
    }
}

static void bandwidth(char *buf, int size, int window, int iterations, MPI_Request *requests) {
    windows(buf, size, window, iterations / 10 + 1, requests);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    windows(buf, size, window, iterations, requests);
    double seconds = MPI_Wtime() - start;
    if (rank == 0) {
        printf("result bw %d 0 %.4f\n", size, (double) size * window * iterations / seconds / 1e6);
    }
}

static void overlap(char *buf, int size, double us, int iterations) {
    double waited = 0;
    for (int i = 0; i < iterations; i++) {
        MPI_Request request;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Isend(buf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &request);
        } else {
            MPI_Irecv(buf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &request);
        }
        compute(us);
        double before = MPI_Wtime();
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        waited += MPI_Wtime() - before;
    }
    printf("result %s %d %.0f %.4f\n", rank == 0 ? "overlap_send_wait" : "overlap_recv_wait", size, us,
        waited * 1e6 / iterations);
}

static void call(const char *test, char *buf, int size) {
    if (strcmp(test, "barrier") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(test, "bcast") == 0) {
        MPI_Bcast(buf, size, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (strcmp(test, "reduce") == 0) {
        MPI_Reduce(doubles, sums, size / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (strcmp(test, "allreduce") == 0) {
        MPI_Allreduce(doubles, sums, size / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else {
        MPI_Alltoall(all_send, size, MPI_BYTE, all_recv, size, MPI_BYTE, MPI_COMM_WORLD);
    }
}

static void timed(const char *test, char *buf, int size, int iterations) {
    int skip = iterations / 10 + 1;
    double total = 0;
    for (int i = 0; i < skip + iterations; i++) {
        double start = MPI_Wtime();
        call(test, buf, size);
        double took = MPI_Wtime() - start;
        if (i >= skip) {
            total += took;
        }
        if (strcmp(test, "barrier") != 0) {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    double mine = total * 1e6 / iterations;
    double sum = 0;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result %s_%d %d 0 %.4f\n", test, ranks, size, sum / ranks);
    }
}

/* One item of the sizes argument: SIZE:LATENCY_ITERATIONS:BW_ITERATIONS:COLLECTIVE_ITERATIONS. */
struct size_item {
    int size;
    int latency;
    int bw;
    int collective;
};

static struct size_item parse_size(const char *item) {
    struct size_item s = {0, 0, 0, 0};
    sscanf(item, "%d:%d:%d:%d", &s.size, &s.latency, &s.bw, &s.collective);
    return s;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (argc != 7) {
        if (rank == 0) {
            fprintf(stderr, "usage: osu TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *tests = argv[1];
    int overlapSize = atoi(argv[3]);
    int window = atoi(argv[5]);
    int warmup = atoi(argv[6]);
    int largest = overlapSize;
    for (char *item = argv[2]; item != NULL && *item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
        int size = atoi(item);
        largest = size > largest ? size : largest;
    }
    char *buf = malloc(largest > 0 ? largest : 1);
    memset(buf, 1, largest > 0 ? largest : 1);
    MPI_Request *requests = malloc(sizeof(MPI_Request) * window);
    all_send = calloc((size_t) (largest > 0 ? largest : 1) * ranks, 1);
    all_recv = calloc((size_t) (largest > 0 ? largest : 1) * ranks, 1);
    doubles = calloc(largest / 8 + 1, sizeof(double));
    sums = calloc(largest / 8 + 1, sizeof(double));
    const char *collectives[] = {"bcast", "reduce", "allreduce", "alltoall"};
    if (has(tests, "latency") || has(tests, "bw") || has(tests, "overlap")) {
        pingpong(buf, 8, warmup);
    }
    /* One test after another for every size, as OsuRank runs them. */
    for (int test = 0; test < 2; test++) {
        for (char *item = argv[2]; item != NULL && *item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
            struct size_item s = parse_size(item);
            if (test == 0 && has(tests, "latency")) {
                latency(buf, s.size, s.latency);
            }
            if (test == 1 && has(tests, "bw") && s.size > 0) {
                bandwidth(buf, s.size, window, s.bw, requests);
            }
            fflush(stdout);
        }
    }
    if (has(tests, "overlap")) {
        for (char *item = argv[4]; item != NULL && *item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
            int us = 0;
            int iterations = 0;
            sscanf(item, "%d:%d", &us, &iterations);
            overlap(buf, overlapSize, us, iterations);
            fflush(stdout);
        }
    }
    if (has(tests, "barrier")) {
        for (int i = 0; i < COLLECTIVE_WARMUP; i++) {
            call("barrier", buf, 0);
        }
        timed("barrier", buf, 0, COLLECTIVE_WARMUP);
        fflush(stdout);
    }
    for (int c = 0; c < 4; c++) {
        if (!has(tests, collectives[c])) {
            continue;
        }
        for (int i = 0; i < COLLECTIVE_WARMUP; i++) {
            call(collectives[c], buf, 8);
        }
        for (char *item = argv[2]; item != NULL && *item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
            struct size_item s = parse_size(item);
            if (s.size >= 8) {
                timed(collectives[c], buf, s.size, s.collective);
            }
        }
        fflush(stdout);
    }
    free(requests);
    free(all_send);
    free(all_recv);
    free(doubles);
    free(sums);
    free(buf);
    MPI_Finalize();
    return 0;
}
