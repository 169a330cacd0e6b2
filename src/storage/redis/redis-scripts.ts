import { ENTRY_SIZE_LUA } from './redis-log-element';

/**
 * The Lua scripts a {@link RedisOptionStore} writes with (and reads a page of a log with). Each write changes the key and publishes
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
 * The atomic commit (`OptionStore.commit`). KEYS: the n written keys, the c checked keys, then
 * per log its list and its meta key, then (a versioned message) the partition's version key.
 * ARGV: `n`, `c`, the number of logs, the channel, the change message (a versioned one's head),
 * the versioned message's tail (empty: none); per write four fields — `1`/`0` set or delete, the value, the condition mode
 * (`0` none, `1` absent, `2` equal), the expected text; per check two — the mode (`1` absent,
 * `2` equal) and the expected text; per log `keep`, `maxBytes` (empty: none), `1`/`0` whether
 * the commit dropped entries beyond its bounds (then every entry the list held goes too: it is
 * older than a dropped one), the number k of its elements, then those k elements (entries with
 * their tags, see `redis-log-element.ts`), oldest first.
 *
 * Every condition and check is read (`GET`), and every log's meta key (which fails on a key of
 * another type), before anything is written; the logs' entries are pushed before the keys are
 * written — with one log its `LPUSH` is the first write, and with several their lists' types
 * are checked first — so a refused or failing commit changes nothing. A refused commit answers
 * the failing conditions as flat triples: the 1-based index among the writes then the checks,
 * `1`/`0` whether the key holds text, and that text. A commit that went through answers an
 * empty array: it set and deleted the keys, pushed each log's elements (newest at the head),
 * trimmed each log, and published the one change message (none for a commit without writes);
 * a versioned one is its head, the partition's version counter increased (`INCR`), and its tail.
 *
 * The meta key of a log is a string: `<bytes>` (the UTF-8 bytes of its entries, counted) or
 * `?` (not counted), followed by `t` once the log lost an entry. With `maxBytes` the script
 * counts: it pops the oldest entries while the list is longer than `keep` or holds more than
 * `maxBytes` bytes (never the newest), and writes the count (an uncounted list is counted once,
 * by one `LRANGE`). Without `maxBytes` it only `LTRIM`s to `keep` and leaves the list uncounted
 * (`?`, written only when the state changes): a commit without a byte bound costs no more than
 * in 0.2. A list written by 0.2 has no meta key: it counts as trimmed (whether it was is not
 * known).
 */
