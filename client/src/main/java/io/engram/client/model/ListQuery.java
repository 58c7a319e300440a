package io.engram.client.model;

/** Which of a user's memories to list; a null field is not filtered on. */
public record ListQuery(
        String userId,
        String projectId,
        String type,
        String status,
        String tier,
        String tag,
        Integer limit) {

    public static ListQuery of(String userId) {
        return new ListQuery(userId, null, null, null, null, null, null);
    }

    public ListQuery withStatus(String value) {
        return new ListQuery(userId, projectId, type, value, tier, tag, limit);
    }

    public ListQuery withTag(String value) {
        return new ListQuery(userId, projectId, type, status, tier, value, limit);
    }

    public ListQuery withPageSize(int value) {
        return new ListQuery(userId, projectId, type, status, tier, tag, value);
    }
}
