import type { ChangeEvent } from "react";

/** A labelled choice among `options` (value → what it reads). */
export function OptionsField({
  label,
  options,
  className,
  ...select
}: {
  label: string;
  options: Record<string, string>;
  className?: string;
  value: string;
  onChange(e: ChangeEvent<HTMLSelectElement>): void;
}) {
  return (
    <label className={className}>
      {label}
      <select {...select}>
        {Object.entries(options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