const COMMIT_TEXT = `${ENTRY_SIZE_LUA}
local n = tonumber(ARGV[1])
local c = tonumber(ARGV[2])
local logs = tonumber(ARGV[3])
local failed = {}
local function check(index, key, mode, expected)
  local current = redis.call('GET', key)
  local holds
  if mode == '1' then holds = current == false else holds = current == expected end
  if not holds then
    failed[#failed + 1] = index
    if current then
      failed[#failed + 1] = '1'
      failed[#failed + 1] = current
    else
      failed[#failed + 1] = '0'
      failed[#failed + 1] = ''
    end
  end
end
for i = 1, n do
  local at = 7 + (i - 1) * 4
  if ARGV[at + 2] ~= '0' then check(i, KEYS[i], ARGV[at + 2], ARGV[at + 3]) end
end
local first = 7 + n * 4
for j = 1, c do check(n + j, KEYS[n + j], ARGV[first + (j - 1) * 2], ARGV[first + (j - 1) * 2 + 1]) end
if #failed > 0 then return failed end
first = first + c * 2
local metas = {}
for l = 1, logs do
  metas[l] = redis.call('GET', KEYS[n + c + l * 2])
  if logs > 1 then
    local kind = redis.call('TYPE', KEYS[n + c + l * 2 - 1]).ok
    if kind ~= 'list' and kind ~= 'none' then return redis.error_reply('WRONGTYPE the change log key holds a ' .. kind) end
  end
end
local at = first
local lengths = {}
for l = 1, logs do
  local list = KEYS[n + c + l * 2 - 1]
  if ARGV[at + 2] == '1' then redis.call('DEL', list) end
  local length = 0
  for e = at + 4, at + 3 + tonumber(ARGV[at + 3]) do length = redis.call('LPUSH', list, ARGV[e]) end
  lengths[l] = length
  at = at + 4 + tonumber(ARGV[at + 3])
end
for i = 1, n do
  local w = 7 + (i - 1) * 4
  if ARGV[w] == '1' then redis.call('SET', KEYS[i], ARGV[w + 1]) else redis.call('DEL', KEYS[i]) end
end
at = first
for l = 1, logs do
  local list = KEYS[n + c + l * 2 - 1]
  local meta_key = KEYS[n + c + l * 2]
  local keep = tonumber(ARGV[at])
  local max_bytes = tonumber(ARGV[at + 1])
  local dropped = ARGV[at + 2] == '1'
  local k = tonumber(ARGV[at + 3])
  local length = lengths[l]
  local meta = metas[l]
  local trimmed = dropped
  local bytes = nil
  if meta then
    local counted = string.byte(meta, 1) ~= 63
    if string.byte(meta, -1) == 116 then
      trimmed = true
      if counted then bytes = tonumber(string.sub(meta, 1, -2)) end
    elseif counted then
      bytes = tonumber(meta)
    end
  elseif length > k and not dropped then
    trimmed = true
  end
  if dropped then bytes = 0 end
  if max_bytes then
    if not bytes then
      bytes = 0
      for _, element in ipairs(redis.call('LRANGE', list, k, -1)) do bytes = bytes + entry_size(element) end
    end
    for e = at + 4, at + 3 + k do bytes = bytes + entry_size(ARGV[e]) end
    while length > 1 and (length > keep or bytes > max_bytes) do
      bytes = bytes - entry_size(redis.call('RPOP', list))
      length = length - 1
      trimmed = true
    end
    if trimmed then redis.call('SET', meta_key, bytes .. 't') else redis.call('SET', meta_key, bytes) end
  else
    if length > keep then
      redis.call('LTRIM', list, 0, keep - 1)
      trimmed = true
    end
    local state = trimmed and '?t' or '?'
    if meta ~= state then redis.call('SET', meta_key, state) end
  end
  at = at + 4 + k
end
if n > 0 then
  if ARGV[6] == '' then redis.call('PUBLISH', ARGV[4], ARGV[5])
  else redis.call('PUBLISH', ARGV[4], ARGV[5] .. string.format('%d', redis.call('INCR', KEYS[#KEYS])) .. ARGV[6]) end
end
return failed`;

/**
 * One page of a change log (`OptionStore.readLogPage`). KEYS: the list, its meta key. ARGV: the
 * offset, the limit, and the tag's element prefix (empty: every entry). Answers `{ total,
 * trimmed (1/0), elements }`: without a tag an `LRANGE` of the page and the list's length; with
 * one, the list is walked in slices of 256 on the server and only the matching elements of the
 * page come back, with their count. `trimmed`: the meta key ends with `t`, or the list was
 * written before 0.3 (it has no meta key).
 */
const READ_LOG_PAGE_TEXT = `local offset = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local prefix = ARGV[3]
local length = redis.call('LLEN', KEYS[1])
local meta = redis.call('GET', KEYS[2])
local trimmed = 0
if (meta and string.byte(meta, -1) == 116) or (not meta and length > 0) then trimmed = 1 end
if prefix == '' then
  return {length, trimmed, redis.call('LRANGE', KEYS[1], offset, offset + limit - 1)}
end
local total = 0
local page = {}
for start = 0, length - 1, 256 do
  for _, element in ipairs(redis.call('LRANGE', KEYS[1], start, start + 255)) do
    if string.sub(element, 1, #prefix) == prefix then
      if total >= offset and #page < limit then page[#page + 1] = element end
      total = total + 1
    end
  end
end
return {total, trimmed, page}`;

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
  sha1: '77f6ddc316521b62b8c84994f8e15226919514f8',
};

/** One page of a change log. */
export const READ_LOG_PAGE: LuaScript = {
  text: READ_LOG_PAGE_TEXT,
  sha1: 'f54cb2f0b7d482d1c13c39558d9872e21b18c12c',
};
