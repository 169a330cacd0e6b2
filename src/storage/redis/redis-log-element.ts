/**
 * How a {@link RedisOptionStore} keeps a change-log entry and its tag in one list element (0.3).
 * An element is read by its first character:
 * - `{`: the whole element is the entry, untagged. Entries written by 0.2 (history entries are
 *   JSON objects) are read back unchanged this way, and an untagged entry starting with `{` is
 *   written as is.
 * - `"`: a tagged entry: the tag as a JSON string (which never holds a raw line feed), a line
 *   feed, then the entry. A Lua script finds the entries of a tag by this prefix alone.
 * - a line feed: an untagged entry that does not start with `{`, after that line feed.
 * - anything else: an element written before 0.3, the entry itself.
 */

/** The element prefix of the entries tagged `tag`. */
export function tagPrefix(tag: string): string {
  return `${JSON.stringify(tag)}\n`;
}

/** The list element holding `entry` with its `tag` (`undefined`: untagged). */
export function encodeLogElement(entry: string, tag: string | undefined): string {
  if (tag !== undefined) return tagPrefix(tag) + entry;
  return entry.startsWith('{') ? entry : `\n${entry}`;
}

/** The entry a list element holds, without its tag. */
export function decodeLogEntry(element: string): string {
  switch (element.charCodeAt(0)) {
    case 0x22: {
      const newline = element.indexOf('\n');
      return newline === -1 ? element : element.slice(newline + 1);
    }
    case 0x0a:
      return element.slice(1);
    default:
      return element;
  }
}

/**
 * Lua: the UTF-8 bytes of the entry a list element holds (its tag and marker left out), the
 * same rules as {@link decodeLogEntry}; defines `entry_size(element)` for the scripts.
 */
export const ENTRY_SIZE_LUA = `local function entry_size(element)
  local first = string.byte(element, 1)
  if first == 34 then
    local newline = string.find(element, '\\n', 1, true)
    if newline then return #element - newline end
  elseif first == 10 then
    return #element - 1
  end
  return #element
end`;
