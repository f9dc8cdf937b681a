const DAY_MS = 86_400_000;
/** The longest range the commitments operations take. */
export const MAX_RANGE_DAYS = 400;

/** The last `days` complete UTC days and today so far: bills arrive a day or two late, so today is mostly empty. */
export function lastDays(days: number, now: Date): { start: string; end: string } {
  const tomorrow = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  return { start: new Date(tomorrow - (days + 1) * DAY_MS).toISOString().slice(0, 10), end: new Date(tomorrow).toISOString().slice(0, 10) };
}

/** YYYY-MM-DD `n` days after `day`. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The API range (end exclusive) of the days `from` to `to`, both included, or why it cannot be
 * asked for: a missing date, an end before the start, or more than MAX_RANGE_DAYS days.
 */
export function rangeOfDays(from: string, to: string): { start: string; end: string } | { error: string } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to) || Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to)))
    return { error: "Choose both the first and the last day." };
  if (to < from) return { error: "The last day is before the first." };
  const end = addDays(to, 1);
  if ((Date.parse(end) - Date.parse(from)) / DAY_MS > MAX_RANGE_DAYS) return { error: `At most ${MAX_RANGE_DAYS} days at a time.` };
  return { start: from, end };
}
