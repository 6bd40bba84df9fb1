package io.polylink.mpi;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.programs.Links;
import org.junit.jupiter.api.Test;

/** Communicators' info hints choose their links, on ranks in contexts of their own. */
class LinksTest {

    @Test
    void aCommunicatorsHintsPinPreferAndForbidItsLinksAndMovingThemKeepsOrder() throws Exception {
        try (Job job = Job.of(3, Job.Methods.SHM_AND_TCP)) {
            job.run(Links.class).assertSucceeded();
        }
    }
}
