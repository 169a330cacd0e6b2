/**
 * The string formats arguments can be checked against. Each check is a pure function of the
 * text, with no regular expression that can backtrack badly.
 */

const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** An email address: 6 to 254 characters, one `@`, a plain local part and a dotted domain. */
export function isEmail(text: string): boolean {
  if (text.length < 6 || text.length > 254) return false;
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@')) return false;
  if (!EMAIL_LOCAL.test(text.slice(0, at))) return false;
  const labels = text.slice(at + 1).split('.');
  return labels.length >= 2 && labels.every((label) => label.length <= 63 && DOMAIN_LABEL.test(label));
}

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const URI_FORBIDDEN = /[\s\p{Cc}]/u;

/** An absolute URI: a scheme, no white space or control characters, and parseable as a WHATWG URL. */
export function isUri(text: string): boolean {
  if (!URI_SCHEME.test(text) || URI_FORBIDDEN.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):?(\d{2}))?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * An RFC 3339 / ISO 8601 date-time such as `2024-05-01T12:30:00+02:00` or `…Z`; the offset may
 * be omitted (read as site time, as the reference API does). Calendar dates are checked
 * (no February 30), leap seconds are accepted.
 */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [, year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = match;
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(Number(year), m)) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return false;
  if (offsetHours !== undefined && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return false;
  return true;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A UUID in its 8-4-4-4-12 hexadecimal form (any version, either case). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

const IPV4_PART = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A dotted-quad IPv4 address, each part 0–255 without leading zeros. */
export function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => IPV4_PART.test(part));
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/**
 * An IPv6 address in text form (RFC 4291 §2.2): eight groups of 1–4 hex digits, one `::`
 * standing for one or more zero groups, optionally ending in a dotted IPv4 address. Zone ids
 * (`%eth0`) are not accepted.
 */
export function isIpv6(text: string): boolean {
  if (text.length < 2 || text.length > 45) return false;
  const doubleColon = text.indexOf('::');
  if (doubleColon !== -1 && text.indexOf('::', doubleColon + 1) !== -1) return false;
  const countGroups = (part: string, mayEndInIpv4: boolean): number => {
    if (part === '') return 0;
    const groups = part.split(':');
    let count = 0;
    for (let index = 0; index < groups.length; index++) {
      const group = groups[index]!;
      if (mayEndInIpv4 && index === groups.length - 1 && group.includes('.')) {
        if (!isIpv4(group)) return -1;
        count += 2;
      } else if (HEX_GROUP.test(group)) count += 1;
      else return -1;
    }
    return count;
  };
  if (doubleColon === -1) return countGroups(text, true) === 8;
  const head = countGroups(text.slice(0, doubleColon), false);
  const tail = countGroups(text.slice(doubleColon + 2), true);
  return head >= 0 && tail >= 0 && head + tail <= 7;
}

/** An IPv4 or IPv6 address. */
export function isIp(text: string): boolean {
  return text.includes(':') ? isIpv6(text) : isIpv4(text);
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** A CSS hex colour, `#rgb` or `#rrggbb`. */
export function isHexColor(text: string): boolean {
  return HEX_COLOR.test(text);
}

/** The format checks by name. */
export const FORMAT_CHECKS: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ['email', isEmail],
  ['uri', isUri],
  ['date-time', isDateTime],
  ['uuid', isUuid],
  ['ip', isIp],
  ['hex-color', isHexColor],
]);
