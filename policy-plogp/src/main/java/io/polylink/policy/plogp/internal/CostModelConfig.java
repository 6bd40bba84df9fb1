package io.polylink.policy.plogp.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Configuration of the cost-model policy, PID {@value CostModelComponent#PID}: every key and its default, once. */
@ObjectClassDefinition(name = "Polylink cost-model selection policy")
@interface CostModelConfig {

    @AttributeDefinition(description = "Whether links select by the models: each size by the stack predicted "
        + "fastest. Off: the core's first-applicable")
    boolean enabled() default false;

    @AttributeDefinition(description = "The P-LogP model database, as bin/polylink plogp writes it; "
        + "a relative path is taken from the working directory")
    String models() default "conf/plogp.models";

    @AttributeDefinition(description = "How much faster, as a fraction, another stack's model must predict "
        + "sizes to take them from the stack before them: keeps near-equal stacks from alternating")
    double margin() default CostModel.DEFAULT_MARGIN;
}
