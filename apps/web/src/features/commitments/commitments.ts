const DAY_MS = 86_400_000;

/** The last `days` complete UTC days and today so far: bills arrive a day or two late, so today is mostly empty. */
export function lastDays(days: number, now: Date): { start: string; end: string } {
  const tomorrow = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  return { start: new Date(tomorrow - (days + 1) * DAY_MS).toISOString().slice(0, 10), end: new Date(tomorrow).toISOString().slice(0, 10) };
}
