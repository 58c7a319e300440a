package io.engram.dedup;

import java.util.UUID;

/** What to do with a candidate fact, why, and how similar the closest existing memory was. */
public sealed interface Decision {

    String reason();

    /** Similarity to the memory the decision is about (or the closest one, for Create). */
    double similarity();

    /** A wire name for metrics and API responses. */
    String kind();

    record Create(String reason, double similarity) implements Decision {
        public String kind() {
            return "create";
        }
    }

    /** Same fact, new wording wins; the old version stays in history. */
    record Update(UUID target, String reason, double similarity) implements Decision {
        public String kind() {
            return "update";
        }
    }

    /** A changed value about the same thing: the target gets valid_to and superseded_by. */
    record Supersede(UUID target, String reason, double similarity) implements Decision {
        public String kind() {
            return "supersede";
        }
    }

    /**
     * A later turn says the target's value changed without giving the new one: the target names the
     * turn's excerpt {@code by} as what contradicts it.
     */
    record Contradict(UUID target, UUID by, String reason, double similarity) implements Decision {
        public String kind() {
            return "contradict";
        }
    }

    /** Already known as stated: reinforce the existing memory, store nothing new. */
    record Noop(UUID target, String reason, double similarity) implements Decision {
        public String kind() {
            return "noop";
        }
    }
}
