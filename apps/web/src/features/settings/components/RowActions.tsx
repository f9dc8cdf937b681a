import { useState } from "react";

/** Edit and Delete of a named row, for who manages it; Delete asks `confirm` of the browser first. */
export function EditDelete({ name, confirm, onEdit, onDelete }: { name: string; confirm: string; onEdit(): void; onDelete(): void }) {
  return (
    <>
      {" "}
      <button type="button" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </button>{" "}
      <button type="button" className="danger" aria-label={`Delete ${name}`} onClick={() => window.confirm(confirm) && onDelete()}>
        Delete
      </button>
    </>
  );
}

export interface DayRangeValue {
  start: string;
  end: string;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A range of UTC days, the last 30 up to tomorrow (exclusive) at first. */
export const useDayRange = () => useState<DayRangeValue>(() => ({ start: daysAgo(30), end: daysAgo(-1) }));

/** The From and To (exclusive) days of a range, under `legend`; `endLabel` says how far To may be. */
export function DayRange({
  legend,
  endLabel,
  range,
  setRange,
}: {
  legend: string;
  endLabel: string;
  range: DayRangeValue;
  setRange(range: DayRangeValue): void;
}) {
  return (
    <fieldset className="inline">
      <legend>{legend}</legend>
      <label>
        From
        <input type="date" required value={range.start} onChange={(e) => setRange({ ...range, start: e.target.value })} />
      </label>
      <label>
        {endLabel}
        <input type="date" required value={range.end} onChange={(e) => setRange({ ...range, end: e.target.value })} />
      </label>
    </fieldset>
  );
}
