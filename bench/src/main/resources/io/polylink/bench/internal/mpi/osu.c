/*
 * The C side of 'bench mpi': the same measurements as OsuRank.java, for two ranks of any MPI.
 * Compiled with mpicc and started by mpirun at run time; see OpenMpi.java.
 *
 * usage: osu TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP
 *   TESTS        latency,bw,overlap (any of them)
 *   SIZES        SIZE:LATENCY_ITERATIONS:BW_ITERATIONS,...
 *   OVERLAP_SIZE bytes of the overlap experiment's message
 *   COMPUTE_US   US:ITERATIONS,... the computation between post and wait
 *   WINDOW       non-blocking sends per bandwidth iteration
 *   WARMUP       ping-pongs of 8 bytes before anything is measured
 *
 * Prints one line per figure, "result TEST SIZE COMPUTE_US VALUE": latency in microseconds one way
 * (round trip / 2), bw in MB/s (10^6 bytes), overlap_send_wait and overlap_recv_wait in
 * microseconds per iteration. Rank 0 prints all but overlap_recv_wait, which rank 1 prints.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG 1
#define ACK 2

static int rank;

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
    MPI_Barrier(MPI_COMM_WORLD);
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

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
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
    pingpong(buf, 8, warmup);
    for (char *item = argv[2]; item != NULL && *item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
        int size = 0;
        int latencyIterations = 0;
        int bwIterations = 0;
        sscanf(item, "%d:%d:%d", &size, &latencyIterations, &bwIterations);
        if (strstr(tests, "latency") != NULL) {
            latency(buf, size, latencyIterations);
        }
        if (strstr(tests, "bw") != NULL && size > 0) {
            bandwidth(buf, size, window, bwIterations, requests);
        }
        fflush(stdout);
    }
    if (strstr(tests, "overlap") != NULL) {
        for (char *item = argv[4]; item != NULL && *item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
            int us = 0;
            int iterations = 0;
            sscanf(item, "%d:%d", &us, &iterations);
            overlap(buf, overlapSize, us, iterations);
            fflush(stdout);
        }
    }
    free(requests);
    free(buf);
    MPI_Finalize();
    return 0;
}
