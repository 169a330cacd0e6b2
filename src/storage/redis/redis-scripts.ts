/**
 * The Lua scripts a {@link RedisOptionStore} writes with. Each changes the key and publishes
 * the change message in one script, which Redis runs atomically: a change is announced
 * exactly when it happens, never without it (a lost connection between a SET and a separate
 * PUBLISH would leave the other instances stale with no reconnect to tell them), and an
 * announcement never precedes its change.
 *
 * Why a script rather than MULTI/EXEC: the delete announces only when a key was removed,
 * which needs the DEL's answer inside the transaction; a script also answers in one round trip.
 */

/** KEYS[1] the key; ARGV[1] the value, ARGV[2] the channel, ARGV[3] the message. */
export const SET_AND_PUBLISH = `redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1`;

/** KEYS[1] the key; ARGV[1] the channel, ARGV[2] the message. Returns how many keys were removed. */
export const DELETE_AND_PUBLISH = `local removed = redis.call('DEL', KEYS[1])
if removed > 0 then redis.call('PUBLISH', ARGV[1], ARGV[2]) end
return removed`;
