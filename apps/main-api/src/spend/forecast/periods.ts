export type CalendarPeriod = "monthly" | "quarterly" | "annual";

const MONTHS: Record<CalendarPeriod, number> = { monthly: 1, quarterly: 3, annual: 12 };

/** The UTC period holding `at`: [start, end), calendar months, quarters (Jan, Apr, Jul, Oct) or years. */
export function periodBounds(period: CalendarPeriod, at: Date): { start: Date; end: Date } {
  const months = MONTHS[period];
  const year = at.getUTCFullYear();
  const first = Math.floor(at.getUTCMonth() / months) * months;
  return { start: new Date(Date.UTC(year, first, 1)), end: new Date(Date.UTC(year, first + months, 1)) };
}
