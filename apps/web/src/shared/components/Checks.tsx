import type { ReactNode } from "react";

/**
 * A group of checkboxes under its legend: one labelled box per option ([value, label]), ticked when
 * `picked` holds its value; `onChange` gets the values ticked after a click (a ticked one is added last).
 */
export function Checks<V extends string>({
  legend,
  legendClassName,
  options,
  picked,
  onChange,
}: {
  legend: ReactNode;
  legendClassName?: string;
  options: readonly (readonly [V, ReactNode])[];
  picked: readonly V[];
  onChange(next: V[]): void;
}) {
  return (
    <fieldset className="checks">
      <legend className={legendClassName}>{legend}</legend>
      {options.map(([value, label]) => (
        <label key={value}>
          <input
            type="checkbox"
            checked={picked.includes(value)}
            onChange={(e) => onChange(e.target.checked ? [...picked, value] : picked.filter((v) => v !== value))}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
