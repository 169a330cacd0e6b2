const pad = (value: number, width = 2) => String(Math.trunc(Math.abs(value))).padStart(width, '0');

/**
 * A date as ISO 8601 with an explicit numeric offset, e.g. `2024-05-01T14:30:00+02:00`, in the
 * time zone `offsetMinutes` east of UTC (0 gives `+00:00`).
 */
export function toIsoWithOffset(date: Date, offsetMinutes = 0): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(offsetMinutes / 60)}:${pad(offsetMinutes % 60)}`
  );
}
