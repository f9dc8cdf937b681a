const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** Amounts arrive rounded to cents (numbers or decimal strings); shown as they are, never recomputed in floats. */
export function formatUsd(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  const n = typeof value === "string" ? Number(value) : value;
  return Number.isFinite(n) ? usd.format(n) : String(value);
}

export const formatNumber = (value: number | null | undefined) => (value === null || value === undefined ? "—" : number.format(value));

export const formatPercent = (value: number | null | undefined) => (value === null || value === undefined ? "—" : `${number.format(value)} %`);

export function formatDate(value: string | null | undefined): string {
  if (!value) return "—";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;
}

/** "3 days ago", for how old a price or a window is. */
export function age(value: string | null | undefined, now = Date.now()): string {
  if (!value) return "—";
  const ms = now - new Date(value).getTime();
  if (!Number.isFinite(ms)) return value;
  const days = Math.floor(ms / 86_400_000);
  if (days >= 1) return `${days} day${days === 1 ? "" : "s"} ago`;
  const hours = Math.floor(ms / 3_600_000);
  if (hours >= 1) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  return "less than an hour ago";
}

/** A decimal-string amount in its currency (display only; the exact string is in the title where it matters). */
export function money(value: string | null | undefined, currency: string): string {
  if (value === null || value === undefined || value === "") return "—";
  const n = Number(value);
  if (!Number.isFinite(n)) return `${value} ${currency}`;
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(n);
  } catch {
    return `${value} ${currency}`;
  }
}
