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
const SET_AND_PUBLISH_TEXT = `redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1`;

/** KEYS[1] the key; ARGV[1] the channel, ARGV[2] the message. Returns how many keys were removed. */
const DELETE_AND_PUBLISH_TEXT = `local removed = redis.call('DEL', KEYS[1])
if removed > 0 then redis.call('PUBLISH', ARGV[1], ARGV[2]) end
return removed`;

/**
 * The atomic commit (`OptionStore.commit`). KEYS: the n option keys, then the log key when there
 * is a log. ARGV: `n`, `1`/`0` whether there is a log, `keep`, the channel, the change message,
 * then per write four fields — `1`/`0` set or delete, the value, the condition mode (`0` none,
 * `1` absent, `2` equal), the expected text — then the log entries, oldest first.
 *
 * Every condition is checked (and the log key's type) before anything is written, so a refused
 * commit changes nothing; it answers the failing writes as flat triples: the write's 1-based
 * index, `1`/`0` whether the key holds text, and that text. A commit that went through answers
 * an empty array: it set and deleted the keys, pushed the entries (newest at the head), trimmed
 * the list to `keep` and published the one change message.
 */
const COMMIT_TEXT = `local n = tonumber(ARGV[1])
local hasLog = ARGV[2] == '1'
local failed = {}
for i = 1, n do
  local at = 5 + (i - 1) * 4
  local mode = ARGV[at + 3]
  if mode ~= '0' then
    local current = redis.call('GET', KEYS[i])
    local holds
    if mode == '1' then holds = current == false else holds = current == ARGV[at + 4] end
    if not holds then
      failed[#failed + 1] = i
      if current then
        failed[#failed + 1] = '1'
        failed[#failed + 1] = current
      else
        failed[#failed + 1] = '0'
        failed[#failed + 1] = ''
      end
    end
  end
end
if #failed > 0 then return failed end
if hasLog then
  local kind = redis.call('TYPE', KEYS[n + 1]).ok
  if kind ~= 'list' and kind ~= 'none' then return redis.error_reply('WRONGTYPE the change log key holds a ' .. kind) end
end
for i = 1, n do
  local at = 5 + (i - 1) * 4
  if ARGV[at + 1] == '1' then redis.call('SET', KEYS[i], ARGV[at + 2]) else redis.call('DEL', KEYS[i]) end
end
if hasLog then
  for j = 6 + n * 4, #ARGV do redis.call('LPUSH', KEYS[n + 1], ARGV[j]) end
  redis.call('LTRIM', KEYS[n + 1], 0, tonumber(ARGV[3]) - 1)
end
redis.call('PUBLISH', ARGV[4], ARGV[5])
return failed`;

/** A Lua script and the SHA-1 of its text, by which Redis knows it once loaded (`EVALSHA`). */
export interface LuaScript {
  /** The script's text, for `EVAL` (which also loads it into the server's script cache). */
  readonly text: string;
  /** The lower-case hex SHA-1 of {@link text} (checked by a test), for `EVALSHA`. */
  readonly sha1: string;
}

/** Sets a key and publishes its change message (see the text above). */
export const SET_AND_PUBLISH: LuaScript = {
  text: SET_AND_PUBLISH_TEXT,
  sha1: 'd32145cdc898bec7498da479a4bd0b9b657d83c7',
};

/** Deletes a key and publishes its change message when one was removed. */
export const DELETE_AND_PUBLISH: LuaScript = {
  text: DELETE_AND_PUBLISH_TEXT,
  sha1: 'd4520c267501f5b5edf1d6a1977cd0a1c4564124',
};

/** The atomic commit. */
export const COMMIT: LuaScript = {
  text: COMMIT_TEXT,
  sha1: '078cbb228e9899ad6d0ea9bb93c71a110cd9aebc',
};
