import { Decimal } from "@cloudcost/decimal";

// How values are stored in and read back from the price tables' columns.

/** '' for absent identity/key parts (how they are stored and indexed); null back out. */
export const keyIn = (value: string | null | undefined): string => value ?? "";
export const keyOut = (value: string): string | null => (value === "" ? null : value);

export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  return value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();
}

/** An amount as stored in numeric(30,12): rounded half-up to 12 decimal places (text, exact). */
export const storedAmount = (value: number): string => new Decimal(value).toDecimalPlaces(12, Decimal.ROUND_HALF_UP).toFixed();

/** numeric columns are selected as text and turned into exact JSON numbers here. */
export function num(value: string): number;
export function num(value: string | null): number | null;
export function num(value: string | null): number | null {
  return value === null ? null : Number(value);
}
